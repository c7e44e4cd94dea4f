import type { Kysely } from 'kysely';
import { LETTER_BATCH_STATES } from '@parkpatrol/shared';
import { addCheck, columnTypes, dropCheck, isOneOf } from '../api/src/db/dialect.ts';
import { enumeratedCheckName } from './0031_enumerated_column_checks.ts';

// Written once for both engines; never edited after it lands.
//
// A batch of notices to keeper made by a job, not in the admin's request: the batch (the posting
// day, where it stands, how many of how many are made, the one PDF of them all once ready), and
// its notices in the order chosen, each with the sent document made for it. A notice's document
// is recorded in the same transaction that stores it, so a batch tried again after a crash makes
// only the letters it had not made.

export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('letter_batches')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('post_on', types.date, (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('total', 'integer', (col) => col.notNull())
    .addColumn('made', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('file_name', 'text')
    .addColumn('sha256', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('finished_at', types.timestamp)
    .execute();
  await db.schema.createIndex('letter_batches_created').on('letter_batches').column('created_at').execute();
  await addCheck(db, {
    table: 'letter_batches',
    name: enumeratedCheckName('letter_batches', 'state'),
    columns: ['state'],
    condition: (c) => isOneOf(c('state'), LETTER_BATCH_STATES),
  });

  await db.schema
    .createTable('letter_batch_items')
    .addColumn('batch_id', 'text', (col) => col.notNull().references('letter_batches.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('sent_document_id', 'text')
    .addPrimaryKeyConstraint('letter_batch_items_pk', ['batch_id', 'position'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('letter_batch_items').execute();
  await dropCheck(db, { table: 'letter_batches', name: enumeratedCheckName('letter_batches', 'state') });
  await db.schema.dropTable('letter_batches').execute();
}
