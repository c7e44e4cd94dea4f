import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENUMERATED_COLUMNS, enumeratedCheckName } from '../../migrations/0031_enumerated_column_checks.ts';
import { WITHDRAWN_AT_CHECK } from '../../migrations/0037_appeal_withdrawal.ts';
import { ONE_VEHICLE_ANSWER_CHECK } from '../../migrations/0038_vehicle_mismatch.ts';
import { LOGO_WITH_HASH_CHECK } from '../../migrations/0039_operator_logo.ts';
import { postgresMigrations } from '../../migrations/postgres/index.ts';
import { sqliteMigrations } from '../../migrations/sqlite/index.ts';
import { connectDatabase, migrateToLatest, type OpenDatabase } from '../src/db/database.ts';
import type { Engine } from '../src/db/dialect.ts';
import { createPostgresDatabase, type PostgresDatabase } from './support/postgres-database.ts';
import { ON_POSTGRES } from './test-app.ts';

/**
 * An installation as today's release leaves it, upgraded in place: the database stands at the end
 * of its engine's frozen history, every table holds rows, and the shared migrations then run.
 * Every row must come through as it was, except where a shared migration says it changes how a
 * value is stored (normaliseStoredValue).
 */
const ENGINE: Engine = ON_POSTGRES ? 'postgres' : 'sqlite';
const FROZEN_HISTORY = ENGINE === 'postgres' ? postgresMigrations : sqliteMigrations;

/** Tables of the engines' own machinery, not of the product: migrations, SQLite's full-text index. */
const MACHINERY = /^(kysely_|sqlite_|pcn_search)/;

const AT = '2026-03-26T09:15:00.000Z';
const LATER = '2026-03-26T09:45:30.123Z';
const DAY = '2026-04-26';

/**
 * One row for each table, in an order the foreign keys allow, written as the frozen history stores
 * them on both engines: times as ISO-8601 text, days as 'YYYY-MM-DD', flags as 0/1. Nullable
 * columns hold a value, so a change to how one is stored shows. A table filled by triggers
 * (pcn_counts) gets its row from the notice. A table added later without a row here fails
 * 'every table holds a row' by name.
 */
