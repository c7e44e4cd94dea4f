import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// A refresh token presented again within the reuse window (REFRESH_REUSE_SECONDS) is answered
// with the very pair its rotation gave (a refresh the page abandoned after the server rotated,
// two tabs at once), so the server keeps that successor, sealed with a key derived from the
// signing secret, on the rotated row.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('successor_sealed', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('successor_sealed').execute();
}
