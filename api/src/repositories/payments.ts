import { randomUUID } from 'node:crypto';
import type { Payment, PaymentMethod, PaymentSummary } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';

/** Payments recorded against a charge, oldest first. */
export async function findPayments(db: Db, pcnId: string): Promise<PaymentSummary> {
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
  }));
  return {
    payments,
    paidPence: payments.reduce((sum, payment) => sum + payment.amountPence, 0),
    overpaidPence: payments.reduce((sum, payment) => sum + payment.overpaidPence, 0),
  };
}

/** Each payment's amount and the day it was made: what the amount due is worked out from. */
export async function findPaymentDays(db: Db, pcnId: string): Promise<Array<{ amountPence: number; paidOn: string }>> {
  const rows = await db
    .selectFrom('pcn_payments')
    .select(['amount_pence', 'paid_on'])
    .where('pcn_id', '=', pcnId)
    .orderBy('paid_on')
    .execute();
  return rows.map((row) => ({ amountPence: Number(row.amount_pence), paidOn: row.paid_on }));
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
    recordedBy: string;
    now: string;
    idempotencyKey: string;
    overpaidPence: number;
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
    })
    .execute();
}
