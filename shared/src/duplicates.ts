import { normaliseRegistration } from './format.ts';

/**
 * One charge per parking event. Two notices are for the same parking event when
 * they are for the same vehicle (registration compared normalised) at the same car park on the
 * same day. The day is the UTC calendar day of the parking event (first sighting, else when the
 * PCN was made): in British Summer Time a notice between 00:00 and 01:00 local time counts
 * towards the previous day. That errs towards warning, and the warning never blocks.
 */
export type ParkingEvent = {
  vehicleRegistration: string;
  carParkId: string;
  observedAt: string | null;
  createdAt: string;
};

/** The UTC day (YYYY-MM-DD) of a parking event. */
export function parkingEventDay(event: Pick<ParkingEvent, 'observedAt' | 'createdAt'>): string {
  return new Date(event.observedAt ?? event.createdAt).toISOString().slice(0, 10);
}

export function isSameParkingEvent(a: ParkingEvent, b: ParkingEvent): boolean {
  return (
    normaliseRegistration(a.vehicleRegistration) === normaliseRegistration(b.vehicleRegistration) &&
    a.carParkId === b.carParkId &&
    parkingEventDay(a) === parkingEventDay(b)
  );
}

/** The half-open range [start, end) of a UTC day as ISO instants, for querying stored times. */
export function utcDayRange(day: string): { start: string; end: string } {
  const start = new Date(`${day}T00:00:00.000Z`);
  const end = new Date(start.getTime() + 24 * 60 * 60 * 1000);
  return { start: start.toISOString(), end: end.toISOString() };
}

export const DUPLICATE_REASON_MAX_LENGTH = 500;
