import { randomUUID } from 'node:crypto';
import { CARD_PAYMENT_MESSAGES, CARD_RETURN_PARAM, CARD_RETURN_VALUES, CHARGE_NOT_FOUND, pcnTitle, ukDate } from '@parkpatrol/shared';
import type Stripe from 'stripe';
import type { AppDeps } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { amountDueOf, chargeStateOf } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { chargeFactsOf } from './look-up-charge.ts';
import { applyPayment } from './record-payment.ts';
import { applyRefund } from './record-refund.ts';

/** Who a card payment is recorded and audited as made by: no account, the processor's word. */
export const CARD_PAYMENT_ACTOR = { id: null, firstName: 'Card payment', lastName: '' } as const;

/**
 * POST /public/charges/current/checkout: a Checkout Session for what is due now, the server's
 * amount (decision 0037). One idempotency key per charge and amount: a second press of Pay, or a
 * retry after a lost answer, gets the same session from the processor, never a second one.
 */
export async function startCardCheckout(
  deps: Pick<AppDeps, 'db' | 'config' | 'cardProcessor' | 'logger'>,
  input: { pcnId: string; now: Date },
): Promise<{ url: string }> {
  const processor = deps.cardProcessor;
  if (!processor) throw new AppError('CARD_PAYMENTS_OFF', CARD_PAYMENT_MESSAGES.unavailable);
  const row = await findPcnRowById(deps.db, input.pcnId);
  if (!row) throw new AppError('NOT_FOUND', CHARGE_NOT_FOUND);
  const facts = await chargeFactsOf(deps.db, row, () => '');
  const state = chargeStateOf(facts.status);
  if (state === 'PAID') throw new AppError('CONFLICT', CARD_PAYMENT_MESSAGES.paid);
  if (state === 'CANCELLED') throw new AppError('CONFLICT', CARD_PAYMENT_MESSAGES.cancelled);
  const due = amountDueOf(facts, input.now);
  if (due.onHold) throw new AppError('CONFLICT', CARD_PAYMENT_MESSAGES.onHold);
  if (due.chargePence === null || due.amountDuePence <= 0) throw new AppError('CONFLICT', CARD_PAYMENT_MESSAGES.nothingDue);
  const amountPence = due.amountDuePence;
  // Per charge and amount (and what was paid before it: after a part payment, or a refund, a new
  // payment of the same amount is a new session, not the finished one).
  const idempotencyKey = `checkout-${row.id}-${amountPence}-${due.paidPence}`;
  const back = `${deps.config.appUrl}/charge?${CARD_RETURN_PARAM}=`;
  let session: { id: string; url: string; expiresAt: string };
  try {
    session = await processor.createCheckoutSession({
      pcnId: row.id,
      reference: pcnTitle(row.pcn_number),
      amountPence,
      idempotencyKey,
      successUrl: `${back}${CARD_RETURN_VALUES.paid}`,
      cancelUrl: `${back}${CARD_RETURN_VALUES.cancelled}`,
    });
  } catch (error) {
    deps.logger.warn('the card processor refused or did not answer a checkout', { pcnId: row.id, error: String(error) });
    throw new AppError('CARD_PROCESSOR_FAILED', CARD_PAYMENT_MESSAGES.processorFailed);
  }
  // The same key answers the same session: kept once.
  const known = await deps.db.selectFrom('card_checkouts').select('id').where('stripe_session_id', '=', session.id).executeTakeFirst();
  if (!known) {
    await deps.db
      .insertInto('card_checkouts')
      .values({
        id: randomUUID(),
        pcn_id: row.id,
        amount_pence: amountPence,
        stripe_session_id: session.id,
        url: session.url,
        idempotency_key: idempotencyKey,
        created_at: input.now.toISOString(),
        expires_at: session.expiresAt,
        completed_at: null,
      })
      .onConflict((oc) => oc.column('stripe_session_id').doNothing())
      .execute();
  }
  return { url: session.url };
}

export type WebhookOutcome = 'recorded' | 'replayed' | 'ignored' | 'awaiting_payment' | 'unknown_charge' | 'refund_recorded';

/**
 * POST /payments/stripe/webhook: the only proof a card payment happened (decision 0037). The
 * signature over the raw body is checked first (400, nothing recorded); each event is recorded
 * once in stripe_events, in the transaction of what it does, so a replay changes nothing.
 */
