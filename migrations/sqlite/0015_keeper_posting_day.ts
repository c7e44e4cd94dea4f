import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// The last day each notice's notice to keeper may be posted (decision 0016), stored so the
// deadline queue can order by it: it depends on the route (paragraph 8 or 9) and on working days,
// which SQL cannot work out. Null where keeper liability is not available (land outside England
// and Wales) or until the API fills it in at start for notices filed before it existed. The queue
// index follows: the same open notices, by posting day, those without one last.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcns').addColumn('keeper_post_by', 'text').execute();
  await db.schema.dropIndex('pcns_keeper_queue_open').execute();
  await sql`create index pcns_keeper_queue_open on pcns (coalesce(keeper_post_by, '9999-12-31'))
    where status not in ('REJECTED', 'ISSUED', 'PAID', 'CANCELLED')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pcns_keeper_queue_open').execute();
  await sql`create index pcns_keeper_queue_open on pcns (coalesce(observed_at, created_at))
    where status not in ('REJECTED', 'ISSUED', 'PAID', 'CANCELLED')`.execute(db);
  await db.schema.alterTable('pcns').dropColumn('keeper_post_by').execute();
}
