import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Permit, PermitKind, PermitSource, PhonePermit } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { PermitsTable } from '../db/schema.ts';

export function mapPermit(row: Selectable<PermitsTable>): Permit {
  return {
    id: row.id,
    carParkId: row.car_park_id,
    vehicleRegistration: row.vehicle_registration,
    kind: row.kind,
    validFrom: row.valid_from,
    validUntil: row.valid_until,
    note: row.note,
    source: row.source,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    endedAt: row.ended_at,
    endedByName: row.ended_by_name,
  };
}

export function toPhonePermit(permit: Permit): PhonePermit {
  const { id, carParkId, vehicleRegistration, kind, validFrom, validUntil, endedAt } = permit;
  return { id, carParkId, vehicleRegistration, kind, validFrom, validUntil, endedAt };
}

/**
 * A car park's permits, by registration then start: those in force or still to come (not ended,
 * last day not past) at `now`, or every one with `all`.
 */
export async function listPermits(db: Db, carParkIds: readonly string[], options: { now: string; all?: boolean }): Promise<Permit[]> {
  if (carParkIds.length === 0) return [];
  let query = db.selectFrom('permits').selectAll().where('car_park_id', 'in', carParkIds);
  if (!options.all) {
    query = query
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', options.now)]))
      .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>=', options.now)]));
  }
  const rows = await query.orderBy('vehicle_registration').orderBy('valid_from').orderBy('id').execute();
  return rows.map(mapPermit);
}

/** The permits of these car parks changed at or after `since` (ended and expired ones too). */
export async function listPermitsChangedSince(db: Db, carParkIds: readonly string[], since: string): Promise<Permit[]> {
  if (carParkIds.length === 0) return [];
  const rows = await db
    .selectFrom('permits')
    .selectAll()
    .where('car_park_id', 'in', carParkIds)
    .where('updated_at', '>=', since)
    .orderBy('updated_at')
    .orderBy('id')
    .execute();
  return rows.map(mapPermit);
}

/** A registration's permits at one car park, whatever their dates: the filing check picks the valid one. */
export async function findPermitsFor(db: Db, carParkId: string, vehicleRegistration: string): Promise<Permit[]> {
  const rows = await db
    .selectFrom('permits')
    .selectAll()
    .where('car_park_id', '=', carParkId)
    .where('vehicle_registration', '=', vehicleRegistration)
    .execute();
  return rows.map(mapPermit);
}

/** How many of a car park's permits are in force at `at`, and when its register last changed. */
export async function describePermitRegister(
  db: Db,
  carParkId: string,
  at: string,
): Promise<{ inForce: number; changedAt: string | null }> {
  const row = await db
    .selectFrom('permits')
    .select((eb) => [
      eb.fn.max('updated_at').as('changed_at'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(
              eb.and([
                eb('valid_from', '<=', at),
                eb.or([eb('valid_until', 'is', null), eb('valid_until', '>=', at)]),
                eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', at)]),
              ]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('in_force'),
    ])
    .where('car_park_id', '=', carParkId)
    .executeTakeFirst();
  return { inForce: Number(row?.in_force ?? 0), changedAt: (row?.changed_at as string | null | undefined) ?? null };
}

export async function findPermitById(db: Db, carParkId: string, permitId: string): Promise<Permit | undefined> {
  const row = await db.selectFrom('permits').selectAll().where('id', '=', permitId).where('car_park_id', '=', carParkId).executeTakeFirst();
  return row ? mapPermit(row) : undefined;
}

export type NewPermit = {
  carParkId: string;
  vehicleRegistration: string;
  kind: PermitKind;
  validFrom: string;
  validUntil: string | null;
  note: string;
  source: PermitSource;
  actor: { id: string | null; name: string };
  now: string;
};

/** A new permit and the first line of its history, in the caller's transaction. */
export async function insertPermit(db: Db, permit: NewPermit): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('permits')
    .values({
      id,
      car_park_id: permit.carParkId,
      vehicle_registration: permit.vehicleRegistration,
      kind: permit.kind,
      valid_from: permit.validFrom,
      valid_until: permit.validUntil,
      note: permit.note,
      source: permit.source,
      created_by: permit.actor.id,
      created_by_name: permit.actor.name,
      created_at: permit.now,
      updated_at: permit.now,
    })
    .execute();
  await insertPermitChange(db, {
    permitId: id,
    actor: permit.actor,
    changes: {
      created: {
        vehicleRegistration: permit.vehicleRegistration,
        kind: permit.kind,
        validFrom: permit.validFrom,
        validUntil: permit.validUntil,
        note: permit.note,
        source: permit.source,
      },
    },
    now: permit.now,
  });
  return id;
}

export type PermitColumns = Partial<Pick<Permit, 'vehicleRegistration' | 'kind' | 'validFrom' | 'validUntil' | 'note'>>;

/** Changes a permit's fields and records what changed from what. */
export async function updatePermit(
  db: Db,
  input: { before: Permit; changes: PermitColumns; actor: { id: string | null; name: string }; now: string },
): Promise<void> {
  const changed = Object.fromEntries(
    Object.entries(input.changes).filter(([field, value]) => value !== undefined && input.before[field as keyof Permit] !== value),
  ) as PermitColumns;
  if (Object.keys(changed).length === 0) return;
  await db
    .updateTable('permits')
    .set({
      ...(changed.vehicleRegistration !== undefined && { vehicle_registration: changed.vehicleRegistration }),
      ...(changed.kind !== undefined && { kind: changed.kind }),
      ...(changed.validFrom !== undefined && { valid_from: changed.validFrom }),
      ...(changed.validUntil !== undefined && { valid_until: changed.validUntil }),
      ...(changed.note !== undefined && { note: changed.note }),
      updated_at: input.now,
    })
    .where('id', '=', input.before.id)
    .execute();
  const changes = Object.fromEntries(
    Object.entries(changed).map(([field, to]) => [field, { from: input.before[field as keyof Permit], to }]),
  );
  await insertPermitChange(db, { permitId: input.before.id, actor: input.actor, changes, now: input.now });
}

/** Ends a permit now: the row stays, with who ended it, and the phones hear of it on their next sync. */
export async function endPermit(
  db: Db,
  input: { permitId: string; actor: { id: string | null; name: string }; now: string },
): Promise<void> {
  await db
    .updateTable('permits')
    .set({ ended_at: input.now, ended_by_name: input.actor.name, updated_at: input.now })
    .where('id', '=', input.permitId)
    .execute();
  await insertPermitChange(db, { permitId: input.permitId, actor: input.actor, changes: { ended: input.now }, now: input.now });
}

async function insertPermitChange(
  db: Db,
  input: { permitId: string; actor: { id: string | null; name: string }; changes: Record<string, unknown>; now: string },
): Promise<void> {
  await db
    .insertInto('permit_changes')
    .values({
      id: randomUUID(),
      permit_id: input.permitId,
      actor_id: input.actor.id,
      actor_name: input.actor.name,
      changes: JSON.stringify(input.changes),
      created_at: input.now,
    })
    .execute();
}

export async function listPermitChanges(
  db: Db,
  permitId: string,
): Promise<Array<{ actorName: string; createdAt: string; changes: Record<string, unknown> }>> {
  const rows = await db
    .selectFrom('permit_changes')
    .select(['actor_name', 'created_at', 'changes'])
    .where('permit_id', '=', permitId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    actorName: row.actor_name,
    createdAt: row.created_at,
    changes: JSON.parse(row.changes) as Record<string, unknown>,
  }));
}
