import { useEffect, useState } from 'react';
import { Link } from 'react-aria-components';
import {
  DEBT_RECOVERY_OUTCOME_LABELS,
  DEBT_RECOVERY_UPDATE_COLUMNS,
  DEBT_RECOVERY_UPDATE_RESULT_LABELS,
  formatCalendarDate,
  formatPence,
  pcnTitle,
  SCREEN_TEXTS,
  type DebtRecoveryBatch,
  type DebtRecoveryEligibleCharge,
  type DebtRecoveryHandover,
  type DebtRecoveryUpdateImport,
  type DebtRecoveryUpdateResult,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { ConfirmDialog } from '../../../lib/confirm-dialog.tsx';
import { DownloadButton } from '../../../lib/download-button.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import {
  DEBT_RECOVERY_BATCHES_FAILED,
  DEBT_RECOVERY_DOWNLOAD_FAILED,
  DEBT_RECOVERY_ELIGIBLE_FAILED,
  DEBT_RECOVERY_EXPORT_FAILED,
  DEBT_RECOVERY_HANDOVERS_FAILED,
  DEBT_RECOVERY_UPDATES_FAILED,
  downloadDebtRecoveryBatch,
  getDebtRecoveryBatches,
  getEligibleCharges,
  getHandover,
  getUnfinishedHandovers,
  handOverToAgency,
  importAgencyOutcomes,
} from '../api/debt-recovery.ts';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';
import { isJobFinished, useFollowedJob } from '../components/use-followed-job.ts';
import { useRowSelection } from '../components/use-row-selection.ts';
import { reviewHref } from '../manage-pcns/review-href.ts';
import { CsvFileField } from '../../../lib/csv-file-field.tsx';
import '../admin.css';

type EligibleRow = DebtRecoveryEligibleCharge & { id: string };

/**
 * The hand-over to a debt recovery agency (decision 0040): the charges past their letter before
 * claim, handed over as one batch (a ZIP the admin sends the agency), the batches made, and the
 * agency's outcomes back, checked first and then applied row by row.
 */
export function DebtRecoveryScreen() {
  const eligible = useAsync(getEligibleCharges, [], DEBT_RECOVERY_ELIGIBLE_FAILED);
  const batches = useAsync(getDebtRecoveryBatches, [], DEBT_RECOVERY_BATCHES_FAILED);
  return (
    <div className="page">
      <PageHeading>{SCREEN_TEXTS.debtRecovery}</PageHeading>
      <EligibleCharges
        rows={eligible.data?.map((charge) => ({ ...charge, id: charge.pcnId }))}
        isLoading={eligible.isLoading}
        error={eligible.error}
        onHandedOver={() => {
          eligible.reload();
          batches.reload();
        }}
      />
      <Batches rows={batches.data} isLoading={batches.isLoading} error={batches.error} />
      <AgencyOutcomes onApplied={eligible.reload} />
    </div>
  );
}

