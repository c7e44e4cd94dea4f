import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Appeals awaiting confirmation (decision 0032): an appeal filed from /charge counts only once it
// is confirmed from the email address it gives. Until then it is kept here, as filed (its time is
// the appeal's received time), with its attachments already in the store, the confirmation
// link's token as its SHA-256 and when the link dies. Several may wait for one charge; the first
// confirmed becomes the charge's one appeal. Unconfirmed ones go (with their files) after expiry.
// Personal data: removed with the notice, and at expiry.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pending_appeals')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (col) => col.notNull().unique())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('appeal', 'text', (col) => col.notNull())
    .addColumn('filed_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('confirmed_at', 'text')
    .execute();
  await db.schema.createIndex('pending_appeals_expiry').on('pending_appeals').columns(['expires_at']).execute();
  await db.schema
    .createTable('pending_appeal_attachments')
    .addColumn('pending_appeal_id', 'text', (col) => col.notNull().references('pending_appeals.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('original_name', 'text', (col) => col.notNull())
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('mime_type', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('pending_appeal_attachments_pk', ['pending_appeal_id', 'position'])
    .execute();
  await db.schema.createIndex('pending_appeal_attachments_file').on('pending_appeal_attachments').columns(['file_name']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pending_appeal_attachments').execute();
  await db.schema.dropTable('pending_appeals').execute();
}
