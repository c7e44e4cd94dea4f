/**
 * `npm run db:types`: writes api/src/db/schema.generated.ts, the table types the application is
 * typed with, from a database the migrations have just made. `npm run db:types -- --check` writes
 * nothing and fails when the committed file differs from what the migrations make now (it runs in
 * `npm run typecheck`).
 *
 * The database is a throwaway PostgreSQL (scripts/services/postgres.mjs): its columns have the
 * precise types (timestamptz, date, boolean) that SQLite's storage classes cannot tell apart. The
 * TypeScript types are the ones the application sees on both engines (decision 0035): times and
 * days as text, flags as booleans, numbers as numbers. An enumerated column carries its union
 * type from the shared package: every column migration 0031 checks must be named in ENUM_TYPES.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import * as prettier from 'prettier';
import { ENUMERATED_COLUMNS } from '../migrations/0031_enumerated_column_checks.ts';
import { migrationsFor } from '../migrations/index.ts';
// @ts-expect-error: a plain .mjs script without types; it starts a throwaway PostgreSQL on loopback.
import { start as startPostgres } from './services/postgres.mjs';

const ROOT = join(import.meta.dirname, '..');
export const GENERATED_FILE = join(ROOT, 'api/src/db/schema.generated.ts');

/** Tables of the engines' own machinery, not of the product: migrations. */
const MACHINERY = /^kysely_/;
/** PostgreSQL's stand-in for SQLite's implicit rowid (insertion order): not a column the application writes or reads by name. */
const ROWID = 'rowid';

/** The shared package's union type of each enumerated column, and of the one enumerated column 0031 leaves to the code (emails.status). */
const ENUM_TYPES: Record<string, string> = {
  'users.role': 'Role',
  'one_time_tokens.purpose': 'OneTimeLinkPurpose',
  'car_parks.jurisdiction': 'Jurisdiction',
  'pcns.status': 'PcnStatus',
  'pcns.offence_type': 'OffenceType',
  'pcns.notice_served_by': 'NoticeServedBy',
  'pcn_images.taken_at_source': 'PhotoTakenAtSource',
  'pcn_audit.action': 'PcnAuditAction',
  'pcn_status_history.from_status': 'PcnStatus',
  'pcn_status_history.to_status': 'PcnStatus',
  'pcn_counts.status': 'PcnStatus',
  'pcn_keepers.source': 'KeeperSource',
  'pcn_keepers.keeper_type': 'KeeperType',
  'pcn_named_drivers.source': 'NamedDriverSource',
  'pcn_payments.method': 'PaymentMethod',
  'appeals.status': 'AppealStatus',
  'appeals.reason': 'AppealReason',
  'appeals.channel': 'AppealChannel',
  'appeals.charter_outcome': 'CharterCase',
  'sent_documents.kind': 'SentDocumentKind',
  'activities.activity_type': 'ActivityType',
  'observations.status': 'ObservationStatus',
  'pcns.collection_stage': 'CollectionStage',
  'pcns.cancellation_reason': 'CancellationReason',
  'permits.kind': 'PermitKind',
  'permits.source': 'PermitSource',
  'cancellation_requests.status': 'CancellationRequestStatus',
  'pcn_refunds.method': 'RefundMethod',
  'pcn_refunds.status': 'RefundStatus',
  'debt_recovery_updates.outcome': 'DebtRecoveryOutcome',
  'letter_batches.state': 'LetterBatchState',
  'evidence_packs.state': 'EvidencePackState',
  'debt_recovery_handovers.state': 'DebtRecoveryHandoverState',
  'emails.status': "'sent' | 'written' | 'failed'",
};

/**
 * What a table or a column is for, written into the file as its doc comment: the schema's
 * explanations live here, beside the types they explain.
 */
