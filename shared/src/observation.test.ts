import { describe, expect, it } from 'vitest';
import {
  canIssue,
  clockOffsetMs,
  earliestIssueTime,
  findObservationProblems,
  findSecondVisitPhoto,
  secondVisitMissingMessage,
  hasClockSkewWarning,
  OBSERVATION_MESSAGES,
} from './observation.ts';

const periods = { considerationMinutes: 5, graceMinutes: 10 };
const londonClock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

describe('earliestIssueTime', () => {
  it('adds consideration and grace to the first sighting', () => {
    expect(earliestIssueTime('2026-06-01T09:30:00.000Z', periods).toISOString()).toBe('2026-06-01T09:45:00.000Z');
    expect(earliestIssueTime(new Date('2026-06-01T09:30:00+01:00'), { considerationMinutes: 0, graceMinutes: 0 }).toISOString()).toBe(
      '2026-06-01T08:30:00.000Z',
    );
  });

  it('carries across midnight into the next day', () => {
    expect(earliestIssueTime('2026-01-05T23:52:00.000Z', periods).toISOString()).toBe('2026-01-06T00:07:00.000Z');
    expect(earliestIssueTime('2026-12-31T23:59:30.000Z', periods).toISOString()).toBe('2027-01-01T00:14:30.000Z');
  });

  it('counts elapsed time when the clocks go forward (Europe/London, last Sunday of March)', () => {
    // 29 March 2026: at 01:00 GMT London jumps to 02:00 BST.
    const observed = '2026-03-29T00:55:00.000Z';
    const earliest = earliestIssueTime(observed, periods);
    expect(earliest.toISOString()).toBe('2026-03-29T01:10:00.000Z');
    expect(earliest.getTime() - Date.parse(observed)).toBe(15 * 60_000);
    // On the wall the wait looks like 1 h 15 min; the rule does not care.
    expect(londonClock.format(new Date(observed))).toBe('00:55');
    expect(londonClock.format(earliest)).toBe('02:10');
  });

  it('counts elapsed time when the clocks go back (Europe/London, last Sunday of October)', () => {
    // 25 October 2026: at 02:00 BST London goes back to 01:00 GMT.
    const observed = '2026-10-25T00:50:00.000Z';
    const earliest = earliestIssueTime(observed, periods);
    expect(earliest.toISOString()).toBe('2026-10-25T01:05:00.000Z');
    // The wall clock reads earlier at the end of the wait than at the sighting.
    expect(londonClock.format(new Date(observed))).toBe('01:50');
    expect(londonClock.format(earliest)).toBe('01:05');
  });
});

