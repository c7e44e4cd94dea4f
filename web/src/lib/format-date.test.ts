import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDateTimeLines,
  formatDayMonth,
  formatTime,
  instantFromUkWallClock,
  parseDateInput,
  parseDateTimeInput,
  toDateInput,
  ukCalendarDay,
  ukWallClockInput,
} from './format-date.ts';

describe('dates and times as the app shows them', () => {
  it('writes en-GB on the UK clock: GMT in winter, an hour ahead of UTC in summer', () => {
    expect(formatDateTime('2026-11-28T07:55:00Z')).toBe('28 Nov 2026, 07:55');
    expect(formatDateTime('2026-07-14T06:49:30Z')).toBe('14 Jul 2026, 07:49');
    expect(formatDate('2026-07-14T06:49:30Z')).toBe('14 Jul 2026');
    expect(formatTime('2026-07-14T23:05:00Z')).toBe('00:05');
    expect(formatDayMonth('2026-07-14T23:05:00Z')).toBe('15 Jul');
    expect(formatDateTimeLines('2026-11-28T19:05:00Z')).toEqual(['28 Nov 2026', '19:05']);
  });

  it('takes the day in London: 23:30 UTC in summer is the next day', () => {
    expect(ukCalendarDay('2026-07-13T23:30:00Z')).toBe('2026-07-14');
    expect(ukCalendarDay('2026-11-28T23:30:00Z')).toBe('2026-11-28');
  });

  it('shows nothing for no time or a time that is not one', () => {
    for (const none of [null, undefined, '', 'not a time']) {
      expect(formatDate(none)).toBe('');
      expect(formatDateTime(none)).toBe('');
      expect(formatDateTimeLines(none)).toBeNull();
    }
  });
});

describe('a date typed as dd/mm/yyyy', () => {
  it('reads as its ISO date', () => {
    expect(parseDateInput('31/12/2026')).toBe('2026-12-31');
    expect(parseDateInput(' 1/2/2026 ')).toBe('2026-02-01');
    expect(parseDateInput('29.02.2028')).toBe('2028-02-29');
  });

  it('is refused when it is not a day, is in another order, or is empty', () => {
    for (const bad of ['31/02/2026', '29/02/2026', '00/01/2026', '12/13/2026', '2026-12-31', '31/12/26', 'tomorrow', '', '   ']) {
      expect(parseDateInput(bad), bad).toBeNull();
    }
  });

  it('is shown back as it is typed', () => {
    expect(toDateInput('2026-12-31')).toBe('31/12/2026');
    expect(toDateInput('')).toBe('');
    expect(parseDateInput(toDateInput('2026-02-01'))).toBe('2026-02-01');
  });
});

describe('a date and time typed as dd/mm/yyyy hh:mm on the UK clock', () => {
  it('reads as a UK wall-clock reading, and back', () => {
    expect(parseDateTimeInput('31/12/2026 14:05')).toBe('2026-12-31T14:05');
    expect(parseDateTimeInput('1/7/2026, 7:05')).toBe('2026-07-01T07:05');
    expect(toDateInput('2026-12-31T14:05')).toBe('31/12/2026 14:05');
    for (const bad of ['31/12/2026 24:00', '31/12/2026 14:60', '31/02/2026 10:00', '2026-12-31T14:05', '31/12/2026', ''])
      expect(parseDateTimeInput(bad), bad).toBeNull();
  });

  it('names the instant the UK clock read, in summer and in winter', () => {
    expect(instantFromUkWallClock('2026-07-14T07:49')).toBe('2026-07-14T06:49:00.000Z');
    expect(instantFromUkWallClock('2026-11-28T07:55')).toBe('2026-11-28T07:55:00.000Z');
    expect(ukWallClockInput('2026-07-13T23:30:00Z')).toBe('2026-07-14T00:30');
    expect(instantFromUkWallClock('2026-02-30T10:00')).toBeNull();
    expect(instantFromUkWallClock('30/01/2026 10:00')).toBeNull();
  });

  it('takes the earlier of the two 01:30s when the clocks go back, and the hour on when they go forward', () => {
    expect(instantFromUkWallClock('2026-10-25T01:30')).toBe('2026-10-25T00:30:00.000Z');
    expect(instantFromUkWallClock('2026-03-29T01:30')).toBe('2026-03-29T01:30:00.000Z');
  });
});
