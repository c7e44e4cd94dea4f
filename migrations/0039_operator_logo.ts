import { sql, type Kysely } from 'kysely';
import { addCheck, columnTypes, dropCheck, withInsertionOrder } from '../api/src/db/dialect.ts';

// Written once for both engines; never edited after it lands.
//
// The operator's logo, shown beside their name at the top of /charge, kept as a history as the
// operator's terms are: each upload or removal is a row saying who did it and when, and the
// newest row is the one in force. An upload's row holds the small PNG made from it (a few KB)
// and its SHA-256, which names it in its public address; a removal's row holds neither.

/** The name of the check that keeps a picture and its hash together. Exported for the upgrade test. */
export const LOGO_WITH_HASH_CHECK = 'operator_logos_image_with_hash';

export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  const table = db.schema
    .createTable('operator_logos')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('image', types.bytes)
    .addColumn('sha256', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull());
  // Two changes in one millisecond: the one inserted last is in force.
  await withInsertionOrder(db, table).execute();
  await addCheck(db, {
    table: 'operator_logos',
    name: LOGO_WITH_HASH_CHECK,
    columns: ['image', 'sha256'],
    condition: (c) => sql`(${c('image')} is null) = (${c('sha256')} is null)`,
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropCheck(db, { table: 'operator_logos', name: LOGO_WITH_HASH_CHECK });
  await db.schema.dropTable('operator_logos').execute();
}
