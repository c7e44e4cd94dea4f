import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Appeals against a charge (decision 0019): one per charge (a unique pcn_id), made once per
// Idempotency-Key, with the motorist's attachments stored under names we make; a rejection's
// verification code is unique and searchable.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('appeals')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().unique().references('pcns.id').onDelete('cascade'))
    .addColumn('reference', 'text', (col) => col.notNull().unique())
    .addColumn('idempotency_key', 'text', (col) => col.notNull().unique())
    .addColumn('received_at', 'text', (col) => col.notNull())
    .addColumn('respond_by', 'text', (col) => col.notNull())
    .addColumn('appellant_name', 'text', (col) => col.notNull())
    .addColumn('appellant_email', 'text', (col) => col.notNull())
    .addColumn('appellant_address', 'text', (col) => col.notNull())
    .addColumn('was_driver', 'integer', (col) => col.notNull())
    .addColumn('driver_name', 'text', (col) => col.notNull())
    .addColumn('driver_address', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('decision_reasons', 'text')
    .addColumn('reduced_charge_pence', 'integer')
    .addColumn('verification_code', 'text', (col) => col.unique())
    .addColumn('reduced_held_until', 'text')
    .addColumn('appeals_service_until', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text')
    .execute();
  await db.schema.createIndex('appeals_queue').on('appeals').columns(['status', 'respond_by']).execute();
  await db.schema
    .createTable('appeal_attachments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('appeal_id', 'text', (col) => col.notNull().references('appeals.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('original_name', 'text', (col) => col.notNull())
    .addColumn('file_name', 'text', (col) => col.notNull().unique())
    .addColumn('mime_type', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    // Set when the retention policy removes the file (the row and its hash stay).
    .addColumn('purged_at', 'text')
    .execute();
  await db.schema.createIndex('appeal_attachments_appeal').on('appeal_attachments').columns(['appeal_id', 'position']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('appeal_attachments').execute();
  await db.schema.dropTable('appeals').execute();
}
