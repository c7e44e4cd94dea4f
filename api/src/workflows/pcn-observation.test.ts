import { describe, expect, it } from 'vitest';
import { OBSERVATION_MESSAGES } from '@parkpatrol/shared';
import { AppError } from '../http/app-error.ts';
import { assertObservation } from './pcn-observation.ts';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const HOUR_AHEAD = '2026-06-01T13:00:00.000Z';
const HOUR_AGO = '2026-06-01T11:00:00.000Z';
const TWO_HOURS_AGO = '2026-06-01T10:00:00.000Z';
const carPark = { considerationMinutes: 10, graceMinutes: 5 };

function refusal(input: Parameters<typeof assertObservation>[0]): AppError {
  try {
    assertObservation(input);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('assertObservation', () => {
  it('names the first problem of each field, and answers with the first of all', () => {
    const error = refusal({ observedAt: HOUR_AHEAD, issuedAt: HOUR_AHEAD, stayApplies: false, carPark, deviceNow: NOW });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe(OBSERVATION_MESSAGES.observedAtInFuture);
    expect(error.details).toEqual({ observedAt: OBSERVATION_MESSAGES.observedAtInFuture, issuedAt: OBSERVATION_MESSAGES.issuedAtInFuture });
  });

  it('on an edit checks against now only the times it sends, and the order of both always', () => {
    const edit = { checkFuture: { observedAt: false, issuedAt: true } };
    expect(() =>
      assertObservation({ observedAt: HOUR_AHEAD, issuedAt: HOUR_AGO, stayApplies: false, carPark, deviceNow: NOW, ...edit }),
    ).toThrow(OBSERVATION_MESSAGES.observedAfterIssued);
    expect(() =>
      assertObservation({ observedAt: TWO_HOURS_AGO, issuedAt: HOUR_AGO, stayApplies: false, carPark, deviceNow: NOW, ...edit }),
    ).not.toThrow();
    const sentIssue = refusal({ observedAt: TWO_HOURS_AGO, issuedAt: HOUR_AHEAD, stayApplies: false, carPark, deviceNow: NOW, ...edit });
    expect(sentIssue.details).toEqual({ issuedAt: OBSERVATION_MESSAGES.issuedAtInFuture });
  });

  it('refuses a notice under a stay issued before consideration and grace have run, on the field to fix', () => {
    const early = refusal({ observedAt: HOUR_AGO, issuedAt: '2026-06-01T11:10:00.000Z', stayApplies: true, carPark, deviceNow: NOW });
    expect(Object.keys(early.details ?? {})).toEqual(['issuedAt']);
    expect(early.details?.issuedAt).toBe(early.message);
    const unseen = refusal({ observedAt: null, issuedAt: HOUR_AGO, stayApplies: true, carPark, deviceNow: NOW });
    expect(unseen.details).toEqual({ observedAt: OBSERVATION_MESSAGES.observedAtRequiredForStay });
    expect(() =>
      assertObservation({ observedAt: HOUR_AGO, issuedAt: '2026-06-01T11:15:00.000Z', stayApplies: true, carPark, deviceNow: NOW }),
    ).not.toThrow();
  });
});
