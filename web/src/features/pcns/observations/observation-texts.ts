import { formatClockTime } from '../evidence/evidence-format.ts';
import type { ObservationRow } from '../../../lib/local-db/observations.ts';

export const OBSERVATION_TEXTS = {
  openTitle: 'Open observations',
  closedTitle: 'Closed observations',
  due: (time: string) => `Due at ${time}`,
  dueNow: 'Due now: go back and check the vehicle',
  goBack: 'Go back to it',
  bannerOne: (registration: string, carPark: string) =>
    `Observation due: ${registration} at ${carPark}. Go back and check whether the vehicle is still there.`,
  bannerMany: (count: number) => `${count} observations are due. Go back and check whether each vehicle is still there.`,
  notificationTitle: 'Observation due',
  closed: (time: string) => `Vehicle gone at ${time}: no notice`,
  notSynced: 'Not yet on the server',
  stillHere: 'Vehicle still here',
  gone: 'Vehicle has gone',
  goneConfirm: 'Close this observation with no notice? Its photos are deleted from this phone.',
} as const;

export function observationTitle(row: Pick<ObservationRow, 'vehicleRegistration'>): string {
  return row.vehicleRegistration.trim() || 'No registration';
}

export function describeDue(row: Pick<ObservationRow, 'observationDueAt'>, now: number): string {
  const dueAt = Date.parse(row.observationDueAt ?? '');
  if (Number.isNaN(dueAt)) return '';
  return dueAt <= now ? OBSERVATION_TEXTS.dueNow : OBSERVATION_TEXTS.due(formatClockTime(dueAt, now));
}
