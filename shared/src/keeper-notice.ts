import type { PcnStatus } from './pcn-status.ts';

/**
 * Keeper-notice deadline. The Protection of Freedoms Act 2012, Schedule 4, lets
 * the operator pursue the keeper only if the notice to keeper goes out within a fixed number of
 * days of the parking event. The server's KEEPER_NOTICE_DAYS sets that number.
 *
 * Dates are UTC instants and a day is 24 hours of elapsed time: the deadline is the parking
 * event plus N x 24 h, whatever clock change happens in between.
 */
export const DEFAULT_KEEPER_NOTICE_DAYS = 14;
/** Admins see a warning when less than this is left (or the deadline has passed). */
export const KEEPER_NOTICE_WARNING_DAYS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The statuses in which the keeper notice can still go out: the deadline queue lists only these. */
export const KEEPER_NOTICE_OPEN_STATUSES = ['SUBMITTED', 'UNDER_REVIEW', 'APPROVED'] as const satisfies readonly PcnStatus[];

export function isKeeperNoticeOpen(status: PcnStatus): boolean {
  return (KEEPER_NOTICE_OPEN_STATUSES as readonly PcnStatus[]).includes(status);
}

/** The parking event is the first sighting when recorded, else when the PCN was made. */
export function parkingEventTime(pcn: { observedAt: string | null; createdAt: string }): string {
  return pcn.observedAt ?? pcn.createdAt;
}

export function keeperNoticeDueAt(eventAt: string | Date, days: number = DEFAULT_KEEPER_NOTICE_DAYS): string {
  const start = eventAt instanceof Date ? eventAt.getTime() : Date.parse(eventAt);
  return new Date(start + days * DAY_MS).toISOString();
}

/** True while the notice can still go out and less than the warning period is left (overdue included). */
export function hasDeadlineWarning(input: { dueAt: string; status: PcnStatus; now: Date }): boolean {
  if (!isKeeperNoticeOpen(input.status)) return false;
  return Date.parse(input.dueAt) - input.now.getTime() < KEEPER_NOTICE_WARNING_DAYS * DAY_MS;
}
