import { useState } from 'react';
import { Link, Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import {
  COLLECTION_LETTER_KINDS,
  COLLECTION_LETTER_LABELS,
  COLLECTION_STAGE_LABELS,
  formatCalendarDate,
  formatPence,
  pcnTitle,
  SCREEN_TEXTS,
  ukDate,
  type CollectionLetterKind,
  type CollectionLetterPosting,
  type CollectionLetterQueueItem,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { saveBlobAsFile } from '../../../lib/save-file.ts';
import { DateField } from '../../../lib/date-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import {
  COLLECTION_LETTERS_FAILED,
  COLLECTION_POSTED_FAILED,
  COLLECTION_QUEUE_FAILED,
  generateCollectionLetters,
  getCollectionLetterQueue,
  markCollectionLettersPosted,
} from '../api/collection-letters.ts';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';
import { useRowSelection } from '../components/use-row-selection.ts';
import { reviewHref } from '../manage-pcns/review-href.ts';
import '../admin.css';

type Row = CollectionLetterQueueItem & { id: string };

const TAB_LABELS: Record<CollectionLetterKind, string> = { REMINDER: 'Reminders', LETTER_BEFORE_CLAIM: 'Letters before claim' };
const FILE_NAMES: Record<CollectionLetterKind, string> = { REMINDER: 'reminders', LETTER_BEFORE_CLAIM: 'letters-before-claim' };
const INTROS: Record<CollectionLetterKind, string> = {
  REMINDER:
    'Issued charges still unpaid once the days the operator settings allow after the notice to keeper have passed. Paid and cancelled charges, and those held by an appeal, are left out.',
  LETTER_BEFORE_CLAIM:
    'Charges still unpaid the days after their reminder was presumed given. The letter follows the Pre-Action Protocol for Debt Claims, with its Information Sheet and Reply Form as its last pages, and gives 30 days to reply.',
};

/**
 * The chase after the notice to keeper (decision 0039): a tab per letter, each listing the charges
 * whose letter is due, then the letters made (each kept with its charge) and their posting
 * recorded. Each step says, charge by charge, what it did or why it could not.
 */
export function CollectionLettersScreen() {
  const [kind, setKind] = useState<CollectionLetterKind>('REMINDER');
  return (
    <div className="page">
      <PageHeading>{SCREEN_TEXTS.collectionLetters}</PageHeading>
      <Tabs className="tabs" selectedKey={kind} onSelectionChange={(key: Key) => setKind(key as CollectionLetterKind)}>
        <TabList className="tabs__list" aria-label={SCREEN_TEXTS.collectionLetters}>
          {COLLECTION_LETTER_KINDS.map((letter) => (
            <Tab key={letter} id={letter} className="tabs__tab">
              {TAB_LABELS[letter]}
            </Tab>
          ))}
        </TabList>
        {COLLECTION_LETTER_KINDS.map((letter) => (
          <TabPanel key={letter} id={letter} className="tabs__panel">
            <LettersQueue kind={letter} />
          </TabPanel>
        ))}
      </Tabs>
    </div>
  );
}

function LettersQueue({ kind }: { kind: CollectionLetterKind }) {
  const queue = useAsync(() => getCollectionLetterQueue(kind), [kind], COLLECTION_QUEUE_FAILED);
  const rows: Row[] | undefined = queue.data?.items.map((item) => ({ ...item, id: item.pcnId }));
  const selection = useRowSelection<Row>(rows ?? [], (row) => row);
  const [refusals, setRefusals] = useState<Array<{ id: string; title: string; reason: string }> | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isGenerating, setGenerating] = useState(false);
  const [isPosting, setPosting] = useState(false);
  const [postOn, setPostOn] = useState(() => ukDate(new Date()));
  const [postOnError, setPostOnError] = useState<string | undefined>(undefined);
  const chosen = [...selection.selected.values()];
  const letterName = COLLECTION_LETTER_LABELS[kind].toLowerCase();
  const titleOf = (id: string) => {
    const row = selection.selected.get(id) ?? rows?.find((item) => item.id === id);
    return row ? pcnTitle(row.pcnNumber) : id;
  };

  const generate = async () => {
    setRefusals(null);
    setNotice(null);
    setProblem(null);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(postOn)) {
      setPostOnError('Give the day the letters will be posted');
      return;
    }
    setPostOnError(undefined);
    setGenerating(true);
    try {
      const pdf = await generateCollectionLetters(
        kind,
        chosen.map((row) => row.id),
        postOn,
      );
      saveBlobAsFile(pdf, `${FILE_NAMES[kind]}-${postOn}.pdf`);
      setNotice(
        `${chosen.length} ${chosen.length === 1 ? letterName : `${letterName}s`} dated ${formatCalendarDate(postOn)}, ready to print and post. Each is kept with its charge. Mark them posted once they are in the post.`,
      );
    } catch (e) {
      const failure = toApiError(e, COLLECTION_LETTERS_FAILED);
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

  const columns: ReadonlyArray<AdminColumn<Row>> = [
    {
      id: 'pcn',
      label: 'PCN',
      isRowHeader: true,
      render: (row) => (
        <Link href={reviewHref(row.pcnId)} className="text-link">
          {pcnTitle(row.pcnNumber)}
        </Link>
      ),
    },
    { id: 'registration', label: 'Registration', render: (row) => row.vehicleRegistration },
    { id: 'carPark', label: 'Car park', render: (row) => row.carParkName ?? SCREEN_TEXTS.unknownCarPark },
    { id: 'stage', label: 'Stage', render: (row) => COLLECTION_STAGE_LABELS[row.collectionStage] },
    { id: 'due', label: 'Due from', render: (row) => formatCalendarDate(row.dueFrom) },
    { id: 'owed', label: 'Owed', isFigure: true, render: (row) => formatPence(row.amountDuePence) },
  ];

  return (
    <Card title={TAB_LABELS[kind]} titleId={`collection-${kind}-title`}>
      <div className="form-stack">
        <p className="muted card__intro">{INTROS[kind]}</p>
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {problem ? (
          <Alert>
            <p>{problem}</p>
            {refusals ? (
              <ul aria-label="Charges that cannot have a letter">
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
          }}
          errorMessage={postOnError}
          description="Printed on each letter as the day it was sent. Post the letters that day, then mark them posted with it."
          isRequired
        />
        <div className="button-row">
          <Button isDisabled={chosen.length === 0 || isGenerating} onPress={() => void generate()}>
            {isGenerating ? 'Generating...' : `Make ${letterName}s${chosen.length > 0 ? ` (${chosen.length})` : ''}`}
          </Button>
          <Button variant="secondary" isDisabled={chosen.length === 0 || isPosting} onPress={() => setPosting(true)}>
            Mark posted
          </Button>
        </div>
        <AdminTable
          label={`Charges due a ${letterName}`}
          columns={columns}
          rows={rows}
          isLoading={queue.isLoading}
          error={queue.error}
          emptyText={`No unpaid charge is due a ${letterName} today.`}
          rowLabel={(row) => pcnTitle(row.pcnNumber)}
          selection={{
            keys: selection.pageKeys,
            onChange: selection.onSelectionChange,
            selectAllLabel: 'Select every charge shown',
            rowLabel: (row) => `Select ${pcnTitle(row.pcnNumber)}`,
          }}
        />
      </div>
      {isPosting ? (
        <MarkPostedDialog
          kind={kind}
          pcnIds={chosen.map((row) => row.id)}
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
              `${posted} ${posted === 1 ? 'charge' : 'charges'} marked posted${
                results.length > posted ? `; ${results.length - posted} had been marked before` : ''
              }. Presumed given on ${results[0] ? formatCalendarDate(results[0].givenOn) : '—'}.`,
            );
            queue.reload();
          }}
        />
      ) : null}
    </Card>
  );
}

