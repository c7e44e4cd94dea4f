import { describe, expect, it } from 'vitest';
import { OBSERVATION_MESSAGES } from '@parkpatrol/shared';
import { formatClockTime, formatRunningTime } from './evidence-format.ts';
import {
  describeObservation,
  describeStayPeriods,
  effectiveStayApplies,
  FIRST_SIGHTING_MESSAGES,
  findSecondVisitTakenAt,
  observationDueAtOf,
  secondVisitProblem,
  observationEntryProblem,
  observationProblem,
  resolveTypedFirstSighting,
  toTypedTime,
} from './observation-rules.ts';

const LONDON = { locale: 'en-GB', timeZone: 'Europe/London' };
const carPark = { considerationMinutes: 5, graceMinutes: 10, stayAppliesByDefault: true };
const at = (iso: string) => Date.parse(iso);

describe('formatRunningTime', () => {
  it('keeps the seconds two digits wide and adds hours when needed', () => {
    expect(formatRunningTime(425_000)).toBe('7 min 05 s');
    expect(formatRunningTime(9_999)).toBe('0 min 09 s');
    expect(formatRunningTime(3_725_000)).toBe('1 h 02 min 05 s');
    expect(formatRunningTime(-5_000)).toBe('0 min 00 s');
  });

  it('rounds time left up, so a wait that has not ended never reads as zero', () => {
    expect(formatRunningTime(400, 'up')).toBe('0 min 01 s');
    expect(formatRunningTime(400)).toBe('0 min 00 s');
  });
});

describe('formatClockTime', () => {
  it('names the day when the time is not today in the officer’s time zone', () => {
    const now = at('2025-03-14T23:52:00Z');
    expect(formatClockTime('2025-03-14T23:58:00Z', now, LONDON)).toBe('23:58');
    expect(formatClockTime('2025-03-15T00:05:00Z', now, LONDON)).toBe('00:05 tomorrow');
    expect(formatClockTime('2025-03-13T23:05:00Z', now, LONDON)).toBe('23:05 yesterday');
    expect(formatClockTime('2025-03-16T09:00:00Z', now, LONDON)).toBe('09:00 on 16 Mar');
  });
});

describe('describeObservation', () => {
  it('runs the timer across midnight and says the notice can be issued at 00:05 tomorrow', () => {
    const state = describeObservation(
      { observedAt: '2025-03-14T23:50:00.000Z', stayApplies: null },
      carPark,
      at('2025-03-14T23:57:05Z'),
      LONDON,
    );
    expect(state.phase).toBe('waiting');
    expect(state.elapsedText).toBe('Observed for 7 min 05 s');
    expect(state.remainingText).toBe('7 min 55 s');
    expect(state.earliestIssueAt).toBe('2025-03-15T00:05:00.000Z');
    expect(state.explanation).toBe(
      "A stay applies at this car park: 5 minutes' consideration and 10 minutes' grace must pass after first sighting. You can issue this notice at 00:05 tomorrow.",
    );
  });

  it('counts elapsed time, not the wall clock, over the spring clock change (00:55 GMT + 15 min is 02:10 BST)', () => {
    const state = describeObservation(
      { observedAt: '2025-03-30T00:55:00Z', stayApplies: true },
      carPark,
      at('2025-03-30T01:01:00Z'),
      LONDON,
    );
    expect(state.earliestIssueAt).toBe('2025-03-30T01:10:00.000Z');
    expect(state.elapsedText).toBe('Observed for 6 min 00 s');
    expect(state.explanation).toContain('You can issue this notice at 02:10.');
  });

  it('and over the autumn clock change (01:50 BST + 15 min is 01:05 GMT)', () => {
    const state = describeObservation(
      { observedAt: '2025-10-26T00:50:00Z', stayApplies: true },
      carPark,
      at('2025-10-26T00:59:00Z'),
      LONDON,
    );
    expect(state.earliestIssueAt).toBe('2025-10-26T01:05:00.000Z');
    expect(state.explanation).toContain('You can issue this notice at 01:05.');
    const later = describeObservation(
      { observedAt: '2025-10-26T00:50:00Z', stayApplies: true },
      carPark,
      at('2025-10-26T01:05:00Z'),
      LONDON,
    );
    expect(later.phase).toBe('can-issue');
  });

  it('allows issuing exactly when consideration plus grace have passed, and announces it once', () => {
    const observedAt = '2025-06-02T13:17:00Z';
    const before = describeObservation({ observedAt, stayApplies: true }, carPark, at('2025-06-02T13:31:59Z'), LONDON);
    const after = describeObservation({ observedAt, stayApplies: true }, carPark, at('2025-06-02T13:32:00Z'), LONDON);
    const later = describeObservation({ observedAt, stayApplies: true }, carPark, at('2025-06-02T13:40:00Z'), LONDON);
    expect(before.phase).toBe('waiting');
    expect(before.remainingText).toBe('0 min 01 s');
    expect(before.explanation).toContain('You can issue this notice at 14:32.');
    expect(after.phase).toBe('can-issue');
    expect(after.explanation).toBe('The consideration and grace periods have passed (since 14:32): you can issue this notice.');
    // The live region's text does not change with the running time.
    expect(after.announcement).toBe(later.announcement);
    expect(after.announcement).toBe('You can now issue this notice.');
  });

  it('keeps the same announcement every second while waiting', () => {
    const observedAt = '2025-06-02T13:17:00Z';
    const a = describeObservation({ observedAt, stayApplies: true }, carPark, at('2025-06-02T13:20:00Z'), LONDON);
    const b = describeObservation({ observedAt, stayApplies: true }, carPark, at('2025-06-02T13:20:01Z'), LONDON);
    expect(a.elapsedText).not.toBe(b.elapsedText);
    expect(a.announcement).toBe(b.announcement);
  });

  it('asks for the first sighting when a stay applies and none is recorded', () => {
    const state = describeObservation({ observedAt: null, stayApplies: null }, carPark, at('2025-06-02T13:20:00Z'), LONDON);
    expect(state.phase).toBe('not-observed');
    expect(state.elapsedText).toBeNull();
    expect(state.explanation).toBe(
      "A stay applies at this car park: record when the vehicle was first seen. 5 minutes' consideration and 10 minutes' grace must pass after first sighting before you can issue this notice.",
    );
  });

  it('has nothing to wait for when the officer turns the stay off, or before a car park is chosen', () => {
    const off = describeObservation(
      { observedAt: '2025-06-02T13:17:00Z', stayApplies: false },
      carPark,
      at('2025-06-02T13:18:00Z'),
      LONDON,
    );
    expect(off.phase).toBe('no-stay');
    expect(off.elapsedText).toBe('Observed for 1 min 00 s');
    expect(describeObservation({ observedAt: null, stayApplies: null }, null, 0).phase).toBe('no-stay');
  });
});

