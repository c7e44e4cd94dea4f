import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// How the notice to driver was served (AFFIXED, HANDED, DRIVE_OFF) and when, which decides the
// route to keeper liability (Protection of Freedoms Act 2012, Schedule 4, paragraph 8 or 9);
// null on notices filed before it was recorded. A car park's jurisdiction decides whether
// Schedule 4 applies at all (England and Wales only); existing car parks are in England and Wales.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcns').addColumn('notice_served_by', 'text').execute();
  await db.schema.alterTable('pcns').addColumn('notice_served_at', 'text').execute();
  await db.schema
    .alterTable('car_parks')
    .addColumn('jurisdiction', 'text', (col) => col.notNull().defaultTo('ENGLAND_AND_WALES'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('car_parks').dropColumn('jurisdiction').execute();
  await db.schema.alterTable('pcns').dropColumn('notice_served_at').execute();
  await db.schema.alterTable('pcns').dropColumn('notice_served_by').execute();
}
