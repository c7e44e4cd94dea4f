import { randomUUID } from 'node:crypto';
import { sql, type Expression, type Selectable } from 'kysely';
import {
  DEFAULT_SORTS,
  resolveSort,
  type CarPark,
  type CarParkListQuery,
  type CarParkSortKey,
  type CreateCarParkInput,
  type UpdateCarParkInput,
} from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { likeIgnoringCase } from '../db/dialect.ts';
import type { CarParksTable } from '../db/schema.ts';
import { orderedBy } from './list-order.ts';
import { carParkTermsOf } from './terms.ts';
import { toLikePattern } from './users.ts';

type AssignedUser = NonNullable<CarPark['assignedUsers']>[number];

export function mapCarPark(row: Selectable<CarParksTable>, assignedUsers?: AssignedUser[]): CarPark {
  const carPark: CarPark = {
    id: row.id,
    name: row.name,
    siteCode: row.site_code,
    address: row.address,
    postcode: row.postcode,
    isActive: row.is_active,
    considerationMinutes: row.consideration_minutes,
    graceMinutes: row.grace_minutes,
    stayAppliesByDefault: row.stay_applies_by_default,
    minimumsOverrideReason: row.minimums_override_reason,
    relevantLand: row.relevant_land,
    ...carParkTermsOf(row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (assignedUsers) carPark.assignedUsers = assignedUsers;
  return carPark;
}

/** The users assigned to each car park, by car park id. */
export async function findAssignedUsersByCarPark(db: Db, carParkIds: string[]): Promise<Map<string, AssignedUser[]>> {
  const byCarPark = new Map<string, AssignedUser[]>(carParkIds.map((id) => [id, []]));
  if (carParkIds.length === 0) return byCarPark;
  const rows = await db
    .selectFrom('car_park_users')
    .innerJoin('users', 'users.id', 'car_park_users.user_id')
    .select(['car_park_users.car_park_id', 'users.id', 'users.first_name', 'users.last_name', 'users.email', 'users.role'])
    .where('car_park_users.car_park_id', 'in', carParkIds)
    .orderBy('users.first_name')
    .orderBy('users.last_name')
    .execute();
  for (const row of rows) {
    byCarPark.get(row.car_park_id)?.push({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      role: row.role,
    });
  }
  return byCarPark;
}

/** Active car parks, by name: all of them, or those assigned to `assignedToUserId`. */
export async function listActiveCarParks(db: Db, options: { assignedToUserId?: string } = {}): Promise<CarPark[]> {
  let query = db.selectFrom('car_parks').selectAll('car_parks').where('car_parks.is_active', '=', true);
  if (options.assignedToUserId) {
    const userId = options.assignedToUserId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('car_park_users')
          .select('car_park_users.car_park_id')
          .whereRef('car_park_users.car_park_id', '=', 'car_parks.id')
          .where('car_park_users.user_id', '=', userId),
      ),
    );
  }
  const rows = await query.orderBy('car_parks.name').orderBy('car_parks.id').execute();
  return rows.map((row) => mapCarPark(row));
}

/** What each sort key orders by, then the id: one place per car park, so pages never repeat or skip one. */
const CAR_PARK_SORT_COLUMNS: Record<CarParkSortKey, Expression<unknown>> = {
  name: sql`lower(car_parks.name)`,
  siteCode: sql`car_parks.site_code`,
  postcode: sql`car_parks.postcode`,
  isActive: sql`car_parks.is_active`,
};

export async function listCarParks(db: Db, query: CarParkListQuery): Promise<{ carParks: CarPark[]; total: number }> {
  let filtered = db.selectFrom('car_parks');
  if (query.search) {
    const pattern = toLikePattern(query.search);
    const like = likeIgnoringCase(db);
    filtered = filtered.where(
      sql<boolean>`(name ${like} ${pattern} escape '\\' or site_code ${like} ${pattern} escape '\\' or address ${like} ${pattern} escape '\\' or postcode ${like} ${pattern} escape '\\')`,
    );
  }
  if (query.isActive !== undefined) filtered = filtered.where('is_active', '=', query.isActive);
  const countRow = await filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const { sort, order } = resolveSort(query.sort, query.order, DEFAULT_SORTS.carParks);
  const rows = await orderedBy(filtered, { columns: [CAR_PARK_SORT_COLUMNS[sort], sql`car_parks.id`], direction: order })
    .selectAll()
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const assigned = await findAssignedUsersByCarPark(
    db,
    rows.map((r) => r.id),
  );
  return { carParks: rows.map((row) => mapCarPark(row, assigned.get(row.id) ?? [])), total: Number(countRow.total) };
}

