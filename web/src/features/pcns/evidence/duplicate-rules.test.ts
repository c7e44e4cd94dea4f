import { describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES } from '@parkpatrol/shared';
import { duplicateMatchText, duplicateQuery, duplicateReasonProblem, duplicateWarningText } from './duplicate-rules.ts';

describe('duplicateQuery', () => {
  const now = new Date('2025-06-02T13:20:00Z');

  it('asks about the normalised registration, the car park and today’s UTC day', () => {
    expect(duplicateQuery({ vehicleRegistration: 'ab12 cde', carParkId: 'cp-1' }, now)).toEqual({
      vehicleRegistration: 'AB12CDE',
      carParkId: 'cp-1',
      date: '2025-06-02',
    });
  });

  it('uses the first sighting’s UTC day, as the server does (00:30 BST is the previous UTC day)', () => {
    expect(
      duplicateQuery(
        { vehicleRegistration: 'AB12CDE', carParkId: 'cp-1', observedAt: '2025-06-02T23:30:00Z' },
        new Date('2025-06-03T00:10:00Z'),
      )?.date,
    ).toBe('2025-06-02');
  });

  it('asks nothing until the registration and car park are valid', () => {
    expect(duplicateQuery({ vehicleRegistration: 'A', carParkId: 'cp-1' }, now)).toBeNull();
    expect(duplicateQuery({ vehicleRegistration: 'AB12CDE', carParkId: ' ' }, now)).toBeNull();
    expect(duplicateQuery({ vehicleRegistration: 'AB12-CDE!', carParkId: 'cp-1' }, now)).toBeNull();
  });
});

describe('duplicate warning text', () => {
  it('names each notice by number and status', () => {
    expect(duplicateMatchText({ pcnNumber: '00000042', status: 'SUBMITTED' })).toBe(
      'PCN-00000042 (Submitted) was already issued for this vehicle at this car park today.',
    );
    expect(
      duplicateWarningText([
        { pcnNumber: '00000042', status: 'SUBMITTED' },
        { pcnNumber: '00000043', status: 'UNDER_REVIEW' },
      ]),
    ).toBe(
      'PCN-00000042 (Submitted) was already issued for this vehicle at this car park today. PCN-00000043 (Under Review) was already issued for this vehicle at this car park today. One charge per parking event.',
    );
  });
});

describe('duplicateReasonProblem', () => {
  it('requires a reason only once a warning is shown', () => {
    expect(duplicateReasonProblem([], '')).toBeNull();
    expect(duplicateReasonProblem([{}], '  ')).toBe(VALIDATION_MESSAGES.duplicateReasonRequired);
    expect(duplicateReasonProblem([{}], 'Vehicle left at 10:05 and came back at 13:00')).toBeNull();
    expect(duplicateReasonProblem([{}], 'x'.repeat(501))).toBe(VALIDATION_MESSAGES.duplicateReasonTooLong);
  });
});
