import { sql, type Kysely } from 'kysely';

// Written once for both engines; never edited after it lands.
//
// The keeper notices screen asks for the approved notices, nearest last posting day first, a
// page of 100. The open-queue index (pcns_keeper_queue_open) is in deadline order but holds every
// open status, and the status index is in creation order: either way the database read or sorted
// every approved notice for each page (on SQLite, 24 ms over 14,000 of them). This one is the
// status, then the queue's own sort (its expression, written as the list writes it, so both
// planners match it), then the sequence that breaks ties: a page is its first 100 entries.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index pcns_status_deadline on pcns (status, coalesce(keeper_post_by, '9999-12-31'), sequence)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pcns_status_deadline').execute();
}
