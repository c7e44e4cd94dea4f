import type { Kysely } from 'kysely';
import { DEBT_RECOVERY_HANDOVER_STATES } from '@parkpatrol/shared';
import { addCheck, columnTypes, dropCheck, isOneOf } from '../api/src/db/dialect.ts';
import { enumeratedCheckName } from './0031_enumerated_column_checks.ts';

// Written once for both engines; never edited after it lands.
//
// A hand-over to the debt recovery agency packed by a job, not in the admin's request: where it
// stands, how many of its charges are packed, why it failed, and the batch once made (the batch
// table keeps only batches made, as before). Its charges in the order packed: a charge in a
// hand-over still being made is not offered for another.

export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('debt_recovery_handovers')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('total', 'integer', (col) => col.notNull())
    .addColumn('made', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('batch_id', 'text', (col) => col.references('debt_recovery_batches.id'))
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('finished_at', types.timestamp)
    .execute();
  await db.schema.createIndex('debt_recovery_handovers_created').on('debt_recovery_handovers').column('created_at').execute();
  await addCheck(db, {
    table: 'debt_recovery_handovers',
    name: enumeratedCheckName('debt_recovery_handovers', 'state'),
    columns: ['state'],
    condition: (c) => isOneOf(c('state'), DEBT_RECOVERY_HANDOVER_STATES),
  });

  await db.schema
    .createTable('debt_recovery_handover_items')
    .addColumn('handover_id', 'text', (col) => col.notNull().references('debt_recovery_handovers.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('debt_recovery_handover_items_pk', ['handover_id', 'position'])
    .execute();
  await db.schema.createIndex('debt_recovery_handover_items_pcn').on('debt_recovery_handover_items').column('pcn_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('debt_recovery_handover_items').execute();
  await dropCheck(db, { table: 'debt_recovery_handovers', name: enumeratedCheckName('debt_recovery_handovers', 'state') });
  await db.schema.dropTable('debt_recovery_handovers').execute();
}
