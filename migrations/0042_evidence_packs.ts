import type { Kysely } from 'kysely';
import { EVIDENCE_PACK_STATES } from '@parkpatrol/shared';
import { addCheck, columnTypes, dropCheck, isOneOf } from '../api/src/db/dialect.ts';
import { enumeratedCheckName } from './0031_enumerated_column_checks.ts';

// Written once for both engines; never edited after it lands.
//
// An evidence pack made by a job, not in the admin's request: which notice, where it stands, and
// the PDF once made (its name in the evidence store and its SHA-256). A pack is a download, not a
// record: the daily retention run removes packs a day old, and a notice deleted or purged takes
// its packs with it.

export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('evidence_packs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('error', 'text')
    .addColumn('file_name', 'text')
    .addColumn('sha256', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('finished_at', types.timestamp)
    .execute();
  await db.schema.createIndex('evidence_packs_pcn').on('evidence_packs').columns(['pcn_id', 'created_at']).execute();
  await db.schema.createIndex('evidence_packs_created').on('evidence_packs').column('created_at').execute();
  await addCheck(db, {
    table: 'evidence_packs',
    name: enumeratedCheckName('evidence_packs', 'state'),
    columns: ['state'],
    condition: (c) => isOneOf(c('state'), EVIDENCE_PACK_STATES),
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropCheck(db, { table: 'evidence_packs', name: enumeratedCheckName('evidence_packs', 'state') });
  await db.schema.dropTable('evidence_packs').execute();
}
