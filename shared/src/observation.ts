import { onFirstUse } from './on-first-use.ts';
import { UK_TIME_ZONE } from './uk-time-zone.ts';
/**
 * Observation rules. The UK private parking codes expect a consideration
 * period on arrival and a grace period after a permitted stay before a charge is issued. Every
 * rule here is about elapsed time between two instants, never about wall-clock readings, so a
 * clock change (Europe/London moves an hour on the last Sunday of March and of October) or
 * midnight makes no difference: 15 minutes is 900,000 ms whatever the clock on the wall says.
 */

const MINUTE_MS = 60_000;

/** Car park defaults: the Single Code's minimums (docs/product.md, Observations and the second visit). */
export const DEFAULT_CONSIDERATION_MINUTES = 5;
export const DEFAULT_GRACE_MINUTES = 10;

/**
 * How far ahead of "now" a first sighting or issue time may be before it is refused: phones and
 * servers disagree by seconds, sometimes a minute or two. Beyond this the time is a mistake.
 */
export const OBSERVATION_FUTURE_ALLOWANCE_MS = 5 * MINUTE_MS;

/** Admins are warned about a device whose clock was more than two minutes off. */
export const CLOCK_SKEW_WARNING_MS = 2 * MINUTE_MS;

export type StayPeriods = { considerationMinutes: number; graceMinutes: number };

type Instant = Date | string | number;

function toMs(instant: Instant): number {
  return instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
}

/** The first instant a notice may be issued when a stay applies: first sighting + consideration + grace. */
export function earliestIssueTime(observedAt: Instant, periods: StayPeriods): Date {
  return new Date(toMs(observedAt) + (periods.considerationMinutes + periods.graceMinutes) * MINUTE_MS);
}

export type IssueCheck =
  | { canIssue: true; earliestIssueAt: string | null; remainingMs: 0; explanation: string }
  | { canIssue: false; earliestIssueAt: string | null; remainingMs: number; explanation: string };

