import { onFirstUse } from './on-first-use.ts';
import { UK_LOCALE, UK_TIME_ZONE } from './uk-time-zone.ts';
/**
 * When a notice to keeper may be given, under the Protection of Freedoms Act 2012, Schedule 4
 * (decision 0016). Pure rules over calendar dates in UK local time ('YYYY-MM-DD'); the working-day
 * calendar is passed in (shared/src/working-days.ts builds England and Wales's from date-holidays).
 *
 * - Paragraph 8 (a notice to driver was given: fixed to the vehicle or handed to the driver): the
 *   notice to keeper must not be given before the end of the period of 28 days beginning with the
 *   day after the notice to driver was given, and must be given within 56 days beginning with
 *   that day.
 * - Paragraph 9 (no notice to driver: the driver left before it could be served): the notice to
 *   keeper must be given within 14 days beginning with the day after the period of parking ended.
 * - Both: a posted notice is presumed given on the second working day after the day it is posted.
 *   A working day is any day but a Saturday, Sunday, Christmas Day, Good Friday or a bank holiday
 *   in England and Wales.
 * - Schedule 4 applies to land in England and Wales only, and only to "relevant land"
 *   (paragraph 3): not a highway maintainable at public expense, not a parking place provided or
 *   controlled by a traffic authority, and not land where parking is under statutory control, such
 *   as byelaws (paragraph 3(1)(c), 3(3)-(4)). On such land no keeper liability arises at all.
 * - Paragraphs 13 and 14 (a hired vehicle): the notice to hirer must be given within 21 days
 *   beginning with the day after the creditor is given the hire firm's documents (paragraph 13(2)),
 *   which themselves count only if given within 28 days beginning with the day after the notice to
 *   keeper was given. A posted notice to hirer is presumed given as a notice to keeper is.
 */

export const NOTICE_SERVED_BY = ['AFFIXED', 'HANDED', 'DRIVE_OFF'] as const;
export type NoticeServedBy = (typeof NOTICE_SERVED_BY)[number];

export const NOTICE_SERVED_BY_LABELS: Record<NoticeServedBy, string> = {
  AFFIXED: 'Fixed to the vehicle',
  HANDED: 'Handed to the driver',
  DRIVE_OFF: 'Driver left before it could be served',
};

/** The question Review & Submit asks, and the admin's correction asks again. */
export const NOTICE_SERVED_LEGEND = 'How was the notice served?';
export const NOTICE_SERVED_BY_OPTIONS = NOTICE_SERVED_BY.map((servedBy) => ({ id: servedBy, label: NOTICE_SERVED_BY_LABELS[servedBy] }));

/** 'Fixed to the vehicle, 19 Dec 2025 10:42' in the caller's time format, or 'Not recorded'. */
export function describeNoticeToDriver(
  notice: { servedBy: NoticeServedBy; servedAt: string } | null,
  formatTime: (iso: string) => string,
): string {
  return notice ? `${NOTICE_SERVED_BY_LABELS[notice.servedBy]}, ${formatTime(notice.servedAt)}` : 'Not recorded';
}