function EligibleCharges({
  rows,
  isLoading,
  error,
  onHandedOver,
}: {
  rows: EligibleRow[] | undefined;
  isLoading: boolean;
  error: { message: string } | null;
  onHandedOver: () => void;
}) {
  const selection = useRowSelection<EligibleRow>(rows ?? [], (row) => row);
  const [isConfirming, setConfirming] = useState(false);
  const [made, setMade] = useState<DebtRecoveryBatch | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [refusals, setRefusals] = useState<Array<{ id: string; title: string; reason: string }>>([]);
  // The hand-over asked for last (or found still being made on arrival): followed until packed.
  const [started, setStarted] = useState<DebtRecoveryHandover | null>(null);
  const unfinished = useAsync(getUnfinishedHandovers, [], DEBT_RECOVERY_HANDOVERS_FAILED);
  const followed = useFollowedJob(started, getHandover, (handover) => {
    setStarted(null);
    unfinished.reload();
    onHandedOver();
    // One that failed is listed with why, from the reload above.
    if (handover.state === 'READY') setMade(handover.batch);
  });
  const inProgress = unfinished.data?.find((handover) => !isJobFinished(handover));
  useEffect(() => {
    if (inProgress) setStarted((current) => current ?? inProgress);
  }, [inProgress]);
  const failed = unfinished.data?.filter((handover) => handover.state === 'FAILED') ?? [];
  const chosen = [...selection.selected.values()];
  const totalDue = chosen.reduce((sum, charge) => sum + charge.amountDuePence, 0);

  const handOver = async () => {
    setProblem(null);
    setRefusals([]);
    setMade(null);
    try {
      setStarted(await handOverToAgency(chosen.map((charge) => charge.pcnId)));
      selection.clear();
      onHandedOver();
    } catch (e) {
      const failure = toApiError(e, DEBT_RECOVERY_EXPORT_FAILED);
      // Refused charges are listed on the page, beside the table they were chosen from.
      setProblem(failure.message);
      setRefusals(
        Object.entries(failure.fields).map(([id, reason]) => {
          const charge = selection.selected.get(id);
          return { id, title: charge ? pcnTitle(charge.pcnNumber) : id, reason };
        }),
      );
    }
  };

  const columns: ReadonlyArray<AdminColumn<EligibleRow>> = [
    {
      id: 'pcn',
      label: 'PCN',
      isRowHeader: true,
      render: (charge) => (
        <Link href={reviewHref(charge.pcnId)} className="text-link">
          {pcnTitle(charge.pcnNumber)}
        </Link>
      ),
    },
    { id: 'registration', label: 'Registration', isFigure: true, render: (charge) => charge.vehicleRegistration },
    { id: 'carPark', label: 'Car park', isWide: true, render: (charge) => charge.carParkName },
    { id: 'issued', label: 'Issued', isFigure: true, render: (charge) => formatCalendarDate(charge.issuedOn) },
    {
      id: 'letter',
      label: 'Letter before claim',
      render: (charge) =>
        `Posted ${formatCalendarDate(charge.letterBeforeClaimPostedOn)}; answer due by ${formatCalendarDate(charge.replyEndedOn)}`,
    },
    {
      id: 'due',
      label: 'Due',
      isFigure: true,
      render: (charge) =>
        `${formatPence(charge.amountDuePence)}${charge.debtRecoveryFeePence ? ` + ${formatPence(charge.debtRecoveryFeePence)} fee` : ''}`,
    },
  ];

  return (
    <Card title="Charges past their letter before claim" titleId="debt-recovery-eligible-title">
      <div className="form-stack">
        <p className="muted card__intro">
          Issued charges still unpaid whose debtor’s 30 days to answer the letter before claim have ended, with no appeal open. A batch is
          one ZIP for the agency: a CSV of the charges with the keeper’s name and address, each charge’s letters as sent and its evidence
          pack, and a manifest of SHA-256s.
        </p>
        {followed && !isJobFinished(followed) ? <HandoverProgress handover={followed} /> : null}
        {made ? (
          <Alert tone="success">
            {made.chargeCount} {made.chargeCount === 1 ? 'charge' : 'charges'} handed over in batch {made.reference}. Download its ZIP below
            and send it to the agency.
          </Alert>
        ) : null}
        {problem ? (
          <Alert>
            <p>{problem}</p>
            {refusals.length > 0 ? (
              <ul aria-label="Charges that cannot go to the agency">
                {refusals.map((refusal) => (
                  <li key={refusal.id}>
                    <strong>{refusal.title}</strong>: {refusal.reason}
                  </li>
                ))}
              </ul>
            ) : null}
          </Alert>
        ) : null}
        {failed.length > 0 ? (
          <Alert>
            <p>Not made in the last day:</p>
            <ul aria-label="Hand-overs not made in the last day">
              {failed.map((handover) => (
                <li key={handover.id}>
                  {handover.total} {handover.total === 1 ? 'charge' : 'charges'} asked for {formatDateTime(handover.createdAt)} by{' '}
                  {handover.createdBy}: {handover.error ?? 'not made'}. Nothing was handed over.
                </li>
              ))}
            </ul>
          </Alert>
        ) : null}
        <div className="button-row">
          <Button isDisabled={chosen.length === 0 || started !== null} onPress={() => setConfirming(true)}>
            {`Hand over to agency${chosen.length > 0 ? ` (${chosen.length})` : ''}`}
          </Button>
        </div>
        <AdminTable
          label="Charges that can go to the debt recovery agency"
          columns={columns}
          rows={rows}
          isLoading={isLoading}
          error={error}
          emptyText="No charges are past their letter before claim."
          rowLabel={(charge) => pcnTitle(charge.pcnNumber)}
          selection={{
            keys: selection.pageKeys,
            onChange: selection.onSelectionChange,
            selectAllLabel: 'Select every charge shown',
            rowLabel: (charge) => `Select ${pcnTitle(charge.pcnNumber)}`,
          }}
        />
      </div>
      <ConfirmDialog
        isOpen={isConfirming}
        onClose={() => setConfirming(false)}
        title="Hand over to the agency"
        message={
          <p>
            {chosen.length} {chosen.length === 1 ? 'charge' : 'charges'} ({formatPence(totalDue)} due) will move to debt recovery, with the
            keeper’s name and address in the batch. Send the batch’s ZIP only to the agency.
          </p>
        }
        confirmLabel="Hand over"
        busyLabel="Checking the charges..."
        cancelLabel="Keep them"
        onConfirm={handOver}
      />
    </Card>
  );
}

