import { describe, expect, it } from 'vitest';
import { appealWithdrawalTexts } from './appeal-texts.ts';

describe('the step before withdrawing an appeal', () => {
  it('says the charge is payable again from today, what is due, until when the reduced amount stays, and that there is no second appeal', () => {
    expect(
      appealWithdrawalTexts(
        {
          onHold: true,
          chargePence: 10_000,
          ifAppealWithdrawn: { amountDuePence: 6_000, reduced: { amountPence: 6_000, until: '2026-03-11' } },
        },
        '2026-02-25',
      ),
    ).toEqual([
      'If you withdraw your appeal, we will not decide it, and the charge is no longer on hold: it is payable again from today, 25 Feb 2026.',
      '£60 is due, the reduced amount, until 11 Mar 2026; after that the full charge of £100.',
      'You cannot appeal this charge again afterwards.',
    ]);
    expect(
      appealWithdrawalTexts(
        { onHold: true, chargePence: 10_000, ifAppealWithdrawn: { amountDuePence: 10_000, reduced: null } },
        '2026-02-25',
      )[1],
    ).toBe('£100 is due.');
  });

  it('changes nothing for a late appeal that held nothing', () => {
    const texts = appealWithdrawalTexts(
      { onHold: false, chargePence: 10_000, ifAppealWithdrawn: { amountDuePence: 10_000, reduced: null } },
      '2026-04-01',
    );
    expect(texts[0]).toBe('If you withdraw your appeal, we will not consider it. The charge stays as it is now.');
  });
});
