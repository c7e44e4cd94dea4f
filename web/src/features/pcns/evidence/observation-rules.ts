import {
  addDays,
  canIssue,
  findObservationProblems,
  findSecondVisitPhoto,
  observationDueAt,
  OBSERVATION_MESSAGES,
  VALIDATION_MESSAGES,
  type CarPark,
} from '@parkpatrol/shared';
import { instantFromUkWallClock, ukCalendarDay, ukWallClockInput } from '../../../lib/format-date.ts';
import { formatClockTime, formatRunningTime, type ClockFormat } from './evidence-format.ts';

/**
 * The officer side of observations: when the vehicle was first seen, whether a stay applies,
 * and when the notice may be issued. The arithmetic is shared canIssue (elapsed milliseconds, so
 * midnight and clock changes make no difference); this file words it for the officer.
 */

export type ObservationCarPark = Pick<CarPark, 'considerationMinutes' | 'graceMinutes' | 'stayAppliesByDefault'>;

/** The draft's fields this needs. `stayApplies: null` means "as the car park says". */
export type ObservationFields = {
  observedAt: string | null | undefined;
  stayApplies: boolean | null | undefined;
};

/**
 * - 'no-stay': nothing to wait for.
 * - 'not-observed': a stay applies and the first sighting is not recorded yet.
 * - 'waiting': a stay applies and consideration + grace have not passed.
 * - 'can-issue': a stay applies and they have.
 */
export type ObservationPhase = 'no-stay' | 'not-observed' | 'waiting' | 'can-issue';

export type ObservationState = {
  phase: ObservationPhase;
  stayApplies: boolean;
  /** 'Observed for 7 min 05 s'; null until the first sighting is recorded. */
  elapsedText: string | null;
  /** ISO; null without a stay or a first sighting. */
  earliestIssueAt: string | null;
  /** '7 min 55 s' while waiting, else null. */
  remainingText: string | null;
  /** What the officer reads under the timer. */
  explanation: string;
  /**
   * For a polite live region: changes only when the phase (or the time it names) changes, never
   * with the running seconds, so a screen reader hears "you can now issue" once, not every tick.
   */
  announcement: string;
};

const MINUTE_MS = 60_000;

/** The officer's toggle wins; otherwise the car park's setting; no car park yet: no stay. */
export function effectiveStayApplies(stayApplies: boolean | null | undefined, carPark: ObservationCarPark | null | undefined): boolean {
  return stayApplies ?? carPark?.stayAppliesByDefault ?? false;
}

function minutesOf(count: number, noun: string): string {
  return count === 1 ? `1 minute's ${noun}` : `${count} minutes' ${noun}`;
}

/** "5 minutes' consideration and 10 minutes' grace", leaving out a period set to 0. */
export function describeStayPeriods(carPark: Pick<CarPark, 'considerationMinutes' | 'graceMinutes'>): string {
  const parts = [
    carPark.considerationMinutes > 0 ? minutesOf(carPark.considerationMinutes, 'consideration') : null,
    carPark.graceMinutes > 0 ? minutesOf(carPark.graceMinutes, 'grace') : null,
  ].filter((part): part is string => part !== null);
  return parts.join(' and ');
}

function hasValue(value: string | null | undefined): value is string {
  return value !== null && value !== undefined && value !== '';
}

function waitingText(carPark: ObservationCarPark, earliest: string, now: number, format: ClockFormat): string {
  return `A stay applies at this car park: ${describeStayPeriods(carPark)} must pass after first sighting. You can issue this notice at ${formatClockTime(earliest, now, format)}.`;
}

function periodsPassedText(carPark: ObservationCarPark): string {
  if (carPark.considerationMinutes > 0 && carPark.graceMinutes > 0) return 'The consideration and grace periods have passed';
  return carPark.considerationMinutes > 0 ? 'The consideration period has passed' : 'The grace period has passed';
}

