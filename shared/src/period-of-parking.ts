import { OBSERVATION_FUTURE_ALLOWANCE_MS } from './observation.ts';

/**
 * The period of parking every notice states (Schedule 4, paragraphs 7(2)(a), 8(2)(a) and
 * 9(2)(a)): from when the vehicle was first seen to when the notice was served (or the driver
 * left). First seen is the observation's start, else when the officer began the notice; the
 * officer may correct it on Review & Submit, never to after the service.
 *
 * The times are the phone's readings. The server knows how far the phone's clock is off (the
 * offset it measures from X-Device-Time at receipt), so a time that, corrected by that offset,
 * is after the notice reached the server cannot be true: it is refused, naming the field, rather
 * than becoming the start of a keeper's window months away.
 */
export const PERIOD_MESSAGES = {
  firstSeenAfterService: 'First seen must be no later than the time of service.',
  firstSeenAfterReceipt: 'First seen is after the notice reached the server. Check the time and the phone clock.',
  observedAfterReceipt: 'The first sighting is after the notice reached the server. Check the time and the phone clock.',
  servedAfterReceipt: 'The time of service is after the notice reached the server. Check the time and the phone clock.',
  firstSeenAfterIssue: 'First seen must be no later than the time the notice was issued.',
  firstSeenTooEarly: 'First seen must be within the 24 hours before the notice was issued.',
  observedTooEarly: 'The first sighting must be within the 24 hours before the notice was issued.',
  observationTooOld: 'The first sighting cannot be before the car park was set up.',
} as const;

/**
 * How far before the notice's issue its first sighting may be. "Within the day of the notice",
 * read as: the same UK calendar day as the issue, or, for a stay that crosses midnight, the
 * evening before. A rolling 24 hours before the issue covers both (any earlier time on the issue's
 * own day is less than 24 hours before it), and is one rule on any clock change day. A sighting
 * older than that is not one parking event an officer watched, but a typo or a forged start
 * (1970) that would stretch the period of parking every document prints.
 */
export const FIRST_SIGHTING_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A first sighting the request sent, against the notice's issue: not before the window, and (for
 * first seen) not after the issue, compared to the minute as documents print it. The message for
 * the field, or null.
 */
export function firstSightingProblem(field: 'firstSeenAt' | 'observedAt', sightedAt: string, issuedAt: string): string | null {
  const minute = (iso: string) => Math.floor(Date.parse(iso) / 60_000);
  if (field === 'firstSeenAt' && minute(sightedAt) > minute(issuedAt)) return PERIOD_MESSAGES.firstSeenAfterIssue;
  if (Date.parse(sightedAt) < Date.parse(issuedAt) - FIRST_SIGHTING_WINDOW_MS) {
    return field === 'firstSeenAt' ? PERIOD_MESSAGES.firstSeenTooEarly : PERIOD_MESSAGES.observedTooEarly;
  }
  return null;
}

/** The phone's times checked against receipt: service and sighting, the two a keeper's window and the period hang on. */
export type ReceiptCheckedTimes = { noticeServedAt?: string | null; observedAt?: string | null; firstSeenAt?: string | null };

const AFTER_RECEIPT: Record<keyof ReceiptCheckedTimes, string> = {
  noticeServedAt: PERIOD_MESSAGES.servedAfterReceipt,
  observedAt: PERIOD_MESSAGES.observedAfterReceipt,
  firstSeenAt: PERIOD_MESSAGES.firstSeenAfterReceipt,
};

/**
 * The fields whose time is after receipt: each device reading moved onto the server's clock by
 * the measured offset (server minus device; 0 when the phone did not say), allowing the same few
 * minutes a sighting has always been allowed. Empty when all are possible.
 */
export function timesAfterReceipt(input: {
  times: ReceiptCheckedTimes;
  receivedAt: Date | string;
  clockOffsetMs: number | null;
  allowanceMs?: number;
}): Partial<Record<keyof ReceiptCheckedTimes, string>> {
  const latest = new Date(input.receivedAt).getTime() + (input.allowanceMs ?? OBSERVATION_FUTURE_ALLOWANCE_MS);
  const offset = input.clockOffsetMs ?? 0;
  const problems: Partial<Record<keyof ReceiptCheckedTimes, string>> = {};
  for (const field of Object.keys(AFTER_RECEIPT) as Array<keyof ReceiptCheckedTimes>) {
    const time = input.times[field];
    if (time && Date.parse(time) + offset > latest) problems[field] = AFTER_RECEIPT[field];
  }
  return problems;
}

/** First seen when the phone did not send one: the first sighting, else the service itself. */
export function defaultFirstSeenAt(notice: { observedAt: string | null; noticeServedAt: string }): string {
  return notice.observedAt ?? notice.noticeServedAt;
}

/**
 * First seen on the officer's phone: the officer's correction on Review & Submit, else the
 * observation's first sighting, else when the officer began the notice (the draft was made).
 */
export function draftFirstSeenAt(draft: { firstSeenAt?: string | null; observedAt: string | null; createdAt: string | number }): string {
  return draft.firstSeenAt ?? draft.observedAt ?? new Date(draft.createdAt).toISOString();
}

/**
 * First seen is the start of the period: never after its end, the service. Compared to the
 * minute, as every document prints them and every form edits them: a service time corrected to
 * 14:31 stands beside a first sighting at 14:31:27.
 */
export function isFirstSeenAfterService(firstSeenAt: string, noticeServedAt: string): boolean {
  const minute = (iso: string) => Math.floor(Date.parse(iso) / 60_000);
  return minute(firstSeenAt) > minute(noticeServedAt);
}
