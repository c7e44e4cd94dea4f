import {
  FIRST_SIGHTING_WINDOW_MS,
  observationDueAt,
  PERIOD_MESSAGES,
  type Observation,
  type SaveObservationInput,
} from '@parkpatrol/shared';
import { AppError } from '../http/app-error.ts';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { findObservation, saveObservationRow } from '../repositories/observations.ts';
import { assertMayFileAgainst } from './pcn-access.ts';

/**
 * PUT /observations/{id}: the officer's phone reports a first visit (OPEN) or that the vehicle
 * had gone at the second (GONE). The id is the phone's, so a replay changes nothing: exactly
 * once, as for notices. The due time is the server's arithmetic on the car park's periods.
 */
export async function saveObservation(
  db: Db,
  input: { actor: AuthUser; id: string; observation: SaveObservationInput; now: Date },
): Promise<Observation> {
  const { actor, id, observation, now } = input;
  // Opening one is filing's first half, so filing's rule; closing one may follow a car park's closure.
  const carPark = await assertMayFileAgainst(db, actor, observation.carParkId, { mustBeActive: observation.status === 'OPEN' });
  const observedAt = new Date(observation.observedAt).toISOString();
  const isGone = observation.status === 'GONE';
  // The phone records a first visit offline and sends it when it has signal, perhaps days later,
  // so its age on arrival says nothing (its notice is held to the day before its own service).
  // A first visit before the car park was set up, allowing a phone's clock the day a sighting
  // may lead its notice (FIRST_SIGHTING_WINDOW_MS), is a 1970 typo or forgery: refused, naming
  // the field. Closing one as gone records what happened, whenever the phone gets to send it.
  if (!isGone && Date.parse(observedAt) < new Date(carPark.createdAt).getTime() - FIRST_SIGHTING_WINDOW_MS) {
    throw new AppError('VALIDATION_FAILED', PERIOD_MESSAGES.observationTooOld, {
      details: { observedAt: PERIOD_MESSAGES.observationTooOld },
    });
  }
  await saveObservationRow(
    db,
    {
      officerId: actor.id,
      id,
      carParkId: observation.carParkId,
      vehicleRegistration: observation.vehicleRegistration,
      observedAt,
      dueAt: observationDueAt(observedAt, carPark).toISOString(),
    },
    { status: observation.status, closedAt: isGone ? new Date(observation.closedAt ?? now).toISOString() : null, now: now.toISOString() },
  );
  return (await findObservation(db, actor.id, id))!;
}
