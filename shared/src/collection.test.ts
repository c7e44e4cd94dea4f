import { describe, expect, it } from 'vitest';
import { letterBeforeClaimReplyEndsOn, pastLetterBeforeClaim } from './collection.ts';
import { englandAndWalesWorkingDays } from './working-days.ts';

describe('the 30 days to answer a letter before claim', () => {
  // Posted, presumed given on the second working day after, then 30 days beginning with the day after.
  it.each([
    ['2026-01-13', '2026-02-14', 'Tuesday, given Thursday 15 Jan'],
    ['2026-01-15', '2026-02-18', 'Thursday over the weekend, given Monday 19 Jan'],
    ['2026-01-17', '2026-02-19', 'a Saturday, given Tuesday 20 Jan'],
    ['2026-04-02', '2026-05-08', 'over Good Friday and Easter Monday, given 8 Apr'],
    ['2026-05-22', '2026-06-26', 'over the spring bank holiday, given 27 May'],
    ['2026-01-29', '2026-03-04', 'at the month end, given 2 Feb, 30 days run over a short February'],
    ['2025-12-23', '2026-01-28', 'at the year end, over Christmas and Boxing Day, given 29 Dec'],
    ['2025-12-31', '2026-02-04', "over New Year's Day and a weekend, given 5 Jan"],
  ])('posted %s: the last day to answer is %s (%s)', (postedOn, endsOn) => {
    expect(letterBeforeClaimReplyEndsOn(postedOn)).toBe(endsOn);
    expect(pastLetterBeforeClaim(postedOn, endsOn)).toBe(false);
    // The whole last day is the debtor's; the next day the charge is past the letter.
    const [y, m, d] = endsOn.split('-').map(Number);
    const next = new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
    expect(pastLetterBeforeClaim(postedOn, next)).toBe(true);
  });

  it('is not past on the day of posting, nor long before the end', () => {
    expect(pastLetterBeforeClaim('2026-01-13', '2026-01-13')).toBe(false);
    expect(pastLetterBeforeClaim('2026-01-13', '2026-02-01')).toBe(false);
    expect(pastLetterBeforeClaim('2026-01-13', '2027-01-13')).toBe(true);
  });

  it('counts the working days of the calendar it is given', () => {
    const everyDayWorks = { isWorkingDay: () => true };
    expect(letterBeforeClaimReplyEndsOn('2026-01-17', everyDayWorks)).toBe('2026-02-18');
    expect(pastLetterBeforeClaim('2026-01-17', '2026-02-19', everyDayWorks)).toBe(true);
    expect(letterBeforeClaimReplyEndsOn('2026-01-17', englandAndWalesWorkingDays())).toBe('2026-02-19');
  });
});