export const JURISDICTIONS = ['ENGLAND_AND_WALES', 'SCOTLAND', 'NORTHERN_IRELAND'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

export const JURISDICTION_LABELS: Record<Jurisdiction, string> = {
  ENGLAND_AND_WALES: 'England and Wales',
  SCOTLAND: 'Scotland',
  NORTHERN_IRELAND: 'Northern Ireland',
};

export const KEEPER_NOTICE_ROUTES = ['PARAGRAPH_8', 'PARAGRAPH_9', 'NOT_AVAILABLE'] as const;
export type KeeperNoticeRoute = (typeof KEEPER_NOTICE_ROUTES)[number];

/** Admins are warned this many working days before the last posting day. */
export const KEEPER_NOTICE_WARNING_WORKING_DAYS = 3;

/** A calendar date, 'YYYY-MM-DD'. */
export type CalendarDate = string;

export type WorkingDays = { isWorkingDay(date: CalendarDate): boolean };

export type KeeperNoticeWindow =
  | { route: 'NOT_AVAILABLE'; firstPostingDate: null; lastPostingDate: null; earliestGivenOn: null; latestGivenOn: null }
  | {
      route: 'PARAGRAPH_8' | 'PARAGRAPH_9';
      /** The first working day a letter may be posted: posted then, it cannot be given too early, however fast the post. */
      firstPostingDate: CalendarDate;
      /** The last working day a letter may be posted and still be presumed given in time. */
      lastPostingDate: CalendarDate;
      earliestGivenOn: CalendarDate;
      latestGivenOn: CalendarDate;
    };

const HOUR_MS = 60 * 60 * 1000;

// Made once: building a formatter costs far more than using one, and every notice in a list
// page asks for its dates (scripts/bench/api.ts measured the list at a third of its rate).
const LONDON_DATE = onFirstUse(
  () => new Intl.DateTimeFormat(UK_LOCALE, { timeZone: UK_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }),
);

/**
 * The UK local calendar date of an instant (Europe/London, so 23:30 UTC in summer is the next day).
 * Put together from the formatter's parts, not its string: ICU 72's en-CA (WebKitGTK on Debian 12)
 * writes '12/31/2099' where other builds write '2099-12-31'.
 */
export function ukDate(instant: string | Date): CalendarDate {
  const at = instant instanceof Date ? instant : new Date(instant);
  // London's offsets from UTC are whole hours and its clocks change on the hour, so every instant
  // of one UTC hour has the same UK date: a page of notices asks for the same hours again and
  // again, and the formatter costs microseconds each time. Bounded, as the windows' memo is.
  const hour = Math.floor(at.getTime() / HOUR_MS);
  const known = UK_DATES_BY_HOUR.get(hour);
  if (known !== undefined) return known;
  const parts = LONDON_DATE().formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)?.value;
  const date = `${part('year')}-${part('month')}-${part('day')}`;
  if (UK_DATES_BY_HOUR.size >= 10_000) UK_DATES_BY_HOUR.clear();
  UK_DATES_BY_HOUR.set(hour, date);
  return date;
}
const UK_DATES_BY_HOUR = new Map<number, CalendarDate>();

/** Calendar arithmetic on dates, never on instants: a clock change is not a day. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const at = new Date(`${date}T00:00:00.000Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/**
 * The last instant of a UK calendar day, as an ISO time. UK midnight is 00:00 UTC in winter and
 * 23:00 UTC the day before in summer, whichever reads as the day in London.
 */
export function endOfUkDay(date: CalendarDate): string {
  const next = addDays(date, 1);
  const utcMidnight = Date.parse(`${next}T00:00:00.000Z`);
  const start = ukDate(new Date(utcMidnight - HOUR_MS)) === next ? utcMidnight - HOUR_MS : utcMidnight;
  return new Date(start - 1).toISOString();
}

/** The first instant of a UK calendar day, as an ISO time: the instant after the day before ends. */
export function startOfUkDay(date: CalendarDate): string {
  return new Date(Date.parse(endOfUkDay(addDays(date, -1))) + 1).toISOString();
}

/** The day a notice posted on `postedOn` is presumed given: the second working day after it. */
export function deemedGivenOn(postedOn: CalendarDate, calendar: WorkingDays): CalendarDate {
  let day = postedOn;
  let workingDays = 0;
  while (workingDays < 2) {
    day = addDays(day, 1);
    if (calendar.isWorkingDay(day)) workingDays++;
  }
  return day;
}

/** Why keeper liability is not available for a car park's land, or null where Schedule 4 reaches it. */
export type KeeperLiabilityGap = 'NOT_RELEVANT_LAND' | 'OUTSIDE_ENGLAND_AND_WALES';

/** The land as Schedule 4 sees it: where it is, and whether it is "relevant land" (paragraph 3). */
export type LandFacts = { jurisdiction: Jurisdiction; relevantLand?: boolean };

export function keeperLiabilityGap(land: LandFacts): KeeperLiabilityGap | null {
  if (land.jurisdiction !== 'ENGLAND_AND_WALES') return 'OUTSIDE_ENGLAND_AND_WALES';
  if (land.relevantLand === false) return 'NOT_RELEVANT_LAND';
  return null;
}

export const KEEPER_LIABILITY_GAP_TEXTS: Record<KeeperLiabilityGap, string> = {
  OUTSIDE_ENGLAND_AND_WALES: 'Keeper liability is not available: the land is not in England and Wales',
  NOT_RELEVANT_LAND:
    'Keeper liability is not available: the land is not relevant land under Schedule 4 (byelaws or other statutory control)',
};

