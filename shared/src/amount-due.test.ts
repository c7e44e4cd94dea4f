import { describe, expect, it } from 'vitest';
import { amountDue, type AmountDueFacts } from './amount-due.ts';
import { endOfUkDay } from './keeper-liability.ts';

// A £100 charge reduced to £60 if paid within 14 days of the notice to driver, given on Monday
// 2 March 2026: the discount's last day is Monday 16 March.
const base: AmountDueFacts = {
  state: 'OUTSTANDING',
  chargePence: 10_000,
  reducedChargePence: 6_000,
  reducedWithinDays: 14,
  firstNoticeOn: '2026-03-02',
  payments: [],
  appeal: null,
};

describe('amountDue', () => {
  it('is the reduced amount to the discount period’s last day, then the full charge', () => {
    const lastDay = amountDue(base, endOfUkDay('2026-03-16'));
    expect(lastDay.reduced).toEqual({ amountPence: 6_000, until: '2026-03-16' });
    expect(lastDay.amountDuePence).toBe(6_000);
    expect(lastDay.unpaidPence).toBe(10_000);

    const dayAfter = amountDue(base, '2026-03-17T00:00:00.000Z');
    expect(dayAfter.reduced).toBeNull();
    expect(dayAfter.amountDuePence).toBe(10_000);
  });

  it('keeps the reduced amount with no end before any notice was given', () => {
    const due = amountDue({ ...base, firstNoticeOn: null }, '2026-06-01T10:00:00.000Z');
    expect(due.reduced).toEqual({ amountPence: 6_000, until: null });
  });

  it('takes a part payment off, counting payments by the day they were made', () => {
    const facts = {
      ...base,
      payments: [
        { amountPence: 2_500, paidOn: '2026-03-20' },
        { amountPence: 1_000, paidOn: '2026-04-02' },
      ],
    };
    // A letter posted on 2 April states the amount as at 23:59 on 1 April: the second payment is not yet in.
    const atLetter = amountDue(facts, endOfUkDay('2026-04-01'));
    expect(atLetter.asOn).toBe('2026-04-01');
    expect(atLetter.paidPence).toBe(2_500);
    expect(atLetter.unpaidPence).toBe(7_500);
    expect(atLetter.amountDuePence).toBe(7_500);

    const later = amountDue(facts, '2026-04-02T12:00:00.000Z');
    expect(later.paidPence).toBe(3_500);
    expect(later.amountDuePence).toBe(6_500);
  });

  it('takes a part payment off the reduced amount while it applies', () => {
    const due = amountDue({ ...base, payments: [{ amountPence: 2_000, paidOn: '2026-03-05' }] }, '2026-03-10T09:00:00.000Z');
    expect(due.amountDuePence).toBe(4_000);
    expect(due.unpaidPence).toBe(8_000);
  });

  it('reads an appeal accepted at a reduced amount as the charge, with no further discount', () => {
    const due = amountDue(
      {
        ...base,
        appeal: {
          status: 'ACCEPTED_REDUCED',
          isLate: false,
          receivedAt: '2026-03-04T10:00:00.000Z',
          consideredAt: null,
          reducedChargePence: 4_000,
          reducedHeldUntil: null,
        },
        payments: [{ amountPence: 1_500, paidOn: '2026-03-20' }],
      },
      '2026-03-21T10:00:00.000Z',
    );
    expect(due.chargePence).toBe(4_000);
    expect(due.reducedByAppeal).toBe(true);
    expect(due.reduced).toBeNull();
    expect(due.amountDuePence).toBe(2_500);
    expect(due.unpaidPence).toBe(2_500);
  });

  it('lets a reduced outcome lapse after its 14 days unless it was paid by then, payments dated within them counting', () => {
    const accepted = {
      ...base,
      appeal: {
        status: 'ACCEPTED_REDUCED' as const,
        isLate: false,
        receivedAt: '2026-03-04T10:00:00.000Z',
        consideredAt: null,
        reducedChargePence: 2_000,
        reducedHeldUntil: null,
        reducedPayableUntil: '2026-03-24',
      },
    };
    // £10 by the last day: the reduction lapses and the car park's £100 is due, less the £10.
    const partly = amountDue({ ...accepted, payments: [{ amountPence: 1_000, paidOn: '2026-03-20' }] }, '2026-03-25T10:00:00.000Z');
    expect(partly).toMatchObject({ chargePence: 10_000, reducedByAppeal: false, amountDuePence: 9_000 });
    // £30 before the decision, then nothing: the £20 was paid in time and nothing more is owed.
    const covered = amountDue({ ...accepted, payments: [{ amountPence: 3_000, paidOn: '2026-03-03' }] }, '2026-04-30T10:00:00.000Z');
    expect(covered).toMatchObject({ chargePence: 2_000, reducedByAppeal: true, amountDuePence: 0, unpaidPence: 0 });
    // Paid in two parts, the later-dated one entered first: in time all the same.
    const twoParts = amountDue(
      {
        ...accepted,
        payments: [
          { amountPence: 1_000, paidOn: '2026-04-13' },
          { amountPence: 2_000, paidOn: '2026-03-09' },
        ],
      },
      '2026-04-14T10:00:00.000Z',
    );
    expect(twoParts).toMatchObject({ chargePence: 2_000, amountDuePence: 0 });
  });

  it('holds the reduced rate after a rejected appeal made within the discount period', () => {
    // Appealed on day 10; rejected on 25 March with the reduced rate held 14 days, to 8 April.
    const facts: AmountDueFacts = {
      ...base,
      appeal: {
        status: 'REJECTED',
        isLate: false,
        receivedAt: '2026-03-12T10:00:00.000Z',
        consideredAt: null,
        reducedChargePence: null,
        reducedHeldUntil: '2026-04-08',
      },
    };
    expect(amountDue(facts, endOfUkDay('2026-04-08')).reduced).toEqual({ amountPence: 6_000, until: '2026-04-08' });
    expect(amountDue(facts, endOfUkDay('2026-04-08')).amountDuePence).toBe(6_000);
    expect(amountDue(facts, '2026-04-09T08:00:00.000Z').amountDuePence).toBe(10_000);
  });

  it('ends the hold once the appeal is withdrawn: the held reduced rate to its day, never short of the discount’s own', () => {
    const appeal = { isLate: false, receivedAt: '2026-03-05T10:00:00.000Z', consideredAt: null, reducedChargePence: null };
    // Withdrawn on 25 March after holding the charge from day 3: the reduced rate held to 8 April.
    const late: AmountDueFacts = { ...base, appeal: { ...appeal, status: 'WITHDRAWN', reducedHeldUntil: '2026-04-08' } };
    expect(amountDue(late, '2026-03-25T12:00:00.000Z')).toMatchObject({ onHold: false, holdsFrom: null, amountDuePence: 6_000 });
    expect(amountDue(late, '2026-04-09T08:00:00.000Z').amountDuePence).toBe(10_000);
    // Withdrawn on day 4 with the reduced rate held to 20 March: past the discount's 16 March, the later day stands.
    const soon: AmountDueFacts = { ...base, appeal: { ...appeal, status: 'WITHDRAWN', reducedHeldUntil: '2026-03-20' } };
    expect(amountDue(soon, '2026-03-18T12:00:00.000Z').reduced).toEqual({ amountPence: 6_000, until: '2026-03-20' });
    // Nothing held: the discount runs to its own day as if there had been no appeal.
    const none: AmountDueFacts = { ...base, appeal: { ...appeal, status: 'WITHDRAWN', reducedHeldUntil: null } };
    expect(amountDue(none, endOfUkDay('2026-03-16')).reduced).toEqual({ amountPence: 6_000, until: '2026-03-16' });
    expect(amountDue(none, '2026-03-17T08:00:00.000Z').amountDuePence).toBe(10_000);
  });

  it('reads prices on the day an open appeal came, yet counts payments made since', () => {
    const facts: AmountDueFacts = {
      ...base,
      appeal: {
        status: 'OPEN',
        isLate: false,
        receivedAt: '2026-03-12T10:00:00.000Z',
        consideredAt: null,
        reducedChargePence: null,
        reducedHeldUntil: null,
      },
      payments: [{ amountPence: 1_000, paidOn: '2026-03-30' }],
    };
    const due = amountDue(facts, '2026-04-01T10:00:00.000Z');
    expect(due.onHold).toBe(true);
    expect(due.holdsFrom).toBe('2026-03-12T10:00:00.000Z');
    expect(due.reduced?.amountPence).toBe(6_000);
    expect(due.amountDuePence).toBe(5_000);
  });

  it('asks nothing of a paid or cancelled charge', () => {
    expect(amountDue({ ...base, state: 'CANCELLED' }, '2026-03-05T10:00:00.000Z').amountDuePence).toBe(0);
    expect(amountDue({ ...base, state: 'PAID' }, '2026-03-05T10:00:00.000Z').unpaidPence).toBe(0);
  });
});

