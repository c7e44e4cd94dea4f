import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// The operator's terms (creditor, how to pay, the appeals service) and each car park's (charge,
// reduced amount and its days, signage terms), kept as a history: every change is a new row
// with who made it and what changed, which is both the audit and what lets a notice keep the
// terms in force when it was issued (pcns.operator_terms_id, pcns.car_park_terms_id). The car
// park's current terms are also on car_parks, where every list reads them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('operator_terms')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('terms', 'text', (col) => col.notNull())
    .addColumn('changes', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('operator_terms_created').on('operator_terms').column('created_at').execute();
  await db.schema
    .createTable('car_park_terms')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('car_park_id', 'text', (col) => col.notNull().references('car_parks.id').onDelete('cascade'))
    .addColumn('terms', 'text', (col) => col.notNull())
    .addColumn('changes', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('car_park_terms_car_park').on('car_park_terms').columns(['car_park_id', 'created_at']).execute();
  await db.schema.alterTable('car_parks').addColumn('charge_pence', 'integer').execute();
  await db.schema.alterTable('car_parks').addColumn('reduced_charge_pence', 'integer').execute();
  await db.schema.alterTable('car_parks').addColumn('reduced_within_days', 'integer').execute();
  await db.schema
    .alterTable('car_parks')
    .addColumn('signage_terms', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('pcns').addColumn('operator_terms_id', 'text').execute();
  await db.schema.alterTable('pcns').addColumn('car_park_terms_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcns').dropColumn('car_park_terms_id').execute();
  await db.schema.alterTable('pcns').dropColumn('operator_terms_id').execute();
  for (const column of ['signage_terms', 'reduced_within_days', 'reduced_charge_pence', 'charge_pence']) {
    await db.schema.alterTable('car_parks').dropColumn(column).execute();
  }
  await db.schema.dropTable('car_park_terms').execute();
  await db.schema.dropTable('operator_terms').execute();
}