const TABLE_DOCS: Record<string, string> = {
  pcn_audit: 'Append-only (triggers refuse UPDATE and DELETE); no foreign keys, so it outlives the PCN.',
  pcn_keepers: "The registered keeper of a notice's vehicle (personal data: admins only, removed by retention).",
  pcn_hirers:
    'The hirer a hire firm named (Schedule 4, paragraph 13), and the day its documents were given (personal data: admins only, removed with the notice).',
  pcn_named_drivers:
    'The driver named with an address for service, and where the name came from, KEEPER_REPLY or APPEAL (personal data: admins only, removed with the notice).',
  pcn_payments: 'A payment an admin recorded against a charge.',
  appeals: "A motorist's appeal against a charge (one per charge) and its decision.",
  appeal_attachments: 'A file the motorist attached to an appeal, stored under a name we made (evidence-storage.ts).',
  set_aside_appeals:
    "An appeal an admin set aside (decision 0032): out of `appeals`, so the charge's one appeal is free again, kept as filed.",
  pending_appeals: 'An appeal filed from /charge, waiting to be confirmed from the email address it gives (decision 0032).',
  pending_appeal_attachments:
    'A file attached to a pending appeal, already in the evidence store; the appeal takes it over when confirmed.',
  sent_documents: 'A document as it was sent (decision 0025): its file in the evidence store, its SHA-256, who made it.',
  operator_terms: 'A history: each change to the terms is a row (JSON terms as they then stood, JSON changes, who).',
  operator_logos: "A history: each upload (the small PNG and its SHA-256) or removal (neither) of the operator's logo is a row, with who.",
  pcn_counts: "Kept by triggers (migration 0005): PCNs per owner ('' once the owner is deleted) and status.",
  sign_in_attempts:
    "One counted password guess (migration 0009; auth/sign-in-limiter.ts). Times are epoch milliseconds. `account` is null once the account's failures at the address were forgotten: the guess then counts for the address cap only.",
  rate_limit_events: 'One counted event of a named limit (migration 0009; auth/rate-limit.ts). `at` is epoch milliseconds.',
  card_checkouts:
    'A Stripe Checkout Session made for a charge, for the amount due then: /charge reuses an open one and says a completed one is being confirmed.',
  stripe_events: 'Each Stripe webhook event received, by its id: a replay finds it and changes nothing.',
  pcn_refunds: 'Money given back against one payment: through Stripe for a card payment (its refund id), else recorded by hand.',
  debt_recovery_batches:
    'Charges handed to a debt recovery agency together: the ZIP (CSV, documents, manifest of SHA-256s) as it was made.',
  letter_batches:
    'Notices to keeper made together by a job (migration 0040): where the batch stands, `made` of `total`, and the one PDF of them all once READY.',
  evidence_packs:
    'An evidence pack an admin asked for, made by a job (migration 0042): where it stands and its PDF once READY; removed a day later.',
  debt_recovery_handovers:
    'A hand-over to the debt recovery agency packed by a job (migration 0043): where it stands, `made` of `total` charges packed, and the batch once READY.',
  debt_recovery_handover_items: "A hand-over's charges in the order packed; a charge in one still being made is not offered for another.",
  letter_batch_items: "A batch's notices in the order chosen, each with the sent document made for it (null until made).",
  debt_recovery_updates: 'One outcome a debt recovery agency reported for a charge it was handed, as imported.',
  permits:
    'A registration allowed to park at a car park from valid_from until valid_until (open-ended when null); ended_at ends it early and keeps the row.',
  permit_changes: 'A history: each change to a permit (JSON { field: { from, to } }) and who made it.',
  cancellation_requests: "A landowner's request that a charge be cancelled, with the reason, and the admin's decision with theirs.",
  known_devices: "A device that signed in before (migration 0012; auth/known-devices.ts). Only the token's hash is kept.",
};
const COLUMN_DOCS: Record<string, string> = {
  'refresh_tokens.grace_used_at': "When this token's one grace replay was spent (migration 0007; no longer written).",
  'refresh_tokens.successor_sealed':
    'The token this one was rotated into, sealed (auth/sealed-text.ts): a replay in the reuse window gets it again.',
  'refresh_tokens.rotated_device_hash':
    'The hash of the device token the rotation was sent with (migration 0029): only that device may replay it.',
  'car_parks.stay_applies_by_default': 'New PCNs here have a stay (consideration + grace) unless the officer says otherwise.',
  'car_parks.jurisdiction': "Where the land is: Schedule 4's keeper liability applies in ENGLAND_AND_WALES only.",
  'car_parks.charge_pence': 'The charge and its reduced amount in pence, and the days the reduction lasts; null until set.',
  'car_parks.minimums_override_reason': "Why consideration or grace is shorter than the Single Code's minimum; null when neither is.",
  'car_parks.relevant_land': 'Schedule 4 paragraph 3\'s "relevant land"; false for byelaw land (no keeper liability).',
  'pcns.first_seen_at':
    'The start of the period of parking every document states: the first sighting, else when the officer began the notice.',
  'pcns.notice_served_by': 'AFFIXED, HANDED or DRIVE_OFF; null on notices filed before service was recorded.',
  'pcns.keeper_post_by': 'The last day the notice to keeper may be posted (YYYY-MM-DD); null where keeper liability is not available.',
  'pcns.operator_terms_id':
    'The terms in force when the notice was issued (rows of operator_terms, car_park_terms); null where none were set.',
  'pcns.keeper_notice_posted_on': 'The notice to keeper: posted on, presumed given on (YYYY-MM-DD), and the proof-of-posting reference.',
  'pcns.collection_stage': 'Where an unpaid charge stands after its notice to keeper; null before one was posted.',
  'pcns.debt_recovery_fee_pence': 'The debt recovery fee the letter before claim warned of (within the sector cap); null where none was.',
  'pcn_payments.stripe_payment_intent':
    'The Stripe payment intent a card payment on /charge was taken by; null for payments recorded by staff.',
  'pcns.cancellation_reason': 'Why a CANCELLED charge was cancelled; cancellation_note says more (required for OTHER).',
  'pcns.permit_check':
    'JSON: the permit check the notice was filed with (when, against which list, the permit found), or null before checks were kept.',
  'pcns.permit_override_reason': "The officer's reason for a notice to a registration holding a valid permit.",
  'car_parks.visitor_site_code': 'The code in the visitor page address /visit/{code}; null when the car park has no visitor page.',
  'car_parks.visitor_code': 'The code shown at reception that a visitor enters to register their car.',
  'pcns.draft_reference':
    "The reference its notice to driver printed before it was sent ('D-1A2B3C4D', from the Idempotency-Key); null when the key was no draft id.",
  'pcns.photo_count':
    "A summary of the notice's photo rows, kept with them (migration 0044): how many, the first one's file while kept, and when they were removed.",
  'pcn_images.shots': "Comma-separated PHOTO_SHOT_TYPES ids; '' for none.",
  'pcn_images.purged_at': 'When the file was removed under the retention policy (migration 0008); null while kept.',
  'pcn_audit.changes': 'JSON: { field: { from, to } }.',
  'pcn_keepers.address_lines': 'JSON array of address lines.',
  'pcn_keepers.make': 'The vehicle as the DVLA holds it.',
  'pcn_keepers.keeper_type': 'REGISTERED_KEEPER or HIRE_COMPANY (a hire or lease firm, which names the hirer).',
  'pcn_hirers.address_lines': 'JSON array of address lines.',
  'pcn_named_drivers.address_lines': 'JSON array of address lines.',
  'pcn_hirers.notice_posted_on': "The letter's posting: posted on, presumed given on (YYYY-MM-DD), the proof-of-posting reference.",
  'pcn_named_drivers.notice_posted_on': "The letter's posting: posted on, presumed given on (YYYY-MM-DD), the proof-of-posting reference.",
  'pcn_payments.idempotency_key': "The admin's attempt (Idempotency-Key): a replay finds this payment. Null before keys were kept.",
  'pcn_payments.overpaid_pence': 'How much more than was due this payment was, when recorded (0: none, or not known).',
  'appeals.appellant_email': "'' for an appeal by post that gave none.",
  'appeals.is_late': 'Made after the appeal period (decision 0023).',
  'appeals.considered_at': 'A late appeal an admin agreed to consider: when, and who.',
  'appeals.channel': 'ONLINE, EMAIL, POST or PHONE (decision 0024).',
  'appeals.reduced_payable_until': 'ACCEPTED_REDUCED: the last day the reduced amount may be paid.',
  'appeals.charter_outcome': 'The Appeals Charter case the admin followed, if any.',
  'appeals.withdrawn_at': 'WITHDRAWN: when the motorist withdrew the appeal (decision 0044).',
  'set_aside_appeals.id': "The appeal's own id.",
  'set_aside_appeals.appeal': "JSON: the appeal's row and its attachments (names and SHA-256s) as they were.",
  'pending_appeals.token_hash': "The SHA-256 of the confirmation link's token; the token itself is only in the email.",
  'pending_appeals.appeal': "JSON: the appeal's fields as the motorist filed them.",
  'pending_appeals.filed_at': "When it was filed: the appeal's received time once confirmed.",
  'sent_documents.post_on': 'The posting day a letter prints as its date sent; null for a document not posted.',
  'sent_documents.purged_at': 'Set when the retention policy removed the file; the row and its hash stay.',
  'sign_in_attempts.reserved_at': 'When the guess was counted: the address cap runs from here.',
  'sign_in_attempts.counted_at': "When the account's lock and backoff run from: the reservation, or a wrong guess's answer.",
  'observations.id': "The phone's draft id, also the notice's Idempotency-Key.",
};

