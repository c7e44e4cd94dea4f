import { describe, expect, it } from 'vitest';
import { COLLECTION_SETTING_DEFAULTS } from './operator-terms.ts';
import { amountDue, type AmountDueFacts } from './amount-due.ts';
import { addDays, endOfUkDay } from './keeper-liability.ts';
import { noticeToKeeper, type NoticeToKeeperFacts } from './notice-to-keeper.ts';

const TERMS = {
  chargePence: 10_000,
  reducedChargePence: 6_000,
  reducedWithinDays: 14,
  signageTerms: 'Permit holders only',
  jurisdiction: 'ENGLAND_AND_WALES' as const,
};

const OPERATOR = {
  creditorName: 'ParkPatrol Demo Parking Ltd',
  creditorAddress: 'PO Box 1234\nLeeds\nLS1 4AP',
  creditorPhone: '0113 496 0000',
  creditorEmail: 'charges@parkpatrol.example',
  creditorWebsite: 'parkpatrol.example/charge',
  howToPay: 'Pay online at parkpatrol.example/pay.',
  appealsService: 'POPLA' as const,
  appealsServiceContact: 'POPLA, PO Box 1270, Warrington, WA4 9RL',
  ...COLLECTION_SETTING_DEFAULTS,
};

/** The amount a letter posted on `sentOn` states: as at 23:59 on the day before, from the one computation. */
function amountBefore(sentOn: string, facts: Partial<AmountDueFacts>) {
  return amountDue(
    {
      state: 'OUTSTANDING',
      chargePence: TERMS.chargePence,
      reducedChargePence: TERMS.reducedChargePence,
      reducedWithinDays: TERMS.reducedWithinDays,
      firstNoticeOn: null,
      payments: [],
      appeal: null,
      ...facts,
    },
    endOfUkDay(addDays(sentOn, -1)),
  );
}

function letterText(facts: Partial<NoticeToKeeperFacts> & Pick<NoticeToKeeperFacts, 'amount'>): string {
  const letter = noticeToKeeper({
    route: 'PARAGRAPH_9',
    reference: 'PCN-00000042',
    vehicleRegistration: 'AB12CDE',
    vehicleDescription: 'Blue Ford Focus',
    carPark: { name: 'Riverside Retail Park', address: '1 Riverside Way, Leeds', postcode: 'LS1 4AB' },
    firstSeenAt: '2026-01-20T09:40:00.000Z',
    parkingEndedAt: '2026-01-20T10:05:00.000Z',
    noticeToDriver: null,
    draftReference: null,
    contravention: 'Parking without permit',
    description: '',
    carParkTerms: TERMS,
    operator: OPERATOR,
    sentOn: '2026-02-04',
    givenOn: '2026-02-06',
    lookupUrl: 'https://parkpatrol.example/charge',
    ...facts,
  });
  return letter.sections
    .flatMap((section) => section.lines)
    .join(' ')
    .replace(/\s+/g, ' ');
}

describe('noticeToKeeper amounts and period', () => {
  it('states the period of parking from first seen to its end', () => {
    expect(letterText({ amount: amountBefore('2026-02-04', {}) })).toContain(
      'Period of parking: from 09:40 to 10:05 on Tuesday 20 January 2026',
    );
  });

  it('paragraph 9: states what was paid and what remains unpaid as at 23:59 on the day before posting', () => {
    // £30 paid on 3 February counts; £10 paid on the posting day, 4 February, does not yet.
    const amount = amountBefore('2026-02-04', {
      payments: [
        { amountPence: 3_000, paidOn: '2026-02-03' },
        { amountPence: 1_000, paidOn: '2026-02-04' },
      ],
    });
    const text = letterText({ amount });
    expect(text).toContain('The parking charge due from the driver as at the end of the period of parking was £100.');
    expect(text).toContain('As at 23:59 on 3 Feb 2026, £30 has been paid and £70 remains unpaid.');
    expect(text).toContain('We invite you to pay the unpaid parking charge of £70, or,');
    expect(text).toContain('the amount of the unpaid parking charge (£70) has not been paid in full');
    expect(text).toContain('The charge is reduced to £60 (£30 after the £30 already paid) if paid within 14 days');
  });

  it('paragraph 9: an appeal accepted at a reduced amount is what remains unpaid, with no further discount', () => {
    const amount = amountBefore('2026-02-04', {
      appeal: {
        status: 'ACCEPTED_REDUCED',
        isLate: false,
        receivedAt: '2026-01-25T10:00:00.000Z',
        consideredAt: null,
        reducedChargePence: 4_000,
        reducedHeldUntil: null,
      },
      payments: [{ amountPence: 1_500, paidOn: '2026-01-30' }],
    });
    const text = letterText({ amount });
    expect(text).toContain('As at 23:59 on 3 Feb 2026, £15 has been paid and £25 remains unpaid.');
    expect(text).toContain('Following an appeal, the parking charge was reduced to £40.');
    expect(text).toContain('No further discount is offered: the charge was reduced on appeal.');
  });

  it('paragraph 8: repeats the notice to driver, then states a part payment as at the day before posting', () => {
    const amount = amountBefore('2026-02-25', {
      firstNoticeOn: '2026-01-20',
      payments: [{ amountPence: 2_500, paidOn: '2026-02-10' }],
    });
    const text = letterText({
      route: 'PARAGRAPH_8',
      noticeToDriver: { servedAt: '2026-01-20T10:05:00.000Z', servedBy: 'AFFIXED' },
      sentOn: '2026-02-25',
      givenOn: '2026-02-27',
      amount,
    });
    expect(text).toContain('As at 10:05 on Tuesday 20 January 2026, £100 remains unpaid.');
    expect(text).toContain('As at 23:59 on 24 Feb 2026, £25 has been paid and £75 remains unpaid.');
    expect(text).toContain('No discount is now offered: the reduced amount of £60 applied if paid by 3 Feb 2026');
  });
});
