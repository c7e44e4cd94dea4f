import { describe, expect, it } from 'vitest';
import { amountDue } from './amount-due.ts';
import { debtRecoveryWarning, letterBeforeClaim, reminderLetter, type CollectionLetterFacts } from './collection-letters.ts';
import { chaseProblem, letterBeforeClaimDueFrom, reminderDueFrom, warnedDebtRecoveryFeePence } from './collection.ts';
import { endOfUkDay } from './keeper-liability.ts';
import { COLLECTION_SETTING_DEFAULTS, type OperatorTerms } from './operator-terms.ts';
import { SECTOR_LIMITS } from './sector-limits.ts';

const OPERATOR: OperatorTerms = {
  creditorName: 'ParkPatrol Demo Parking Ltd',
  creditorAddress: 'PO Box 1234\nLeeds\nLS1 4AP',
  creditorPhone: '0113 496 0000',
  creditorEmail: 'charges@parkpatrol.example',
  creditorWebsite: 'parkpatrol.example',
  howToPay: 'Pay online or by phone, quoting the reference.',
  appealsService: 'POPLA',
  appealsServiceContact: 'POPLA, PO Box 1270, Warrington, WA4 9RL',
  ...COLLECTION_SETTING_DEFAULTS,
};

const facts = (overrides: Partial<CollectionLetterFacts> = {}): CollectionLetterFacts => ({
  reference: 'PCN-00000042',
  vehicleRegistration: 'AB12CDE',
  carPark: { name: 'Riverside Retail Park', address: '1 Riverside Way, Leeds', postcode: 'LS1 4AB' },
  parkedFrom: '2025-12-19T11:40:00.000Z',
  parkedUntil: '2025-12-19T12:00:00.000Z',
  contravention: 'Parking without permit',
  signageTerms: 'Permit holders only. Parking charge £100.',
  operator: OPERATOR,
  keeperNoticeSentOn: '2026-02-04',
  keeperNoticeGivenOn: '2026-02-06',
  sentOn: '2026-03-06',
  givenOn: '2026-03-10',
  amount: amountDue(
    {
      state: 'OUTSTANDING',
      chargePence: 10_000,
      reducedChargePence: 6_000,
      reducedWithinDays: 14,
      firstNoticeOn: '2025-12-19',
      payments: [{ amountPence: 2_500, paidOn: '2026-02-10' }],
      appeal: null,
    },
    endOfUkDay('2026-03-05'),
  ),
  lookupUrl: 'https://parkpatrol.example/charge',
  debtRecoveryFeePence: 0,
  appealUntil: '2026-01-16',
  appeal: null,
  ...overrides,
});

const textOf = (letter: ReturnType<typeof reminderLetter>) =>
  [letter.title, ...letter.sections.flatMap((section) => [section.heading ?? '', ...section.lines])].join('\n');

describe('when each letter is due', () => {
  it('makes the reminder due the operator’s days after the notice to keeper was given, over month and year ends', () => {
    expect(reminderDueFrom('2026-02-06', 28)).toBe('2026-03-06');
    expect(reminderDueFrom('2026-01-30', 28)).toBe('2026-02-27');
    expect(reminderDueFrom('2025-12-10', 28)).toBe('2026-01-07');
    expect(reminderDueFrom('2026-02-06', 35)).toBe('2026-03-13');
  });

  it('makes the letter before claim due the days after the reminder was presumed given', () => {
    // Friday 6 March: given Tuesday 10 March (over the weekend), due Tuesday 24 March.
    expect(letterBeforeClaimDueFrom('2026-03-06', 14)).toBe('2026-03-24');
    // Thursday 2 April: given over Good Friday and Easter Monday on Wednesday 8 April.
    expect(letterBeforeClaimDueFrom('2026-04-02', 14)).toBe('2026-04-22');
    // Wednesday 23 December 2026: given over Christmas and the substitute Boxing Day on Tuesday 29 December.
    expect(letterBeforeClaimDueFrom('2026-12-23', 14)).toBe('2027-01-12');
  });

  it('chases only an issued charge, not held by an appeal, with something owed', () => {
    expect(chaseProblem({ status: 'ISSUED', onHold: false, amountDuePence: 10_000 })).toBeNull();
    expect(chaseProblem({ status: 'PAID', onHold: false, amountDuePence: 0 })).toBe('NOT_ISSUED');
    expect(chaseProblem({ status: 'CANCELLED', onHold: false, amountDuePence: 0 })).toBe('NOT_ISSUED');
    expect(chaseProblem({ status: 'ISSUED', onHold: true, amountDuePence: 10_000 })).toBe('ON_HOLD');
    expect(chaseProblem({ status: 'ISSUED', onHold: false, amountDuePence: 0 })).toBe('NOTHING_DUE');
  });

  it('warns of the operator’s debt recovery charge, never above the cap, and of none when banned', () => {
    expect(warnedDebtRecoveryFeePence(7_000, SECTOR_LIMITS.maxDebtRecoveryFeePence)).toBe(7_000);
    expect(warnedDebtRecoveryFeePence(9_000, 7_000)).toBe(7_000);
    expect(warnedDebtRecoveryFeePence(7_000, 0)).toBe(0);
    expect(warnedDebtRecoveryFeePence(0, 7_000)).toBe(0);
    expect(debtRecoveryWarning(0)).toBeNull();
  });
});

