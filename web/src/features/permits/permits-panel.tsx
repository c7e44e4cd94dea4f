import { useState, type ReactNode } from 'react';
import {
  formatPermitDay,
  PERMIT_IMPORT_COLUMNS,
  PERMIT_IMPORT_OUTCOME_LABELS,
  PERMIT_KIND_LABELS,
  PERMIT_KINDS,
  PERMIT_NOTE_MAX_LENGTH,
  permitInputSchema,
  visitorPageSettingsInputSchema,
  type VisitorPageSettings,
  type Permit,
  type PermitImport,
  type PermitImportResult,
  type PermitKind,
} from '@parkpatrol/shared';
import { Alert } from '../../lib/alert.tsx';
import { Button } from '../../lib/button.tsx';
import { Card } from '../../lib/card.tsx';
import { Spinner } from '../../lib/spinner.tsx';
import { ConfirmButton } from '../../lib/confirm-button.tsx';
import { SelectField } from '../../lib/select-field.tsx';
import { DateField } from '../../lib/date-field.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { useAsync } from '../../lib/use-async.ts';
import { useFormSubmit } from '../../lib/use-form-submit.ts';
import {
  addPermit,
  endPermit,
  getPermits,
  getVisitorPage,
  importPermits,
  PERMITS_FAILED,
  saveVisitorPage,
  VISITOR_PAGE_FAILED,
  type PermitFormInput,
  type VisitorPageSettingsFormInput,
} from './permits-api.ts';
import { CsvFileField } from '../../lib/csv-file-field.tsx';
import './permits.css';

/**
 * A car park's permits (decision 0041): the list in force (or every one, ended and expired
 * too), adding one, ending one (its history stays), and a CSV import answered row by row. The
 * same panel serves an admin (any car park) and a landowner (their own: the server decides).
 * Officers' phones hear of every change on their next sync.
 */
export function PermitsPanel({ carParkId }: { carParkId: string }) {
  const [showEnded, setShowEnded] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useAsync(() => getPermits(carParkId, { all: showEnded }), [carParkId, showEnded], PERMITS_FAILED.list);
  const changed = (message: string) => {
    setNotice(message);
    list.reload();
  };
  return (
    <div className="form-stack permits-panel">
      {notice ? (
        <p role="status" className="permits-panel__notice">
          {notice}
        </p>
      ) : null}
      <PermitList
        carParkId={carParkId}
        permits={list.data?.permits}
        isLoading={list.isLoading}
        error={list.error}
        showEnded={showEnded}
        onShowEnded={setShowEnded}
        onChanged={changed}
      />
      <AddPermit carParkId={carParkId} onAdded={changed} />
      <ImportPermits carParkId={carParkId} onImported={() => list.reload()} />
      <VisitorPage carParkId={carParkId} />
    </div>
  );
}

type Column<T> = { id: string; label: string; isRowHeader?: boolean; render: (row: T) => ReactNode };

/**
 * A plain table: a caption for screen readers, a header cell per row, and on a phone each row
 * as a card with its labels (permits.css), so it reads without sideways scrolling.
 */
