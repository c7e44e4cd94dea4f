import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// 0003's queue index (WHERE status IN the open statuses) is never chosen: SQLite prefers the
// status index for an IN list and then sorts every open notice (100 ms at 100,000 PCNs with a
// third of them open). With the closed statuses excluded instead, the status index cannot serve
// the term, and the deadline page walks this index in order and stops after the page (2 ms).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pcns_keeper_queue').execute();
  await sql`create index pcns_keeper_queue_open on pcns (coalesce(observed_at, created_at))
    where status not in ('REJECTED', 'ISSUED', 'PAID', 'CANCELLED')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pcns_keeper_queue_open').execute();
  await sql`create index pcns_keeper_queue on pcns (coalesce(observed_at, created_at))
    where status in ('SUBMITTED', 'UNDER_REVIEW', 'APPROVED')`.execute(db);
}
