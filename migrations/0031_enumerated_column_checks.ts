import { sql, type Kysely } from 'kysely';
import {
  ACTIVITY_TYPES,
  APPEAL_CHANNELS,
  APPEAL_REASONS,
  APPEAL_STATUSES,
  CHARTER_CASES,
  JURISDICTIONS,
  KEEPER_SOURCES,
  KEEPER_TYPES,
  NAMED_DRIVER_SOURCES,
  NOTICE_SERVED_BY,
  OBSERVATION_STATUSES,
  OFFENCE_TYPES,
  ONE_TIME_LINK_PURPOSES,
  PAYMENT_METHODS,
  PCN_AUDIT_ACTIONS,
  PCN_STATUSES,
  ROLES,
  SENT_DOCUMENT_KINDS,
  TAKEN_AT_SOURCE_LABELS,
} from '@parkpatrol/shared';
import { addCheck, dropCheck, isOneOf } from '../api/src/db/dialect.ts';

// Written once for both engines; never edited after it lands.
//
// Every text column that holds one of a fixed set of values gets a CHECK against that set, so a
// value the application does not know can never be stored, by a bug or by hand. The sets are
// the constants in the shared package, the ones the application's types are made from: there is
// one list of each. A later change to one of those constants needs its own migration that drops
// and adds that column's check again (dropCheck, addCheck), or the database refuses the new value.
//
// Rows already there are looked at first. Any value outside its set stops the migration, before
// anything is changed, with each table, column and value named: a person must decide what such a
// row means, and silently rewriting it could lose what it records.

/** Each enumerated column, by table, with its allowed values. Exported for the upgrade test. */
export const ENUMERATED_COLUMNS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  users: { role: ROLES },
  one_time_tokens: { purpose: ONE_TIME_LINK_PURPOSES },
  car_parks: { jurisdiction: JURISDICTIONS },
  pcns: { status: PCN_STATUSES, offence_type: OFFENCE_TYPES, notice_served_by: NOTICE_SERVED_BY },
  pcn_images: { taken_at_source: Object.keys(TAKEN_AT_SOURCE_LABELS) },
  pcn_audit: { action: PCN_AUDIT_ACTIONS },
  pcn_status_history: { from_status: PCN_STATUSES, to_status: PCN_STATUSES },
  pcn_counts: { status: PCN_STATUSES },
  pcn_keepers: { source: KEEPER_SOURCES, keeper_type: KEEPER_TYPES },
  pcn_named_drivers: { source: NAMED_DRIVER_SOURCES },
  pcn_payments: { method: PAYMENT_METHODS },
  appeals: { status: APPEAL_STATUSES, reason: APPEAL_REASONS, channel: APPEAL_CHANNELS, charter_outcome: CHARTER_CASES },
  sent_documents: { kind: SENT_DOCUMENT_KINDS },
  activities: { activity_type: ACTIVITY_TYPES },
  observations: { status: OBSERVATION_STATUSES },
};

/** The name of a column's check: the constraint on PostgreSQL, the triggers' stem on SQLite. */
export function enumeratedCheckName(table: string, column: string): string {
  return `${table}_${column}_allowed`;
}

function eachColumn(): Array<{ table: string; column: string; values: readonly string[] }> {
  return Object.entries(ENUMERATED_COLUMNS).flatMap(([table, columns]) =>
    Object.entries(columns).map(([column, values]) => ({ table, column, values })),
  );
}

export async function up(db: Kysely<any>): Promise<void> {
  const found: string[] = [];
  for (const { table, column, values } of eachColumn()) {
    const { rows } = await sql<{ value: string; n: number }>`
      select ${sql.ref(column)} as value, count(*) as n from ${sql.table(table)}
      where ${sql.ref(column)} is not null and not (${isOneOf(sql.ref(column), values)})
      group by ${sql.ref(column)} order by ${sql.ref(column)}`.execute(db);
    for (const row of rows) {
      const count = Number(row.n);
      found.push(`${table}.${column} = '${row.value}' (${count} ${count === 1 ? 'row' : 'rows'})`);
    }
  }
  if (found.length > 0) {
    throw new Error(
      `Rows hold values their column does not allow; decide what each means and correct it, then migrate again: ${found.join('; ')}`,
    );
  }
  for (const { table, column, values } of eachColumn()) {
    await addCheck(db, {
      table,
      name: enumeratedCheckName(table, column),
      columns: [column],
      condition: (ref) => isOneOf(ref(column), values),
    });
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, column } of eachColumn()) await dropCheck(db, { table, name: enumeratedCheckName(table, column) });
}
