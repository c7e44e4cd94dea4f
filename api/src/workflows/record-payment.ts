import { formatCalendarDate, formatPence, PAYMENT_METHOD_LABELS, pcnTitle, type PcnStatus } from '@parkpatrol/shared';
import type { z } from 'zod';
import type { paymentInputSchema } from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { amountDueOf, chargeStateOf } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import { insertPayment } from '../repositories/payments.ts';
import {
  auditEntry,
  findPcnRowById,
  insertAuditEntries,
  insertStatusChange,
  lockPcnWrites,
  updatePcnStatus,
} from '../repositories/pcns.ts';
import { pcnNotFound } from './pcn-access.ts';
import { chargeFactsOf } from './look-up-charge.ts';

/**
 * POST /pcns/{id}/payments: a payment taken by the operator's own means, kept as one row, with
 * its audit entry; when the payments meet what was due on the day it was paid (the reduced
 * amount while it applied), the charge becomes PAID, in the history with the total.
 */
export async function recordPayment(
  db: Db,
  input: { pcnId: string; payment: z.output<typeof paymentInputSchema>; user: AuthUser; now: Date },
): Promise<void> {
  const now = input.now.toISOString();
  const { payment } = input;
  await db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const row = await findPcnRowById(trx, input.pcnId);
    if (!row) throw pcnNotFound();
    const status = row.status as PcnStatus;
    if (chargeStateOf(status) === 'CANCELLED') throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} is cancelled: nothing is due`);
    if (status === 'PAID') throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} is already paid`);
    await insertPayment(trx, { pcnId: row.id, ...payment, recordedBy: input.user.id, now });
    await insertAuditEntries(trx, [
      auditEntry(row.id, 'payment_recorded', input.user, null, now, {
        amountPence: { from: null, to: payment.amountPence },
        paidOn: { from: null, to: payment.paidOn },
        method: { from: null, to: payment.method },
        ...(payment.reference && { reference: { from: null, to: payment.reference } }),
      }),
    ]);
    // What was due on the day of the latest payment (the reduced amount while it applied), with
    // every payment made by then: one entered late but dated earlier still counts.
    const facts = await chargeFactsOf(trx, row, () => '');
    const lastPaidOn = facts.payments.reduce((last, paid) => (paid.paidOn > last ? paid.paidOn : last), payment.paidOn);
    const owed = amountDueOf(facts, `${lastPaidOn}T12:00:00.000Z`);
    if (owed.amountDuePence > 0 || owed.chargePence === null) return;
    const moved = await updatePcnStatus(trx, { pcnId: row.id, from: status, to: 'PAID', now });
    if (!moved) throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} changed while the payment was recorded: try again`);
    const note = `Paid in full: ${formatPence(owed.paidPence)} received, the last ${formatPence(payment.amountPence)} by ${PAYMENT_METHOD_LABELS[payment.method].toLowerCase()} on ${formatCalendarDate(payment.paidOn)}`;
    await insertStatusChange(trx, { pcnId: row.id, from: status, to: 'PAID', note, changedBy: input.user.id, now });
    await insertAuditEntries(trx, [
      auditEntry(row.id, 'status_changed', input.user, null, now, { status: { from: status, to: 'PAID' }, note: { from: null, to: note } }),
    ]);
  });
}
