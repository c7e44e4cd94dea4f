import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Payments an admin records against a charge (taken by the operator's own means: card, transfer,
// cheque); partial payments are kept, and the charge is paid once they meet what is due.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pcn_payments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('amount_pence', 'integer', (col) => col.notNull())
    .addColumn('paid_on', 'text', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('recorded_by', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('pcn_payments_pcn').on('pcn_payments').columns(['pcn_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pcn_payments').execute();
}
