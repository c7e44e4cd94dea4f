import {
  formatCalendarDate,
  formatPence,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_LABELS,
  paidOnProblem,
  pcnTitle,
  ukDate,
  type PaymentMethod,
} from '@parkpatrol/shared';
import type { z } from 'zod';
import type { paymentInputSchema } from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { amountDueOf, chargeStateOf } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import { findPaymentByIdempotencyKey, insertPayment } from '../repositories/payments.ts';
import { auditEntry, insertAuditEntries, type NewAuditEntry } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById, type PcnRow } from '../repositories/pcn-rows.ts';
import { insertStatusChange, updatePcnStatus } from '../repositories/pcn-status.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { pcnNotFound } from './pcn-access.ts';
import { chargeFactsOf } from './look-up-charge.ts';

/**
 * POST /pcns/{id}/payments: a payment taken by the operator's own means, kept as one row, with
 * its audit entry; when the payments meet what was due on the day it was paid (the reduced
 * amount while it applied), the charge becomes PAID, in the history with the total.
 *
 * Once per attempt: the form's Idempotency-Key is kept with the payment, so a second send of the
 * same attempt (a double click, a retry after a lost answer) records nothing more and is answered
 * as the first; the same key with another payment is refused. The rest is applyPayment's: a
 * payment of more than was due is recorded (the money was taken) with the excess, which the answer
 * and the screen show.
 */
export async function recordPayment(
  db: Db,
  input: {
    pcnId: string;
    idempotencyKey: string;
    payment: z.output<typeof paymentInputSchema>;
    user: AuthUser;
    now: Date;
  },
): Promise<{ replayed: boolean }> {
  const { payment } = input;
  return db.transaction().execute(async (trx) => {
    // The lock orders two sends of one attempt: the second finds the first's row.
    await lockPcnWrites(trx);
    const first = await findPaymentByIdempotencyKey(trx, input.idempotencyKey);
    if (first) {
      const same =
        first.pcn_id === input.pcnId &&
        Number(first.amount_pence) === payment.amountPence &&
        first.paid_on === payment.paidOn &&
        first.method === payment.method &&
        first.reference === payment.reference;
      if (!same) throw new AppError('IDEMPOTENCY_MISMATCH', PAYMENT_MESSAGES.keyForAnotherPayment);
      return { replayed: true };
    }
    const row = await findPcnRowById(trx, input.pcnId);
    if (!row) throw pcnNotFound();
    await applyPayment(trx, { row, payment, idempotencyKey: input.idempotencyKey, actor: input.user, now: input.now });
    return { replayed: false };
  });
}

export type PaymentToApply = { amountPence: number; paidOn: string; method: PaymentMethod; reference: string };

/**
 * The payment rules every way money reaches a charge goes through (an admin's entry, a debt
 * recovery agency's outcome): nothing is taken for a cancelled or paid charge; the day paid falls
 * within the charge's life (not before issue, not after today, UK); the payment is kept with any
 * excess over what was due on its day; and when the payments meet what was due on the day of the
 * latest (the reduced amount while it applied), the charge becomes PAID, in the history with the
 * total. Call it in the caller's transaction, after lockPcnWrites, with the row read there.
 */
export async function applyPayment(
  trx: Db,
  input: {
    row: PcnRow;
    payment: PaymentToApply;
    idempotencyKey: string | null;
    actor: NewAuditEntry['actor'];
    now: Date;
    /**
     * A card payment the card processor's webhook proved (decision 0037): its payment intent. That
     * money is already taken, so a charge paid or cancelled meanwhile is not a refusal: the payment
     * is kept, all of it as excess (for a refund), and the charge keeps its status.
     */
    stripePaymentIntent?: string;
  },
): Promise<{ paid: boolean; overpaidPence: number }> {
  const { row, payment } = input;
  const now = input.now.toISOString();
  const status = row.status;
  const isClosed = status === 'PAID' || chargeStateOf(status) === 'CANCELLED';
  if (!input.stripePaymentIntent) {
    if (chargeStateOf(status) === 'CANCELLED') throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} is cancelled: nothing is due`);
    if (status === 'PAID') throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} is already paid`);
  }
  const paidOnWrong = paidOnProblem(payment.paidOn, ukDate(row.issued_at ?? row.created_at), ukDate(input.now));
  if (paidOnWrong) throw new AppError('VALIDATION_FAILED', paidOnWrong, { details: { paidOn: paidOnWrong } });
  // What was still due on the day of the latest payment, before this one: any more is an overpayment.
  const before = await chargeFactsOf(trx, row, () => '');
  const latestDay = before.payments.reduce((last, paid) => (paid.paidOn > last ? paid.paidOn : last), payment.paidOn);
  const dueThen = amountDueOf(before, `${latestDay}T12:00:00.000Z`);
  const overpaidPence = dueThen.chargePence === null ? 0 : Math.max(0, payment.amountPence - dueThen.amountDuePence);
  await insertPayment(trx, {
    pcnId: row.id,
    ...payment,
    recordedBy: input.actor.id,
    now,
    idempotencyKey: input.idempotencyKey,
    overpaidPence,
    stripePaymentIntent: input.stripePaymentIntent ?? null,
  });
  await insertAuditEntries(trx, [
    auditEntry(row.id, 'payment_recorded', input.actor, null, now, {
      amountPence: { from: null, to: payment.amountPence },
      paidOn: { from: null, to: payment.paidOn },
      method: { from: null, to: payment.method },
      ...(payment.reference && { reference: { from: null, to: payment.reference } }),
      ...(overpaidPence > 0 && { overpaidPence: { from: null, to: overpaidPence } }),
    }),
  ]);
  if (isClosed) return { paid: status === 'PAID', overpaidPence };
  // What was due on the day of the latest payment (the reduced amount while it applied), with
  // every payment made by then: one entered late but dated earlier still counts.
  const facts = await chargeFactsOf(trx, row, () => '');
  const lastPaidOn = facts.payments.reduce((last, paid) => (paid.paidOn > last ? paid.paidOn : last), payment.paidOn);
  const owed = amountDueOf(facts, `${lastPaidOn}T12:00:00.000Z`);
  if (owed.amountDuePence > 0 || owed.chargePence === null) return { paid: false, overpaidPence };
  const moved = await updatePcnStatus(trx, { pcnId: row.id, from: status, to: 'PAID', now });
  if (!moved) throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} changed while the payment was recorded: try again`);
  const note = `Paid in full: ${formatPence(owed.paidPence)} received, the last ${formatPence(payment.amountPence)} by ${PAYMENT_METHOD_LABELS[payment.method].toLowerCase()} on ${formatCalendarDate(payment.paidOn)}`;
  await insertStatusChange(trx, { pcnId: row.id, from: status, to: 'PAID', note, changedBy: input.actor.id, now });
  await insertAuditEntries(trx, [
    auditEntry(row.id, 'status_changed', input.actor, null, now, { status: { from: status, to: 'PAID' }, note: { from: null, to: note } }),
  ]);
  return { paid: true, overpaidPence };
}
