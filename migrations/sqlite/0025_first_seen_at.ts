import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// The start of the period of parking every notice states (Protection of Freedoms Act 2012,
// Schedule 4, paragraphs 7(2)(a), 8(2)(a) and 9(2)(a)): the observation's first sighting, else
// when the officer began the notice. Notices filed before it get the first sighting, else the
// time the notice was served (or issued, or received), so none is left without one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcns').addColumn('first_seen_at', 'text').execute();
  await sql`update pcns set first_seen_at = coalesce(observed_at, notice_served_at, issued_at, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcns').dropColumn('first_seen_at').execute();
}
