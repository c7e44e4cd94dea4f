import { describe, expect, it } from 'vitest';
import {
  describeKeeperNotice,
  describeNotYetPostable,
  describePostingWindow,
  endOfUkDay,
  startOfUkDay,
  addDays,
  deemedGivenOn,
  isPostingDeadlineNear,
  hireDocumentsDeadline,
  keeperLiabilityGap,
  keeperNoticeRoute,
  keeperNoticeWindow,
  noticeToHirerWindow,
  postingProblem,
  ukDate,
  windowPostingProblem,
} from './keeper-liability.ts';
import { englandAndWalesWorkingDays } from './working-days.ts';

const calendar = englandAndWalesWorkingDays();
const EW = 'ENGLAND_AND_WALES' as const;

describe('working days in England and Wales (from date-holidays)', () => {
  it.each([
    ['2025-12-25', false, 'Christmas Day'],
    ['2025-12-26', false, 'Boxing Day'],
    ['2026-01-01', false, "New Year's Day"],
    ['2026-04-03', false, 'Good Friday'],
    ['2026-04-06', false, 'Easter Monday'],
    ['2026-12-28', false, 'the substitute for Boxing Day on a Saturday'],
    ['2026-01-17', false, 'a Saturday'],
    ['2026-01-18', false, 'a Sunday'],
    ['2025-12-24', true, 'Christmas Eve'],
    ['2026-01-02', true, 'the second of January (a holiday in Scotland only)'],
  ])('%s is %s: %s', (date, working) => {
    expect(calendar.isWorkingDay(date)).toBe(working);
  });
});

describe('a posted notice is presumed given on the second working day after posting', () => {
  it.each([
    ['2026-01-13', '2026-01-15', 'Tuesday to Thursday'],
    ['2026-01-15', '2026-01-19', 'Thursday over the weekend to Monday'],
    ['2025-12-23', '2025-12-29', 'over Christmas and Boxing Day'],
    ['2025-12-31', '2026-01-05', "over New Year's Day and a weekend"],
    ['2026-04-02', '2026-04-08', 'over Good Friday and Easter Monday'],
    ['2026-01-17', '2026-01-20', 'posted on a Saturday'],
  ])('posted %s, given %s (%s)', (postedOn, givenOn) => {
    expect(deemedGivenOn(postedOn, calendar)).toBe(givenOn);
  });
});

describe('the route to keeper liability', () => {
  it('is paragraph 8 after a notice to driver, paragraph 9 without one, and none outside England and Wales', () => {
    expect(keeperNoticeRoute({ jurisdiction: EW, servedBy: 'AFFIXED' })).toBe('PARAGRAPH_8');
    expect(keeperNoticeRoute({ jurisdiction: EW, servedBy: 'HANDED' })).toBe('PARAGRAPH_8');
    expect(keeperNoticeRoute({ jurisdiction: EW, servedBy: 'DRIVE_OFF' })).toBe('PARAGRAPH_9');
    expect(keeperNoticeRoute({ jurisdiction: EW, servedBy: null })).toBe('PARAGRAPH_9');
    expect(keeperNoticeRoute({ jurisdiction: 'SCOTLAND', servedBy: 'AFFIXED' })).toBe('NOT_AVAILABLE');
    expect(keeperNoticeRoute({ jurisdiction: 'NORTHERN_IRELAND', servedBy: 'DRIVE_OFF' })).toBe('NOT_AVAILABLE');
  });
});

