import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// A photo whose file was removed under the
// retention policy keeps its row (hashes, capture facts) and says when the file went.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcn_images').addColumn('purged_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcn_images').dropColumn('purged_at').execute();
}