/** A hand-over's count as the admin reads it, with a bar screen readers hear as the count. */
function HandoverProgress({ handover }: { handover: DebtRecoveryHandover }) {
  const charges = `${handover.total} ${handover.total === 1 ? 'charge' : 'charges'}`;
  return (
    <div className="batch-progress">
      <p role="status">
        {handover.state === 'WAITING'
          ? `Waiting to pack ${charges} for the agency...`
          : `Packing the batch: ${handover.made} of ${charges} packed`}
      </p>
      <progress value={handover.made} max={handover.total} aria-label="Charges packed" />
      <p className="muted">
        Each charge’s letters as sent and its evidence pack go into the batch’s ZIP. The charges move to debt recovery once it is made. This
        page can be left: the batch is made all the same.
      </p>
    </div>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function Batches({
  rows,
  isLoading,
  error,
}: {
  rows: DebtRecoveryBatch[] | undefined;
  isLoading: boolean;
  error: { message: string } | null;
}) {
  const columns: ReadonlyArray<AdminColumn<DebtRecoveryBatch>> = [
    { id: 'reference', label: 'Batch', isRowHeader: true, render: (batch) => batch.reference },
    { id: 'count', label: 'Charges', isFigure: true, render: (batch) => batch.chargeCount },
    { id: 'made', label: 'Made', render: (batch) => `${formatDateTime(batch.createdAt)} by ${batch.createdBy}` },
    {
      id: 'file',
      label: 'SHA-256',
      isWide: true,
      render: (batch) => (
        <span className="muted">
          <code>{batch.sha256}</code> ({formatSize(batch.sizeBytes)})
        </span>
      ),
    },
    {
      id: 'download',
      label: 'Download',
      isActions: true,
      render: (batch) => (
        <DownloadButton
          load={() => downloadDebtRecoveryBatch(batch.id)}
          fileName={batch.fileName}
          label="Download ZIP"
          busyLabel="Downloading..."
          doneText={`${batch.fileName} saved`}
          failedMessage={DEBT_RECOVERY_DOWNLOAD_FAILED}
          aria-label={`Download ${batch.reference}`}
        />
      ),
    },
  ];
  return (
    <Card title="Batches handed over" titleId="debt-recovery-batches-title">
      <AdminTable
        label="Batches handed to the debt recovery agency"
        columns={columns}
        rows={rows}
        isLoading={isLoading}
        error={error}
        emptyText="No batch has been handed over yet."
        rowLabel={(batch) => batch.reference}
      />
    </Card>
  );
}

function AgencyOutcomes({ onApplied }: { onApplied: () => void }) {
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState('');
  const [csvError, setCsvError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'check' | 'apply' | null>(null);
  const isBusy = busy !== null;
  const [result, setResult] = useState<DebtRecoveryUpdateImport | null>(null);
  // The text the shown check was made of: applying sends exactly that.
  const [checked, setChecked] = useState<string | null>(null);

  const run = async (preview: boolean) => {
    setFormError(null);
    if (!csv.trim()) {
      setCsvError('Choose or paste the agency’s CSV of outcomes');
      return;
    }
    setCsvError(null);
    setBusy(preview ? 'check' : 'apply');
    try {
      const answer = await importAgencyOutcomes(fileName, csv, preview);
      setResult(answer);
      setChecked(preview ? csv : null);
      if (!preview) onApplied();
    } catch (e) {
      const failure = toApiError(e, DEBT_RECOVERY_UPDATES_FAILED);
      if (failure.fields.csv) setCsvError(failure.fields.csv);
      setFormError(failure.message);
    } finally {
      setBusy(null);
    }
  };

  const columns: ReadonlyArray<AdminColumn<DebtRecoveryUpdateResult & { id: string }>> = [
    { id: 'row', label: 'Row', isFigure: true, render: (row) => row.row },
    { id: 'reference', label: 'Reference', isRowHeader: true, render: (row) => row.reference || '—' },
    { id: 'vrm', label: 'VRM', isFigure: true, render: (row) => row.vrm || '—' },
    {
      id: 'outcome',
      label: 'Outcome',
      render: (row) =>
        row.outcome ? `${DEBT_RECOVERY_OUTCOME_LABELS[row.outcome]}${row.paidPence ? ` ${formatPence(row.paidPence)}` : ''}` : '—',
    },
    {
      id: 'result',
      label: 'Result',
      render: (row) => (
        <span className={`chip ${row.result === 'APPLIED' ? 'chip--success' : 'chip--warning'}`}>
          {row.result === 'APPLIED' && result?.preview ? 'Will apply' : DEBT_RECOVERY_UPDATE_RESULT_LABELS[row.result]}
        </span>
      ),
    },
    { id: 'message', label: 'What happened', isWide: true, render: (row) => row.message },
  ];
  const toLookAt = result ? result.results.length - result.counts.APPLIED : 0;

  return (
    <Card title="Import agency outcomes" titleId="debt-recovery-outcomes-title">
      <div className="form-stack">
        <p className="muted card__intro">
          The agency’s CSV with a header line naming its columns: {DEBT_RECOVERY_UPDATE_COLUMNS.join(', ')}. Outcomes are PAID, PART_PAID,
          CLOSED or RETURNED. Each row is matched to its charge by the reference and the VRM; check the file first, then apply it. Rows that
          do not match a charge with the agency, or were imported before, are listed and change nothing.
        </p>
        {formError ? <Alert>{formError}</Alert> : null}
        <CsvFileField
          id="agency-outcomes-file"
          label="Agency outcomes (CSV file)"
          name="file"
          onFile={(file) => {
            if (!file) return;
            setFileName(file.name);
            void file.text().then((text) => {
              setCsv(text);
              setResult(null);
              setChecked(null);
              setCsvError(null);
            });
          }}
        />
        <TextField
          label="Or paste the CSV"
          name="csv"
          isMultiline
          rows={6}
          value={csv}
          onChange={(value) => {
            setCsv(value);
            setFileName('');
            setResult(null);
            setChecked(null);
            setCsvError(null);
          }}
          errorMessage={csvError}
        />
        <div className="button-row">
          <Button variant="secondary" isDisabled={isBusy} onPress={() => void run(true)}>
            {busy === 'check' ? 'Checking...' : 'Check outcomes'}
          </Button>
          <Button
            isDisabled={isBusy || checked === null || checked !== csv || !result || result.counts.APPLIED === 0}
            onPress={() => void run(false)}
          >
            {busy === 'apply'
              ? 'Applying...'
              : result?.preview
                ? `Apply ${result.counts.APPLIED} ${result.counts.APPLIED === 1 ? 'outcome' : 'outcomes'}`
                : 'Apply outcomes'}
          </Button>
        </div>
        {result ? (
          <div className="form-stack">
            <p role="status">
              {result.preview
                ? `Checked: ${result.counts.APPLIED} will apply, ${toLookAt} to look at. Nothing has changed yet.`
                : `${result.counts.APPLIED} applied, ${result.counts.ALREADY_IMPORTED} imported before, ${toLookAt - result.counts.ALREADY_IMPORTED} to look at.`}
            </p>
            <AdminTable
              label="Agency outcome results"
              columns={columns}
              rows={result.results.map((row) => ({ ...row, id: String(row.row) }))}
              isLoading={false}
              error={null}
              emptyText="The file had no rows."
              rowLabel={(row) => `Row ${row.row}`}
            />
          </div>
        ) : null}
      </div>
    </Card>
  );
}