function minutesText(minutes: number): string {
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Whether a notice may be issued at `issuedAt` for a vehicle first seen at `observedAt`. Without
 * a stay there is nothing to wait for. With a stay the first sighting is required, and the notice
 * must wait for consideration plus grace. The explanation is written for the officer and is the
 * same text the API refuses with.
 */
export function canIssue(input: {
  stayApplies: boolean;
  observedAt: Instant | null | undefined;
  issuedAt: Instant;
  periods: StayPeriods;
}): IssueCheck {
  if (!input.stayApplies) {
    return { canIssue: true, earliestIssueAt: null, remainingMs: 0, explanation: 'No stay applies, so there is no waiting period.' };
  }
  if (input.observedAt === null || input.observedAt === undefined || input.observedAt === '') {
    return {
      canIssue: false,
      earliestIssueAt: null,
      remainingMs: Number.POSITIVE_INFINITY,
      explanation: OBSERVATION_MESSAGES.observedAtRequiredForStay,
    };
  }
  const { considerationMinutes, graceMinutes } = input.periods;
  const earliest = earliestIssueTime(input.observedAt, input.periods);
  const remainingMs = earliest.getTime() - toMs(input.issuedAt);
  const wait = `${minutesText(considerationMinutes + graceMinutes)} after the vehicle was first seen (${minutesText(considerationMinutes)} consideration + ${minutesText(graceMinutes)} grace)`;
  if (remainingMs <= 0) {
    return {
      canIssue: true,
      earliestIssueAt: earliest.toISOString(),
      remainingMs: 0,
      explanation: `The waiting period has passed: a notice may be issued from ${wait}.`,
    };
  }
  const remainingMinutes = Math.ceil(remainingMs / MINUTE_MS);
  return {
    canIssue: false,
    earliestIssueAt: earliest.toISOString(),
    remainingMs,
    explanation: `A stay applies here, so the notice can be issued only ${wait}. Please wait ${minutesText(remainingMinutes)} more.`,
  };
}

export const OBSERVATION_MESSAGES = {
  observedAtRequiredForStay: 'Record when the vehicle was first seen: a stay applies, so the waiting period runs from then.',
  observedAtInFuture: 'The first sighting cannot be in the future. Check the time and the phone clock.',
  issuedAtInFuture: 'The issue time cannot be in the future. Check the time and the phone clock.',
  observedAfterIssued: 'The vehicle must have been seen before the notice was issued.',
} as const;

/** 'future': the time is after now; 'order': the sighting is after the issue. */
export type ObservationProblem = { field: 'observedAt' | 'issuedAt'; kind: 'future' | 'order'; message: string };

/**
 * Times that cannot be right whatever the car park: a sighting or issue after `now` (beyond the
 * allowance), or a sighting after the issue. `now` is the clock the times were written by (the
 * device's, when it says what it is), so a phone whose clock is off does not fail its own notices.
 */
export function findObservationProblems(input: {
  observedAt: Instant | null | undefined;
  issuedAt: Instant;
  now: Instant;
  allowanceMs?: number;
}): ObservationProblem[] {
  const allowance = input.allowanceMs ?? OBSERVATION_FUTURE_ALLOWANCE_MS;
  const latest = toMs(input.now) + allowance;
  const issued = toMs(input.issuedAt);
  const problems: ObservationProblem[] = [];
  const hasObserved = input.observedAt !== null && input.observedAt !== undefined && input.observedAt !== '';
  if (hasObserved && toMs(input.observedAt!) > latest) {
    problems.push({ field: 'observedAt', kind: 'future', message: OBSERVATION_MESSAGES.observedAtInFuture });
  }
  if (issued > latest) problems.push({ field: 'issuedAt', kind: 'future', message: OBSERVATION_MESSAGES.issuedAtInFuture });
  if (hasObserved && toMs(input.observedAt!) > issued) {
    problems.push({ field: 'observedAt', kind: 'order', message: OBSERVATION_MESSAGES.observedAfterIssued });
  }
  return problems;
}

/** Server receipt time minus the device's own time at sending: positive when the phone is slow. */
export function clockOffsetMs(serverReceivedAt: Instant, deviceTime: Instant): number {
  return toMs(serverReceivedAt) - toMs(deviceTime);
}

export function hasClockSkewWarning(offsetMs: number | null | undefined): boolean {
  return offsetMs !== null && offsetMs !== undefined && Math.abs(offsetMs) > CLOCK_SKEW_WARNING_MS;
}

/**
 * The stay rule is an observation with two visits (docs/decisions/0012): the first records the
 * vehicle, and the notice may be issued only once a photo taken at or after the due time (first
 * sighting + consideration + grace) shows the vehicle still there. Nothing is issued by a timer.
 */
export function observationDueAt(observedAt: Instant, periods: StayPeriods): Date {
  return earliestIssueTime(observedAt, periods);
}

export type SecondVisitCheck = {
  /** The due time on the server's clock (the device's reading corrected by its offset). */
  dueAt: string;
  /** Index of the first photo taken at or after the due time, or null when there is none. */
  secondVisitPhotoIndex: number | null;
};

/**
 * Which photo, if any, is the second visit's. The sighting and the photos are the device's
 * readings; both are moved onto the server's clock by the device's offset (server minus device,
 * null when the device did not say) before they are compared, so the due time the refusal names
 * is true time. Photos with no capture time never count.
 */
export function findSecondVisitPhoto(input: {
  observedAt: Instant;
  periods: StayPeriods;
  photoTakenAts: ReadonlyArray<Instant | null | undefined>;
  clockOffsetMs?: number | null;
}): SecondVisitCheck {
  const offset = input.clockOffsetMs ?? 0;
  const due = observationDueAt(input.observedAt, input.periods).getTime() + offset;
  const index = input.photoTakenAts.findIndex((takenAt) => {
    if (takenAt === null || takenAt === undefined || takenAt === '') return false;
    const at = toMs(takenAt);
    return !Number.isNaN(at) && at + offset >= due;
  });
  return { dueAt: new Date(due).toISOString(), secondVisitPhotoIndex: index < 0 ? null : index };
}

const londonClock = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: UK_TIME_ZONE,
      hour: '2-digit',
      minute: '2-digit',
      day: 'numeric',
      month: 'short',
    }),
);

/** The refusal of a stay notice without the second visit's photo: says when to photograph again. */
export function secondVisitMissingMessage(dueAt: Instant): string {
  return `A stay applies: photograph the vehicle again at or after ${londonClock().format(new Date(toMs(dueAt)))} (UK time), when consideration and grace have passed, to show it is still there. Only then can this notice be issued.`;
}