/** Everything the timer shows at `now` (epoch ms). Pure: the hook only supplies the ticking clock. */
export function describeObservation(
  fields: ObservationFields,
  carPark: ObservationCarPark | null | undefined,
  now: number,
  format: ClockFormat = {},
): ObservationState {
  const stayApplies = effectiveStayApplies(fields.stayApplies, carPark);
  const observedAt = hasValue(fields.observedAt) && !Number.isNaN(Date.parse(fields.observedAt)) ? fields.observedAt : null;
  const elapsedText = observedAt ? `Observed for ${formatRunningTime(now - Date.parse(observedAt))}` : null;

  if (!stayApplies || !carPark) {
    const explanation = 'No stay applies, so there is no waiting period: you can issue this notice once the evidence is complete.';
    return {
      phase: 'no-stay',
      stayApplies: false,
      elapsedText,
      earliestIssueAt: null,
      remainingText: null,
      explanation,
      announcement: explanation,
    };
  }
  const periods = describeStayPeriods(carPark);
  if (!observedAt) {
    const wait = periods ? ` ${periods} must pass after first sighting before you can issue this notice.` : '';
    const explanation = `A stay applies at this car park: record when the vehicle was first seen.${wait}`;
    return {
      phase: 'not-observed',
      stayApplies,
      elapsedText,
      earliestIssueAt: null,
      remainingText: null,
      explanation,
      announcement: explanation,
    };
  }
  const check = canIssue({ stayApplies, observedAt, issuedAt: now, periods: carPark });
  const earliestIssueAt = check.earliestIssueAt;
  if (check.canIssue) {
    const since = earliestIssueAt ? ` (since ${formatClockTime(earliestIssueAt, now, format)})` : '';
    const explanation = periods
      ? `${periodsPassedText(carPark)}${since}: you can issue this notice.`
      : 'This car park sets no waiting period: you can issue this notice.';
    return {
      phase: 'can-issue',
      stayApplies,
      elapsedText,
      earliestIssueAt,
      remainingText: null,
      explanation,
      announcement: 'You can now issue this notice.',
    };
  }
  const explanation = waitingText(carPark, earliestIssueAt!, now, format);
  return {
    phase: 'waiting',
    stayApplies,
    elapsedText,
    earliestIssueAt,
    remainingText: formatRunningTime(check.remainingMs, 'up'),
    explanation,
    announcement: explanation,
  };
}

/**
 * For the Next button of the step that holds the timer: what must be fixed now. A stay needs a
 * first sighting, and no time may be in the future. Waiting is not a problem here: the officer
 * takes the photos meanwhile, and Submit checks the wait (observationProblem).
 */
export function observationEntryProblem(
  fields: ObservationFields,
  carPark: ObservationCarPark | null | undefined,
  now: Date | number,
): string | null {
  if (!carPark) return null;
  const observedAt = hasValue(fields.observedAt) ? fields.observedAt : null;
  if (observedAt !== null && Number.isNaN(Date.parse(observedAt))) return VALIDATION_MESSAGES.observedAtInvalid;
  if (observedAt === null) return effectiveStayApplies(fields.stayApplies, carPark) ? OBSERVATION_MESSAGES.observedAtRequiredForStay : null;
  const nowMs = typeof now === 'number' ? now : now.getTime();
  // Issued "now" for this check: only a sighting in the future can be wrong at this point.
  const problem = findObservationProblems({ observedAt, issuedAt: Math.max(nowMs, Date.parse(observedAt)), now: nowMs })[0];
  return problem ? problem.message : null;
}

/**
 * For Submit (issuedAt = now): everything observationEntryProblem checks, and, when a stay
 * applies, that consideration + grace have passed since the first sighting. Null: may submit.
 */
export function observationProblem(
  fields: ObservationFields,
  carPark: ObservationCarPark | null | undefined,
  now: Date | number,
  format: ClockFormat = {},
): string | null {
  const entry = observationEntryProblem(fields, carPark, now);
  if (entry || !carPark || !effectiveStayApplies(fields.stayApplies, carPark)) return entry;
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const check = canIssue({ stayApplies: true, observedAt: fields.observedAt, issuedAt: nowMs, periods: carPark });
  if (check.canIssue) return null;
  return check.earliestIssueAt ? waitingText(carPark, check.earliestIssueAt, nowMs, format) : check.explanation;
}

/** How far back a typed first sighting may go: the same shift, not last week. */
export const MAX_FIRST_SIGHTING_AGE_MS = 12 * 60 * MINUTE_MS;
/** A typed time this little ahead of the clock is a mistake, not yesterday's time. */
const TYPED_FUTURE_LIMIT_MS = 60 * MINUTE_MS;

