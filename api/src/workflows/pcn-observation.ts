import {
  canIssue,
  findObservationProblems,
  findSecondVisitPhoto,
  firstSightingProblem,
  isFirstSeenAfterService,
  PERIOD_MESSAGES,
  secondVisitMissingMessage,
  timesAfterReceipt,
  type ReceiptCheckedTimes,
} from '@parkpatrol/shared';
import { AppError } from '../http/app-error.ts';
import type { CarParkForFiling } from '../repositories/car-park-for-filing.ts';

/**
 * Refuses impossible times (400 per field) and, when a stay applies, a new notice with no photo
 * of the second visit (422) or one issued before consideration + grace (400).
 */
export function assertObservation(input: {
  observedAt: string | null;
  issuedAt: string;
  stayApplies: boolean;
  carPark: Pick<CarParkForFiling, 'considerationMinutes' | 'graceMinutes'>;
  deviceNow: Date;
  /** On an edit only the times it sends are checked against now; stored ones were checked when sent. */
  checkFuture?: { observedAt: boolean; issuedAt: boolean };
  /**
   * A new notice's photos (capture times in upload order) and the device's clock offset: a stay
   * notice needs one taken at or after the due time, the second visit (docs/decisions/0012).
   */
  secondVisit?: { photoTakenAts: ReadonlyArray<string | null>; clockOffsetMs: number | null };
}): void {
  const problems = findObservationProblems({ observedAt: input.observedAt, issuedAt: input.issuedAt, now: input.deviceNow }).filter(
    (problem) => problem.kind !== 'future' || !input.checkFuture || input.checkFuture[problem.field],
  );
  if (problems.length > 0) {
    // The first problem of each field is the one to fix first (a future sighting before its order).
    const details: Record<string, string> = {};
    for (const problem of problems) details[problem.field] ??= problem.message;
    throw new AppError('VALIDATION_FAILED', problems[0]!.message, { details });
  }
  if (input.secondVisit && input.stayApplies && input.observedAt !== null) {
    const visit = findSecondVisitPhoto({ observedAt: input.observedAt, periods: input.carPark, ...input.secondVisit });
    if (visit.secondVisitPhotoIndex === null) {
      const message = secondVisitMissingMessage(visit.dueAt);
      throw new AppError('SECOND_VISIT_REQUIRED', message, { details: { images: message } });
    }
  }
  const check = canIssue({
    stayApplies: input.stayApplies,
    observedAt: input.observedAt,
    issuedAt: input.issuedAt,
    periods: input.carPark,
  });
  if (!check.canIssue) {
    const field = input.observedAt === null ? 'observedAt' : 'issuedAt';
    throw new AppError('VALIDATION_FAILED', check.explanation, { details: { [field]: check.explanation } });
  }
}

/**
 * A service or sighting time after the notice reached the server (the phone's reading corrected
 * by its measured clock offset, beyond a few minutes) is refused 422 naming each field: the
 * keeper's window and every document would run from it. Only the times the request sent are
 * checked; one worked out from another was checked as its source.
 */
export function assertTimesBeforeReceipt(input: { times: ReceiptCheckedTimes; receivedAt: Date; clockOffsetMs: number | null }): void {
  const late = timesAfterReceipt(input);
  const fields = Object.keys(late) as Array<keyof ReceiptCheckedTimes>;
  if (fields.length > 0) throw new AppError('TIME_AFTER_RECEIPT', late[fields[0]!]!, { details: late as Record<string, string> });
}

/** First seen after the service is refused 400 like any other field: the period would run backwards. */
export function assertFirstSeenBeforeService(input: { firstSeenAt: string | null; noticeServedAt: string | null }): void {
  if (input.firstSeenAt && input.noticeServedAt && isFirstSeenAfterService(input.firstSeenAt, input.noticeServedAt)) {
    throw new AppError('VALIDATION_FAILED', PERIOD_MESSAGES.firstSeenAfterService, {
      details: { firstSeenAt: PERIOD_MESSAGES.firstSeenAfterService },
    });
  }
}

/**
 * The first sightings a request sent (first seen, and the stay's first visit), each within the
 * day of the notice (FIRST_SIGHTING_WINDOW_MS) and first seen not after its issue: 400 naming
 * each field. Only the times the request sent: a default was worked out from one checked here.
 */
export function assertSightingsWithinTheDay(input: { firstSeenAt?: string | null; observedAt?: string | null; issuedAt: string }): void {
  const details: Record<string, string> = {};
  for (const field of ['firstSeenAt', 'observedAt'] as const) {
    const sighted = input[field];
    const problem = sighted ? firstSightingProblem(field, sighted, input.issuedAt) : null;
    if (problem) details[field] = problem;
  }
  const first = Object.values(details)[0];
  if (first) throw new AppError('VALIDATION_FAILED', first, { details });
}
