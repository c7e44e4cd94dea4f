import { randomUUID } from 'node:crypto';
import type { Refund, RefundMethod, RefundStatus } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';

// Refunds against payments. A refund that did not fail (PENDING or SUCCEEDED) comes off what its
// payment paid: the money has gone, or is on its way, back to the motorist.

const REFUND_COLUMNS = [
  'id',
  'pcn_id',
  'payment_id',
  'amount_pence',
  'reason',
  'method',
  'status',
  'stripe_refund_id',
  'idempotency_key',
  'created_by_name',
  'created_at',
] as const;

export type RefundRow = {
  id: string;
  pcn_id: string;
  payment_id: string;
  amount_pence: number;
  reason: string;
  method: RefundMethod;
  status: RefundStatus;
  stripe_refund_id: string | null;
  idempotency_key: string | null;
  created_by_name: string;
  created_at: string;
};

function toRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    paymentId: row.payment_id,
    amountPence: Number(row.amount_pence),
    reason: row.reason,
    method: row.method,
    status: row.status,
    stripeRefundId: row.stripe_refund_id,
    recordedBy: row.created_by_name,
    createdAt: row.created_at,
  };
}

/** Whether a refund comes off its payment: one that failed gave nothing back. */
export function countsAgainstPayment(status: RefundStatus): boolean {
  return status !== 'FAILED';
}

/** The refund the card processor knows by this id: a second report of it is a replay. */
export async function findRefundByStripeId(db: Db, stripeRefundId: string): Promise<RefundRow | undefined> {
  return db.selectFrom('pcn_refunds').select(REFUND_COLUMNS).where('stripe_refund_id', '=', stripeRefundId).executeTakeFirst();
}

/** The refund an admin's attempt recorded, by the attempt's key. */
export async function findRefundByIdempotencyKey(db: Db, key: string): Promise<RefundRow | undefined> {
  return db.selectFrom('pcn_refunds').select(REFUND_COLUMNS).where('idempotency_key', '=', key).executeTakeFirst();
}

/** A payment of the charge with what is left of it to refund, or undefined when the charge has no such payment. */
export async function findRefundablePayment(
  db: Db,
  input: { pcnId: string; paymentId: string },
): Promise<{ id: string; amountPence: number; method: string; stripePaymentIntent: string | null; leftPence: number } | undefined> {
  const payment = await db
    .selectFrom('pcn_payments')
    .select(['id', 'amount_pence', 'method', 'stripe_payment_intent'])
    .where('id', '=', input.paymentId)
    .where('pcn_id', '=', input.pcnId)
    .executeTakeFirst();
  if (!payment) return undefined;
  const { refunded } = await db
    .selectFrom('pcn_refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_pence'), eb.lit(0)).as('refunded'))
    .where('payment_id', '=', payment.id)
    .where('status', '!=', 'FAILED')
    .executeTakeFirstOrThrow();
  const amountPence = Number(payment.amount_pence);
  return {
    id: payment.id,
    amountPence,
    method: payment.method,
    stripePaymentIntent: payment.stripe_payment_intent,
    leftPence: amountPence - Number(refunded),
  };
}

/** Each payment's refunds, oldest first, for the payments of one charge. */
export async function findRefundsByPayment(db: Db, pcnId: string): Promise<Map<string, Refund[]>> {
  const rows = await db
    .selectFrom('pcn_refunds')
    .select(REFUND_COLUMNS)
    .where('pcn_id', '=', pcnId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const byPayment = new Map<string, Refund[]>();
  for (const row of rows) {
    const refunds = byPayment.get(row.payment_id) ?? [];
    refunds.push(toRefund(row));
    byPayment.set(row.payment_id, refunds);
  }
  return byPayment;
}

/** Each payment's refunds that did not fail, together, for one charge. */
export async function findRefundedByPayment(db: Db, pcnId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('pcn_refunds')
    .select(['payment_id', (eb) => eb.fn.sum<number>('amount_pence').as('refunded')])
    .where('pcn_id', '=', pcnId)
    .where('status', '!=', 'FAILED')
    .groupBy('payment_id')
    .execute();
  return new Map(rows.map((row) => [row.payment_id, Number(row.refunded)]));
}

export async function insertRefund(
  trx: Db,
  input: {
    pcnId: string;
    paymentId: string;
    amountPence: number;
    reason: string;
    method: RefundMethod;
    status: RefundStatus;
    stripeRefundId: string | null;
    idempotencyKey: string | null;
    createdBy: string | null;
    createdByName: string;
    now: string;
  },
): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('pcn_refunds')
    .values({
      id,
      pcn_id: input.pcnId,
      payment_id: input.paymentId,
      amount_pence: input.amountPence,
      reason: input.reason,
      method: input.method,
      status: input.status,
      stripe_refund_id: input.stripeRefundId,
      idempotency_key: input.idempotencyKey,
      created_by: input.createdBy,
      created_by_name: input.createdByName,
      created_at: input.now,
    })
    .execute();
  return id;
}

/** A card refund the processor first reported pending, now settled one way or the other. */
export async function settleRefundStatus(trx: Db, input: { refundId: string; status: RefundStatus }): Promise<boolean> {
  const result = await trx
    .updateTable('pcn_refunds')
    .set({ status: input.status })
    .where('id', '=', input.refundId)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