describe('stay periods and the toggle', () => {
  it('follows the car park until the officer says otherwise', () => {
    expect(effectiveStayApplies(null, carPark)).toBe(true);
    expect(effectiveStayApplies(false, carPark)).toBe(false);
    expect(effectiveStayApplies(true, { ...carPark, stayAppliesByDefault: false })).toBe(true);
    expect(effectiveStayApplies(null, null)).toBe(false);
  });

  it('words one minute and leaves out a period set to zero', () => {
    expect(describeStayPeriods({ considerationMinutes: 1, graceMinutes: 10 })).toBe("1 minute's consideration and 10 minutes' grace");
    expect(describeStayPeriods({ considerationMinutes: 0, graceMinutes: 10 })).toBe("10 minutes' grace");
  });
});

describe('observationProblem (Submit)', () => {
  const fields = { observedAt: '2025-03-14T23:50:00Z', stayApplies: null };

  it('refuses before consideration plus grace, with the time it may be issued', () => {
    expect(observationProblem(fields, carPark, new Date('2025-03-15T00:04:59Z'), LONDON)).toBe(
      "A stay applies at this car park: 5 minutes' consideration and 10 minutes' grace must pass after first sighting. You can issue this notice at 00:05.",
    );
  });

  it('allows from the end of the period on', () => {
    expect(observationProblem(fields, carPark, new Date('2025-03-15T00:05:00Z'), LONDON)).toBeNull();
    expect(observationProblem(fields, carPark, new Date('2025-03-15T03:00:00Z'), LONDON)).toBeNull();
  });

  it('needs a first sighting only when a stay applies', () => {
    expect(observationProblem({ observedAt: null, stayApplies: null }, carPark, 0)).toBe(OBSERVATION_MESSAGES.observedAtRequiredForStay);
    expect(observationProblem({ observedAt: '', stayApplies: false }, carPark, 0)).toBeNull();
  });

  it('refuses a first sighting in the future (beyond the five-minute allowance)', () => {
    const now = at('2025-06-02T13:00:00Z');
    expect(observationProblem({ observedAt: '2025-06-02T13:10:00Z', stayApplies: false }, carPark, now)).toBe(
      OBSERVATION_MESSAGES.observedAtInFuture,
    );
  });

  it('leaves the car park question to the car park field', () => {
    expect(observationProblem({ observedAt: null, stayApplies: true }, null, 0)).toBeNull();
  });
});

