import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// The registered keeper of each notice's vehicle, as an admin entered it or a keeper reply
// (the DVLA's answer) gave it, with the vehicle the DVLA holds and the admin's confirmation that
// it matches the photos. Personal data: removed with the notice and by the retention policy.
// And the notice to keeper's posting: the day it was posted, the day it is presumed given, and
// the proof-of-posting reference.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pcn_keepers')
    .addColumn('pcn_id', 'text', (col) => col.primaryKey().references('pcns.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('first_names', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text', (col) => col.notNull())
    .addColumn('company_name', 'text', (col) => col.notNull())
    .addColumn('address_lines', 'text', (col) => col.notNull())
    .addColumn('postcode', 'text', (col) => col.notNull())
    .addColumn('make', 'text', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('colour', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('vehicle_confirmed_at', 'text')
    .addColumn('vehicle_confirmed_by', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.alterTable('pcns').addColumn('keeper_notice_posted_on', 'text').execute();
  await db.schema.alterTable('pcns').addColumn('keeper_notice_given_on', 'text').execute();
  await db.schema.alterTable('pcns').addColumn('keeper_notice_proof', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcns').dropColumn('keeper_notice_proof').execute();
  await db.schema.alterTable('pcns').dropColumn('keeper_notice_given_on').execute();
  await db.schema.alterTable('pcns').dropColumn('keeper_notice_posted_on').execute();
  await db.schema.dropTable('pcn_keepers').execute();
}
