import { sql, type Kysely } from 'kysely';
import { addCheck, columnTypes, dropCheck } from '../api/src/db/dialect.ts';

// Written once for both engines; never edited after it lands.
//
// An admin's answer that the DVLA's vehicle does not match the photos is kept with the keeper, as
// the confirmation is: when and by whom (vehicle_mismatch_at, vehicle_mismatch_by). No notice to
// keeper is made for a keeper so marked. A check keeps the two answers apart: a vehicle is
// confirmed, refused, or neither, never both.

/** The name of the check that keeps a confirmation and a refusal apart. Exported for the upgrade test. */
export const ONE_VEHICLE_ANSWER_CHECK = 'pcn_keepers_one_vehicle_answer';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcn_keepers').addColumn('vehicle_mismatch_at', columnTypes(db).timestamp).execute();
  await db.schema.alterTable('pcn_keepers').addColumn('vehicle_mismatch_by', 'text').execute();
  await addCheck(db, {
    table: 'pcn_keepers',
    name: ONE_VEHICLE_ANSWER_CHECK,
    columns: ['vehicle_confirmed_at', 'vehicle_mismatch_at'],
    condition: (c) => sql`${c('vehicle_confirmed_at')} is null or ${c('vehicle_mismatch_at')} is null`,
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropCheck(db, { table: 'pcn_keepers', name: ONE_VEHICLE_ANSWER_CHECK });
  await db.schema.alterTable('pcn_keepers').dropColumn('vehicle_mismatch_by').execute();
  await db.schema.alterTable('pcn_keepers').dropColumn('vehicle_mismatch_at').execute();
}
