import type { Selectable } from 'kysely';
import type { Observation, ObservationListQuery, ObservationStatus } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { ObservationsTable } from '../db/schema.ts';

export type ObservationRow = Selectable<ObservationsTable>;

export type ObservationFacts = {
  officerId: string;
  id: string;
  carParkId: string;
  vehicleRegistration: string;
  observedAt: string;
  dueAt: string;
};

/**
 * Stores what the phone says unless the row has closed: an open observation follows the phone
 * (a corrected registration, a close), a closed one (GONE or ISSUED) never changes again, so a
 * replayed or late PUT cannot reopen it. Insert-or-nothing, then a guarded update: safe when two
 * requests race on either engine, with no lock.
 */
export async function saveObservationRow(
  db: Db,
  facts: ObservationFacts,
  change: { status: Exclude<ObservationStatus, 'ISSUED'>; closedAt: string | null; now: string },
): Promise<void> {
  const values = {
    car_park_id: facts.carParkId,
    vehicle_registration: facts.vehicleRegistration,
    observed_at: facts.observedAt,
    due_at: facts.dueAt,
    status: change.status,
    closed_at: change.closedAt,
    updated_at: change.now,
  };
  await db
    .insertInto('observations')
    .values({ officer_id: facts.officerId, id: facts.id, ...values, pcn_id: null, created_at: change.now })
    .onConflict((oc) => oc.columns(['officer_id', 'id']).doNothing())
    .execute();
  await db
    .updateTable('observations')
    .set(values)
    .where('officer_id', '=', facts.officerId)
    .where('id', '=', facts.id)
    .where('status', '=', 'OPEN')
    .execute();
}

/** The notice was filed: its observation (stored now if the phone's PUT never arrived) closes as ISSUED. */
export async function markObservationIssued(db: Db, facts: ObservationFacts, pcnId: string, now: string): Promise<void> {
  await db
    .insertInto('observations')
    .values({
      officer_id: facts.officerId,
      id: facts.id,
      car_park_id: facts.carParkId,
      vehicle_registration: facts.vehicleRegistration,
      observed_at: facts.observedAt,
      due_at: facts.dueAt,
      status: 'ISSUED',
      closed_at: now,
      pcn_id: pcnId,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['officer_id', 'id']).doUpdateSet({ status: 'ISSUED', closed_at: now, pcn_id: pcnId, updated_at: now }))
    .execute();
}

/** A notice filed without a stay (the officer turned it off) still closes the observation it began as. */
export async function markExistingObservationIssued(db: Db, officerId: string, id: string, pcnId: string, now: string): Promise<void> {
  await db
    .updateTable('observations')
    .set({ status: 'ISSUED', closed_at: now, pcn_id: pcnId, updated_at: now })
    .where('officer_id', '=', officerId)
    .where('id', '=', id)
    .where('status', '=', 'OPEN')
    .execute();
}

function observationQuery(db: Db) {
  return db
    .selectFrom('observations')
    .innerJoin('car_parks', 'car_parks.id', 'observations.car_park_id')
    .leftJoin('users', 'users.id', 'observations.officer_id')
    .leftJoin('pcns', 'pcns.id', 'observations.pcn_id')
    .selectAll('observations')
    .select(['car_parks.name as car_park_name', 'users.first_name', 'users.last_name', 'pcns.pcn_number']);
}

type JoinedRow = ObservationRow & { car_park_name: string; first_name: string | null; last_name: string | null; pcn_number: string | null };

export function mapObservation(row: JoinedRow): Observation {
  return {
    id: row.id,
    officer: row.first_name === null ? null : { id: row.officer_id, firstName: row.first_name, lastName: row.last_name ?? '' },
    carPark: { id: row.car_park_id, name: row.car_park_name },
    vehicleRegistration: row.vehicle_registration,
    observedAt: row.observed_at,
    dueAt: row.due_at,
    status: row.status,
    closedAt: row.closed_at,
    pcnId: row.pcn_id,
    pcnNumber: row.pcn_number,
    updatedAt: row.updated_at,
  };
}

export async function findObservation(db: Db, officerId: string, id: string): Promise<Observation | null> {
  const row = await observationQuery(db)
    .where('observations.officer_id', '=', officerId)
    .where('observations.id', '=', id)
    .executeTakeFirst();
  return row ? mapObservation(row) : null;
}

/** Newest first sighting first; an officer's and a status's filter for the admins' view. */
export async function listObservations(db: Db, query: ObservationListQuery): Promise<{ observations: Observation[]; total: number }> {
  let filtered = db.selectFrom('observations');
  if (query.officerId) filtered = filtered.where('officer_id', '=', query.officerId);
  if (query.status) filtered = filtered.where('status', '=', query.status);
  const { total } = await filtered.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  let rows = observationQuery(db);
  if (query.officerId) rows = rows.where('observations.officer_id', '=', query.officerId);
  if (query.status) rows = rows.where('observations.status', '=', query.status);
  const page = await rows
    .orderBy('observations.observed_at', 'desc')
    .orderBy('observations.id')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return { observations: page.map(mapObservation), total: Number(total) };
}
