import { describe, expect, it } from 'vitest';
import { COLLECTION_SETTING_DEFAULTS } from './operator-terms.ts';
import { noticeToDriver, noticeToDriverProblems, type NoticeToDriverFacts } from './notice-to-driver.ts';
import { formatUkPeriod } from './notice-wording.ts';

const FACTS: NoticeToDriverFacts = {
  reference: 'PCN-000123',
  vehicleRegistration: 'AB12CDE',
  carPark: { name: 'Riverside Retail Park', address: '1 Riverside Way, Leeds', postcode: 'LS1 4AB' },
  firstSeenAt: '2025-12-19T10:02:00.000Z',
  servedAt: '2025-12-19T10:24:00.000Z',
  servedBy: 'AFFIXED',
  contravention: 'Parking without a valid permit',
  description: 'No permit on the dashboard.',
  carParkTerms: {
    chargePence: 10000,
    reducedChargePence: 6000,
    reducedWithinDays: 14,
    signageTerms: 'Permit holders only',
    jurisdiction: 'ENGLAND_AND_WALES',
  },
  operator: {
    creditorName: 'ParkPatrol Demo Parking Ltd',
    creditorAddress: 'PO Box 1234\nLeeds\nLS1 4AP',
    creditorPhone: '0113 496 0000',
    creditorEmail: 'charges@parkpatrol.example',
    creditorWebsite: 'parkpatrol.example/charge',
    howToPay: 'Pay online at parkpatrol.example/pay.',
    appealsService: 'POPLA',
    appealsServiceContact: 'POPLA, PO Box 1270, Warrington, WA4 9RL\nwww.popla.co.uk',
    ...COLLECTION_SETTING_DEFAULTS,
  },
  lookupUrl: 'https://parkpatrol.example/charge',
};

const textOf = (facts: NoticeToDriverFacts) =>
  noticeToDriver(facts)
    .sections.flatMap((section) => [section.heading ?? '', ...section.lines])
    .join('\n');

describe('the notice to driver (Schedule 4, paragraph 7(2), and the Single Code)', () => {
  it('says every required thing', () => {
    const text = textOf(FACTS);
    // (a) the vehicle, the land and the period of parking
    expect(text).toContain('Vehicle: AB12CDE');
    expect(text).toContain('Land: Riverside Retail Park, 1 Riverside Way, Leeds, LS1 4AB');
    expect(text).toContain('Period of parking: from 10:02 to 10:24 on Friday 19 December 2025');
    // (b) the charge, how it arose (the signs) and why
    expect(text).toContain('"Permit holders only"');
    expect(text).toContain('a parking charge of £100');
    expect(text).toContain('The terms were not kept: Parking without a valid permit. No permit on the dashboard.');
    // (c) unpaid, as at a time
    expect(text).toContain('As at 10:24 on Friday 19 December 2025, £100 remains unpaid.');
    // (d) the discount and disputes
    expect(text).toContain('If paid within 14 days of the date this notice was given, the charge is reduced to £60.');
    expect(text).toContain('appeal to ParkPatrol Demo Parking Ltd within 28 days');
    // (e) the creditor, how and to whom to pay
    expect(text).toContain('Pay ParkPatrol Demo Parking Ltd, the creditor, quoting the reference PCN-000123.');
    expect(text).toContain('Pay online at parkpatrol.example/pay.');
    // (f) when it was given
    expect(text).toContain('This notice was given at 10:24 on Friday 19 December 2025 by fixing it to the vehicle.');
    // The Single Code: private land, the appeals service and its details, contact details
    expect(text).toContain('incurred on private land');
    expect(text).toContain('you may appeal to POPLA (Parking on Private Land Appeals), the independent appeals service');
    expect(text).toContain('POPLA, PO Box 1270, Warrington, WA4 9RL, www.popla.co.uk');
    // The last day to appeal, and the Single Code's 8.1.2(d) and (e): the rate held after a rejection,
    // and no discount before the independent service.
    expect(text).toContain('within 28 days of the date this notice was given (by 16 Jan 2026)');
    expect(text).toContain('you may still pay the amount that applied on the day you appealed');
    expect(text).toContain('If you then appeal to POPLA (Parking on Private Land Appeals), the reduced amount no longer applies');
    expect(text).toContain('PO Box 1234, Leeds, LS1 4AP');
    expect(text).toContain('Phone 0113 496 0000');
    expect(text).toContain('See this charge and its photos at https://parkpatrol.example/charge, with the reference PCN-000123');
  });

  it('states UK time in summer, a handed notice, and no discount when none is offered', () => {
    const text = textOf({
      ...FACTS,
      firstSeenAt: '2026-07-01T08:50:00.000Z',
      servedAt: '2026-07-01T09:05:00.000Z',
      servedBy: 'HANDED',
      carParkTerms: { ...FACTS.carParkTerms, reducedChargePence: null, reducedWithinDays: null },
    });
    expect(text).toContain('from 09:50 to 10:05 on Wednesday 1 July 2026');
    expect(text).toContain('by handing it to the driver');
    expect(text).toContain('No discount is offered for prompt payment.');
  });

  it('gives both days for parking over midnight, and one time when the first sighting is unknown', () => {
    expect(formatUkPeriod('2026-01-31T23:50:00.000Z', '2026-02-01T00:10:00.000Z')).toBe(
      'from 23:50 on Saturday 31 January 2026 to 00:10 on Sunday 1 February 2026',
    );
    expect(formatUkPeriod(null, '2026-02-01T00:10:00.000Z')).toBe('at 00:10 on Sunday 1 February 2026');
  });

  it('cannot be printed without the operator settings or a charge', () => {
    expect(noticeToDriverProblems({ carParkTerms: FACTS.carParkTerms, operator: FACTS.operator })).toEqual([]);
    expect(noticeToDriverProblems({ carParkTerms: { ...FACTS.carParkTerms, chargePence: null }, operator: null })).toEqual([
      'The operator settings (the creditor and the appeals service) are not set.',
      'The car park has no charge set.',
    ]);
  });
});
