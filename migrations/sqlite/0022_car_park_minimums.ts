import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Why a car park's consideration or grace period is shorter than the Single Code of Practice's
// minimum (a no-stopping zone, say): required when either is, null otherwise. Car parks stored
// before it have none; saving one with a shorter period asks for it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('car_parks').addColumn('minimums_override_reason', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('car_parks').dropColumn('minimums_override_reason').execute();
}
