import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// What was sent is kept (decision 0025): each letter, decision letter and notice to driver as it
// was made, its file in the evidence store under a name we made, with its SHA-256, the posting day
// it prints (letters) and who made it. Rows go with their notice; their files are then orphans.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sent_documents')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('file_name', 'text', (col) => col.notNull().unique())
    .addColumn('mime_type', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('post_on', 'text')
    .addColumn('reference', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (col) => col.notNull())
    // Set when the retention policy removes the file (the row and its hash stay), as for photos.
    .addColumn('purged_at', 'text')
    .execute();
  await db.schema.createIndex('sent_documents_pcn').on('sent_documents').columns(['pcn_id', 'kind', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sent_documents').execute();
}
