import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Design section 7 allows one grace replay of the refresh token rotated last (two tabs, a lost
// answer). Without a record of that replay, the same token could be replayed for a fresh pair
// again and again for 30 seconds; grace_used_at makes the second replay a detected reuse.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('grace_used_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('grace_used_at').execute();
}