describe('observationEntryProblem (Next on the offence step)', () => {
  it('lets the officer go on to the photos while the period is still running', () => {
    const fields = { observedAt: '2025-06-02T13:17:00Z', stayApplies: true };
    expect(observationEntryProblem(fields, carPark, at('2025-06-02T13:18:00Z'))).toBeNull();
    expect(observationProblem(fields, carPark, at('2025-06-02T13:18:00Z'))).not.toBeNull();
  });

  it('still needs the first sighting when a stay applies', () => {
    expect(observationEntryProblem({ observedAt: null, stayApplies: null }, carPark, 0)).toBe(
      OBSERVATION_MESSAGES.observedAtRequiredForStay,
    );
  });
});

describe('resolveTypedFirstSighting (UK clock, whatever the phone is set to)', () => {
  it('takes a time earlier today, in summer an hour ahead of UTC', () => {
    const now = Date.parse('2025-06-02T13:38:20Z'); // 14:38 BST
    expect(resolveTypedFirstSighting('14:05', now)).toEqual({ observedAt: '2025-06-02T13:05:00.000Z' });
  });

  it('reads a time just before midnight as yesterday’s when typed just after', () => {
    const now = Date.parse('2025-03-15T00:10:00Z'); // 00:10 GMT
    expect(resolveTypedFirstSighting('23:55', now)).toEqual({ observedAt: '2025-03-14T23:55:00.000Z' });
    // 00:10 BST is 23:10 UTC the day before: '23:55' is still the UK day before.
    expect(resolveTypedFirstSighting('23:55', Date.parse('2025-06-01T23:10:00Z'))).toEqual({ observedAt: '2025-06-01T22:55:00.000Z' });
  });

  it('never takes a time in the future, nor one more than 12 hours back, nor nonsense', () => {
    const now = Date.parse('2025-06-02T13:38:00Z'); // 14:38 BST
    expect(resolveTypedFirstSighting('14:50', now)).toEqual({ problem: FIRST_SIGHTING_MESSAGES.future });
    expect(resolveTypedFirstSighting('02:00', now)).toEqual({ problem: FIRST_SIGHTING_MESSAGES.tooOld });
    expect(resolveTypedFirstSighting('25:00', now)).toEqual({ problem: FIRST_SIGHTING_MESSAGES.invalid });
    expect(resolveTypedFirstSighting('half two', now)).toEqual({ problem: FIRST_SIGHTING_MESSAGES.invalid });
  });

  it('prefills the field with the recorded time on the UK clock', () => {
    expect(toTypedTime('2025-06-02T08:05:00Z')).toBe('09:05');
    expect(toTypedTime('2025-12-02T08:05:00Z')).toBe('08:05');
    expect(toTypedTime(null)).toBe('');
  });
});

describe('the second visit', () => {
  const seen = '2026-11-25T10:00:00.000Z';
  const photo = (takenAt: string | null) => ({ takenAt });

  it('is due at first sighting + consideration + grace, only while a stay applies', () => {
    expect(observationDueAtOf({ observedAt: seen, stayApplies: null }, carPark)).toBe('2026-11-25T10:15:00.000Z');
    expect(observationDueAtOf({ observedAt: seen, stayApplies: false }, carPark)).toBeNull();
    expect(observationDueAtOf({ observedAt: null, stayApplies: true }, carPark)).toBeNull();
    expect(observationDueAtOf({ observedAt: seen, stayApplies: true }, null)).toBeNull();
    // Across midnight and the October clock change (01:50 BST is 00:50 UTC): elapsed time counts.
    expect(observationDueAtOf({ observedAt: '2026-10-25T00:50:00.000Z', stayApplies: true }, carPark)).toBe('2026-10-25T01:05:00.000Z');
    expect(observationDueAtOf({ observedAt: '2026-12-31T23:50:00.000Z', stayApplies: true }, carPark)).toBe('2027-01-01T00:05:00.000Z');
  });

  it('asks for a photo taken at or after the due time before Submit, and is satisfied by one', () => {
    const now = at('2026-11-25T10:20:00.000Z');
    const fields = { observedAt: seen, stayApplies: true };
    expect(secondVisitProblem(fields, carPark, [photo(seen), photo('2026-11-25T10:14:59.000Z'), photo(null)], now, LONDON)).toBe(
      "A stay applies: photograph the vehicle again ('Vehicle still here') at or after 10:15 before you submit this notice.",
    );
    expect(secondVisitProblem(fields, carPark, [photo(seen), photo('2026-11-25T10:15:00.000Z')], now, LONDON)).toBeNull();
    expect(findSecondVisitTakenAt('2026-11-25T10:15:00.000Z', [photo(seen), photo('2026-11-25T10:16:30.000Z')])).toBe(
      '2026-11-25T10:16:30.000Z',
    );
    // No stay: nothing to come back for.
    expect(secondVisitProblem({ observedAt: seen, stayApplies: false }, carPark, [], now, LONDON)).toBeNull();
  });
});