describe('posting windows, worked examples', () => {
  it('paragraph 8: a notice to driver fixed on Friday 19 December 2025', () => {
    // 28 days beginning Saturday 20 December end on Friday 16 January: given from Saturday 17
    // January, so posted from Monday 19 January (a working day). 56 days end on Friday 13
    // February: posted Wednesday 11 February, it is presumed given on Friday 13.
    const window = keeperNoticeWindow({ jurisdiction: EW, servedBy: 'AFFIXED', servedOn: '2025-12-19' }, calendar);
    expect(window).toEqual({
      route: 'PARAGRAPH_8',
      earliestGivenOn: '2026-01-17',
      latestGivenOn: '2026-02-13',
      firstPostingDate: '2026-01-19',
      lastPostingDate: '2026-02-11',
    });
    expect(deemedGivenOn('2026-02-12', calendar)).toBe('2026-02-16');
  });

  it('paragraph 9: a drive-off that Friday, its 14 days over Christmas, Boxing Day and New Year', () => {
    // 14 days beginning Saturday 20 December end on Friday 2 January. Posted Wednesday 31
    // December, it would be presumed given on Monday 5 January (New Year's Day is no working
    // day): too late. Tuesday 30 December is the last posting day.
    const window = keeperNoticeWindow({ jurisdiction: EW, servedBy: 'DRIVE_OFF', servedOn: '2025-12-19' }, calendar);
    expect(window).toEqual({
      route: 'PARAGRAPH_9',
      earliestGivenOn: '2025-12-20',
      latestGivenOn: '2026-01-02',
      firstPostingDate: '2025-12-22',
      lastPostingDate: '2025-12-30',
    });
  });

  it('paragraph 9 over Easter and the spring clock change', () => {
    // Parking ended Wednesday 25 March 2026; 14 days end on Wednesday 8 April. Good Friday and
    // Easter Monday are no working days, so the last letter goes on Thursday 2 April.
    const window = keeperNoticeWindow({ jurisdiction: EW, servedBy: 'DRIVE_OFF', servedOn: '2026-03-25' }, calendar);
    expect(window).toMatchObject({ latestGivenOn: '2026-04-08', lastPostingDate: '2026-04-02' });
  });

  it('a window ending on a weekend', () => {
    // Parking ended Sunday 4 January 2026; 14 days end on Sunday 18 January.
    const window = keeperNoticeWindow({ jurisdiction: EW, servedBy: 'DRIVE_OFF', servedOn: '2026-01-04' }, calendar);
    expect(window).toMatchObject({ firstPostingDate: '2026-01-05', latestGivenOn: '2026-01-18', lastPostingDate: '2026-01-14' });
  });

  it('paragraph 8 across a month end, from the last day of January', () => {
    const window = keeperNoticeWindow({ jurisdiction: EW, servedBy: 'HANDED', servedOn: '2026-01-31' }, calendar);
    expect(window).toEqual({
      route: 'PARAGRAPH_8',
      earliestGivenOn: '2026-03-01',
      latestGivenOn: '2026-03-28',
      firstPostingDate: '2026-03-02',
      lastPostingDate: '2026-03-25',
    });
  });

  it('no window outside England and Wales', () => {
    const window = keeperNoticeWindow({ jurisdiction: 'SCOTLAND', servedBy: 'AFFIXED', servedOn: '2026-01-31' }, calendar);
    expect(window.route).toBe('NOT_AVAILABLE');
    expect(postingProblem(window, '2026-03-02')).toBe('NOT_AVAILABLE');
  });

  it('refuses a posting too early as it refuses one too late', () => {
    const window = keeperNoticeWindow({ jurisdiction: EW, servedBy: 'AFFIXED', servedOn: '2025-12-19' }, calendar);
    expect(postingProblem(window, '2026-01-16')).toBe('TOO_EARLY');
    expect(postingProblem(window, '2026-01-19')).toBeNull();
    expect(postingProblem(window, '2026-02-11')).toBeNull();
    expect(postingProblem(window, '2026-02-12')).toBe('TOO_LATE');
  });

  it('warns from 3 working days before the last posting day', () => {
    // Last posting Tuesday 30 December 2025: 3 working days before is Tuesday 23 December
    // (Monday 29, then Wednesday 24 and Tuesday 23: Christmas Day and Boxing Day do not count).
    const window = keeperNoticeWindow({ jurisdiction: EW, servedBy: 'DRIVE_OFF', servedOn: '2025-12-19' }, calendar);
    expect(isPostingDeadlineNear(window, '2025-12-22', calendar)).toBe(false);
    expect(isPostingDeadlineNear(window, '2025-12-23', calendar)).toBe(true);
    expect(isPostingDeadlineNear(window, '2026-01-05', calendar)).toBe(true);
  });
});