const ROWS: ReadonlyArray<[table: string, row: Record<string, unknown>]> = [
  [
    'users',
    {
      id: 'u1',
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Admin',
      role: 'SUPER_ADMIN',
      password_hash: 'hash',
      is_active: 1,
      created_at: AT,
      updated_at: LATER,
    },
  ],
  [
    'refresh_tokens',
    {
      id: 'rt1',
      user_id: 'u1',
      token_hash: 'th1',
      family_id: 'f1',
      expires_at: LATER,
      rotated_at: AT,
      replaced_by_id: 'rt2',
      revoked_at: LATER,
      created_at: AT,
      grace_used_at: LATER,
      successor_sealed: 'sealed',
      rotated_device_hash: 'device',
    },
  ],
  [
    'one_time_tokens',
    { id: 'ot1', user_id: 'u1', token_hash: 'oth1', purpose: 'password-reset', expires_at: LATER, used_at: LATER, created_at: AT },
  ],
  ['known_devices', { id: 'kd1', user_id: 'u1', token_hash: 'kdh1', created_at: AT, last_used_at: LATER }],
  ['site_visits', { id: 'sv1', user_id: 'u1', started_at: AT, last_seen_at: LATER }],
  [
    'emails',
    {
      id: 'e1',
      to_address: 'ada@example.com',
      subject: 'Reset',
      purpose: 'password-reset',
      user_id: 'u1',
      status: 'sent',
      error: 'none',
      location: 'outbox/e1.eml',
      created_at: AT,
      sent_at: LATER,
    },
  ],
  ['sign_in_attempts', { id: 'sa1', account: 'ada@example.com', address: '192.0.2.1', reserved_at: 1000, counted_at: 2000, is_failure: 1 }],
  ['rate_limit_events', { id: 're1', scope: 'lookup', key: '192.0.2.1', at: 3000 }],
  [
    'operator_terms',
    { id: 'opt1', terms: '{"chargePence":10000}', changes: '[]', actor_id: 'u1', actor_name: 'Ada Admin', created_at: AT },
  ],
  [
    'car_parks',
    {
      id: 'c1',
      name: 'Riverside',
      site_code: 'RRP01',
      address: '1 Riverside Way',
      postcode: 'LS1 4AB',
      is_active: 1,
      consideration_minutes: 5,
      grace_minutes: 10,
      created_at: AT,
      updated_at: LATER,
      stay_applies_by_default: 0,
      jurisdiction: 'ENGLAND_AND_WALES',
      charge_pence: 10000,
      reduced_charge_pence: 6000,
      reduced_within_days: 14,
      signage_terms: 'Permit holders only',
      minimums_override_reason: 'Agreed with the landowner',
      relevant_land: 1,
    },
  ],
  ['car_park_users', { car_park_id: 'c1', user_id: 'u1', created_at: AT }],
  [
    'car_park_terms',
    {
      id: 'cpt1',
      car_park_id: 'c1',
      terms: '{"chargePence":12000}',
      changes: '[]',
      actor_id: 'u1',
      actor_name: 'Ada Admin',
      created_at: AT,
    },
  ],
  ...[1, 2].map((n): [string, Record<string, unknown>] => [
    'pcns',
    {
      id: `p${n}`,
      sequence: n,
      pcn_number: String(n).padStart(8, '0'),
      vehicle_registration: `AB${n}2CDE`,
      car_park_id: 'c1',
      offence_type: 'PARKING_WITHOUT_PERMIT',
      description: 'No permit shown',
      location: 'Bay 4',
      status: n === 1 ? 'ISSUED' : 'SUBMITTED',
      admin_notes: 'Checked',
      observed_at: AT,
      created_by: 'u1',
      idempotency_key: `key-${n}`,
      request_hash: `hash-${n}`,
      created_at: AT,
      updated_at: LATER,
      issued_at: AT,
      stay_applies: 1,
      clock_offset_ms: -250,
      duplicate_reason: n === 2 ? 'Same vehicle, same day' : null,
      notice_served_by: 'AFFIXED',
      notice_served_at: AT,
      keeper_post_by: DAY,
      operator_terms_id: 'opt1',
      car_park_terms_id: 'cpt1',
      keeper_notice_posted_on: DAY,
      keeper_notice_given_on: '2026-04-28',
      keeper_notice_proof: 'Certificate of posting 123',
      draft_reference: `D-ABCDEF0${n}`,
      first_seen_at: AT,
    },
  ]),
  ['pcn_duplicates', { pcn_id: 'p2', duplicate_of_pcn_id: 'p1', created_at: AT }],
  [
    'pcn_images',
    {
      id: 'i1',
      pcn_id: 'p1',
      file_name: 'i1.jpg',
      original_name: 'IMG_0001.jpg',
      mime_type: 'image/jpeg',
      size: 123456,
      sha256: 'a'.repeat(64),
      taken_at: AT,
      created_at: AT,
      client_sha256: 'a'.repeat(64),
      taken_at_source: 'camera',
      latitude: 53.7997,
      longitude: -1.5492,
      accuracy_m: 4.5,
      shots: '["number-plate"]',
      purged_at: LATER,
    },
  ],
  [
    'pcn_audit',
    {
      id: 'a1',
      pcn_id: 'p1',
      actor_id: 'u1',
      actor_name: 'Ada Admin',
      action: 'created',
      changes: '{}',
      clock_offset_ms: -250,
      created_at: AT,
    },
  ],
  [
    'pcn_status_history',
    { id: 'h1', pcn_id: 'p1', from_status: 'APPROVED', to_status: 'ISSUED', note: 'Issued', changed_by: 'u1', created_at: AT },
  ],
  [
    'pcn_keepers',
    {
      pcn_id: 'p1',
      title: 'Mr',
      first_names: 'John',
      last_name: 'Smith',
      company_name: '',
      address_lines: '1 High Street\nLeeds',
      postcode: 'LS1 1AA',
      make: 'Ford',
      model: 'Focus',
      colour: 'Blue',
      source: 'KEEPER_REPLY',
      vehicle_confirmed_at: AT,
      vehicle_confirmed_by: 'u1',
      created_at: AT,
      updated_at: LATER,
      keeper_type: 'HIRE_COMPANY',
    },
  ],
  [
    'pcn_hirers',
    {
      pcn_id: 'p1',
      title: 'Ms',
      first_names: 'Jane',
      last_name: 'Doe',
      company_name: '',
      address_lines: '2 Low Street\nYork',
      postcode: 'YO1 1AA',
      hire_agreement_reference: 'HA-1',
      documents_given_on: DAY,
      notice_posted_on: DAY,
      notice_given_on: '2026-04-28',
      notice_proof: 'Certificate of posting 124',
      recorded_by: 'u1',
      created_at: AT,
      updated_at: LATER,
    },
  ],
  [
    'pcn_named_drivers',
    {
      pcn_id: 'p1',
      title: 'Mr',
      first_names: 'Sam',
      last_name: 'Driver',
      company_name: '',
      address_lines: '3 Mid Street\nHull',
      postcode: 'HU1 1AA',
      source: 'APPEAL',
      notice_posted_on: DAY,
      notice_given_on: '2026-04-28',
      notice_proof: 'Certificate of posting 125',
      recorded_by: 'u1',
      created_at: AT,
      updated_at: LATER,
    },
  ],
  [
    'pcn_payments',
    {
      id: 'pay1',
      pcn_id: 'p1',
      amount_pence: 2500,
      paid_on: DAY,
      method: 'CHEQUE',
      reference: 'CHQ 100',
      recorded_by: 'u1',
      created_at: AT,
      idempotency_key: 'pay-key',
      overpaid_pence: 0,
    },
  ],
  [
    'appeals',
    {
      id: 'ap1',
      pcn_id: 'p1',
      reference: 'AP-1',
      idempotency_key: 'appeal-key',
      received_at: AT,
      respond_by: DAY,
      appellant_name: 'John Smith',
      appellant_email: 'john@example.com',
      appellant_address: '1 High Street',
      was_driver: 1,
      driver_name: 'John Smith',
      driver_address: '1 High Street',
      reason: 'KEYING_ERROR',
      text: 'I paid',
      status: 'ACCEPTED_REDUCED',
      decision_reasons: 'Charter',
      reduced_charge_pence: 2000,
      verification_code: '1234567890',
      reduced_held_until: DAY,
      appeals_service_until: DAY,
      decided_at: LATER,
      decided_by: 'u1',
      is_late: 0,
      considered_at: LATER,
      considered_by: 'u1',
      channel: 'POST',
      reduced_payable_until: DAY,
      charter_outcome: 'MINOR_KEYING_ERROR',
    },
  ],
  [
    'appeal_attachments',
    {
      id: 'aa1',
      appeal_id: 'ap1',
      position: 0,
      original_name: 'receipt.pdf',
      file_name: 'aa1.pdf',
      mime_type: 'application/pdf',
      size_bytes: 2048,
      sha256: 'b'.repeat(64),
      purged_at: LATER,
    },
  ],
  [
    'set_aside_appeals',
    {
      id: 'sa1',
      pcn_id: 'p1',
      reference: 'AP-0',
      appeal: '{"reason":"OTHER"}',
      reason: 'Not the keeper',
      set_aside_at: AT,
      set_aside_by: 'u1',
    },
  ],
  [
    'pending_appeals',
    {
      id: 'pa1',
      pcn_id: 'p2',
      idempotency_key: 'pending-key',
      token_hash: 'pth1',
      appeal: '{"reason":"OTHER"}',
      filed_at: AT,
      expires_at: LATER,
      confirmed_at: LATER,
    },
  ],
  [
    'pending_appeal_attachments',
    {
      pending_appeal_id: 'pa1',
      position: 0,
      original_name: 'photo.jpg',
      file_name: 'pa1-0.jpg',
      mime_type: 'image/jpeg',
      size_bytes: 4096,
      sha256: 'c'.repeat(64),
    },
  ],
  [
    'sent_documents',
    {
      id: 'sd1',
      pcn_id: 'p1',
      kind: 'NOTICE_TO_KEEPER',
      file_name: 'sd1.pdf',
      mime_type: 'application/pdf',
      size_bytes: 8192,
      sha256: 'd'.repeat(64),
      post_on: DAY,
      reference: 'NTK-1',
      created_at: AT,
      created_by: 'u1',
      created_by_name: 'Ada Admin',
      purged_at: LATER,
    },
  ],
  ['activities', { id: 'ac1', user_id: 'u1', activity_type: 'PCN_CREATED', description: 'Filed', pcn_id: 'p1', created_at: AT }],
  [
    'observations',
    {
      officer_id: 'u1',
      id: 'ob1',
      car_park_id: 'c1',
      vehicle_registration: 'AB12CDE',
      observed_at: AT,
      due_at: LATER,
      status: 'ISSUED',
      closed_at: LATER,
      pcn_id: 'p1',
      created_at: AT,
      updated_at: LATER,
    },
  ],
];

