import {
  fieldErrors,
  PERMIT_IMPORT_COLUMNS,
  PERMIT_IMPORT_MAX_ROWS,
  PERMIT_IMPORT_OUTCOMES,
  PERMIT_KIND_LABELS,
  PERMIT_KINDS,
  normaliseRegistration,
  permitInputSchema,
  type PermitImport,
  type PermitImportResult,
  type PermitKind,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { findPermitsFor, insertPermit } from '../repositories/permits.ts';
import { assertMayManagePermits } from './permit-access.ts';
import { actorOf } from './permits.ts';
import { readCsvRows } from '../services/csv-import.ts';

const REQUIRED_COLUMNS = ['registration', 'kind'] as const;
type PermitRow = Partial<Record<(typeof PERMIT_IMPORT_COLUMNS)[number], string>>;

/**
 * A CSV of permits for one car park (a landowner's list of staff or residents), read as the
 * keeper replies are: every row is answered with what happened to it. A row that cannot be read
 * (a registration, a kind, a date) is listed with why and adds nothing; a row for a permit the
 * car park already has (same registration, kind and dates, not ended) is listed as unchanged. The
 * rows are added in one transaction: a failure adds none, so an import is never half applied.
 */
export async function importPermits(
  deps: { db: Db; now: () => Date },
  input: { user: AuthUser; carParkId: string; csv: string },
): Promise<PermitImport> {
  await assertMayManagePermits(deps.db, input.user, input.carParkId);
  const rows = readCsvRows(input.csv, { columns: PERMIT_IMPORT_COLUMNS, required: REQUIRED_COLUMNS, maxRows: PERMIT_IMPORT_MAX_ROWS });
  const now = deps.now().toISOString();
  const actor = actorOf(input.user);
  const results: PermitImportResult[] = [];
  await deps.db.transaction().execute(async (trx) => {
    for (const [index, row] of rows.entries())
      results.push(await importRow(trx, { row: index + 1, fields: row, carParkId: input.carParkId, actor, now }));
  });
  const counts = Object.fromEntries(PERMIT_IMPORT_OUTCOMES.map((outcome) => [outcome, 0])) as PermitImport['counts'];
  for (const result of results) counts[result.outcome]++;
  return { results, counts };
}

async function importRow(
  db: Db,
  input: { row: number; fields: PermitRow; carParkId: string; actor: { id: string; name: string }; now: string },
): Promise<PermitImportResult> {
  const { row, fields } = input;
  const registration = normaliseRegistration(fields.registration ?? '');
  const result = (outcome: PermitImportResult['outcome'], message: string, permitId: string | null = null): PermitImportResult => ({
    row,
    registration,
    outcome,
    message,
    permitId,
  });
  const parsed = permitInputSchema.safeParse({
    vehicleRegistration: fields.registration ?? '',
    kind: kindOf(fields.kind ?? ''),
    validFrom: toIsoDate(fields.valid_from) ?? input.now,
    validUntil: toIsoDate(fields.valid_until) ?? null,
    note: fields.note ?? '',
  });
  if (!parsed.success) {
    const problems = fieldErrors(parsed.error);
    const [field, message] = Object.entries(problems)[0] ?? ['', 'The row cannot be read'];
    return result('INVALID', `${COLUMN_OF[field] ?? field}: ${message}`);
  }
  const permit = parsed.data;
  const existing = await findPermitsFor(db, input.carParkId, permit.vehicleRegistration);
  const same = existing.find(
    (other) =>
      other.endedAt === null &&
      other.kind === permit.kind &&
      other.validFrom === (permit.validFrom ?? input.now) &&
      other.validUntil === permit.validUntil,
  );
  if (same) return result('UNCHANGED', 'The car park already has this permit', same.id);
  const id = await insertPermit(db, {
    carParkId: input.carParkId,
    vehicleRegistration: permit.vehicleRegistration,
    kind: permit.kind,
    validFrom: permit.validFrom ?? input.now,
    validUntil: permit.validUntil,
    note: permit.note,
    source: 'IMPORT',
    actor: input.actor,
    now: input.now,
  });
  return result('ADDED', `${PERMIT_KIND_LABELS[permit.kind]} permit added`, id);
}

/** The schema's field names as the file's columns, for the row's message. */
const COLUMN_OF: Record<string, string> = {
  vehicleRegistration: 'registration',
  kind: 'kind',
  validFrom: 'valid_from',
  validUntil: 'valid_until',
  note: 'note',
};

/** 'Staff', 'STAFF', 'blue badge' and 'Blue_Badge' are all the kind BLUE_BADGE; anything else is left for the schema to refuse. */
function kindOf(text: string): string {
  const key = text
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if ((PERMIT_KINDS as readonly string[]).includes(key)) return key as PermitKind;
  return text;
}

/** '31/12/2026' (as a spreadsheet writes it) or '2026-12-31' to '2026-12-31'; blank to undefined. */
function toIsoDate(text: string | undefined): string | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  const uk = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (uk) return `${uk[3]}-${uk[2]!.padStart(2, '0')}-${uk[1]!.padStart(2, '0')}`;
  return value;
}