describe('dates in UK local time', () => {
  it('takes the day in London, across both clock changes', () => {
    expect(ukDate('2026-03-28T23:30:00Z')).toBe('2026-03-28'); // GMT
    expect(ukDate('2026-03-29T23:30:00Z')).toBe('2026-03-30'); // BST: 00:30 the next day
    expect(ukDate('2026-10-24T23:30:00Z')).toBe('2026-10-25'); // still BST
    expect(ukDate('2026-10-25T23:30:00Z')).toBe('2026-10-25'); // GMT again
  });

  it('gives every minute the day a fresh formatter gives, though it remembers the day by the hour', () => {
    const london = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
    const fresh = (at: Date) => {
      const part = (type: string) => london.formatToParts(at).find((each) => each.type === type)!.value;
      return `${part('year')}-${part('month')}-${part('day')}`;
    };
    // Both clock changes and a year's end, each minute from the day before to the day after, the
    // later minutes of an hour asked after its first (so they are answered from memory).
    for (const from of ['2026-03-28T00:00:00Z', '2026-10-24T00:00:00Z', '2026-12-30T00:00:00Z']) {
      for (let minute = 0; minute < 3 * 24 * 60; minute++) {
        const at = new Date(Date.parse(from) + minute * 60_000);
        expect(ukDate(at), at.toISOString()).toBe(fresh(at));
        expect(ukDate(at.toISOString()), at.toISOString()).toBe(fresh(at));
      }
    }
  });

  it('adds calendar days over month, year and leap-year ends', () => {
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
  });
});

describe('endOfUkDay', () => {
  it('ends at 23:59:59.999 London time, in GMT and in BST, across the clock changes', () => {
    expect(endOfUkDay('2026-01-20')).toBe('2026-01-20T23:59:59.999Z');
    expect(endOfUkDay('2026-07-01')).toBe('2026-07-01T22:59:59.999Z');
    // 29 March 2026: clocks go forward at 01:00 GMT; the day ends in BST.
    expect(endOfUkDay('2026-03-29')).toBe('2026-03-29T22:59:59.999Z');
    // 25 October 2026: clocks go back at 02:00 BST; the day ends in GMT.
    expect(endOfUkDay('2026-10-25')).toBe('2026-10-25T23:59:59.999Z');
    expect(endOfUkDay('2026-12-31')).toBe('2026-12-31T23:59:59.999Z');
  });
});

describe('startOfUkDay', () => {
  it('starts at 00:00 London time: midnight UTC in GMT, 23:00 UTC the day before in BST', () => {
    expect(startOfUkDay('2026-01-20')).toBe('2026-01-20T00:00:00.000Z');
    expect(startOfUkDay('2026-07-14')).toBe('2026-07-13T23:00:00.000Z');
    // The days of the clock changes start before them: in GMT in March, in BST in October.
    expect(startOfUkDay('2026-03-29')).toBe('2026-03-29T00:00:00.000Z');
    expect(startOfUkDay('2026-10-25')).toBe('2026-10-24T23:00:00.000Z');
  });
});

describe('describePostingWindow', () => {
  it('gives the window by route, as the queue shows it', () => {
    expect(describePostingWindow({ route: 'PARAGRAPH_8', firstPostingDate: '2026-01-12', lastPostingDate: '2026-02-05' })).toBe(
      'Post between 12 Jan and 5 Feb',
    );
    expect(describePostingWindow({ route: 'PARAGRAPH_9', firstPostingDate: '2026-01-06', lastPostingDate: '2026-01-20' })).toBe(
      'Post between 6 Jan and 20 Jan',
    );
    expect(describePostingWindow({ route: 'NOT_AVAILABLE', firstPostingDate: null, lastPostingDate: null })).toBe(
      'Keeper liability not available',
    );
  });
});