/** The route to keeper liability for a notice: where its land is, what land it is, and whether a notice to driver was given. */
export function keeperNoticeRoute(input: LandFacts & { servedBy: NoticeServedBy | null }): KeeperNoticeRoute {
  if (keeperLiabilityGap(input)) return 'NOT_AVAILABLE';
  return input.servedBy === 'AFFIXED' || input.servedBy === 'HANDED' ? 'PARAGRAPH_8' : 'PARAGRAPH_9';
}

/**
 * The window for posting the notice to keeper. `servedOn` is the day the notice to driver was
 * given (paragraph 8) or, for paragraph 9, the day the period of parking ended.
 */
export function keeperNoticeWindow(
  input: LandFacts & { servedBy: NoticeServedBy | null; servedOn: CalendarDate },
  calendar: WorkingDays,
): KeeperNoticeWindow {
  const route = keeperNoticeRoute(input);
  if (route === 'NOT_AVAILABLE')
    return { route, firstPostingDate: null, lastPostingDate: null, earliestGivenOn: null, latestGivenOn: null };
  const dayAfter = addDays(input.servedOn, 1);
  // Paragraph 8: not before the end of 28 days beginning with the day after, so from its 29th day.
  const earliestGivenOn = route === 'PARAGRAPH_8' ? addDays(dayAfter, 28) : dayAfter;
  const latestGivenOn = addDays(dayAfter, route === 'PARAGRAPH_8' ? 55 : 13);
  // Letters go on working days (a box emptied on a bank holiday posts nothing until the next).
  // Posted no sooner than the earliest day, a letter cannot be given too early however fast the
  // post; paragraph 9's letter states the amount unpaid at the end of the day before posting, so
  // it goes no sooner than the day after the parking either.
  let firstPostingDate = earliestGivenOn;
  while (!calendar.isWorkingDay(firstPostingDate)) firstPostingDate = addDays(firstPostingDate, 1);
  return { route, firstPostingDate, lastPostingDate: lastPostingDayFor(latestGivenOn, calendar), earliestGivenOn, latestGivenOn };
}

/** A posting window of any letter: the first and last working days it may be posted. */
export type PostingWindow = {
  firstPostingDate: CalendarDate;
  lastPostingDate: CalendarDate;
  earliestGivenOn: CalendarDate;
  latestGivenOn: CalendarDate;
};

/** The last working day whose presumed delivery (the second working day after) is on or before `latestGivenOn`. */
function lastPostingDayFor(latestGivenOn: CalendarDate, calendar: WorkingDays): CalendarDate {
  let day = latestGivenOn;
  while (!calendar.isWorkingDay(day) || deemedGivenOn(day, calendar) > latestGivenOn) day = addDays(day, -1);
  return day;
}

/**
 * The last day the hire firm's documents count (paragraph 13(2)): within 28 days beginning with
 * the day after the notice to keeper was given. Documents given later leave the keeper liable.
 */
export function hireDocumentsDeadline(keeperNoticeGivenOn: CalendarDate): CalendarDate {
  return addDays(keeperNoticeGivenOn, 28);
}

/**
 * The notice to hirer's window (paragraph 14): given within 21 days beginning with the day after
 * the creditor was given the documents of paragraph 13(2). As with a notice to keeper, the first
 * posting day is the first working day on or after the earliest day it may be given, and the last
 * the last working day whose presumed delivery is inside the window.
 */
export function noticeToHirerWindow(documentsGivenOn: CalendarDate, calendar: WorkingDays): PostingWindow {
  const earliestGivenOn = addDays(documentsGivenOn, 1);
  const latestGivenOn = addDays(earliestGivenOn, 20);
  let firstPostingDate = earliestGivenOn;
  while (!calendar.isWorkingDay(firstPostingDate)) firstPostingDate = addDays(firstPostingDate, 1);
  return { firstPostingDate, lastPostingDate: lastPostingDayFor(latestGivenOn, calendar), earliestGivenOn, latestGivenOn };
}

/** Whether a letter posted on `postedOn` is inside a posting window. */
export function windowPostingProblem(window: PostingWindow, postedOn: CalendarDate): 'TOO_EARLY' | 'TOO_LATE' | null {
  if (postedOn < window.firstPostingDate) return 'TOO_EARLY';
  if (postedOn > window.lastPostingDate) return 'TOO_LATE';
  return null;
}

/**
 * A notice's route and posting days: the window the server works out, or the same three fields as
 * a notice in a list carries them (`KeeperNotice`), so a screen asks the question the server does.
 */
export type RoutePostingDays = {
  route: KeeperNoticeRoute;
  firstPostingDate: CalendarDate | null;
  lastPostingDate: CalendarDate | null;
};

