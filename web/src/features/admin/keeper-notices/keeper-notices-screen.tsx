import { useState } from 'react';
import { Link } from 'react-aria-components';
import {
  describeNotYetPostable,
  describePostingWindow,
  ERROR_MESSAGES,
  formatCalendarDate,
  KEEPER_REPLY_COLUMNS,
  KEEPER_REPLY_DATE_FORMAT,
  KEEPER_REPLY_OUTCOME_LABELS,
  KEEPER_REPLY_TEMPLATE_FILE_NAME,
  keeperReplyTemplateCsv,
  keeperReplyTemplateLines,
  KEEPER_STATE_LABELS,
  keeperLettersFileName,
  pcnTitle,
  SCREEN_TEXTS,
  ukDate,
  type KeeperNoticePosting,
  type KeeperReplyImport,
  type KeeperReplyResult,
  type KeeperState,
  type LetterBatch,
  type PcnListItem,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { DownloadButton } from '../../../lib/download-button.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { saveBlobAsFile } from '../../../lib/save-file.ts';
import { DateField } from '../../../lib/date-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import {
  downloadKeeperLetterBatch,
  getKeeperLetterBatch,
  importKeeperReplies,
  startKeeperLetterBatch,
  KEEPER_LETTERS_FAILED,
  KEEPER_POSTED_FAILED,
  KEEPER_REPLIES_FAILED,
  markKeeperNoticesPosted,
} from '../api/keepers.ts';
import { getAdminPcns } from '../api/pcns.ts';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';
import { KeeperDeadlineLeft } from '../components/keeper-deadline.tsx';
import { useRowSelection } from '../components/use-row-selection.ts';
import { reviewHref } from '../manage-pcns/review-href.ts';
import { CsvFileField } from '../../../lib/csv-file-field.tsx';
import { useFollowedJob } from '../components/use-followed-job.ts';
import { BatchProgress, RecentLetterBatches } from './letter-batches.tsx';
import { VehiclesToConfirm } from './vehicles-to-confirm.tsx';
import '../admin.css';
import './keeper-notices.css';

/** A calendar day as the date field gives it: anything else is a day still being typed. */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Approved notices waiting for their notice to keeper: a page holds the few days' work an admin posts at once. */
const QUEUE_SIZE = 100;

/**
 * The keeper stage (decisions 0016 to 0018): keeper replies in, then letters for the approved
 * notices inside their posting window, then the posting recorded. Each step says, notice by
 * notice, what it did or why it could not.
 */
export function KeeperNoticesScreen() {
  const queue = useAsync(
    () => getAdminPcns({ page: 1, limit: QUEUE_SIZE, status: 'APPROVED', sort: 'deadline', order: 'asc' }),
    [],
    ERROR_MESSAGES.fetchPcns,
  );
  const [batchesRead, setBatchesRead] = useState(0);
  return (
    <div className="page">
      <PageHeading>{SCREEN_TEXTS.keeperNotices}</PageHeading>
      <KeeperReplies onImported={queue.reload} />
      <VehiclesToConfirm rows={queue.data?.pcns} onDecided={queue.reload} />
      <LettersQueue
        rows={queue.data?.pcns}
        isLoading={queue.isLoading}
        error={queue.error}
        onPosted={queue.reload}
        onBatchFinished={() => setBatchesRead((count) => count + 1)}
      />
      <RecentLetterBatches reloadKey={batchesRead} />
    </div>
  );
}

