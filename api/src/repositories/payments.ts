import { randomUUID } from 'node:crypto';
import type { Payment, PaymentMethod, PaymentSummary } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { findRefundedByPayment, findRefundsByPayment } from './refunds.ts';

/** Payments recorded against a charge, oldest first, each with its refunds. */
export async function findPayments(db: Db, pcnId: string): Promise<PaymentSummary> {
  const refunds = await findRefundsByPayment(db, pcnId);
  const rows = await db
    .selectFrom('pcn_payments')
    .leftJoin('users', 'users.id', 'pcn_payments.recorded_by')
    .select([
      'pcn_payments.id',
      'pcn_payments.amount_pence',
      'pcn_payments.paid_on',
      'pcn_payments.method',
      'pcn_payments.reference',
      'pcn_payments.created_at',
      'pcn_payments.overpaid_pence',
      'pcn_payments.stripe_payment_intent',
      'users.first_name',
      'users.last_name',
    ])
    .where('pcn_payments.pcn_id', '=', pcnId)
    .orderBy('pcn_payments.created_at')
    .orderBy('pcn_payments.id')
    .execute();
  const payments: Payment[] = rows.map((row) => ({
    id: row.id,
    amountPence: row.amount_pence,
    paidOn: row.paid_on,
    method: row.method,
    reference: row.reference,
    recordedBy: row.first_name === null ? null : `${row.first_name} ${row.last_name ?? ''}`.trim(),
    createdAt: row.created_at,
    overpaidPence: Number(row.overpaid_pence),
    takenOnline: row.method === 'CARD' && row.stripe_payment_intent !== null,
    refunds: refunds.get(row.id) ?? [],
    refundedPence: (refunds.get(row.id) ?? [])
      .filter((refund) => refund.status !== 'FAILED')
      .reduce((sum, refund) => sum + refund.amountPence, 0),
  }));
  return {
    payments,
    // What the motorist has paid and kept paid: a refund that did not fail comes off.
    paidPence: payments.reduce((sum, payment) => sum + Math.max(0, payment.amountPence - payment.refundedPence), 0),
    overpaidPence: payments.reduce((sum, payment) => sum + payment.overpaidPence, 0),
  };
}

/**
 * Each payment's amount, less its refunds that did not fail, and the day it was made: what the
 * amount due is worked out from. A refund counts against the payment it gave back, on that
 * payment's day (decision 0038), so a refunded payment is as if it had been that much smaller.
 */
export async function findPaymentDays(db: Db, pcnId: string): Promise<Array<{ amountPence: number; paidOn: string }>> {
  const [rows, refunded] = await Promise.all([
    db.selectFrom('pcn_payments').select(['id', 'amount_pence', 'paid_on']).where('pcn_id', '=', pcnId).orderBy('paid_on').execute(),
    findRefundedByPayment(db, pcnId),
  ]);
  return rows.map((row) => ({ amountPence: Math.max(0, Number(row.amount_pence) - (refunded.get(row.id) ?? 0)), paidOn: row.paid_on }));
}

/** The payment an attempt recorded, by the attempt's key: what a replay answers with. */
export async function findPaymentByIdempotencyKey(db: Db, key: string) {
  return db
    .selectFrom('pcn_payments')
    .select(['id', 'pcn_id', 'amount_pence', 'paid_on', 'method', 'reference'])
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function insertPayment(
  trx: Db,
  input: {
    pcnId: string;
    amountPence: number;
    paidOn: string;
    method: PaymentMethod;
    reference: string;
    recordedBy: string | null;
    now: string;
    idempotencyKey: string | null;
    overpaidPence: number;
    /** A card payment's payment intent at the card processor: one payment per intent. */
    stripePaymentIntent?: string | null;
  },
): Promise<void> {
  await trx
    .insertInto('pcn_payments')
    .values({
      id: randomUUID(),
      pcn_id: input.pcnId,
      amount_pence: input.amountPence,
      paid_on: input.paidOn,
      method: input.method,
      reference: input.reference,
      recorded_by: input.recordedBy,
      created_at: input.now,
      idempotency_key: input.idempotencyKey,
      overpaid_pence: input.overpaidPence,
      stripe_payment_intent: input.stripePaymentIntent ?? null,
    })
    .execute();
}
