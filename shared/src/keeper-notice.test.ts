import { describe, expect, it } from 'vitest';
import { hasDeadlineWarning, isKeeperNoticeOpen, keeperNoticeDueAt, parkingEventTime } from './keeper-notice.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('keeperNoticeDueAt', () => {
  it('is the parking event plus 14 days by default, or the configured number', () => {
    expect(keeperNoticeDueAt('2026-06-01T09:30:00.000Z')).toBe('2026-06-15T09:30:00.000Z');
    expect(keeperNoticeDueAt('2026-06-01T09:30:00+01:00', 28)).toBe('2026-06-29T08:30:00.000Z');
    expect(keeperNoticeDueAt(new Date('2026-12-25T23:00:00Z'))).toBe('2027-01-08T23:00:00.000Z');
  });

  it('counts 24-hour days across a clock change (a UTC instant, not a wall-clock date)', () => {
    const event = '2026-03-20T10:00:00.000Z';
    const due = keeperNoticeDueAt(event);
    expect(due).toBe('2026-04-03T10:00:00.000Z');
    expect(Date.parse(due) - Date.parse(event)).toBe(14 * DAY);
    expect(keeperNoticeDueAt('2026-10-20T10:00:00.000Z')).toBe('2026-11-03T10:00:00.000Z');
  });

  it('runs from the first sighting, else from when the PCN was made', () => {
    expect(parkingEventTime({ observedAt: '2026-06-01T09:00:00.000Z', createdAt: '2026-06-03T09:00:00.000Z' })).toBe(
      '2026-06-01T09:00:00.000Z',
    );
    expect(parkingEventTime({ observedAt: null, createdAt: '2026-06-03T09:00:00.000Z' })).toBe('2026-06-03T09:00:00.000Z');
  });
});

describe('hasDeadlineWarning', () => {
  const dueAt = '2026-06-15T09:30:00.000Z';

  it('warns under three days before the deadline and after it, while the notice can still go out', () => {
    expect(hasDeadlineWarning({ dueAt, status: 'SUBMITTED', now: new Date(Date.parse(dueAt) - 3 * DAY) })).toBe(false);
    expect(hasDeadlineWarning({ dueAt, status: 'UNDER_REVIEW', now: new Date(Date.parse(dueAt) - 3 * DAY + 1) })).toBe(true);
    expect(hasDeadlineWarning({ dueAt, status: 'APPROVED', now: new Date(Date.parse(dueAt) + DAY) })).toBe(true);
  });

  it('does not warn once the notice is out or the PCN is closed', () => {
    for (const status of ['ISSUED', 'PAID', 'REJECTED', 'CANCELLED'] as const) {
      expect(isKeeperNoticeOpen(status)).toBe(false);
      expect(hasDeadlineWarning({ dueAt, status, now: new Date(dueAt) })).toBe(false);
    }
  });
});
