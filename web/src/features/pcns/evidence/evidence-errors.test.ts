import { describe, expect, it } from 'vitest';
import { OBSERVATION_MESSAGES, VALIDATION_MESSAGES } from '@parkpatrol/shared';
import { validateEvidence } from './evidence-errors.ts';

const carPark = { considerationMinutes: 5, graceMinutes: 10, stayAppliesByDefault: true };
const complete = [{ shots: ['number-plate', 'vehicle-in-context'] }, { shots: ['signage'] }, { shots: ['contravention'] }, { shots: [] }];
const draft = {
  offenceType: 'PARKING_IN_NO_PARKING_ZONE',
  observedAt: '2025-06-02T13:17:00Z',
  stayApplies: null,
  duplicateReason: '',
  photos: complete,
};
const now = Date.parse('2025-06-02T13:20:00Z');

describe('validateEvidence', () => {
  it('lets the officer past the offence step while the period runs, and stops Submit until it has passed', () => {
    expect(validateEvidence(draft, { carPark, duplicates: [], now, isSubmit: false })).toEqual({});
    const atSubmit = validateEvidence(draft, {
      carPark,
      duplicates: [],
      now,
      isSubmit: true,
      format: { locale: 'en-GB', timeZone: 'Europe/London' },
    });
    expect(atSubmit.issuedAt).toContain('You can issue this notice at 14:32.');
    expect(validateEvidence(draft, { carPark, duplicates: [], now: Date.parse('2025-06-02T13:32:00Z'), isSubmit: true })).toEqual({});
  });

  it('puts each problem under the field whose step can fix it', () => {
    const errors = validateEvidence(
      { ...draft, observedAt: null, photos: [{ shots: ['number-plate'] }] },
      { carPark, duplicates: [{ id: 'p1' }], now, isSubmit: true },
    );
    expect(errors.duplicateReason).toBe(VALIDATION_MESSAGES.duplicateReasonRequired);
    expect(errors.observedAt).toBe(OBSERVATION_MESSAGES.observedAtRequiredForStay);
    expect(errors.issuedAt).toBeUndefined();
    expect(errors.images).toContain('Missing: Vehicle in context, Signage and The contravention.');
  });

  it('counts the shots of photos already on the server, and does not hold an edit to the checklist', () => {
    const edit = { ...draft, stayApplies: false, photos: [], existingImages: [{ shots: ['number-plate'] }] };
    expect(validateEvidence(edit, { carPark, duplicates: [], now, isSubmit: true }).images).toContain('Missing: Vehicle in context');
    expect(validateEvidence({ ...edit, pcnId: 'pcn-1' }, { carPark, duplicates: [], now, isSubmit: true })).toEqual({});
  });
});
