import {
  pcnTitle,
  REFUND_MESSAGES,
  REFUND_REASON_MAX_LENGTH,
  refundReopenedNote,
  refundTooMuch,
  type PcnStatus,
  type RefundMethod,
  type RefundStatus,
} from '@parkpatrol/shared';
import type { z } from 'zod';
import type { refundInputSchema } from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { amountDueOf } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import { auditEntry, insertAuditEntries, type NewAuditEntry } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { insertStatusChange, updatePcnStatus } from '../repositories/pcn-status.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import {
  findRefundablePayment,
  findRefundByIdempotencyKey,
  findRefundByStripeId,
  insertRefund,
  settleRefundStatus,
} from '../repositories/refunds.ts';
import { chargeFactsOf } from './look-up-charge.ts';
import { pcnNotFound } from './pcn-access.ts';

/** Who a refund the card processor reported (a refund made in its own dashboard) is recorded as made by. */
export const CARD_PROCESSOR_ACTOR = { id: null, firstName: 'Card processor', lastName: '' } as const;

export type ApplyRefundInput = {
  pcnId: string;
  paymentId: string;
  amountPence: number;
  reason: string;
  method: RefundMethod;
  status: RefundStatus;
  stripeRefundId: string | null;
  idempotencyKey: string | null;
  actor: AuthUser | null;
  now: Date;
};

/**
 * Records one refund against one of the charge's payments, in the caller's transaction: the
 * admin's refund (POST /pcns/{id}/refunds, after the card processor made it or by hand) and the
 * card processor's `charge.refunded` event both come here, so the rules are one.
 *
 * - A refund the processor knows by an id already recorded is a replay: the admin's call and the
 *   event for the same refund arrive in either order, and the second records nothing (except
 *   that a refund first reported PENDING takes the status it settled at).
 * - An admin's attempt is kept with its Idempotency-Key: the same key again is answered as the
 *   first; the same key for another refund is refused.
 * - A refund never exceeds what is left of its payment (its amount less its refunds that did not
 *   fail), except one the card processor already made, which is kept as the money that went; its
 *   reason is required.
 * - The charge's balance follows (decision 0038): a PAID charge whose payments, less their
 *   refunds, no longer meet what was due on the day of the latest payment goes back to the status
 *   it had before it was paid, with a history note and an audit entry. A refund of an overpayment
 *   leaves it PAID; a cancelled charge stays cancelled.
 */
