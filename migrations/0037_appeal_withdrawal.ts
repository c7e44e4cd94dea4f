import { sql, type Kysely } from 'kysely';
import { APPEAL_STATUSES, PCN_AUDIT_ACTIONS } from '@parkpatrol/shared';
import { addCheck, columnTypes, dropCheck, isOneOf } from '../api/src/db/dialect.ts';
import { enumeratedCheckName } from './0031_enumerated_column_checks.ts';

// Written once for both engines; never edited after it lands.
//
// A motorist may withdraw their appeal while it awaits a decision (decision 0044): the appeal
// keeps its row, its status becomes WITHDRAWN and the moment is kept in withdrawn_at, and the
// charge's audit trail has an appeal_withdrawn entry. Two enumerated sets grow (appeal statuses,
// audit actions): their checks from 0031 are dropped and added again with the sets as they now
// stand. A third check keeps the two columns telling one story: withdrawn_at is set exactly when
// the appeal is WITHDRAWN.

const GROWN: ReadonlyArray<{ table: string; column: string; values: readonly string[]; added: string }> = [
  { table: 'appeals', column: 'status', values: APPEAL_STATUSES, added: 'WITHDRAWN' },
  { table: 'pcn_audit', column: 'action', values: PCN_AUDIT_ACTIONS, added: 'appeal_withdrawn' },
];

/** The name of the check that ties withdrawn_at to the WITHDRAWN status. Exported for the upgrade test. */
export const WITHDRAWN_AT_CHECK = 'appeals_withdrawn_at_with_status';

async function regrow(db: Kysely<any>, table: string, column: string, values: readonly string[]): Promise<void> {
  const name = enumeratedCheckName(table, column);
  await dropCheck(db, { table, name });
  await addCheck(db, { table, name, columns: [column], condition: (c) => isOneOf(c(column), values) });
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, column, values } of GROWN) await regrow(db, table, column, values);
  await db.schema.alterTable('appeals').addColumn('withdrawn_at', columnTypes(db).timestamp).execute();
  await addCheck(db, {
    table: 'appeals',
    name: WITHDRAWN_AT_CHECK,
    columns: ['status', 'withdrawn_at'],
    condition: (c) =>
      sql`(${c('status')} = 'WITHDRAWN' and ${c('withdrawn_at')} is not null) or (${c('status')} <> 'WITHDRAWN' and ${c('withdrawn_at')} is null)`,
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropCheck(db, { table: 'appeals', name: WITHDRAWN_AT_CHECK });
  await db.schema.alterTable('appeals').dropColumn('withdrawn_at').execute();
  for (const { table, column, values, added } of GROWN) {
    await regrow(
      db,
      table,
      column,
      values.filter((value) => value !== added),
    );
  }
}
