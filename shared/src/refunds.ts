import type { RefundMethod, RefundStatus } from './collection.ts';
import { penceShown } from './card-payments.ts';
import { formatPence } from './operator-terms.ts';

/**
 * Money given back against one payment: through the card processor for a card payment taken
 * online, else by the operator's own means and recorded by hand. A refund that did not fail comes
 * off what was paid, so the charge's balance follows it.
 */
export type Refund = {
  id: string;
  paymentId: string;
  amountPence: number;
  reason: string;
  method: RefundMethod;
  status: RefundStatus;
  /** The card processor's id of the refund; null for one recorded by hand. */
  stripeRefundId: string | null;
  /** Who recorded it, as recorded (the card processor's name for one reported by its event). */
  recordedBy: string;
  createdAt: string;
};

export const REFUND_REASON_MAX_LENGTH = 500;

export const REFUND_METHOD_LABELS: Record<RefundMethod, string> = {
  CARD: 'Card refund',
  BY_HAND: 'Recorded by hand',
};

export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  PENDING: 'Pending',
  SUCCEEDED: 'Refunded',
  FAILED: 'Failed',
};

export const REFUND_MESSAGES = {
  amountRequired: 'Enter the amount to refund',
  reasonRequired: 'Give the reason for the refund',
  reasonTooLong: `At most ${REFUND_REASON_MAX_LENGTH} characters`,
  paymentNotFound: 'That payment is not one of this charge',
  keyForAnotherRefund: 'This Idempotency-Key was used for another refund',
  cardProcessorMissing:
    'This card payment was taken online: it can only be refunded through the card processor, which is not set up here. Refund it in the card processor and record it by hand.',
  cardProcessorFailed: 'The card processor did not make the refund: try again shortly',
} as const;

/** The amount a refund may not go past: what is left of the payment after its refunds that did not fail. */
export function refundTooMuch(leftPence: number): string {
  return leftPence <= 0 ? 'Nothing is left of this payment to refund' : `At most ${formatPence(leftPence)}, what is left of this payment`;
}

/** What the admin's screen offers once an appeal cancelled a charge that had been paid. */
export function refundAfterCancellationNote(paidPence: number): string {
  return `This charge was cancelled after ${penceShown(paidPence)} was paid: refund it`;
}

/** The history note when a refund takes a paid charge below what was due. */
export function refundReopenedNote(refundPence: number, netPaidPence: number): string {
  return `Refund of ${formatPence(refundPence)}: ${formatPence(netPaidPence)} now paid, less than was due`;
}

export const REFUND_TEXTS = {
  failed: 'Failed to record the refund',
  alreadyRecorded: 'A refund from this form was already recorded: it is now under its payment. Check it before refunding again.',
} as const;