export async function receiveStripeEvent(
  deps: Pick<AppDeps, 'db' | 'cardProcessor' | 'logger'>,
  input: { rawBody: string; signature: string; now: Date },
): Promise<WebhookOutcome> {
  const processor = deps.cardProcessor;
  if (!processor) throw new AppError('CARD_PAYMENTS_OFF', CARD_PAYMENT_MESSAGES.unavailable);
  let event: Stripe.Event;
  try {
    event = processor.verifyEvent(input.rawBody, input.signature);
  } catch {
    throw new AppError('BAD_REQUEST', CARD_PAYMENT_MESSAGES.badSignature);
  }
  return deps.db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const seen = await trx.selectFrom('stripe_events').select('id').where('id', '=', event.id).executeTakeFirst();
    if (seen) return 'replayed';
    const { outcome, pcnId } = await applyEvent(trx, event, input.now);
    await trx
      .insertInto('stripe_events')
      .values({ id: event.id, type: event.type, pcn_id: pcnId, outcome, received_at: input.now.toISOString() })
      .execute();
    if (outcome === 'unknown_charge')
      deps.logger.warn('a card processor event names no charge of ours', { eventId: event.id, type: event.type });
    return outcome;
  });
}

async function applyEvent(trx: Db, event: Stripe.Event, now: Date): Promise<{ outcome: WebhookOutcome; pcnId: string | null }> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return applyCompletedCheckout(trx, event.data.object, event.created, now);
    case 'charge.refunded':
      return applyChargeRefunded(trx, event.data.object, now);
    default:
      return { outcome: 'ignored', pcnId: null };
  }
}

async function applyCompletedCheckout(
  trx: Db,
  session: Stripe.Checkout.Session,
  createdSeconds: number,
  now: Date,
): Promise<{ outcome: WebhookOutcome; pcnId: string | null }> {
  const checkout = await trx
    .selectFrom('card_checkouts')
    .select(['id', 'pcn_id'])
    .where('stripe_session_id', '=', session.id)
    .executeTakeFirst();
  // Our checkout row names the charge; the signed metadata is the fallback for a row lost to a crash.
  const pcnId = checkout?.pcn_id ?? session.metadata?.pcnId ?? null;
  const row = pcnId ? await findPcnRowById(trx, pcnId) : undefined;
  if (!row) return { outcome: 'unknown_charge', pcnId: null };
  if (session.payment_status !== 'paid') return { outcome: 'awaiting_payment', pcnId: row.id };
  const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  if (!paymentIntent || session.amount_total === null) return { outcome: 'ignored', pcnId: row.id };
  const already = await trx.selectFrom('pcn_payments').select('id').where('stripe_payment_intent', '=', paymentIntent).executeTakeFirst();
  if (!already) {
    await applyPayment(trx, {
      row,
      payment: {
        amountPence: session.amount_total,
        // The UK day Stripe made the event, but never after ours: a processor clock a little ahead
        // of ours at midnight must not make a taken payment "in the future" and refused for good.
        paidOn: [ukDate(new Date(createdSeconds * 1000)), ukDate(now)].sort()[0]!,
        method: 'CARD',
        reference: paymentIntent,
      },
      idempotencyKey: null,
      actor: CARD_PAYMENT_ACTOR,
      now,
      stripePaymentIntent: paymentIntent,
    });
  }
  if (checkout) await trx.updateTable('card_checkouts').set({ completed_at: now.toISOString() }).where('id', '=', checkout.id).execute();
  return { outcome: already ? 'replayed' : 'recorded', pcnId: row.id };
}

/**
 * A refund made at the processor (by POST /pcns/{id}/refunds, or in its own dashboard): each refund the
 * event lists goes through applyRefund, which knows a refund id already recorded.
 */
async function applyChargeRefunded(trx: Db, charge: Stripe.Charge, now: Date): Promise<{ outcome: WebhookOutcome; pcnId: string | null }> {
  const paymentIntent = typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null);
  const payment = paymentIntent
    ? await trx.selectFrom('pcn_payments').select(['id', 'pcn_id']).where('stripe_payment_intent', '=', paymentIntent).executeTakeFirst()
    : undefined;
  if (!payment) return { outcome: 'unknown_charge', pcnId: null };
  for (const refund of charge.refunds?.data ?? []) {
    if (refund.status === 'canceled') continue;
    await applyRefund(trx, {
      pcnId: payment.pcn_id,
      paymentId: payment.id,
      amountPence: refund.amount,
      reason: refund.metadata?.reason || refundReasonOf(refund.reason),
      method: 'CARD',
      status: refund.status === 'succeeded' ? 'SUCCEEDED' : refund.status === 'failed' ? 'FAILED' : 'PENDING',
      stripeRefundId: refund.id,
      idempotencyKey: null,
      actor: null,
      now,
    });
  }
  return { outcome: 'refund_recorded', pcnId: payment.pcn_id };
}

function refundReasonOf(reason: string | null): string {
  if (reason === 'duplicate') return 'Refunded at the card processor: duplicate payment';
  if (reason === 'fraudulent') return 'Refunded at the card processor: fraudulent payment';
  if (reason === 'requested_by_customer') return 'Refunded at the card processor: requested by the motorist';
  return 'Refunded at the card processor';
}