describe('canIssue', () => {
  it('has nothing to wait for when no stay applies', () => {
    const check = canIssue({ stayApplies: false, observedAt: '2026-06-01T09:30:00Z', issuedAt: '2026-06-01T09:30:01Z', periods });
    expect(check).toMatchObject({ canIssue: true, earliestIssueAt: null });
  });

  it('refuses before consideration plus grace, with the wait explained, and allows from that instant', () => {
    const observedAt = '2026-06-01T09:30:00Z';
    const early = canIssue({ stayApplies: true, observedAt, issuedAt: '2026-06-01T09:44:59.999Z', periods });
    expect(early.canIssue).toBe(false);
    expect(early.earliestIssueAt).toBe('2026-06-01T09:45:00.000Z');
    expect(early.remainingMs).toBe(1);
    expect(early.explanation).toBe(
      'A stay applies here, so the notice can be issued only 15 minutes after the vehicle was first seen (5 minutes consideration + 10 minutes grace). Please wait 1 minute more.',
    );
    const onTime = canIssue({ stayApplies: true, observedAt, issuedAt: '2026-06-01T09:45:00Z', periods });
    expect(onTime).toMatchObject({ canIssue: true, remainingMs: 0, earliestIssueAt: '2026-06-01T09:45:00.000Z' });
  });

  it('rounds the minutes still to wait up', () => {
    const check = canIssue({ stayApplies: true, observedAt: '2026-06-01T09:30:00Z', issuedAt: '2026-06-01T09:31:30Z', periods });
    expect(check.explanation).toMatch(/Please wait 14 minutes more\.$/);
  });

  it('compares instants across midnight and across both clock changes', () => {
    const cases: Array<[observedAt: string, tooEarly: string, justRight: string]> = [
      ['2026-01-05T23:52:00Z', '2026-01-06T00:06:59Z', '2026-01-06T00:07:00Z'],
      ['2026-03-29T00:55:00Z', '2026-03-29T01:09:59Z', '2026-03-29T01:10:00Z'],
      ['2026-10-25T00:50:00Z', '2026-10-25T01:04:59Z', '2026-10-25T01:05:00Z'],
      // Same instants written in local offsets: only the instant matters.
      ['2026-10-25T01:50:00+01:00', '2026-10-25T01:04:59+00:00', '2026-10-25T01:05:00+00:00'],
    ];
    for (const [observedAt, tooEarly, justRight] of cases) {
      expect(canIssue({ stayApplies: true, observedAt, issuedAt: tooEarly, periods }).canIssue).toBe(false);
      expect(canIssue({ stayApplies: true, observedAt, issuedAt: justRight, periods }).canIssue).toBe(true);
    }
  });

  it('uses the car park periods, zero included', () => {
    const observedAt = '2026-06-01T09:30:00Z';
    expect(
      canIssue({ stayApplies: true, observedAt, issuedAt: observedAt, periods: { considerationMinutes: 0, graceMinutes: 0 } }).canIssue,
    ).toBe(true);
    const long = canIssue({
      stayApplies: true,
      observedAt,
      issuedAt: '2026-06-01T10:00:00Z',
      periods: { considerationMinutes: 20, graceMinutes: 15 },
    });
    expect(long).toMatchObject({ canIssue: false, earliestIssueAt: '2026-06-01T10:05:00.000Z' });
    expect(long.explanation).toContain('35 minutes after the vehicle was first seen (20 minutes consideration + 15 minutes grace)');
  });

  it('needs the first sighting when a stay applies', () => {
    const check = canIssue({ stayApplies: true, observedAt: null, issuedAt: '2026-06-01T10:00:00Z', periods });
    expect(check).toMatchObject({ canIssue: false, explanation: OBSERVATION_MESSAGES.observedAtRequiredForStay });
  });
});

describe('findObservationProblems', () => {
  const now = '2026-06-01T12:00:00Z';

  it('accepts a sighting before the issue, both up to now', () => {
    expect(findObservationProblems({ observedAt: '2026-06-01T11:00:00Z', issuedAt: '2026-06-01T11:30:00Z', now })).toEqual([]);
    expect(findObservationProblems({ observedAt: null, issuedAt: now, now })).toEqual([]);
  });

  it('allows a small clock difference but refuses times further in the future', () => {
    expect(findObservationProblems({ observedAt: '2026-06-01T12:04:00Z', issuedAt: '2026-06-01T12:05:00Z', now })).toEqual([]);
    expect(findObservationProblems({ observedAt: '2026-06-01T12:05:01Z', issuedAt: '2026-06-01T12:05:01Z', now })).toEqual([
      { field: 'observedAt', kind: 'future', message: OBSERVATION_MESSAGES.observedAtInFuture },
      { field: 'issuedAt', kind: 'future', message: OBSERVATION_MESSAGES.issuedAtInFuture },
    ]);
  });

  it('refuses a sighting after the issue', () => {
    expect(findObservationProblems({ observedAt: '2026-06-01T11:31:00Z', issuedAt: '2026-06-01T11:30:00Z', now })).toEqual([
      { field: 'observedAt', kind: 'order', message: OBSERVATION_MESSAGES.observedAfterIssued },
    ]);
  });
});