export async function applyRefund(trx: Db, input: ApplyRefundInput): Promise<{ refundId: string; replayed: boolean }> {
  // The lock orders a refund against a payment being recorded or another refund of the same payment.
  await lockPcnWrites(trx);
  if (input.stripeRefundId !== null) {
    const known = await findRefundByStripeId(trx, input.stripeRefundId);
    if (known) {
      if (known.status === 'PENDING' && input.status !== 'PENDING') {
        await settleRefundStatus(trx, { refundId: known.id, status: input.status });
      }
      return { refundId: known.id, replayed: true };
    }
  }
  if (input.idempotencyKey !== null) {
    const first = await findRefundByIdempotencyKey(trx, input.idempotencyKey);
    if (first) {
      const same = first.pcn_id === input.pcnId && first.payment_id === input.paymentId && Number(first.amount_pence) === input.amountPence;
      if (!same) throw new AppError('IDEMPOTENCY_MISMATCH', REFUND_MESSAGES.keyForAnotherRefund);
      return { refundId: first.id, replayed: true };
    }
  }

  const row = await findPcnRowById(trx, input.pcnId);
  if (!row) throw pcnNotFound();
  const reason = input.reason.trim();
  if (reason === '') throw invalid('reason', REFUND_MESSAGES.reasonRequired);
  if (reason.length > REFUND_REASON_MAX_LENGTH) throw invalid('reason', REFUND_MESSAGES.reasonTooLong);
  const payment = await findRefundablePayment(trx, { pcnId: input.pcnId, paymentId: input.paymentId });
  if (!payment) throw invalid('paymentId', REFUND_MESSAGES.paymentNotFound);
  if (!Number.isInteger(input.amountPence) || input.amountPence < 1) throw invalid('amountPence', REFUND_MESSAGES.amountRequired);
  // A refund the card processor made is money already gone, kept whatever was recorded by hand
  // meanwhile (the processor never refunds more than the card paid); any other is refused past what is left.
  if (input.stripeRefundId === null && input.amountPence > payment.leftPence)
    throw invalid('amountPence', refundTooMuch(payment.leftPence));

  const now = input.now.toISOString();
  const actor = input.actor ?? CARD_PROCESSOR_ACTOR;
  const refundId = await insertRefund(trx, {
    pcnId: row.id,
    paymentId: payment.id,
    amountPence: input.amountPence,
    reason,
    method: input.method,
    status: input.status,
    stripeRefundId: input.stripeRefundId,
    idempotencyKey: input.idempotencyKey,
    createdBy: actor.id,
    createdByName: `${actor.firstName} ${actor.lastName}`.trim(),
    now,
  });
  const entries: NewAuditEntry[] = [
    auditEntry(row.id, 'refund_recorded', actor, null, now, {
      amountPence: { from: null, to: input.amountPence },
      paymentId: { from: null, to: payment.id },
      method: { from: null, to: input.method },
      refundStatus: { from: null, to: input.status },
      reason: { from: null, to: reason },
      ...(input.stripeRefundId !== null && { stripeRefundId: { from: null, to: input.stripeRefundId } }),
    }),
  ];

  if (row.status === 'PAID' && input.status !== 'FAILED') {
    const before = await statusBeforePaid(trx, row.id);
    // The payments as they now stand, the charge read as it was before it was paid.
    const facts = { ...(await chargeFactsOf(trx, row, () => '')), status: before };
    const lastPaidOn = facts.payments.reduce((last, paid) => (paid.paidOn > last ? paid.paidOn : last), '');
    const owed = amountDueOf(facts, lastPaidOn === '' ? input.now : `${lastPaidOn}T12:00:00.000Z`);
    if (owed.amountDuePence > 0 && owed.chargePence !== null) {
      const moved = await updatePcnStatus(trx, { pcnId: row.id, from: 'PAID', to: before, now });
      if (!moved) throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} changed while the refund was recorded: try again`);
      const note = refundReopenedNote(input.amountPence, owed.paidPence);
      await insertStatusChange(trx, { pcnId: row.id, from: 'PAID', to: before, note, changedBy: actor.id, now });
      entries.push(
        auditEntry(row.id, 'status_changed', actor, null, now, { status: { from: 'PAID', to: before }, note: { from: null, to: note } }),
      );
    }
  }
  await insertAuditEntries(trx, entries);
  return { refundId, replayed: false };
}

/** The status a paid charge had before its payments met what was due: the history's last move to PAID says. */
async function statusBeforePaid(trx: Db, pcnId: string): Promise<PcnStatus> {
  const last = await trx
    .selectFrom('pcn_status_history')
    .select('from_status')
    .where('pcn_id', '=', pcnId)
    .where('to_status', '=', 'PAID')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  // A charge paid before its history was kept reads as the charge as sent.
  return last?.from_status && last.from_status !== 'PAID' ? last.from_status : 'ISSUED';
}

/**
 * POST /pcns/{id}/refunds: an admin's refund of one payment. A card payment taken online (it has
 * a payment intent) is refunded through the card processor, with the attempt's Idempotency-Key as
 * the processor's own, so a double click or a retry makes one refund there and records it once
 * here; any other payment (and a card payment an admin typed in) was taken by the operator's own
 * means and is recorded as refunded by hand. A card payment taken online is recorded by hand only
 * when the admin says so (`byHand`: refunded in the processor's own dashboard).
 *
 * The processor is called outside any transaction (a slow answer must not hold every writer), after
 * the same checks applyRefund makes, so a refund it would refuse never reaches the processor; the
 * refund it made is then recorded by applyRefund, where a `charge.refunded` event that got there
 * first makes this a replay.
 */
export async function refundPayment(
  deps: Pick<AppDeps, 'db' | 'cardProcessor' | 'logger'>,
  input: { pcnId: string; idempotencyKey: string; refund: z.output<typeof refundInputSchema>; user: AuthUser; now: Date },
): Promise<{ replayed: boolean }> {
  const { refund } = input;
  const common = {
    pcnId: input.pcnId,
    paymentId: refund.paymentId,
    amountPence: refund.amountPence,
    reason: refund.reason,
    idempotencyKey: input.idempotencyKey,
    actor: input.user,
    now: input.now,
  };
  const payment = await deps.db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const first = await findRefundByIdempotencyKey(trx, input.idempotencyKey);
    if (first) {
      const same =
        first.pcn_id === input.pcnId && first.payment_id === refund.paymentId && Number(first.amount_pence) === refund.amountPence;
      if (!same) throw new AppError('IDEMPOTENCY_MISMATCH', REFUND_MESSAGES.keyForAnotherRefund);
      return null;
    }
    if (!(await findPcnRowById(trx, input.pcnId))) throw pcnNotFound();
    const found = await findRefundablePayment(trx, { pcnId: input.pcnId, paymentId: refund.paymentId });
    if (!found) throw invalid('paymentId', REFUND_MESSAGES.paymentNotFound);
    if (refund.amountPence > found.leftPence) throw invalid('amountPence', refundTooMuch(found.leftPence));
    return found;
  });
  if (payment === null) return { replayed: true };

  const paymentIntent = payment.method === 'CARD' ? payment.stripePaymentIntent : null;
  if (paymentIntent === null || refund.byHand) {
    const result = await deps.db
      .transaction()
      .execute((trx) => applyRefund(trx, { ...common, method: 'BY_HAND', status: 'SUCCEEDED', stripeRefundId: null }));
    return { replayed: result.replayed };
  }
  if (!deps.cardProcessor) throw new AppError('CONFLICT', REFUND_MESSAGES.cardProcessorMissing);
  let made: { id: string; status: RefundStatus };
  try {
    made = await deps.cardProcessor.refund({
      paymentIntent,
      amountPence: refund.amountPence,
      idempotencyKey: input.idempotencyKey,
      metadata: { pcnId: input.pcnId, paymentId: payment.id, reason: refund.reason },
    });
  } catch (error) {
    deps.logger.warn('the card processor refused or did not answer a refund', {
      pcnId: input.pcnId,
      paymentId: payment.id,
      error: String(error),
    });
    throw new AppError('CARD_PROCESSOR_FAILED', REFUND_MESSAGES.cardProcessorFailed);
  }
  const result = await deps.db
    .transaction()
    .execute((trx) => applyRefund(trx, { ...common, method: 'CARD', status: made.status, stripeRefundId: made.id }));
  return { replayed: result.replayed };
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { details: { [field]: message } });
}