function KeeperReplies({ onImported }: { onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<KeeperReplyImport | null>(null);
  const form = useFormSubmit({ fallbackMessage: KEEPER_REPLIES_FAILED });
  const handleSubmit = form.handle(
    () => (file ? { success: true, data: file } : { success: false, fieldErrors: { csv: 'Choose a CSV file of keeper replies' } }),
    async (chosen) => {
      setResult(await importKeeperReplies(chosen.name, await chosen.text()));
      onImported();
    },
  );
  const columns: ReadonlyArray<AdminColumn<KeeperReplyResult & { id: string }>> = [
    { id: 'row', label: 'Row', isFigure: true, render: (row) => row.row },
    { id: 'reference', label: 'Reference', isRowHeader: true, render: (row) => row.reference || '—' },
    { id: 'registration', label: 'Registration', render: (row) => row.registration || '—' },
    {
      id: 'outcome',
      label: 'Outcome',
      render: (row) => (
        <span className={`chip ${row.outcome === 'APPLIED' || row.outcome === 'UNCHANGED' ? 'chip--success' : 'chip--warning'}`}>
          {KEEPER_REPLY_OUTCOME_LABELS[row.outcome]}
        </span>
      ),
    },
    { id: 'message', label: 'What happened', isWide: true, render: (row) => row.message },
  ];
  return (
    <Card title="Import keeper replies" titleId="keeper-replies-title">
      <form className="form-stack" onSubmit={handleSubmit} noValidate>
        <p className="muted card__intro">
          A CSV file with a header line naming its columns: {KEEPER_REPLY_COLUMNS.join(', ')}. Each row is matched to its notice by the
          reference and the registration (and the event date when given). Rows that do not match, or give no keeper, are listed and change
          nothing.
        </p>
        <p className="muted">{KEEPER_REPLY_DATE_FORMAT}</p>
        <KeeperReplyExample />
        {form.formError ? <Alert>{form.formError}</Alert> : null}
        <CsvFileField id="keeper-replies-file" label="Keeper replies (CSV)" error={form.errors.csv} onFile={setFile} />
        <div className="form-actions">
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Importing...' : 'Import replies'}
          </Button>
        </div>
      </form>
      {result ? (
        <div className="form-stack">
          <p role="status">
            {result.counts.APPLIED} recorded, {result.counts.UNCHANGED} already recorded,{' '}
            {result.results.length - result.counts.APPLIED - result.counts.UNCHANGED} to look at.
          </p>
          <AdminTable
            label="Keeper reply results"
            columns={columns}
            rows={result.results.map((row) => ({ ...row, id: String(row.row) }))}
            isLoading={false}
            error={null}
            emptyText="The file had no rows."
            rowLabel={(row) => `Row ${row.row}`}
          />
        </div>
      ) : null}
    </Card>
  );
}

/** The file the import reads, shown and offered: its header line and one example row, from the import's own columns. */
function KeeperReplyExample() {
  const [header, example] = keeperReplyTemplateLines();
  return (
    <>
      <figure className="csv-example">
        <figcaption>An example file: the header line, then one row per reply</figcaption>
        {/* Scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it too. */}
        <div className="csv-example__scroll" role="region" aria-label="Example keeper replies file" tabIndex={0}>
          <pre>
            <code>{`${header}\n${example}`}</code>
          </pre>
        </div>
      </figure>
      <div className="button-row">
        <DownloadButton
          load={() => Promise.resolve(new Blob([keeperReplyTemplateCsv()], { type: 'text/csv' }))}
          fileName={KEEPER_REPLY_TEMPLATE_FILE_NAME}
          label="Download the template (CSV)"
          busyLabel="Downloading..."
          doneText="The template is saved"
          failedMessage="Failed to save the template"
        />
      </div>
    </>
  );
}

/** A refused vehicle stands out: no letter goes for it until the registration or the keeper is corrected. */
const KEEPER_STATE_CHIPS: Record<KeeperState, string> = {
  NONE: 'chip--warning',
  UNCONFIRMED: 'chip--warning',
  MISMATCH: 'chip--error',
  CONFIRMED: 'chip--success',
};

function LettersQueue({
  rows,
  isLoading,
  error,
  onPosted,
  onBatchFinished,
}: {
  rows: PcnListItem[] | undefined;
  isLoading: boolean;
  error: { message: string } | null;
  onPosted: () => void;
  /** A batch was asked for or finished: the list of recent batches reads again. */
  onBatchFinished: () => void;
}) {
  // The day the letters go in the post: printed on each as its date sent, and each window checked against it.
  const [postOn, setPostOn] = useState(() => ukDate(new Date()));
  const [postOnError, setPostOnError] = useState<string | undefined>(undefined);
  // A row whose letter, posted that day, the server would refuse as too early: marked, and never selected.
  const notYetOn = (day: string) =>
    new Map(
      (ISO_DAY.test(day) ? (rows ?? []) : []).flatMap((row) => {
        const text = describeNotYetPostable(row.keeperNotice, day);
        return text ? [[row.id, text] as const] : [];
      }),
    );
  const notYet = notYetOn(postOn);
  const selectable = (rows ?? []).filter((row) => !notYet.has(row.id));
  const selection = useRowSelection<PcnListItem>(selectable, (row) => row);
  const [leftOutOfAll, setLeftOutOfAll] = useState(0);
  const [refusals, setRefusals] = useState<Array<{ id: string; title: string; reason: string }> | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isGenerating, setGenerating] = useState(false);
  const [isPosting, setPosting] = useState(false);
  // The batch asked for last: followed until made, then downloaded once.
  const [started, setStarted] = useState<LetterBatch | null>(null);
  const followed = useFollowedJob(started, getKeeperLetterBatch, (batch) => {
    setStarted(null);
    onBatchFinished();
    if (batch.state === 'FAILED') {
      setProblem(batch.error ?? KEEPER_LETTERS_FAILED);
      return;
    }
    void downloadKeeperLetterBatch(batch.id).then(
      (pdf) => {
        saveBlobAsFile(pdf, keeperLettersFileName(batch.postOn));
        const day = batch.postOn === ukDate(new Date()) ? 'today' : `on ${formatCalendarDate(batch.postOn)}`;
        setNotice(
          `${batch.total} ${batch.total === 1 ? 'letter' : 'letters'} dated ${formatCalendarDate(batch.postOn)}, ready to print and post ${day}. Each is kept with its notice. Mark them posted once they are in the post.`,
        );
      },
      (e: unknown) => setProblem(toApiError(e, KEEPER_LETTERS_FAILED).message),
    );
  });
  const isMaking = started !== null;
  const chosen = [...selection.selected.values()];
  const titleOf = (id: string) => {
    const pcn = selection.selected.get(id) ?? rows?.find((row) => row.id === id);
    return pcn ? pcnTitle(pcn.pcnNumber) : id;
  };

  const generate = async () => {
    setRefusals(null);
    setNotice(null);
    setProblem(null);
    if (!ISO_DAY.test(postOn)) {
      setPostOnError('Give the day the letters will be posted');
      return;
    }
    setPostOnError(undefined);
    setGenerating(true);
    try {
      setStarted(
        await startKeeperLetterBatch(
          chosen.map((pcn) => pcn.id),
          postOn,
        ),
      );
      onBatchFinished();
    } catch (e) {
      const failure = toApiError(e, KEEPER_LETTERS_FAILED);
      if (failure.fields.postOn) {
        setPostOnError(failure.fields.postOn);
        return;
      }
      setProblem(failure.message);
      if (failure.status === 422) setRefusals(Object.entries(failure.fields).map(([id, reason]) => ({ id, title: titleOf(id), reason })));
    } finally {
      setGenerating(false);
    }
  };

  const columns: ReadonlyArray<AdminColumn<PcnListItem>> = [
    {
      id: 'pcn',
      label: 'PCN',
      isRowHeader: true,
      render: (pcn) => (
        <Link href={reviewHref(pcn.id)} className="text-link">
          {pcnTitle(pcn.pcnNumber)}
        </Link>
      ),
    },
    { id: 'registration', label: 'Registration', render: (pcn) => pcn.vehicleRegistration },
    { id: 'carPark', label: 'Car park', render: (pcn) => pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark },
    {
      id: 'window',
      label: 'Notice to keeper',
      render: (pcn) => (
        <span className="chip-stack">
          {describePostingWindow(pcn.keeperNotice)}
          {notYet.has(pcn.id) ? <span className="chip chip--neutral row-not-yet">{notYet.get(pcn.id)}</span> : null}
          {pcn.keeperNotice.route === 'NOT_AVAILABLE' ? (
            // Schedule 4 does not reach the land: its letter is the request to name the driver (decision 0027).
            <Link href={`${reviewHref(pcn.id)}#review-letters-title`} className="text-link">
              Request to name the driver
            </Link>
          ) : null}
          {pcn.keeperNoticeDueAt ? (
            <KeeperDeadlineLeft dueAt={pcn.keeperNoticeDueAt} isWarning={pcn.deadlineWarning ?? false} now={new Date()} />
          ) : null}
        </span>
      ),
    },
    {
      id: 'keeper',
      label: 'Keeper',
      render: (pcn) => (
        <span className={`chip ${KEEPER_STATE_CHIPS[pcn.keeperState ?? 'NONE']}`}>{KEEPER_STATE_LABELS[pcn.keeperState ?? 'NONE']}</span>
      ),
    },
  ];

  return (
    <Card title="Approved notices" titleId="keeper-queue-title">
      <div className="form-stack">
        <p className="muted card__intro">
          Nearest last posting day first. Letters can be made only inside each notice's posting window, for a keeper whose vehicle has been
          confirmed against the photos.
        </p>
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {isMaking && followed ? <BatchProgress batch={followed} /> : null}
        {problem ? (
          <Alert>
            <p>{problem}</p>
            {refusals ? (
              <ul aria-label="Notices that cannot have a letter">
                {refusals.map((refusal) => (
                  <li key={refusal.id}>
                    <strong>{refusal.title}</strong>: {refusal.reason}
                  </li>
                ))}
              </ul>
            ) : null}
          </Alert>
        ) : null}
        <DateField
          label="Posting day"
          name="postOn"
          value={postOn}
          onChange={(value) => {
            setPostOn(value);
            setPostOnError(undefined);
            setLeftOutOfAll(0);
            // Chosen for another day, a notice that is too early for this one is no longer chosen.
            const tooEarly = notYetOn(value);
            if (chosen.some((pcn) => tooEarly.has(pcn.id))) selection.selectAll(chosen.filter((pcn) => !tooEarly.has(pcn.id)));
          }}
          errorMessage={postOnError}
          description="Printed on each letter as the day it was sent. Post the letters that day, then mark them posted with it."
          isRequired
        />
        <div className="button-row">
          <Button isDisabled={chosen.length === 0 || isGenerating || isMaking} onPress={() => void generate()}>
            {isGenerating || isMaking ? 'Generating...' : `Generate notices to keeper${chosen.length > 0 ? ` (${chosen.length})` : ''}`}
          </Button>
          <Button variant="secondary" isDisabled={chosen.length === 0 || isPosting} onPress={() => setPosting(true)}>
            Mark posted
          </Button>
        </div>
        {notYet.size > 0 ? (
          <p role="status" className="muted">
            {leftOutOfAll > 0
              ? `Every notice that can be posted on ${formatCalendarDate(postOn)} is selected; ${leftOutOfAll} not yet in ${leftOutOfAll === 1 ? 'its window is' : 'their windows are'} left out.`
              : `${notYet.size} ${notYet.size === 1 ? 'notice is' : 'notices are'} marked 'Not yet': too early to post on ${formatCalendarDate(postOn)}, so ${notYet.size === 1 ? 'it cannot be selected' : 'they cannot be selected'} until the posting day is in ${notYet.size === 1 ? 'its window' : 'their windows'}.`}
          </p>
        ) : null}
        <AdminTable
          label="Approved notices waiting for a notice to keeper"
          columns={columns}
          rows={rows}
          isLoading={isLoading}
          error={error}
          emptyText="No approved notices are waiting for a notice to keeper."
          rowLabel={(pcn) => pcnTitle(pcn.pcnNumber)}
          dependencies={[postOn]}
          selection={{
            keys: selection.pageKeys,
            onChange: (keys) => {
              selection.onSelectionChange(keys);
              setLeftOutOfAll(keys === 'all' ? notYet.size : 0);
            },
            selectAllLabel: 'Select every notice that can be posted on the day chosen',
            rowLabel: (pcn) => `Select ${pcnTitle(pcn.pcnNumber)}`,
            disabledKeys: new Set(notYet.keys()),
          }}
        />
      </div>
      {isPosting ? (
        <MarkPostedDialog
          pcnIds={chosen.map((pcn) => pcn.id)}
          // The day the letters were made for, unless that is still to come.
          postedOnAtFirst={postOn <= ukDate(new Date()) ? postOn : ukDate(new Date())}
          titleOf={titleOf}
          onClose={() => setPosting(false)}
          onPosted={(results) => {
            setPosting(false);
            selection.clear();
            setRefusals(null);
            setProblem(null);
            const posted = results.filter((result) => result.outcome === 'POSTED').length;
            setNotice(
              `${posted} ${posted === 1 ? 'notice' : 'notices'} marked posted and issued${
                results.length > posted ? `; ${results.length - posted} had been marked before` : ''
              }. Presumed given on ${results[0] ? results[0].deemedGivenOn : '—'}.`,
            );
            onPosted();
          }}
        />
      ) : null}
    </Card>
  );
}