describe('the debt recovery charge in the amount due', () => {
  const warned = { ...base, debtRecoveryFeePence: 7_000 };
  const inJune = '2026-06-01T10:00:00.000Z';

  it('is added only once the charge is in debt recovery', () => {
    for (const collectionStage of ['NOTICE_TO_KEEPER', 'REMINDER', 'LETTER_BEFORE_CLAIM'] as const) {
      const due = amountDue({ ...warned, collectionStage }, inJune);
      expect(due.amountDuePence, collectionStage).toBe(10_000);
      expect(due.debtRecoveryFeePence).toBe(0);
    }
    const due = amountDue({ ...warned, collectionStage: 'DEBT_RECOVERY' }, inJune);
    expect(due.amountDuePence).toBe(17_000);
    expect(due.debtRecoveryFeePence).toBe(7_000);
    // What the parking charge itself leaves unpaid does not change: the fee is not the charge.
    expect(due.unpaidPence).toBe(10_000);
  });

  it('is never added where no letter warned of it, nor once the charge is paid or cancelled', () => {
    expect(amountDue({ ...base, collectionStage: 'DEBT_RECOVERY', debtRecoveryFeePence: null }, inJune).amountDuePence).toBe(10_000);
    expect(amountDue({ ...warned, collectionStage: 'DEBT_RECOVERY', state: 'PAID' }, inJune).amountDuePence).toBe(0);
    expect(amountDue({ ...warned, collectionStage: 'DEBT_RECOVERY', state: 'CANCELLED' }, inJune).amountDuePence).toBe(0);
  });

  it('counts payments against the charge and the fee together', () => {
    const due = amountDue(
      { ...warned, collectionStage: 'DEBT_RECOVERY', payments: [{ amountPence: 12_000, paidOn: '2026-05-20' }] },
      inJune,
    );
    expect(due.amountDuePence).toBe(5_000);
  });
});