describe('the window whole, and a day too early marked before anyone asks', () => {
  // Each example: when the parking ended (paragraph 9) or the ticket was fixed (paragraph 8), the
  // window the server checks a posting day against, the line the queue shows, and the days either
  // side of the first posting day as postingProblem (the server's refusal) and the queue see them.
  it.each([
    {
      what: 'paragraph 9 over a weekend and a month end: parking ended Friday 27 November 2026',
      // 14 days from Saturday 28 November end Friday 11 December. The first working day is Monday
      // 30 November; posted Wednesday 9 December it is given Friday 11, posted Thursday 10 on Monday 14.
      servedBy: 'DRIVE_OFF' as const,
      servedOn: '2026-11-27',
      first: '2026-11-30',
      last: '2026-12-09',
      line: 'Post between 30 Nov and 9 Dec',
      dayBefore: '2026-11-29',
      notYet: 'Not yet: from 30 Nov',
    },
    {
      what: 'paragraph 9 over the August bank holiday into September: parking ended Friday 28 August 2026',
      // From Saturday 29 August: the weekend and Monday 31 August (a bank holiday) are no working
      // days, so the first letter goes Tuesday 1 September; 14 days end Friday 11 September.
      servedBy: 'DRIVE_OFF' as const,
      servedOn: '2026-08-28',
      first: '2026-09-01',
      last: '2026-09-09',
      line: 'Post between 1 Sep and 9 Sep',
      dayBefore: '2026-08-31',
      notYet: 'Not yet: from 1 Sep',
    },
    {
      what: 'paragraph 8 across a month end: a ticket fixed Saturday 31 October 2026',
      // 28 days from Sunday 1 November end Saturday 28 November: given from Sunday 29, so posted
      // from Monday 30 November. 56 days end Saturday 26 December, after Christmas: posted
      // Tuesday 22 December it is given Thursday 24, posted Wednesday 23 on Tuesday 29.
      servedBy: 'AFFIXED' as const,
      servedOn: '2026-10-31',
      first: '2026-11-30',
      last: '2026-12-22',
      line: 'Post between 30 Nov and 22 Dec',
      dayBefore: '2026-11-27',
      notYet: 'Not yet: from 30 Nov',
    },
    {
      what: 'paragraph 9 at the clock change: parking ended at 00:30 BST on Sunday 25 October 2026 (23:30 UTC on the 24th)',
      // The day is London's: Sunday 25 October, so the 14 days run from Monday 26 October to Sunday
      // 8 November, and the last letter goes Wednesday 4 November (given Friday 6).
      servedBy: 'DRIVE_OFF' as const,
      servedOn: ukDate('2026-10-24T23:30:00Z'),
      first: '2026-10-26',
      last: '2026-11-04',
      line: 'Post between 26 Oct and 4 Nov',
      dayBefore: '2026-10-25',
      notYet: 'Not yet: from 26 Oct',
    },
    {
      what: 'paragraph 9 an hour later, in GMT: parking ended at 23:30 on Sunday 25 October 2026',
      servedBy: 'DRIVE_OFF' as const,
      servedOn: ukDate('2026-10-25T23:30:00Z'),
      first: '2026-10-26',
      last: '2026-11-04',
      line: 'Post between 26 Oct and 4 Nov',
      dayBefore: '2026-10-25',
      notYet: 'Not yet: from 26 Oct',
    },
  ])('$what', ({ servedBy, servedOn, first, last, line, dayBefore, notYet }) => {
    const window = keeperNoticeWindow({ jurisdiction: EW, servedBy, servedOn }, calendar);
    expect(window).toMatchObject({ firstPostingDate: first, lastPostingDate: last });
    // The last posting day's letter is given in time; the next working day's would not be.
    let nextWorkingDay = addDays(last, 1);
    while (!calendar.isWorkingDay(nextWorkingDay)) nextWorkingDay = addDays(nextWorkingDay, 1);
    expect(deemedGivenOn(last, calendar) <= window.latestGivenOn!).toBe(true);
    expect(deemedGivenOn(nextWorkingDay, calendar) > window.latestGivenOn!).toBe(true);
    expect(describePostingWindow(window)).toBe(line);
    // The list carries the route and the two days only; the question asked of them is the server's.
    const listed = { route: window.route, firstPostingDate: window.firstPostingDate, lastPostingDate: window.lastPostingDate };
    expect(postingProblem(listed, dayBefore)).toBe('TOO_EARLY');
    expect(postingProblem(window, dayBefore)).toBe('TOO_EARLY');
    expect(describeNotYetPostable(listed, dayBefore)).toBe(notYet);
    expect(postingProblem(listed, first)).toBeNull();
    expect(describeNotYetPostable(listed, first)).toBeNull();
    expect(postingProblem(listed, last)).toBeNull();
    // Too late is refused, but it is not 'not yet'.
    expect(postingProblem(listed, addDays(last, 1))).toBe('TOO_LATE');
    expect(describeNotYetPostable(listed, addDays(last, 1))).toBeNull();
  });

  it('a notice Schedule 4 does not reach is never "not yet"', () => {
    const listed = { route: 'NOT_AVAILABLE' as const, firstPostingDate: null, lastPostingDate: null };
    expect(postingProblem(listed, '2026-11-30')).toBe('NOT_AVAILABLE');
    expect(describeNotYetPostable(listed, '2026-11-30')).toBeNull();
  });
});

