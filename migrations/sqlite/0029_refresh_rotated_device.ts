import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// A rotated refresh token is answered again inside the reuse window only on the device that
// rotated it: the rotation keeps the hash of the device token it was sent with, and a replay
// must bring the same one. Without one, any replay is taken for a copy.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('rotated_device_hash', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('rotated_device_hash').execute();
}