function MarkPostedDialog({
  kind,
  pcnIds,
  postedOnAtFirst,
  titleOf,
  onClose,
  onPosted,
}: {
  kind: CollectionLetterKind;
  pcnIds: string[];
  postedOnAtFirst: string;
  titleOf: (id: string) => string;
  onClose: () => void;
  onPosted: (results: CollectionLetterPosting[]) => void;
}) {
  const [postedOn, setPostedOn] = useState(postedOnAtFirst);
  const [proofReference, setProofReference] = useState('');
  const [refusals, setRefusals] = useState<Array<{ id: string; reason: string }>>([]);
  const [isDateMismatch, setDateMismatch] = useState(false);
  const form = useFormSubmit({
    fallbackMessage: COLLECTION_POSTED_FAILED,
    onError: (error) => {
      const isMismatch = error.code === 'LETTER_DATE_MISMATCH';
      setDateMismatch(isMismatch);
      if (error.status === 422 || isMismatch) setRefusals(Object.entries(error.fields).map(([id, reason]) => ({ id, reason })));
    },
    // A refusal names charges, not fields: it is listed below, not beside an input.
    mapErrors: (errors) =>
      Object.fromEntries(Object.entries(errors).filter(([field]) => field === 'postedOn' || field === 'proofReference')),
  });
  const handleSubmit = form.handle(
    () => {
      setRefusals([]);
      setDateMismatch(false);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(postedOn))
        return { success: false, fieldErrors: { postedOn: 'Give the day the letters were posted' } };
      return { success: true, data: { postedOn, proofReference: proofReference.trim() } };
    },
    async (input) => onPosted((await markCollectionLettersPosted(kind, pcnIds, input.postedOn, input.proofReference)).results),
  );
  return (
    <ModalDialog title="Mark posted" isOpen onClose={onClose} isBusy={form.isBusy}>
      <form className="form-stack" onSubmit={handleSubmit} noValidate>
        <p>
          {pcnIds.length} {pcnIds.length === 1 ? 'charge moves' : 'charges move'} to the {COLLECTION_LETTER_LABELS[kind].toLowerCase()}{' '}
          stage, each letter presumed given on the second working day after posting.
        </p>
        {form.formError ? (
          <Alert>
            <p>{form.formError}</p>
            {isDateMismatch ? (
              <p>
                Nothing was marked posted. A letter must be dated the day it goes: make these letters again for that day and post those.
              </p>
            ) : null}
            {refusals.length > 0 ? (
              <ul aria-label={isDateMismatch ? 'Letters to make again' : 'Charges that cannot be marked posted'}>
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
