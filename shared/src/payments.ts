import { formatCalendarDate } from './keeper-liability.ts';
import { formatPence } from './operator-terms.ts';
import type { Refund } from './refunds.ts';

/**
 * Payments an admin records against a charge: taken by the operator's own means (the 'how to
 * pay' text says which), kept one by one so part payments add up, and the charge is paid once
 * they meet what was due on the day of the last one.
 */
export const PAYMENT_METHODS = ['CARD', 'BANK_TRANSFER', 'CHEQUE', 'CASH', 'OTHER', 'DEBT_RECOVERY_AGENCY'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  CARD: 'Card',
  BANK_TRANSFER: 'Bank transfer',
  CHEQUE: 'Cheque',
  CASH: 'Cash',
  OTHER: 'Other',
  DEBT_RECOVERY_AGENCY: 'Debt recovery agency',
};

export type Payment = {
  id: string;
  amountPence: number;
  paidOn: string;
  method: PaymentMethod;
  reference: string;
  recordedBy: string | null;
  createdAt: string;
  /** How much more than was due this payment was when recorded: recorded all the same (the money was taken), and shown. */
  overpaidPence: number;
  /** A card payment taken online through the card processor (it is refunded through it too). */
  takenOnline: boolean;
  /** The refunds made against it, oldest first. */
  refunds: Refund[];
  /** Its refunds that did not fail, together: what comes off the amount paid. */
  refundedPence: number;
};

/** `paidPence`: the payments less their refunds that did not fail. `overpaidPence`: the payments' excesses over what was due, together (0: none). */
export type PaymentSummary = { payments: Payment[]; paidPence: number; overpaidPence: number };

export const PAYMENT_MESSAGES = {
  paidInFuture: 'The day it was paid cannot be in the future',
  paidBeforeIssue: 'The day it was paid cannot be before the notice was issued',
  keyForAnotherPayment: 'This Idempotency-Key was used for another payment',
} as const;

/**
 * The day a payment was made falls within the charge's life: not before the notice was issued,
 * not after today (the UK day, the site's). Days are YYYY-MM-DD, so they compare as text. The
 * message for paidOn, or null.
 */
export function paidOnProblem(paidOn: string, issuedOn: string, today: string): string | null {
  if (paidOn > today) return PAYMENT_MESSAGES.paidInFuture;
  if (paidOn < issuedOn) return `${PAYMENT_MESSAGES.paidBeforeIssue} (${formatCalendarDate(issuedOn)})`;
  return null;
}

/** The admin's screen and the answer's words for a payment of more than was due. */
export function overpaidNote(overpaidPence: number): string {
  return `More than was due, by ${formatPence(overpaidPence)}: consider a refund`;
}
