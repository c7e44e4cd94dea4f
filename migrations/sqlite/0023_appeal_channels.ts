import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Appeals by email, post or phone (decision 0024): how each appeal came (those stored before were
// all made on the motorist's page, ONLINE); an appeal by post may have no email (stored as '').
// A decision at a reduced amount keeps the independent service's route and is payable until a day;
// the Appeals Charter case an admin followed is kept with the decision.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('appeals')
    .addColumn('channel', 'text', (col) => col.notNull().defaultTo('ONLINE'))
    .execute();
  await db.schema.alterTable('appeals').addColumn('reduced_payable_until', 'text').execute();
  await db.schema.alterTable('appeals').addColumn('charter_outcome', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('appeals').dropColumn('charter_outcome').execute();
  await db.schema.alterTable('appeals').dropColumn('reduced_payable_until').execute();
  await db.schema.alterTable('appeals').dropColumn('channel').execute();
}