describe('the reminder', () => {
  it('says what is owed, how to pay, where to look it up, and where an appeal stands', () => {
    const text = textOf(reminderLetter({ ...facts(), letterBeforeClaimFrom: '2026-03-24' }));
    expect(text).toContain('As at 23:59 on 5 Mar 2026, £75 remains unpaid (£25 has been paid).');
    expect(text).toContain('If it is still unpaid on 24 Mar 2026, we may send you a letter before claim');
    expect(text).toContain('Pay online at https://parkpatrol.example/charge, entering the reference PCN-00000042');
    expect(text).toContain('Pay online or by phone, quoting the reference.');
    expect(text).toContain('No appeal was made. The time to appeal to us ended on 16 Jan 2026.');
    expect(text).not.toContain('debt recovery charge');
  });

  it('warns of a debt recovery charge only when the operator has one', () => {
    const text = textOf(reminderLetter({ ...facts({ debtRecoveryFeePence: 7_000 }), letterBeforeClaimFrom: '2026-03-24' }));
    expect(text).toContain('If unpaid, a debt recovery charge of £70 may be added.');
  });

  it('tells a motorist whose appeal was rejected that the independent service is still open', () => {
    const text = textOf(
      reminderLetter({
        ...facts({
          appeal: { status: 'REJECTED', decidedAt: '2026-02-20T10:00:00.000Z', withdrawnAt: null, appealsServiceUntil: '2026-03-20' },
        }),
        letterBeforeClaimFrom: '2026-03-24',
      }),
    );
    expect(text).toContain('Your appeal was decided on 20 Feb 2026: rejected.');
    expect(text).toContain(
      'You may still appeal to POPLA (Parking on Private Land Appeals), the independent appeals service, until 20 Mar 2026',
    );
  });

  it('says a withdrawn appeal was withdrawn, on its UK day, not that it was decided', () => {
    const text = textOf(
      reminderLetter({
        // 23:30 UTC on 19 February is 19 February in the UK (winter time).
        ...facts({ appeal: { status: 'WITHDRAWN', decidedAt: null, withdrawnAt: '2026-02-19T23:30:00.000Z', appealsServiceUntil: null } }),
        letterBeforeClaimFrom: '2026-03-24',
      }),
    );
    expect(text).toContain('You withdrew your appeal on 19 Feb 2026.');
    expect(text).not.toContain('decided');
    expect(text).not.toContain('independent appeals service, until');
  });
});

describe('the letter before claim', () => {
  const letter = letterBeforeClaim({
    ...facts({ sentOn: '2026-03-24', givenOn: '2026-03-26' }),
    reminderSentOn: '2026-03-06',
    replyBy: '2026-04-25',
  });
  const text = textOf(letter);

  it('gives what paragraph 3.1 of the Pre-Action Protocol asks for', () => {
    expect(letter.subtitle).toBe('Pre-Action Protocol for Debt Claims');
    expect(text).toContain('The amount of the debt is £75'); // (a)
    expect(text).toContain('No interest is being claimed, and no other charges are being added.'); // (b)
    expect(text).toContain('The signs at the land offered parking on these terms: "Permit holders only. Parking charge £100"'); // the agreement
    expect(text).toContain('The debt has not been assigned'); // (e)
    expect(text).toContain('No payments by instalments have been offered or are being made.'); // (f)
    expect(text).toContain('want to discuss how to pay, contact us on 0113 496 0000'); // (g)
    expect(text).toContain('send it to ParkPatrol Demo Parking Ltd, PO Box 1234, Leeds, LS1 4AP'); // (h)
    expect(text).toContain('by 25 Apr 2026: 30 days from the day this letter is presumed given');
    expect(text).toContain('Standard Financial Statement');
    expect(text).toContain('Outstanding: £75');
  });

  it('encloses the Information Sheet and the Reply Form', () => {
    expect(letter.annexes?.map((annex) => annex.title)).toEqual(['Information Sheet', 'Reply Form']);
    const reply = letter.annexes![1]!.sections.map((section) => section.heading ?? '');
    expect(reply).toEqual([
      '',
      'Part 1: the debt (tick one)',
      'Part 2: paying (if you agree you owe all or part)',
      'Part 3: documents and information',
      'Part 4: debt advice',
    ]);
  });

  it('warns of the debt recovery charge as a charge that may be added', () => {
    const warned = textOf(letterBeforeClaim({ ...facts({ debtRecoveryFeePence: 7_000 }), reminderSentOn: null, replyBy: '2026-04-25' }));
    expect(warned).toContain('no other charges are being added, except as set out below.');
    expect(warned).toContain('If unpaid, a debt recovery charge of £70 may be added.');
  });
});