function MarkPostedDialog({
  pcnIds,
  postedOnAtFirst,
  titleOf,
  onClose,
  onPosted,
}: {
  pcnIds: string[];
  postedOnAtFirst: string;
  titleOf: (id: string) => string;
  onClose: () => void;
  onPosted: (results: KeeperNoticePosting[]) => void;
}) {
  const [postedOn, setPostedOn] = useState(postedOnAtFirst);
  const [proofReference, setProofReference] = useState('');
  const [refusals, setRefusals] = useState<Array<{ id: string; reason: string }>>([]);
  // A letter dated another day, or made before a payment it does not state (409 LETTER_DATE_MISMATCH):
  // nothing was marked; the letters must be made again.
  const [isDateMismatch, setDateMismatch] = useState(false);
  const form = useFormSubmit({
    fallbackMessage: KEEPER_POSTED_FAILED,
    onError: (error) => {
      const isMismatch = error.code === 'LETTER_DATE_MISMATCH';
      setDateMismatch(isMismatch);
      if (error.status === 422 || isMismatch) setRefusals(Object.entries(error.fields).map(([id, reason]) => ({ id, reason })));
    },
    // A refusal names notices, not fields: it is listed below, not beside an input.
    mapErrors: (errors) =>
      Object.fromEntries(Object.entries(errors).filter(([field]) => field === 'postedOn' || field === 'proofReference')),
  });
  const handleSubmit = form.handle(
    () => {
      setRefusals([]);
      setDateMismatch(false);
      if (!ISO_DAY.test(postedOn)) return { success: false, fieldErrors: { postedOn: 'Give the day the letters were posted' } };
      return { success: true, data: { postedOn, proofReference: proofReference.trim() } };
    },
    async (input) => onPosted((await markKeeperNoticesPosted(pcnIds, input.postedOn, input.proofReference)).results),
  );
  return (
    <ModalDialog title="Mark posted" isOpen onClose={onClose} isBusy={form.isBusy}>
      <form className="form-stack" onSubmit={handleSubmit} noValidate>
        <p>
          {pcnIds.length} {pcnIds.length === 1 ? 'notice moves' : 'notices move'} to Issued, each presumed given on the second working day
          after posting.
        </p>
        {form.formError ? (
          <Alert>
            <p>{form.formError}</p>
            {isDateMismatch ? (
              <p>
                Nothing was marked posted. A letter must be dated the day it goes and state what remains unpaid: choose that day as the
                posting day, generate these letters again, post those, and mark them posted on that day.
              </p>
            ) : null}
            {refusals.length > 0 ? (
              <ul aria-label={isDateMismatch ? 'Letters to make again' : 'Notices that cannot be marked posted'}>
                {refusals.map((refusal) => (
                  <li key={refusal.id}>
                    <strong>{titleOf(refusal.id)}</strong>: {refusal.reason}
                  </li>
                ))}
              </ul>
            ) : null}
          </Alert>
        ) : null}
        <DateField
          label="Posted on"
          name="postedOn"
          value={postedOn}
          onChange={setPostedOn}
          errorMessage={form.errors.postedOn}
          isRequired
        />
        <TextField
          label="Proof of posting reference"
          name="proofReference"
          value={proofReference}
          onChange={setProofReference}
          errorMessage={form.errors.proofReference}
          description="Optional: the certificate of posting's number"
        />
        <div className="modal__actions">
          <Button variant="secondary" onPress={onClose} isDisabled={form.isBusy}>
            Cancel
          </Button>
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Saving...' : 'Mark posted'}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
