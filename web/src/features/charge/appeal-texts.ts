import { formatCalendarDate, formatPence, REDUCED_PAYABLE_DAYS, REDUCED_RATE_HELD_DAYS, type PublicCharge } from '@parkpatrol/shared';

/**
 * 'How to pay' while an appeal holds the charge: nothing need be paid until it is decided, and
 * what each decision then asks for (the rules of shared/src/appeals.ts and amount-due.ts).
 */
export function appealOpenPaymentTexts(charge: Pick<PublicCharge, 'amountDuePence' | 'reduced' | 'chargePence'>): string[] {
  const rejected =
    charge.reduced && charge.chargePence !== null
      ? `If we reject it, the charge is payable from the day we decide. You appealed while the reduced amount applied, so you may still pay ${formatPence(charge.reduced.amountPence)} for ${REDUCED_RATE_HELD_DAYS} days after our decision; after that the full charge of ${formatPence(charge.chargePence)} is due.`
      : `If we reject it, ${formatPence(charge.amountDuePence)} is payable from the day we decide.`;
  return [
    'You do not need to pay this charge while we consider your appeal. We will email you our decision.',
    `If we accept your appeal, the charge is cancelled and nothing is due. If we accept it at a reduced amount, you pay that amount within ${REDUCED_PAYABLE_DAYS} days of our decision.`,
    rejected,
  ];
}

/**
 * The step before withdrawing an appeal (decision 0044): what withdrawing does to the charge,
 * from today, by the same rules the server applies (`ifAppealWithdrawn`).
 */
export function appealWithdrawalTexts(charge: Pick<PublicCharge, 'onHold' | 'ifAppealWithdrawn' | 'chargePence'>, today: string): string[] {
  const after = charge.ifAppealWithdrawn;
  const due = !after
    ? null
    : after.amountDuePence === 0
      ? 'Nothing is due on the charge now.'
      : after.reduced?.until
        ? `${formatPence(after.amountDuePence)} is due, the reduced amount, until ${formatCalendarDate(after.reduced.until)}${charge.chargePence !== null ? `; after that the full charge of ${formatPence(charge.chargePence)}` : ''}.`
        : `${formatPence(after.amountDuePence)} is due.`;
  return [
    charge.onHold
      ? `If you withdraw your appeal, we will not decide it, and the charge is no longer on hold: it is payable again from today, ${formatCalendarDate(today)}.`
      : 'If you withdraw your appeal, we will not consider it. The charge stays as it is now.',
    ...(due ? [due] : []),
    'You cannot appeal this charge again afterwards.',
  ];
}