/** PostgreSQL's type (Kysely's introspection names pg's udt_name) as the application sees it. */
const TS_TYPES: Record<string, string> = {
  text: 'string',
  // Read back as ISO-8601 text in UTC and 'YYYY-MM-DD' (api/src/db/database.ts).
  timestamptz: 'string',
  date: 'string',
  bool: 'boolean',
  int4: 'number',
  // Read as numbers (database.ts): every count, id and epoch-millisecond time is below 2^53.
  int8: 'number',
  numeric: 'number',
  float8: 'number',
  // A small picture's bytes: a Buffer from both pg and better-sqlite3.
  bytea: 'Buffer',
};

type Column = { name: string; dataType: string; isNullable: boolean; hasDefaultValue: boolean; isAutoIncrementing: boolean };
type Table = { name: string; columns: Column[] };

const docComment = (text: string | undefined, indent: string) => (text ? `${indent}/** ${text} */\n` : '');

const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase());

function columnType(table: string, column: Column): string {
  const key = `${table}.${column.name}`;
  const base = ENUM_TYPES[key] ?? TS_TYPES[column.dataType];
  if (!base) throw new Error(`${key}: no TypeScript type for PostgreSQL's ${column.dataType}; add it to TS_TYPES`);
  const nullable = column.isNullable ? `${base} | null` : base;
  return column.hasDefaultValue || column.isAutoIncrementing ? `Generated<${nullable}>` : nullable;
}