describe('clock offset', () => {
  it('is server receipt time minus device time, and warns beyond two minutes either way', () => {
    expect(clockOffsetMs('2026-06-01T12:00:00Z', '2026-06-01T11:57:00Z')).toBe(180_000);
    expect(clockOffsetMs('2026-06-01T12:00:00Z', '2026-06-01T12:00:30+00:00')).toBe(-30_000);
    expect(hasClockSkewWarning(120_000)).toBe(false);
    expect(hasClockSkewWarning(120_001)).toBe(true);
    expect(hasClockSkewWarning(-120_001)).toBe(true);
    expect(hasClockSkewWarning(null)).toBe(false);
  });
});

describe("findSecondVisitPhoto (the stay rule's second visit)", () => {
  const periods = { considerationMinutes: 5, graceMinutes: 10 };

  it('finds the first photo taken at or after first sighting + consideration + grace', () => {
    const check = findSecondVisitPhoto({
      observedAt: '2026-03-14T09:00:00.000Z',
      periods,
      photoTakenAts: ['2026-03-14T09:00:10.000Z', null, '2026-03-14T09:14:59.999Z', '2026-03-14T09:15:00.000Z', '2026-03-14T09:20:00.000Z'],
    });
    expect(check).toEqual({ dueAt: '2026-03-14T09:15:00.000Z', secondVisitPhotoIndex: 3 });
  });

  it('finds none when every photo is from the first visit, or has no capture time', () => {
    const check = findSecondVisitPhoto({
      observedAt: '2026-03-14T09:00:00.000Z',
      periods,
      photoTakenAts: ['2026-03-14T09:01:00.000Z', null, undefined, ''],
    });
    expect(check.secondVisitPhotoIndex).toBeNull();
  });

  it('counts elapsed time across midnight, a year end and the clock changes', () => {
    // 23:55 on New Year's Eve: due at 00:10 the next year.
    expect(findSecondVisitPhoto({ observedAt: '2026-12-31T23:55:00.000Z', periods, photoTakenAts: ['2027-01-01T00:10:00.000Z'] })).toEqual({
      dueAt: '2027-01-01T00:10:00.000Z',
      secondVisitPhotoIndex: 0,
    });
    // 00:50 GMT on 29 March 2026; the clocks go forward at 01:00: the wall reads 02:05 BST when due.
    const spring = findSecondVisitPhoto({
      observedAt: '2026-03-29T00:50:00.000Z',
      periods,
      photoTakenAts: ['2026-03-29T01:04:00.000Z', '2026-03-29T01:05:00.000Z'],
    });
    expect(spring).toEqual({ dueAt: '2026-03-29T01:05:00.000Z', secondVisitPhotoIndex: 1 });
    expect(secondVisitMissingMessage(spring.dueAt)).toContain('29 Mar, 02:05 (UK time)');
    // 01:50 BST on 25 October 2026, before the clocks go back at 02:00 BST: due at 01:05 GMT.
    const autumn = findSecondVisitPhoto({ observedAt: '2026-10-25T00:50:00.000Z', periods, photoTakenAts: ['2026-10-25T01:05:00.000Z'] });
    expect(autumn.secondVisitPhotoIndex).toBe(0);
    expect(secondVisitMissingMessage(autumn.dueAt)).toContain('25 Oct, 01:05 (UK time)');
  });

  it("moves the device's readings onto the server's clock by its offset, so the due time named is true time", () => {
    // The phone runs 3 minutes slow (offset +3 min): it read 09:00 at 09:03 true time.
    const check = findSecondVisitPhoto({
      observedAt: '2026-03-14T09:00:00.000Z',
      periods,
      photoTakenAts: ['2026-03-14T09:14:00.000Z', '2026-03-14T09:15:00.000Z'],
      clockOffsetMs: 3 * 60_000,
    });
    expect(check).toEqual({ dueAt: '2026-03-14T09:18:00.000Z', secondVisitPhotoIndex: 1 });
    expect(secondVisitMissingMessage(check.dueAt)).toBe(
      'A stay applies: photograph the vehicle again at or after 14 Mar, 09:18 (UK time), when consideration and grace have passed, to show it is still there. Only then can this notice be issued.',
    );
  });
});
