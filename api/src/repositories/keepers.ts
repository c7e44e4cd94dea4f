import { isKeeperType, type Keeper, type KeeperDetails, type KeeperSource } from '@parkpatrol/shared';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { reusableQuery } from '../db/reusable-query.ts';
import type { PcnKeepersTable } from '../db/schema.ts';

/** The registered keeper of each notice's vehicle (personal data: admins only). */
function toKeeper(row: Selectable<PcnKeepersTable>): Keeper {
  return {
    keeperType: isKeeperType(row.keeper_type) ? row.keeper_type : 'REGISTERED_KEEPER',
    title: row.title,
    firstNames: row.first_names,
    lastName: row.last_name,
    companyName: row.company_name,
    addressLines: JSON.parse(row.address_lines) as string[],
    postcode: row.postcode,
    make: row.make,
    model: row.model,
    colour: row.colour,
    source: row.source,
    vehicleConfirmedAt: row.vehicle_confirmed_at,
    vehicleConfirmedBy: row.vehicle_confirmed_by,
    vehicleMismatchAt: row.vehicle_mismatch_at,
    vehicleMismatchBy: row.vehicle_mismatch_by,
    updatedAt: row.updated_at,
  };
}

const keepersOf = reusableQuery((db: Db, pcnIds: readonly string[]) =>
  db.selectFrom('pcn_keepers').selectAll().where('pcn_id', 'in', pcnIds),
);

export async function findKeepers(db: Db, pcnIds: readonly string[]): Promise<Map<string, Keeper>> {
  const keepers = new Map<string, Keeper>();
  for (let start = 0; start < pcnIds.length; start += 500) {
    const rows = await keepersOf(db, pcnIds.slice(start, start + 500));
    for (const row of rows) keepers.set(row.pcn_id, toKeeper(row));
  }
  return keepers;
}

export async function findKeeper(db: Db, pcnId: string): Promise<Keeper | null> {
  return (await findKeepers(db, [pcnId])).get(pcnId) ?? null;
}

/** Stores the keeper as given, replacing any earlier one; the vehicle's confirmation or refusal is the caller's to decide. */
export async function saveKeeper(
  trx: Db,
  input: {
    pcnId: string;
    details: KeeperDetails;
    source: KeeperSource;
    confirmed: { at: string; by: string } | null;
    /** The admin's answer that the vehicle does not match the photos, when it stands. */
    mismatch: { at: string; by: string } | null;
    now: string;
  },
): Promise<void> {
  const values = {
    keeper_type: input.details.keeperType,
    title: input.details.title,
    first_names: input.details.firstNames,
    last_name: input.details.lastName,
    company_name: input.details.companyName,
    address_lines: JSON.stringify(input.details.addressLines),
    postcode: input.details.postcode,
    make: input.details.make,
    model: input.details.model,
    colour: input.details.colour,
    source: input.source,
    vehicle_confirmed_at: input.confirmed?.at ?? null,
    vehicle_confirmed_by: input.confirmed?.by ?? null,
    vehicle_mismatch_at: input.mismatch?.at ?? null,
    vehicle_mismatch_by: input.mismatch?.by ?? null,
    updated_at: input.now,
  };
  await trx
    .insertInto('pcn_keepers')
    .values({ pcn_id: input.pcnId, ...values, created_at: input.now })
    .onConflict((oc) => oc.column('pcn_id').doUpdateSet(values))
    .execute();
}
