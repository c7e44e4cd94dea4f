import { sql, type Kysely } from 'kysely';
import { engineOf } from '../api/src/db/dialect.ts';

// Written once for both engines; never edited after it lands.
//
// PostgreSQL's history held its columns to SQLite's storage classes: times as ISO-8601 text
// collated "C" (so text order was time order), calendar days as 'YYYY-MM-DD' text and flags as
// 0/1 integers. Here they become PostgreSQL's own types: timestamptz, date and boolean. The
// application sees the same values on both engines: pg's type parsers (api/src/db/database.ts)
// read a timestamptz back as the ISO-8601 text SQLite holds and a date as 'YYYY-MM-DD', and the
// SQLite connection stores a boolean as 0/1 and reads it back as a boolean (decision 0035).
// SQLite keeps its storage classes: nothing changes there.
//
// Every stored time was written by the application as Date#toISOString() (UTC, milliseconds),
// which timestamptz holds exactly; every calendar day as 'YYYY-MM-DD'. Money is already integer
// pence on both engines. ALTER TABLE rebuilds the indexes on these columns, all but the keeper
// queue's, whose coalesce(keeper_post_by, '9999-12-31') compares the day with text: it is made
// again around the change, as it stands (its WHERE clause included), with the day a date.

const TIMESTAMPS: Record<string, readonly string[]> = {
  activities: ['created_at'],
  appeal_attachments: ['purged_at'],
  appeals: ['received_at', 'decided_at', 'considered_at'],
  car_park_terms: ['created_at'],
  car_park_users: ['created_at'],
  car_parks: ['created_at', 'updated_at'],
  emails: ['created_at', 'sent_at'],
  known_devices: ['created_at', 'last_used_at'],
  observations: ['observed_at', 'due_at', 'closed_at', 'created_at', 'updated_at'],
  one_time_tokens: ['expires_at', 'used_at', 'created_at'],
  operator_terms: ['created_at'],
  pcn_audit: ['created_at'],
  pcn_duplicates: ['created_at'],
  pcn_hirers: ['created_at', 'updated_at'],
  pcn_images: ['taken_at', 'created_at', 'purged_at'],
  pcn_keepers: ['vehicle_confirmed_at', 'created_at', 'updated_at'],
  pcn_named_drivers: ['created_at', 'updated_at'],
  pcn_payments: ['created_at'],
  pcn_status_history: ['created_at'],
  pcns: ['observed_at', 'first_seen_at', 'issued_at', 'notice_served_at', 'created_at', 'updated_at'],
  pending_appeals: ['filed_at', 'expires_at', 'confirmed_at'],
  refresh_tokens: ['expires_at', 'rotated_at', 'revoked_at', 'created_at', 'grace_used_at'],
  sent_documents: ['created_at', 'purged_at'],
  set_aside_appeals: ['set_aside_at'],
  site_visits: ['started_at', 'last_seen_at'],
  users: ['created_at', 'updated_at'],
};

/** Calendar days (posting days, deadlines, days paid): 'YYYY-MM-DD', no time of day. */
const DAYS: Record<string, readonly string[]> = {
  appeals: ['respond_by', 'reduced_held_until', 'appeals_service_until', 'reduced_payable_until'],
  pcn_hirers: ['documents_given_on', 'notice_posted_on', 'notice_given_on'],
  pcn_named_drivers: ['notice_posted_on', 'notice_given_on'],
  pcn_payments: ['paid_on'],
  pcns: ['keeper_post_by', 'keeper_notice_posted_on', 'keeper_notice_given_on'],
  sent_documents: ['post_on'],
};

/** 0/1 flags, and the default each column had (null: none). */
const FLAGS: Record<string, Record<string, boolean | null>> = {
  users: { is_active: true },
  car_parks: { is_active: true, stay_applies_by_default: false, relevant_land: true },
  pcns: { stay_applies: false },
  appeals: { was_driver: null, is_late: false },
  sign_in_attempts: { is_failure: false },
};

type Change = { table: string; column: string; to: 'timestamptz' | 'date' | 'boolean'; default?: boolean | null };

function changes(): Change[] {
  const all: Change[] = [];
  for (const [table, columns] of Object.entries(TIMESTAMPS)) for (const column of columns) all.push({ table, column, to: 'timestamptz' });
  for (const [table, columns] of Object.entries(DAYS)) for (const column of columns) all.push({ table, column, to: 'date' });
  for (const [table, columns] of Object.entries(FLAGS)) {
    for (const [column, flagDefault] of Object.entries(columns)) all.push({ table, column, to: 'boolean', default: flagDefault });
  }
  return all;
}

/** One ALTER TABLE per table, so each table is rewritten (and its indexes rebuilt) once. */
async function alterEach(db: Kysely<any>, clausesOf: (change: Change) => ReturnType<typeof sql>[]): Promise<void> {
  const byTable = new Map<string, Change[]>();
  for (const change of changes()) byTable.set(change.table, [...(byTable.get(change.table) ?? []), change]);
  for (const [table, tableChanges] of byTable) {
    await sql`alter table ${sql.table(table)} ${sql.join(tableChanges.flatMap(clausesOf))}`.execute(db);
  }
}

/** The keeper queue's index as it stands, dropped so its column can change type, to be made again. */
async function dropKeeperQueueIndex(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_indexdef(indexrelid) as definition from pg_index where indexrelid = 'pcns_keeper_queue_open'::regclass`.execute(db);
  await db.schema.dropIndex('pcns_keeper_queue_open').execute();
  return rows[0]!.definition;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  const keeperQueue = await dropKeeperQueueIndex(db);
  await alterEach(db, ({ column, to, default: flagDefault }) => {
    const ref = sql.ref(column);
    if (to === 'timestamptz') return [sql`alter column ${ref} type timestamptz using ${ref}::timestamptz`];
    if (to === 'date') return [sql`alter column ${ref} type date using ${ref}::date`];
    // An integer default cannot be cast to boolean: drop it, change the type, set it again.
    return [
      sql`alter column ${ref} drop default`,
      sql`alter column ${ref} type boolean using ${ref} <> 0`,
      ...(flagDefault === null || flagDefault === undefined ? [] : [sql`alter column ${ref} set default ${sql.lit(flagDefault)}`]),
    ];
  });
  await sql.raw(keeperQueue.replace("'9999-12-31'::text", "'9999-12-31'::date")).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  const keeperQueue = await dropKeeperQueueIndex(db);
  await alterEach(db, ({ column, to, default: flagDefault }) => {
    const ref = sql.ref(column);
    // Back to what PostgreSQL's history made: text collated "C" holding the same ISO-8601 text.
    if (to === 'timestamptz') {
      return [sql`alter column ${ref} type text collate "C" using to_char(${ref} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`];
    }
    if (to === 'date') return [sql`alter column ${ref} type text using to_char(${ref}, 'YYYY-MM-DD')`];
    return [
      sql`alter column ${ref} drop default`,
      sql`alter column ${ref} type integer using case when ${ref} then 1 else 0 end`,
      ...(flagDefault === null || flagDefault === undefined ? [] : [sql`alter column ${ref} set default ${sql.lit(flagDefault ? 1 : 0)}`]),
    ];
  });
  await sql.raw(keeperQueue.replace("'9999-12-31'::date", "'9999-12-31'::text")).execute(db);
}