/**
 * What a shared migration is documented to change about how a value is stored, undone for the
 * comparison; everything else must come through exactly. Extend it when a migration changes
 * storage, naming the migration.
 * - 0032_native_postgres_types: on PostgreSQL, 0/1 flags become booleans, which the frozen
 *   history read as 1/0 (SQLite's connection reads its 0/1 flags as booleans before and after).
 *   Times and days become timestamptz and date, which the connection reads back as the same
 *   ISO-8601 text and 'YYYY-MM-DD': those must come through unchanged, so nothing undoes them.
 */
function normaliseStoredValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

type TableRows = Record<string, string[]>;

/** Each product table's columns. */
async function productColumns(db: Kysely<any>): Promise<Record<string, string[]>> {
  const tables = await db.introspection.getTables();
  return Object.fromEntries(
    tables
      .filter((table) => !MACHINERY.test(table.name))
      .map((table) => [table.name, table.columns.map((column) => column.name).sort()] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/**
 * Every row of every product table, each normalised and as JSON, in a stable order: of the
 * tables and columns given (what stood before an upgrade), else of all of them.
 */
async function everyRow(db: Kysely<any>, only?: Record<string, string[]>): Promise<TableRows> {
  const all: TableRows = {};
  for (const [table, columns] of Object.entries(only ?? (await productColumns(db)))) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    all[table] = rows
      .map((row) => JSON.stringify(Object.fromEntries(columns.map((column) => [column, normaliseStoredValue(row[column])]))))
      .sort();
  }
  return all;
}

describe(`upgrading in place from the frozen history (${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'})`, () => {
  let dir: string;
  let postgres: PostgresDatabase | undefined;
  let opened: OpenDatabase;
  let db: Kysely<any>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parkpatrol-upgrade-in-place-'));
    if (ON_POSTGRES) {
      postgres = await createPostgresDatabase(process.env.TEST_POSTGRES_URL!);
      opened = connectDatabase({ engine: 'postgres', url: postgres.url });
    } else {
      opened = connectDatabase({ engine: 'sqlite', file: join(dir, 'parkpatrol.sqlite') });
    }
    db = opened.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => FROZEN_HISTORY } });
    const frozen = await migrator.migrateToLatest();
    expect(frozen.error).toBeUndefined();
    for (const [table, row] of ROWS) await db.insertInto(table).values(row).execute();
  });

  afterEach(async () => {
    await opened?.close();
    await postgres?.drop();
    postgres = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every row of every table as it was', async () => {
    const shape = await productColumns(db);
    const before = await everyRow(db);
    const empty = Object.keys(before).filter((table) => before[table]!.length === 0);
    expect(empty, 'every table holds a row before the upgrade').toEqual([]);

    await migrateToLatest(opened.db);

    const after = await everyRow(db, shape);
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    const tables = Object.keys(await productColumns(db));
    for (const table of Object.keys(before)) expect(tables, 'no table is lost').toContain(table);
  });

  it('0033: a charge whose notice to keeper was posted stands at that collection stage; one without, at none', async () => {
    await db.updateTable('pcns').set({ keeper_notice_posted_on: null, keeper_notice_given_on: null }).where('id', '=', 'p2').execute();
    await migrateToLatest(opened.db);
    const stages = await db.selectFrom('pcns').select(['id', 'collection_stage']).orderBy('id').execute();
    expect(stages).toEqual([
      { id: 'p1', collection_stage: 'NOTICE_TO_KEEPER' },
      { id: 'p2', collection_stage: null },
    ]);
  });

  it('0037: an appeal stands not withdrawn; WITHDRAWN and appeal_withdrawn are allowed, and withdrawn_at goes with WITHDRAWN only', async () => {
    await migrateToLatest(opened.db);
    const appeal = await db.selectFrom('appeals').select(['status', 'withdrawn_at']).where('id', '=', 'ap1').executeTakeFirstOrThrow();
    expect(appeal).toEqual({ status: 'ACCEPTED_REDUCED', withdrawn_at: null });

    const withdraw = (fields: Record<string, unknown>) => db.updateTable('appeals').set(fields).where('id', '=', 'ap1').execute();
    await expect(withdraw({ status: 'WITHDRAWN' }), 'WITHDRAWN without the moment').rejects.toThrow(WITHDRAWN_AT_CHECK);
    await expect(withdraw({ withdrawn_at: LATER }), 'a moment on an appeal not withdrawn').rejects.toThrow(WITHDRAWN_AT_CHECK);
    await withdraw({ status: 'WITHDRAWN', withdrawn_at: LATER });
    const stored = await db.selectFrom('appeals').select(['status', 'withdrawn_at']).where('id', '=', 'ap1').executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'WITHDRAWN', withdrawn_at: LATER });
    await db
      .insertInto('pcn_audit')
      .values({ id: 'a2', pcn_id: 'p1', actor_name: 'John Smith (appellant)', action: 'appeal_withdrawn', changes: '{}', created_at: AT })
      .execute();
  });

  it('0038: a keeper stands with no refusal of the vehicle; a refusal and a confirmation never stand together', async () => {
    await migrateToLatest(opened.db);
    const answers = () =>
      db
        .selectFrom('pcn_keepers')
        .select(['vehicle_confirmed_at', 'vehicle_mismatch_at', 'vehicle_mismatch_by'])
        .where('pcn_id', '=', 'p1')
        .executeTakeFirstOrThrow();
    expect(await answers()).toEqual({ vehicle_confirmed_at: AT, vehicle_mismatch_at: null, vehicle_mismatch_by: null });
    const answer = (fields: Record<string, unknown>) => db.updateTable('pcn_keepers').set(fields).where('pcn_id', '=', 'p1').execute();
    await expect(answer({ vehicle_mismatch_at: LATER, vehicle_mismatch_by: 'Kay Admin' }), 'refused while confirmed').rejects.toThrow(
      ONE_VEHICLE_ANSWER_CHECK,
    );
    await answer({ vehicle_confirmed_at: null, vehicle_confirmed_by: null, vehicle_mismatch_at: LATER, vehicle_mismatch_by: 'Kay Admin' });
    expect(await answers()).toEqual({ vehicle_confirmed_at: null, vehicle_mismatch_at: LATER, vehicle_mismatch_by: 'Kay Admin' });
  });

  it("0039: the operator's logo keeps a picture with its hash, and its rows read back in the order inserted", async () => {
    await migrateToLatest(opened.db);
    const row = (id: string, image: Buffer | null, sha256: string | null) =>
      db.insertInto('operator_logos').values({ id, image, sha256, actor_id: null, actor_name: 'Kay Admin', created_at: AT }).execute();
    await expect(row('l0', Buffer.from([1, 2, 3]), null), 'a picture without its hash').rejects.toThrow(LOGO_WITH_HASH_CHECK);
    await expect(row('l0', null, 'a'.repeat(64)), 'a hash without its picture').rejects.toThrow(LOGO_WITH_HASH_CHECK);
    // Ids that sort the other way: only the insertion order says which came last.
    await row('z1', Buffer.from([1, 2, 3]), 'b'.repeat(64));
    await row('a2', null, null);
    const rows = await db
      .selectFrom('operator_logos')
      .select(['id', 'image'])
      .orderBy(sql`rowid`, 'desc')
      .execute();
    expect(rows.map((r) => r.id)).toEqual(['a2', 'z1']);
    expect([...rows[1]!.image!]).toEqual([1, 2, 3]);
  });

  it("refuses, after 0031, a value outside each enumerated column's set", async () => {
    await migrateToLatest(opened.db);
    const columns = Object.entries(ENUMERATED_COLUMNS).flatMap(([table, byColumn]) =>
      Object.keys(byColumn).map((column) => ({ table, column })),
    );
    expect(columns.length).toBeGreaterThan(20);
    for (const { table, column } of columns) {
      const name = enumeratedCheckName(table, column);
      // The audit trail refuses every update in a trigger of its own: a new row is tried instead.
      const attempt =
        table === 'pcn_audit'
          ? db
              .insertInto('pcn_audit')
              .values({ id: 'a2', pcn_id: 'p1', actor_name: 'X', action: 'NOT_A_VALUE', changes: '{}', created_at: AT })
              .execute()
          : db
              .updateTable(table)
              .set({ [column]: 'NOT_A_VALUE' })
              .execute();
      await expect(attempt, `${table}.${column}`).rejects.toThrow(name);
    }
    // An allowed value still goes in, and NULL stays allowed where the column allows it.
    await db.updateTable('pcns').set({ status: 'PAID', notice_served_by: null }).where('id', '=', 'p1').execute();
    await db.updateTable('users').set({ role: 'ADMIN' }).execute();
  });

  it('stops at a stored value outside its set, naming the table, column and value, and changes nothing', async () => {
    await db.updateTable('pcns').set({ status: 'LOST' }).where('id', '=', 'p2').execute();
    await db.updateTable('appeals').set({ channel: 'FAX' }).execute();

    await expect(migrateToLatest(opened.db)).rejects.toThrow(/pcns\.status = 'LOST' \(1 row\);.*appeals\.channel = 'FAX' \(1 row\)/);

    const applied = await db.selectFrom('kysely_migration').select('name').execute();
    expect(applied.map((row) => row.name)).not.toContain('0031_enumerated_column_checks');
    // No check was added: the bad value can still be written, as before.
    await db.updateTable('users').set({ role: 'NOBODY' }).execute();
  });
});
