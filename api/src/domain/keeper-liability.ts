import {
  deemedGivenOn,
  endOfUkDay,
  isKeeperNoticeOpen,
  keeperLiabilityGap,
  keeperNoticeWindow,
  postingWarningFrom,
  ukDate,
  type LandFacts,
  type KeeperNotice,
  type KeeperNoticeWindow,
  type NoticeToDriver,
  type PcnStatus,
} from '@parkpatrol/shared';
import { englandAndWalesWorkingDays } from '@parkpatrol/shared/working-days';
import type { Selectable } from 'kysely';
import type { CarParksTable, PcnsTable } from '../db/schema.ts';

/** Built once: date-holidays parses its rules on construction, and the answer never changes. */
const workingDays = englandAndWalesWorkingDays();

/**
 * Windows by route and day, worked out once each: a list page asks for ten, mostly of the same
 * few days, and working one out walks the calendar (about 18 µs, a third of the list route's
 * rate in scripts/bench/api.ts). Bounded, so a server up for years does not keep every day.
 */
const windows = new Map<string, KeeperNoticeWindow>();
function windowOf(input: Parameters<typeof keeperNoticeWindow>[0]): KeeperNoticeWindow {
  const key = `${input.jurisdiction}|${input.relevantLand !== false}|${input.servedBy}|${input.servedOn}`;
  let window = windows.get(key);
  if (!window) {
    if (windows.size >= 10_000) windows.clear();
    window = keeperNoticeWindow(input, workingDays);
    windows.set(key, window);
  }
  return window;
}

/** A notice's row with its car park's land beside it (null where the car park is gone). */
type ServiceFacts = Pick<PcnRow, 'notice_served_by' | 'notice_served_at' | 'issued_at' | 'observed_at' | 'created_at'> &
  Partial<Pick<PcnRow, 'keeper_notice_posted_on' | 'keeper_notice_given_on'>> & {
    car_park_jurisdiction: CarParkRow['jurisdiction'] | null;
    /** False for land that is not relevant land (Schedule 4, paragraph 3); null or absent reads as relevant. */
    car_park_relevant_land?: CarParkRow['relevant_land'] | null;
  };
type PcnRow = Selectable<PcnsTable>;
type CarParkRow = Selectable<CarParksTable>;

function serviceAndWindow(row: ServiceFacts) {
  const servedBy = row.notice_served_by;
  const servedAt = row.notice_served_at ?? row.issued_at ?? row.observed_at ?? row.created_at;
  const land = landOf(row);
  const window = windowOf({ ...land, servedBy, servedOn: ukDate(servedAt) });
  return { servedBy, servedAt, window, gap: keeperLiabilityGap(land) };
}

/** The notice's land as Schedule 4 sees it (paragraph 3 and its reach): where it is, and whether it is relevant land. */
export function landOf(row: Pick<ServiceFacts, 'car_park_jurisdiction' | 'car_park_relevant_land'>): LandFacts {
  return {
    jurisdiction: row.car_park_jurisdiction ?? 'ENGLAND_AND_WALES',
    relevantLand: row.car_park_relevant_land !== false,
  };
}

/** The notice's posting window (decision 0016), for checking a posting day against it. */
export function postingWindowOf(row: ServiceFacts): KeeperNoticeWindow {
  return serviceAndWindow(row).window;
}

/** The day a notice to keeper posted on `postedOn` is presumed given (England and Wales working days). */
export function givenOnIfPosted(postedOn: string): string {
  return deemedGivenOn(postedOn, workingDays);
}

/** The last day the notice to keeper may be posted (the queue's order), or null where keeper liability is not available. */
export function lastPostingDateOf(row: ServiceFacts): string | null {
  return serviceAndWindow(row).window.lastPostingDate;
}

/**
 * The deadline the admin is warned about: the end of the last posting day, and whether it is
 * KEEPER_NOTICE_WARNING_WORKING_DAYS working days away or fewer while the notice can still go out.
 */
export function keeperDeadlineOf(
  row: ServiceFacts,
  status: PcnStatus,
  now: Date,
): { keeperNoticeDueAt?: string; deadlineWarning: boolean } {
  const { window } = serviceAndWindow(row);
  if (window.route === 'NOT_AVAILABLE') return { deadlineWarning: false };
  const { dueAt, warnFrom } = deadlineOf(window.lastPostingDate);
  return { keeperNoticeDueAt: dueAt, deadlineWarning: isKeeperNoticeOpen(status) && ukDate(now) >= warnFrom };
}

/** A last posting day's deadline and the day its warning starts, worked out once each (as the windows are). */
const deadlines = new Map<string, { dueAt: string; warnFrom: string }>();
function deadlineOf(lastPostingDate: string): { dueAt: string; warnFrom: string } {
  let deadline = deadlines.get(lastPostingDate);
  if (!deadline) {
    if (deadlines.size >= 10_000) deadlines.clear();
    deadline = { dueAt: endOfUkDay(lastPostingDate), warnFrom: postingWarningFrom(lastPostingDate, workingDays) };
    deadlines.set(lastPostingDate, deadline);
  }
  return deadline;
}

/**
 * A notice's service and its route to keeper liability (decision 0016), from its stored facts.
 * A notice filed before service was recorded has no notice to driver on file, so it takes
 * paragraph 9 from when it was issued, as the product did before.
 */
export function keeperLiabilityOf(row: ServiceFacts): { noticeToDriver: NoticeToDriver | null; keeperNotice: KeeperNotice } {
  const { servedBy, servedAt, window, gap } = serviceAndWindow(row);
  return {
    noticeToDriver: servedBy ? { servedBy, servedAt } : null,
    keeperNotice: {
      route: window.route,
      gap,
      firstPostingDate: window.firstPostingDate,
      lastPostingDate: window.lastPostingDate,
      postedOn: row.keeper_notice_posted_on ?? null,
      deemedGivenOn: row.keeper_notice_given_on ?? null,
    },
  };
}