/** The file's text, formatted as the repository's prettier formats it. */
export async function render(tables: Table[]): Promise<string> {
  const missing = Object.entries(ENUMERATED_COLUMNS)
    .flatMap(([table, columns]) => Object.keys(columns).map((column) => `${table}.${column}`))
    .filter((key) => !ENUM_TYPES[key]);
  if (missing.length > 0) throw new Error(`Enumerated columns without a union type in ENUM_TYPES: ${missing.join(', ')}`);
  const used = new Set<string>();
  const interfaces = tables.map((table) => {
    const lines = table.columns
      .filter((column) => column.name !== ROWID)
      .map((column) => {
        const type = columnType(table.name, column);
        const named = ENUM_TYPES[`${table.name}.${column.name}`];
        if (named && /^[A-Z]/.test(named)) used.add(named);
        return `${docComment(COLUMN_DOCS[`${table.name}.${column.name}`], '  ')}  ${column.name}: ${type};`;
      });
    return `${docComment(TABLE_DOCS[table.name], '')}export interface ${pascal(table.name)}Table {\n${lines.join('\n')}\n}`;
  });
  // The SQLite connection's list of flag columns (database.ts): SQLite cannot tell them from other integers.
  const flags = tables
    .map((table) => [table.name, table.columns.filter((column) => column.dataType === 'bool').map((column) => column.name)] as const)
    .filter(([, columns]) => columns.length > 0);
  const flagColumns = [
    '/** The flags (boolean columns), by table: SQLite stores them as 0/1 and the connection reads them back as booleans. */',
    'export const FLAG_COLUMNS: Readonly<Record<string, readonly string[]>> = {',
    ...flags.map(([table, columns]) => `  ${table}: [${columns.map((column) => `'${column}'`).join(', ')}],`),
    '};',
  ].join('\n');
  const database = `export interface Database {\n${tables.map((table) => `  ${table.name}: ${pascal(table.name)}Table;`).join('\n')}\n}`;
  const text = [
    '// Written by `npm run db:types` from a database the migrations made (scripts/db-types.ts): do not',
    '// edit. A schema change is a migration; then run `npm run db:types`. `npm run typecheck` fails',
    '// while this file and the migrations disagree. Times are ISO-8601 text in UTC, days',
    "// 'YYYY-MM-DD', flags booleans, on both engines (api/src/db/database.ts converts).",
    `import type { ${[...used].sort().join(', ')} } from '@parkpatrol/shared';`,
    "import type { Generated } from 'kysely';",
    '',
    ...interfaces.flatMap((block) => [block, '']),
    database,
    '',
    flagColumns,
    '',
  ].join('\n');
  const options = await prettier.resolveConfig(GENERATED_FILE);
  return prettier.format(text, { ...options, filepath: GENERATED_FILE });
}

/** The product's tables and columns, in a stable order, from a database migrated to the latest. */
async function introspect(url: string): Promise<Table[]> {
  // Its own connection and migrator, not the application's: those are typed by, and read, this file.
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  try {
    const set = migrationsFor('postgres');
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => set } }).migrateToLatest();
    if (error) throw error;
    const tables = await db.introspection.getTables();
    return tables
      .filter((table) => !table.isView && !MACHINERY.test(table.name))
      .map((table) => ({ name: table.name, columns: table.columns.map((column) => ({ ...column })) }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
  const postgres = (await startPostgres()) as { env: { DATABASE_URL: string }; stop: () => Promise<void> };
  let text: string;
  try {
    text = await render(await introspect(postgres.env.DATABASE_URL));
  } finally {
    await postgres.stop();
  }
  if (!values.check) {
    writeFileSync(GENERATED_FILE, text);
    process.stdout.write(`Wrote ${GENERATED_FILE}\n`);
    return;
  }
  const committed = readFileSync(GENERATED_FILE, 'utf8');
  if (committed !== text) {
    process.stderr.write(
      `${GENERATED_FILE} does not match the migrations: run \`npm run db:types\` and commit the result (or fix the migration).\n`,
    );
    process.exit(1);
  }
}

if (import.meta.main) await main();