function SimpleTable<T>({
  label,
  columns,
  rows,
  rowKey,
  isLoading,
  error,
  emptyText,
}: {
  label: string;
  columns: ReadonlyArray<Column<T>>;
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  isLoading: boolean;
  error: { message: string } | null;
  emptyText: string;
}) {
  if (error) return <Alert>{error.message}</Alert>;
  if (isLoading && !rows) return <Spinner />;
  if (!rows || rows.length === 0) return <p className="muted">{emptyText}</p>;
  return (
    <table className="permits-table">
      <caption className="visually-hidden">{label}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.id} scope="col">
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) =>
              column.isRowHeader ? (
                <th key={column.id} scope="row" data-label={column.label}>
                  {column.render(row)}
                </th>
              ) : (
                <td key={column.id} data-label={column.label}>
                  {column.render(row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function validityText(permit: Permit): string {
  const from = formatPermitDay(permit.validFrom);
  const until = permit.validUntil ? formatPermitDay(permit.validUntil) : 'no end date';
  return `${from} to ${until}`;
}

function PermitList({
  carParkId,
  permits,
  isLoading,
  error,
  showEnded,
  onShowEnded,
  onChanged,
}: {
  carParkId: string;
  permits: Permit[] | undefined;
  isLoading: boolean;
  error: { message: string } | null;
  showEnded: boolean;
  onShowEnded: (value: boolean) => void;
  onChanged: (message: string) => void;
}) {
  const columns: ReadonlyArray<Column<Permit>> = [
    { id: 'registration', label: 'Registration', isRowHeader: true, render: (permit) => permit.vehicleRegistration },
    { id: 'kind', label: 'Kind', render: (permit) => PERMIT_KIND_LABELS[permit.kind] },
    { id: 'valid', label: 'Valid', render: validityText },
    {
      id: 'note',
      label: 'Note',
      render: (permit) => permit.note || <span className="muted">None</span>,
    },
    {
      id: 'by',
      label: 'Added by',
      render: (permit) =>
        permit.endedAt
          ? `${permit.createdByName}; ended ${formatPermitDay(permit.endedAt)} by ${permit.endedByName ?? 'unknown'}`
          : permit.createdByName,
    },
    {
      id: 'actions',
      label: 'Actions',
      render: (permit) =>
        permit.endedAt ? (
          <span className="chip">Ended</span>
        ) : (
          <ConfirmButton
            aria-label={`End the permit of ${permit.vehicleRegistration}`}
            title={`End the permit of ${permit.vehicleRegistration}?`}
            message="It stops now. It stays in the list of ended permits with who ended it, and officers' phones drop it on their next sync."
            confirmLabel="End permit"
            onConfirm={async () => {
              await endPermit(carParkId, permit.id);
              onChanged(`The permit of ${permit.vehicleRegistration} was ended.`);
            }}
          >
            End
          </ConfirmButton>
        ),
    },
  ];
  return (
    <Card
      title="Permits"
      titleId="permits-title"
      actions={
        <label className="permits-panel__toggle">
          <input type="checkbox" checked={showEnded} onChange={(event) => onShowEnded(event.currentTarget.checked)} /> Show ended and
          expired permits
        </label>
      }
    >
      <SimpleTable
        label="Permits"
        columns={columns}
        rows={permits}
        rowKey={(permit) => permit.id}
        isLoading={isLoading}
        error={error}
        emptyText={showEnded ? 'This car park has no permits.' : 'No permits in force.'}
      />
    </Card>
  );
}

const EMPTY_FORM = { vehicleRegistration: '', kind: 'STAFF' as PermitKind, validFrom: '', validUntil: '', note: '' };

function AddPermit({ carParkId, onAdded }: { carParkId: string; onAdded: (message: string) => void }) {
  const [values, setValues] = useState(EMPTY_FORM);
  const form = useFormSubmit({ fallbackMessage: PERMITS_FAILED.add });
  const input = (): PermitFormInput => ({
    vehicleRegistration: values.vehicleRegistration,
    kind: values.kind,
    ...(values.validFrom ? { validFrom: values.validFrom } : {}),
    validUntil: values.validUntil || null,
    note: values.note,
  });
  const handleSubmit = form.handle(
    () => {
      const parsed = permitInputSchema.safeParse(input());
      return parsed.success ? { success: true, data: input() } : parsed;
    },
    async (permit) => {
      const added = await addPermit(carParkId, permit);
      setValues(EMPTY_FORM);
      onAdded(`${PERMIT_KIND_LABELS[added.kind]} permit added for ${added.vehicleRegistration}.`);
    },
  );
  const set = (patch: Partial<typeof EMPTY_FORM>) => setValues((current) => ({ ...current, ...patch }));
  return (
    <Card title="Add a permit" titleId="add-permit-title">
      <form className="form-stack" onSubmit={handleSubmit} noValidate aria-labelledby="add-permit-title">
        {form.formError ? <Alert>{form.formError}</Alert> : null}
        <div className="permits-panel__fields">
          <TextField
            label="Vehicle registration"
            name="vehicleRegistration"
            value={values.vehicleRegistration}
            onChange={(value) => set({ vehicleRegistration: value.toUpperCase() })}
            errorMessage={form.errors.vehicleRegistration}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck="false"
            isRequired
          />
          <SelectField
            label="Kind"
            name="kind"
            options={PERMIT_KINDS.map((kind) => ({ id: kind, label: PERMIT_KIND_LABELS[kind] }))}
            value={values.kind}
            onChange={(value) => set({ kind: (value ?? 'STAFF') as PermitKind })}
            errorMessage={form.errors.kind}
            isRequired
          />
          <DateField
            label="Valid from"
            name="validFrom"
            description="Blank: from now"
            value={values.validFrom}
            onChange={(value) => set({ validFrom: value })}
            errorMessage={form.errors.validFrom}
          />
          <DateField
            label="Valid until"
            name="validUntil"
            description="The last day it holds; blank: no end date"
            value={values.validUntil}
            onChange={(value) => set({ validUntil: value })}
            errorMessage={form.errors.validUntil}
          />
        </div>
        <TextField
          label="Note"
          name="note"
          description="For admins and landowners only (a flat number, a company); officers' phones do not carry it."
          value={values.note}
          onChange={(value) => set({ note: value })}
          errorMessage={form.errors.note}
          maxLength={PERMIT_NOTE_MAX_LENGTH}
        />
        <div className="form-actions">
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Adding...' : 'Add permit'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function ImportPermits({ carParkId, onImported }: { carParkId: string; onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<PermitImport | null>(null);
  const form = useFormSubmit({ fallbackMessage: PERMITS_FAILED.import });
  const fileInputId = `permits-file-${carParkId}`;
  const handleSubmit = form.handle(
    () => (file ? { success: true, data: file } : { success: false, fieldErrors: { csv: 'Choose a CSV file of permits' } }),
    async (chosen) => {
      setResult(await importPermits(carParkId, chosen.name, await chosen.text()));
      onImported();
    },
  );
  const columns: ReadonlyArray<Column<PermitImportResult>> = [
    { id: 'row', label: 'Row', render: (row) => row.row },
    { id: 'registration', label: 'Registration', isRowHeader: true, render: (row) => row.registration || '—' },
    {
      id: 'outcome',
      label: 'Outcome',
      render: (row) => (
        <span className={`chip ${row.outcome === 'INVALID' ? 'chip--warning' : 'chip--success'}`}>
          {PERMIT_IMPORT_OUTCOME_LABELS[row.outcome]}
        </span>
      ),
    },
    { id: 'message', label: 'What happened', render: (row) => row.message },
  ];
  return (
    <Card title="Import permits" titleId="import-permits-title">
      <form className="form-stack" onSubmit={handleSubmit} noValidate aria-labelledby="import-permits-title">
        <p className="muted card__intro">
          A CSV file with a header line naming its columns: {PERMIT_IMPORT_COLUMNS.join(', ')} (registration and kind needed; dates as
          31/12/2026 or 2026-12-31). Every row is listed with what happened to it: a row that cannot be read adds nothing.
        </p>
        {form.formError ? <Alert>{form.formError}</Alert> : null}
        <CsvFileField id={fileInputId} label="Permits (CSV)" error={form.errors.csv} onFile={setFile} />
        <div className="form-actions">
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Importing...' : 'Import permits'}
          </Button>
        </div>
      </form>
      {result ? (
        <div className="form-stack">
          <p role="status">
            {result.counts.ADDED} added, {result.counts.UNCHANGED} already there, {result.counts.INVALID} not added.
          </p>
          <SimpleTable
            label="Permit import results"
            columns={columns}
            rows={result.results}
            rowKey={(row) => String(row.row)}
            isLoading={false}
            error={null}
            emptyText="The file had no rows."
          />
        </div>
      ) : null}
    </Card>
  );
}

/**
 * The car park's visitor page (decision 0041): its address `/visit/{siteCode}`, the code shown at
 * the site, and how many visitors a day it takes. A blank address closes the page.
 */
function VisitorPage({ carParkId }: { carParkId: string }) {
  const current = useAsync(() => getVisitorPage(carParkId), [carParkId], VISITOR_PAGE_FAILED.load);
  return (
    <Card title="Visitor page" titleId="visitor-page-title">
      {current.error ? <Alert>{current.error.message}</Alert> : null}
      {current.data ? (
        <VisitorPageForm carParkId={carParkId} saved={current.data} onSaved={current.reload} />
      ) : current.error ? null : (
        <Spinner />
      )}
    </Card>
  );
}

function VisitorPageForm({ carParkId, saved, onSaved }: { carParkId: string; saved: VisitorPageSettings; onSaved: () => void }) {
  const [values, setValues] = useState({
    siteCode: saved.siteCode ?? '',
    visitorCode: saved.visitorCode ?? '',
    dailyLimit: String(saved.dailyLimit),
  });
  const [notice, setNotice] = useState<string | null>(null);
  const form = useFormSubmit({ fallbackMessage: VISITOR_PAGE_FAILED.save });
  const input = (): VisitorPageSettingsFormInput => ({
    siteCode: values.siteCode.trim() || null,
    visitorCode: values.visitorCode.trim() || null,
    dailyLimit: Number(values.dailyLimit),
  });
  const handleSubmit = form.handle(
    () => {
      const parsed = visitorPageSettingsInputSchema.safeParse(input());
      return parsed.success ? { success: true, data: input() } : parsed;
    },
    async (settings) => {
      const result = await saveVisitorPage(carParkId, settings);
      setNotice(
        result.siteCode ? `The visitor page is open at ${location.origin}/visit/${result.siteCode}.` : 'The visitor page is closed.',
      );
      onSaved();
    },
  );
  const set = (patch: Partial<typeof values>) => setValues((current) => ({ ...current, ...patch }));
  return (
    <form className="form-stack" onSubmit={handleSubmit} noValidate aria-labelledby="visitor-page-title">
      <p className="muted card__intro">
        Visitors enter their registration and the visitor code at the page's address (a tablet at reception, or a QR code on a sign) and get
        a visitor permit until the end of the day. {saved.usedToday} of {saved.dailyLimit} places used today.
      </p>
      {notice ? <p role="status">{notice}</p> : null}
      {form.formError ? <Alert>{form.formError}</Alert> : null}
      <div className="permits-panel__fields">
        <TextField
          label="Page address"
          name="siteCode"
          description="After /visit/, e.g. riverside-house; blank closes the page"
          value={values.siteCode}
          onChange={(value) => set({ siteCode: value.toLowerCase() })}
          errorMessage={form.errors.siteCode}
          autoComplete="off"
          spellCheck="false"
        />
        <TextField
          label="Visitor code"
          name="visitorCode"
          description="Shown at the site; change it to stop those who know the old one"
          value={values.visitorCode}
          onChange={(value) => set({ visitorCode: value })}
          errorMessage={form.errors.visitorCode}
          autoComplete="off"
          spellCheck="false"
        />
        <TextField
          label="Visitors a day"
          name="dailyLimit"
          type="number"
          inputMode="numeric"
          value={values.dailyLimit}
          onChange={(value) => set({ dailyLimit: value })}
          errorMessage={form.errors.dailyLimit}
        />
      </div>
      <div className="form-actions">
        <Button type="submit" isDisabled={form.isBusy}>
          {form.isBusy ? 'Saving...' : 'Save visitor page'}
        </Button>
      </div>
    </form>
  );
}
