import { describe, expect, it } from 'vitest';
import {
  findValidPermit,
  isPermitOver,
  isPermitValidAt,
  permitCheckLines,
  permitEndOfDay,
  permitOverrideProblem,
  permitStartOfDay,
  permitWarning,
  PERMIT_TEXTS,
  type PhonePermit,
} from './permit-check.ts';

const permit = (overrides: Partial<PhonePermit> = {}): PhonePermit => ({
  id: 'p1',
  carParkId: 'cp1',
  vehicleRegistration: 'AB12CDE',
  kind: 'STAFF',
  validFrom: '2026-01-01T00:00:00.000Z',
  validUntil: '2026-12-31T23:59:59.999Z',
  endedAt: null,
  ...overrides,
});

describe('the permit warning', () => {
  it('names the kind and the last day, in the words the officer reads', () => {
    expect(permitWarning(permit())).toBe('Staff permit, valid until 31 Dec 2026: do not issue');
    expect(permitWarning(permit({ kind: 'BLUE_BADGE', validUntil: null }))).toBe('Blue Badge permit, with no end date: do not issue');
  });

  it('gives the UK day: a summer permit ending at 23:59 in London is that day, not the next', () => {
    expect(permitEndOfDay('2026-07-31')).toBe('2026-07-31T22:59:59.999Z');
    expect(permitStartOfDay('2026-07-31')).toBe('2026-07-30T23:00:00.000Z');
    expect(permitWarning(permit({ kind: 'RESIDENT', validUntil: permitEndOfDay('2026-07-31') }))).toBe(
      'Resident permit, valid until 31 Jul 2026: do not issue',
    );
  });

  it('asks for a reason only when a permit is held', () => {
    expect(permitOverrideProblem(false, '')).toBeNull();
    expect(permitOverrideProblem(true, '  ')).toBe(PERMIT_TEXTS.overrideRequired);
    expect(permitOverrideProblem(true, 'Parked outside the permitted bays')).toBeNull();
    expect(permitOverrideProblem(true, 'x'.repeat(501))).toBe(PERMIT_TEXTS.overrideTooLong);
  });
});

describe('the permit check', () => {
  it('is valid from its start to the end of its last day, and not once ended', () => {
    expect(isPermitValidAt(permit(), '2025-12-31T23:59:59.999Z')).toBe(false);
    expect(isPermitValidAt(permit(), '2026-01-01T00:00:00.000Z')).toBe(true);
    expect(isPermitValidAt(permit(), '2026-12-31T23:59:59.999Z')).toBe(true);
    expect(isPermitValidAt(permit(), '2027-01-01T00:00:00.000Z')).toBe(false);
    const ended = permit({ endedAt: '2026-06-01T12:00:00.000Z' });
    expect(isPermitValidAt(ended, '2026-06-01T11:59:59.999Z')).toBe(true);
    expect(isPermitValidAt(ended, '2026-06-01T12:00:00.000Z')).toBe(false);
    expect(isPermitOver(ended, '2026-06-01T12:00:00.000Z')).toBe(true);
    expect(isPermitOver(permit(), '2026-06-01T12:00:00.000Z')).toBe(false);
  });

  it('matches the registration however it was typed, at its own car park only', () => {
    const list = [permit(), permit({ id: 'p2', carParkId: 'cp2', vehicleRegistration: 'XY99ZZZ' })];
    expect(findValidPermit(list, { carParkId: 'cp1', vehicleRegistration: 'ab12 cde', at: '2026-06-01T12:00:00Z' })?.id).toBe('p1');
    expect(findValidPermit(list, { carParkId: 'cp2', vehicleRegistration: 'ab12 cde', at: '2026-06-01T12:00:00Z' })).toBeNull();
    expect(findValidPermit(list, { carParkId: 'cp1', vehicleRegistration: '', at: '2026-06-01T12:00:00Z' })).toBeNull();
  });

  it('names the permit that lasts longest when there are several', () => {
    const list = [permit({ id: 'short' }), permit({ id: 'open', kind: 'RESIDENT', validUntil: null })];
    expect(findValidPermit(list, { carParkId: 'cp1', vehicleRegistration: 'AB12CDE', at: '2026-06-01T12:00:00Z' })?.id).toBe('open');
  });

  it("writes the evidence pack's record of the check", () => {
    const lines = permitCheckLines(
      {
        checkedAt: '2026-06-01T12:00:00.000Z',
        carParkId: 'cp1',
        permitsInForce: 3,
        listChangedAt: '2026-05-30T08:00:00.000Z',
        matched: {
          id: 'p1',
          kind: 'STAFF',
          vehicleRegistration: 'AB12CDE',
          validFrom: permit().validFrom,
          validUntil: permit().validUntil,
        },
        overrideReason: 'Parked outside the permitted bays',
      },
      (iso) => iso.slice(0, 10),
    );
    expect(lines).toEqual([
      "Checked 2026-06-01 against the car park's permit list (3 permits in force, last changed 2026-05-30).",
      'The registration held a permit: Staff permit, valid until 31 Dec 2026: do not issue (permit p1).',
      "Officer's reason for issuing anyway: Parked outside the permitted bays",
    ]);
  });
});
