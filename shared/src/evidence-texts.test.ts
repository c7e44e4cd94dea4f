import { describe, expect, it } from 'vitest';
import { auditFieldLabel, clockSkewWarningText, describeClockOffset, formatDuration, keeperNoticeTimeLeft } from './evidence-texts.ts';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const HOUR = 60 * 60 * 1000;

describe('formatDuration', () => {
  it('shows the two largest units, rounded down', () => {
    expect(formatDuration(3 * 60_000 + 12_400)).toBe('3 min 12 s');
    expect(formatDuration(2 * HOUR + 5 * 60_000 + 59_000)).toBe('2 h 5 min');
    expect(formatDuration(28 * HOUR)).toBe('1 day 4 h');
  });

  it('leaves out a zero second unit and reads 0 s below a second', () => {
    expect(formatDuration(25 * 60_000)).toBe('25 min');
    expect(formatDuration(3 * 24 * HOUR + 30 * 60_000)).toBe('3 days');
    expect(formatDuration(400)).toBe('0 s');
  });
});

describe('describeClockOffset', () => {
  it('calls a device ahead of the server fast and one behind slow', () => {
    // The offset is server time minus device time: negative when the device was ahead.
    expect(describeClockOffset(-(3 * 60_000 + 12_000))).toBe('3 min 12 s fast');
    expect(describeClockOffset(150_000)).toBe('2 min 30 s slow');
    expect(describeClockOffset(300)).toBe('in step with the server');
  });

  it('words the admins warning', () => {
    expect(clockSkewWarningText(-192_000)).toBe("The officer's device clock was 3 min 12 s fast when this notice was sent.");
  });
});

describe('keeperNoticeTimeLeft', () => {
  it('counts whole days left, rounded down', () => {
    expect(keeperNoticeTimeLeft(new Date(NOW.getTime() + 2 * 24 * HOUR + 20 * HOUR).toISOString(), NOW).text).toBe('2 days left');
    expect(keeperNoticeTimeLeft(new Date(NOW.getTime() + 30 * HOUR).toISOString(), NOW).text).toBe('1 day left');
    expect(keeperNoticeTimeLeft(new Date(NOW.getTime() + 5 * HOUR).toISOString(), NOW).text).toBe('Less than a day left');
  });

  it('says Overdue once the deadline has passed', () => {
    expect(keeperNoticeTimeLeft(new Date(NOW.getTime() - 1000).toISOString(), NOW)).toEqual({
      text: 'Overdue',
      isOverdue: true,
      wholeDaysLeft: 0,
    });
  });
});

describe('auditFieldLabel', () => {
  it('uses the readable name of a known field and words an unknown one', () => {
    expect(auditFieldLabel('observedAt')).toBe('First seen');
    expect(auditFieldLabel('someNewField')).toBe('Some new field');
  });
});