/** Whether a letter posted on `postedOn` is inside its window (too early is refused as too late is). */
export function postingProblem(window: RoutePostingDays, postedOn: CalendarDate): 'NOT_AVAILABLE' | 'TOO_EARLY' | 'TOO_LATE' | null {
  if (window.route === 'NOT_AVAILABLE' || !window.firstPostingDate || !window.lastPostingDate) return 'NOT_AVAILABLE';
  if (postedOn < window.firstPostingDate) return 'TOO_EARLY';
  if (postedOn > window.lastPostingDate) return 'TOO_LATE';
  return null;
}

/**
 * 'Not yet: from 30 Nov' where a letter posted on `postOn` would be refused as too early (the
 * queue marks the row and leaves it out of a selection); null where that day is not too early.
 */
export function describeNotYetPostable(window: RoutePostingDays, postOn: CalendarDate): string | null {
  return postingProblem(window, postOn) === 'TOO_EARLY' ? `Not yet: from ${dayAndMonth(window.firstPostingDate!)}` : null;
}

/** True from 3 working days before the last posting day (and after it), while it can still matter. */
export function isPostingDeadlineNear(window: KeeperNoticeWindow, today: CalendarDate, calendar: WorkingDays): boolean {
  return window.route !== 'NOT_AVAILABLE' && today >= postingWarningFrom(window.lastPostingDate, calendar);
}

/** The first day the last posting day is near: 3 working days before it. */
export function postingWarningFrom(lastPostingDate: CalendarDate, calendar: WorkingDays): CalendarDate {
  let warnFrom = lastPostingDate;
  for (let counted = 0; counted < KEEPER_NOTICE_WARNING_WORKING_DAYS;) {
    warnFrom = addDays(warnFrom, -1);
    if (calendar.isWorkingDay(warnFrom)) counted++;
  }
  return warnFrom;
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2026-01-19' -> '19 Jan 2026'. */
export function formatCalendarDate(date: CalendarDate): string {
  const [year, month, day] = date.split('-').map(Number);
  return `${day} ${SHORT_MONTHS[month! - 1]} ${year}`;
}

/** '19 Jan', for a window read beside the time left. */
function dayAndMonth(date: CalendarDate): string {
  const [, month, day] = date.split('-').map(Number);
  return `${day} ${SHORT_MONTHS[month! - 1]}`;
}

/**
 * The queue's line, the window whole on both routes ('Post between 30 Nov and 9 Dec'): a
 * paragraph 9 letter posted before its first day is refused as one after its last is. Or that it
 * cannot be posted.
 */
export function describePostingWindow(notice: RoutePostingDays): string {
  if (notice.route === 'NOT_AVAILABLE' || !notice.firstPostingDate || !notice.lastPostingDate) return KEEPER_LIABILITY_NOT_AVAILABLE;
  return `Post between ${dayAndMonth(notice.firstPostingDate)} and ${dayAndMonth(notice.lastPostingDate)}`;
}

export const KEEPER_LIABILITY_NOT_AVAILABLE = 'Keeper liability not available';

/** What the admin reads about a notice's route and posting window. */
export function describeKeeperNotice(notice: {
  route: KeeperNoticeRoute;
  firstPostingDate: CalendarDate | null;
  lastPostingDate: CalendarDate | null;
  postedOn?: CalendarDate | null;
  deemedGivenOn?: CalendarDate | null;
  /** Why Schedule 4 does not reach the land, when the caller knows; outside England and Wales when not said. */
  gap?: KeeperLiabilityGap | null;
}): string {
  if (notice.route === 'NOT_AVAILABLE' || !notice.firstPostingDate || !notice.lastPostingDate) {
    return KEEPER_LIABILITY_GAP_TEXTS[notice.gap ?? 'OUTSIDE_ENGLAND_AND_WALES'];
  }
  const paragraph = notice.route === 'PARAGRAPH_8' ? 'Paragraph 8 (after a notice to driver)' : 'Paragraph 9 (no notice to driver)';
  if (notice.postedOn) {
    const given = notice.deemedGivenOn ? `, presumed given on ${formatCalendarDate(notice.deemedGivenOn)}` : '';
    return `${paragraph}: posted on ${formatCalendarDate(notice.postedOn)}${given}`;
  }
  return `${paragraph}: post between ${formatCalendarDate(notice.firstPostingDate)} and ${formatCalendarDate(notice.lastPostingDate)}`;
}