export const FIRST_SIGHTING_MESSAGES = {
  invalid: 'Enter the time as hours and minutes, for example 14:05.',
  future: OBSERVATION_MESSAGES.observedAtInFuture,
  tooOld: 'The first sighting must be within the last 12 hours.',
} as const;

/**
 * The instant of a first sighting typed as 'HH:MM' on the UK clock, whatever the phone's zone:
 * today's when that has passed, yesterday's when today's is still hours away (typed at 00:10,
 * '23:55' is five minutes before midnight). Never in the future, never more than 12 hours back.
 */
export function resolveTypedFirstSighting(typed: string, now: Date | number): { observedAt: string } | { problem: string } {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(typed.trim());
  if (!match) return { problem: FIRST_SIGHTING_MESSAGES.invalid };
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return { problem: FIRST_SIGHTING_MESSAGES.invalid };
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const clock = `T${String(hours).padStart(2, '0')}:${match[2]}`;
  const today = ukCalendarDay(nowMs);
  let candidate = Date.parse(instantFromUkWallClock(`${today}${clock}`)!);
  if (candidate > nowMs) {
    if (candidate - nowMs <= TYPED_FUTURE_LIMIT_MS) return { problem: FIRST_SIGHTING_MESSAGES.future };
    candidate = Date.parse(instantFromUkWallClock(`${addDays(today, -1)}${clock}`)!);
  }
  if (nowMs - candidate > MAX_FIRST_SIGHTING_AGE_MS) return { problem: FIRST_SIGHTING_MESSAGES.tooOld };
  return { observedAt: new Date(candidate).toISOString() };
}

/** 'HH:MM' of an instant on the UK clock, to prefill the time field. */
export function toTypedTime(iso: string | null | undefined): string {
  if (!hasValue(iso)) return '';
  return ukWallClockInput(iso).slice(11);
}

/**
 * When the observation's second visit is due (ISO): first sighting + consideration + grace, while
 * a stay applies and the first sighting is recorded; null otherwise (docs/decisions/0012).
 */
export function observationDueAtOf(fields: ObservationFields, carPark: ObservationCarPark | null | undefined): string | null {
  if (
    !carPark ||
    !effectiveStayApplies(fields.stayApplies, carPark) ||
    !hasValue(fields.observedAt) ||
    Number.isNaN(Date.parse(fields.observedAt))
  )
    return null;
  return observationDueAt(fields.observedAt, carPark).toISOString();
}

/** The second visit's photo: the first taken at or after the due time, or null. */
export function findSecondVisitTakenAt(dueAt: string, photos: ReadonlyArray<{ takenAt: string | null }>): string | null {
  const { secondVisitPhotoIndex } = findSecondVisitPhoto({
    observedAt: dueAt,
    periods: { considerationMinutes: 0, graceMinutes: 0 },
    photoTakenAts: photos.map((photo) => photo.takenAt),
  });
  return secondVisitPhotoIndex === null ? null : photos[secondVisitPhotoIndex]!.takenAt;
}

export const SECOND_VISIT_TEXTS = {
  comeBack: (time: string) =>
    `Come back at ${time}: a stay applies, so photograph the vehicle again then to show it is still here. You can leave this notice meanwhile; it waits under Open observations.`,
  dueNow: 'Consideration and grace have passed. Is the vehicle still here? Photograph it again, or close the observation if it has gone.',
  recorded: (time: string) => `Second visit recorded at ${time}: the vehicle was still here. Complete and submit the notice.`,
  missing: (time: string) =>
    `A stay applies: photograph the vehicle again ('Vehicle still here') at or after ${time} before you submit this notice.`,
} as const;

/**
 * For Submit: a stay notice needs the second visit's photo (docs/decisions/0012); the server
 * refuses it too. Null: nothing missing (or no stay).
 */
export function secondVisitProblem(
  fields: ObservationFields,
  carPark: ObservationCarPark | null | undefined,
  photos: ReadonlyArray<{ takenAt: string | null }>,
  now: number,
  format: ClockFormat = {},
): string | null {
  const dueAt = observationDueAtOf(fields, carPark);
  if (!dueAt || findSecondVisitTakenAt(dueAt, photos)) return null;
  return SECOND_VISIT_TEXTS.missing(formatClockTime(dueAt, now, format));
}