export async function findCarParkById(db: Db, id: string, options: { withAssignedUsers?: boolean } = {}): Promise<CarPark | undefined> {
  const row = await db.selectFrom('car_parks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  if (!options.withAssignedUsers) return mapCarPark(row);
  const assigned = await findAssignedUsersByCarPark(db, [id]);
  return mapCarPark(row, assigned.get(id) ?? []);
}

export async function isSiteCodeTaken(db: Db, siteCode: string, exceptCarParkId?: string): Promise<boolean> {
  let query = db.selectFrom('car_parks').select('id').where('site_code', '=', siteCode);
  if (exceptCarParkId) query = query.where('id', '!=', exceptCarParkId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The ids among `ids` that name no car park. */
export async function findMissingCarParkIds(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('car_parks').select('id').where('id', 'in', ids).execute();
  const found = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !found.has(id));
}

export async function insertCarPark(db: Db, input: CreateCarParkInput & { now: Date }): Promise<string> {
  const id = randomUUID();
  const stamp = input.now.toISOString();
  await db
    .insertInto('car_parks')
    .values({
      id,
      name: input.name,
      site_code: input.siteCode,
      address: input.address,
      postcode: input.postcode,
      is_active: input.isActive,
      consideration_minutes: input.considerationMinutes,
      grace_minutes: input.graceMinutes,
      stay_applies_by_default: input.stayAppliesByDefault,
      charge_pence: input.chargePence,
      reduced_charge_pence: input.reducedChargePence,
      reduced_within_days: input.reducedWithinDays,
      signage_terms: input.signageTerms,
      jurisdiction: input.jurisdiction,
      minimums_override_reason: input.minimumsOverrideReason,
      relevant_land: input.relevantLand,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  return id;
}

export async function updateCarPark(db: Db, id: string, input: UpdateCarParkInput & { now: Date }): Promise<void> {
  await db
    .updateTable('car_parks')
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.siteCode !== undefined && { site_code: input.siteCode }),
      ...(input.address !== undefined && { address: input.address }),
      ...(input.postcode !== undefined && { postcode: input.postcode }),
      ...(input.isActive !== undefined && { is_active: input.isActive }),
      ...(input.considerationMinutes !== undefined && { consideration_minutes: input.considerationMinutes }),
      ...(input.graceMinutes !== undefined && { grace_minutes: input.graceMinutes }),
      ...(input.stayAppliesByDefault !== undefined && { stay_applies_by_default: input.stayAppliesByDefault }),
      ...(input.chargePence !== undefined && { charge_pence: input.chargePence }),
      ...(input.reducedChargePence !== undefined && { reduced_charge_pence: input.reducedChargePence }),
      ...(input.reducedWithinDays !== undefined && { reduced_within_days: input.reducedWithinDays }),
      ...(input.signageTerms !== undefined && { signage_terms: input.signageTerms }),
      ...(input.jurisdiction !== undefined && { jurisdiction: input.jurisdiction }),
      ...(input.minimumsOverrideReason !== undefined && { minimums_override_reason: input.minimumsOverrideReason }),
      ...(input.relevantLand !== undefined && { relevant_land: input.relevantLand }),
      updated_at: input.now.toISOString(),
    })
    .where('id', '=', id)
    .execute();
}

export async function hasPcns(db: Db, carParkId: string): Promise<boolean> {
  return (await db.selectFrom('pcns').select('id').where('car_park_id', '=', carParkId).limit(1).executeTakeFirst()) !== undefined;
}

export async function deleteCarPark(db: Db, id: string): Promise<void> {
  await db.deleteFrom('car_parks').where('id', '=', id).execute();
}

/** Idempotent: assigning twice leaves one assignment. */
export async function assignUserToCarPark(db: Db, input: { carParkId: string; userId: string; now: Date }): Promise<void> {
  await db
    .insertInto('car_park_users')
    .values({ car_park_id: input.carParkId, user_id: input.userId, created_at: input.now.toISOString() })
    .onConflict((oc) => oc.columns(['car_park_id', 'user_id']).doNothing())
    .execute();
}

export async function unassignUserFromCarPark(db: Db, input: { carParkId: string; userId: string }): Promise<void> {
  await db.deleteFrom('car_park_users').where('car_park_id', '=', input.carParkId).where('user_id', '=', input.userId).execute();
}

/** Replaces a user's assignments with exactly `carParkIds`. */
export async function setUserCarParks(db: Db, input: { userId: string; carParkIds: string[]; now: Date }): Promise<void> {
  await db.deleteFrom('car_park_users').where('user_id', '=', input.userId).execute();
  for (const carParkId of new Set(input.carParkIds)) {
    await assignUserToCarPark(db, { carParkId, userId: input.userId, now: input.now });
  }
}
