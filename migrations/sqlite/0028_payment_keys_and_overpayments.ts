import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// A payment is recorded once however often the admin's form sends it: the key of the attempt
// (the Idempotency-Key header) is kept with it, unique, so a replay finds the first. A payment of
// more than was due is still recorded (the money was taken), with the excess kept beside it, so
// the answer and the screen can say so. Older payments have no key and no excess known.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcn_payments').addColumn('idempotency_key', 'text').execute();
  await db.schema
    .alterTable('pcn_payments')
    .addColumn('overpaid_pence', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('pcn_payments_idempotency_key').unique().on('pcn_payments').column('idempotency_key').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pcn_payments_idempotency_key').execute();
  await db.schema.alterTable('pcn_payments').dropColumn('overpaid_pence').execute();
  await db.schema.alterTable('pcn_payments').dropColumn('idempotency_key').execute();
}
