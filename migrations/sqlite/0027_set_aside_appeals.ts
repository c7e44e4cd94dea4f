import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Appeals set aside (decision 0032): an appeal filed by someone who only read the windscreen
// notice takes the charge's one appeal; an admin sets it aside with a reason, and it leaves the
// appeals table (freeing the charge's one slot) for this one, kept whole as it was filed (a JSON
// copy of the row and its attachments' names and hashes), with who set it aside, when and why.
// Personal data: removed with the notice.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('set_aside_appeals')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('appeal', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('set_aside_at', 'text', (col) => col.notNull())
    .addColumn('set_aside_by', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('set_aside_appeals_pcn').on('set_aside_appeals').columns(['pcn_id', 'set_aside_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('set_aside_appeals').execute();
}