describe('describeKeeperNotice', () => {
  it('says the route and window, and once posted, when it went and when it is presumed given', () => {
    const window = { route: 'PARAGRAPH_8' as const, firstPostingDate: '2026-01-19', lastPostingDate: '2026-02-11' };
    expect(describeKeeperNotice(window)).toBe('Paragraph 8 (after a notice to driver): post between 19 Jan 2026 and 11 Feb 2026');
    expect(describeKeeperNotice({ route: 'PARAGRAPH_9', firstPostingDate: '2026-11-30', lastPostingDate: '2026-12-09' })).toBe(
      'Paragraph 9 (no notice to driver): post between 30 Nov 2026 and 9 Dec 2026',
    );
    expect(describeKeeperNotice({ ...window, postedOn: '2026-02-04', deemedGivenOn: '2026-02-06' })).toBe(
      'Paragraph 8 (after a notice to driver): posted on 4 Feb 2026, presumed given on 6 Feb 2026',
    );
  });
});

describe('land Schedule 4 does not reach (paragraph 3)', () => {
  it('byelaw land in England and Wales has no keeper liability, nor has Scotland or Northern Ireland', () => {
    expect(keeperNoticeRoute({ jurisdiction: EW, relevantLand: false, servedBy: 'AFFIXED' })).toBe('NOT_AVAILABLE');
    expect(keeperLiabilityGap({ jurisdiction: EW, relevantLand: false })).toBe('NOT_RELEVANT_LAND');
    expect(keeperLiabilityGap({ jurisdiction: 'SCOTLAND', relevantLand: true })).toBe('OUTSIDE_ENGLAND_AND_WALES');
    expect(keeperLiabilityGap({ jurisdiction: 'NORTHERN_IRELAND', relevantLand: false })).toBe('OUTSIDE_ENGLAND_AND_WALES');
    expect(keeperLiabilityGap({ jurisdiction: EW, relevantLand: true })).toBeNull();
    // Relevant land unless said otherwise: car parks saved before the question was asked.
    expect(keeperLiabilityGap({ jurisdiction: EW })).toBeNull();
    const window = keeperNoticeWindow({ jurisdiction: EW, relevantLand: false, servedBy: 'DRIVE_OFF', servedOn: '2026-01-05' }, calendar);
    expect(window.route).toBe('NOT_AVAILABLE');
    expect(describeKeeperNotice({ ...window, gap: 'NOT_RELEVANT_LAND' })).toMatch(/not relevant land/);
  });
});

describe('the notice to hirer (paragraphs 13 and 14)', () => {
  it('the hire firm’s documents count within 28 days beginning with the day after the notice to keeper was given', () => {
    // Given Wednesday 21 January 2026: 28 days beginning Thursday 22 January end on Wednesday 18 February.
    expect(hireDocumentsDeadline('2026-01-21')).toBe('2026-02-18');
  });

  it('21 days beginning the day after the documents, over Christmas and New Year', () => {
    // Documents given Tuesday 16 December 2025: the 21 days begin Wednesday 17 December and end
    // Tuesday 6 January 2026. Posted Friday 2 January, presumed given Tuesday 6 January (the
    // weekend is no working day); posted Monday 5 January, Wednesday 7: too late.
    const window = noticeToHirerWindow('2025-12-16', calendar);
    expect(window).toEqual({
      earliestGivenOn: '2025-12-17',
      latestGivenOn: '2026-01-06',
      firstPostingDate: '2025-12-17',
      lastPostingDate: '2026-01-02',
    });
    expect(windowPostingProblem(window, '2025-12-16')).toBe('TOO_EARLY');
    expect(windowPostingProblem(window, '2026-01-02')).toBeNull();
    expect(windowPostingProblem(window, '2026-01-05')).toBe('TOO_LATE');
  });

  it('documents given the day before Good Friday: the first posting day is after Easter Monday', () => {
    // Thursday 2 April 2026: the window begins on Good Friday, so the first letter goes on
    // Tuesday 7 April; it ends Thursday 23 April, so the last goes on Tuesday 21 April.
    expect(noticeToHirerWindow('2026-04-02', calendar)).toEqual({
      earliestGivenOn: '2026-04-03',
      latestGivenOn: '2026-04-23',
      firstPostingDate: '2026-04-07',
      lastPostingDate: '2026-04-21',
    });
  });

  it('a window beginning and ending on a weekend', () => {
    // Documents given Saturday 10 January 2026: from Sunday 11 to Saturday 31 January. First
    // posting Monday 12; posted Thursday 29 it would be given Monday 2 February, so Wednesday 28.
    expect(noticeToHirerWindow('2026-01-10', calendar)).toEqual({
      earliestGivenOn: '2026-01-11',
      latestGivenOn: '2026-01-31',
      firstPostingDate: '2026-01-12',
      lastPostingDate: '2026-01-28',
    });
  });
});
