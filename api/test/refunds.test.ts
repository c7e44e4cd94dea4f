import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  REFUND_MESSAGES,
  type CardCheckout,
  type ChargeLookupResponse,
  type Pcn,
  type PcnAuditResponse,
  type PcnStatus,
} from '@parkpatrol/shared';
import { startFakeStripe, type FakeStripe } from '../../scripts/fake-stripe.ts';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { createPcnViaApi } from './fixtures.ts';
import { applyRefund } from '../src/workflows/record-refund.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/** Refunds of payments: by hand for money the operator took itself; the charge's balance follows. */
describe('POST /pcns/{id}/refunds, recorded by hand', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  let plates = 0;
  // Noon on Wednesday 4 February 2026.
  const NOW = Date.parse('2026-02-04T12:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Rita', lastName: 'Refunds' });
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  /** A ticket fixed on 1 February and issued: £60 if paid by 15 February, then £100. */
  const issuedCharge = async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: `RF${String(++plates).padStart(2, '0')}UND`,
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
    for (const status of ['UNDER_REVIEW', 'APPROVED', 'ISSUED'] as const) {
      const moved = await t.request('PATCH', `/pcns/${pcn.id}/status`, { token: admin.token, json: { status } });
      expect(moved.status, moved.text).toBe(200);
    }
    return pcn;
  };
  const pay = async (id: string, amountPence: number, method = 'CASH') => {
    const res = await t.request('POST', `/pcns/${id}/payments`, {
      token: admin.token,
      json: { amountPence, paidOn: '2026-02-03', method },
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(res.status, res.text).toBe(200);
    return res.json.data as Pcn;
  };
  const refund = (id: string, json: object, key: string = randomUUID(), token = admin.token) =>
    t.request('POST', `/pcns/${id}/refunds`, { token, json, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
  const motoristSees = async (pcn: { pcnNumber: string; vehicleRegistration: string }) => {
    const res = await t.request('POST', '/public/charges/lookup', {
      json: { reference: pcn.pcnNumber, registration: pcn.vehicleRegistration },
    });
    return (res.json.data as ChargeLookupResponse).charge;
  };
  const auditOf = async (id: string) =>
    ((await t.request('GET', `/pcns/${id}/audit`, { token: admin.token })).json.data as PcnAuditResponse).entries;

  it('records a refund, audits it, and takes a paid charge back to ISSUED when what is left is below what was due', async () => {
    const pcn = await issuedCharge();
    const paid = await pay(pcn.id, 6000);
    expect(paid.status).toBe('PAID');
    const paymentId = paid.payments!.payments[0]!.id;

    const res = await refund(pcn.id, { paymentId, amountPence: 1000, reason: '  Charged twice for the ticket  ' });
    expect(res.status, res.text).toBe(200);
    const after = res.json.data as Pcn;
    expect(after.status).toBe('ISSUED');
    expect(after.payments).toMatchObject({
      paidPence: 5000,
      payments: [
        {
          id: paymentId,
          amountPence: 6000,
          refundedPence: 1000,
          refunds: [
            {
              paymentId,
              amountPence: 1000,
              reason: 'Charged twice for the ticket',
              method: 'BY_HAND',
              status: 'SUCCEEDED',
              stripeRefundId: null,
              recordedBy: 'Rita Refunds',
            },
          ],
        },
      ],
    });
    expect(after.statusHistory!.at(-1)).toMatchObject({
      fromStatus: 'PAID',
      toStatus: 'ISSUED',
      note: 'Refund of £10: £50 now paid, less than was due',
    });
    // The motorist's page follows the balance: £10 of the reduced £60 is due again.
    expect(await motoristSees(pcn)).toMatchObject({ state: 'OUTSTANDING', paidPence: 5000, amountDuePence: 1000 });

    const entries = await auditOf(pcn.id);
    expect(entries.find((entry) => entry.action === 'refund_recorded')).toMatchObject({
      actorName: 'Rita Refunds',
      changes: {
        amountPence: { from: null, to: 1000 },
        paymentId: { from: null, to: paymentId },
        method: { from: null, to: 'BY_HAND' },
        reason: { from: null, to: 'Charged twice for the ticket' },
      },
    });
    expect(entries.at(-1)).toMatchObject({ action: 'status_changed', changes: { status: { from: 'PAID', to: 'ISSUED' } } });

    // Paid again, it is PAID again.
    expect((await pay(pcn.id, 1000)).status).toBe('PAID');
  });

  it('leaves a charge PAID when the refund gives back only what was paid over', async () => {
    const pcn = await issuedCharge();
    const paid = await pay(pcn.id, 10_000, 'BANK_TRANSFER');
    expect(paid).toMatchObject({ status: 'PAID', payments: { overpaidPence: 4000 } });
    const res = await refund(pcn.id, {
      paymentId: paid.payments!.payments[0]!.id,
      amountPence: 4000,
      reason: 'Paid the full charge in the discount days',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data as Pcn).toMatchObject({ status: 'PAID', payments: { paidPence: 6000 } });
    expect((await auditOf(pcn.id)).filter((entry) => entry.action === 'status_changed').map((entry) => entry.changes.status!.to)).toEqual([
      'UNDER_REVIEW',
      'APPROVED',
      'ISSUED',
      'PAID',
    ]);
    expect(await motoristSees(pcn)).toMatchObject({ state: 'PAID', paidPence: 6000 });
  });

  it('never refunds more than is left of the payment, and wants a reason', async () => {
    const pcn = await issuedCharge();
    const paid = await pay(pcn.id, 3000);
    const paymentId = paid.payments!.payments[0]!.id;
    const tooMuch = await refund(pcn.id, { paymentId, amountPence: 3001, reason: 'Goodwill' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.details).toEqual({ amountPence: 'At most £30, what is left of this payment' });

    expect((await refund(pcn.id, { paymentId, amountPence: 2000, reason: 'Goodwill' })).status).toBe(200);
    const pastWhatIsLeft = await refund(pcn.id, { paymentId, amountPence: 1001, reason: 'Goodwill' });
    expect(pastWhatIsLeft.json.details).toEqual({ amountPence: 'At most £10, what is left of this payment' });
    expect((await refund(pcn.id, { paymentId, amountPence: 1000, reason: 'Goodwill' })).status).toBe(200);
    const nothingLeft = await refund(pcn.id, { paymentId, amountPence: 1, reason: 'Goodwill' });
    expect(nothingLeft.json.details).toEqual({ amountPence: 'Nothing is left of this payment to refund' });

    expect((await refund(pcn.id, { paymentId, amountPence: 1, reason: '   ' })).json.details).toEqual({
      reason: REFUND_MESSAGES.reasonRequired,
    });
    expect((await refund(pcn.id, { paymentId, amountPence: 1, reason: 'x'.repeat(501) })).json.details).toEqual({
      reason: REFUND_MESSAGES.reasonTooLong,
    });
    expect((await refund(pcn.id, { paymentId, amountPence: 0, reason: 'Goodwill' })).json.details).toEqual({
      amountPence: REFUND_MESSAGES.amountRequired,
    });
    // A payment of another charge is not this one's to refund.
    const other = await issuedCharge();
    const otherPayment = (await pay(other.id, 500)).payments!.payments[0]!.id;
    expect((await refund(pcn.id, { paymentId: otherPayment, amountPence: 100, reason: 'Goodwill' })).json.details).toEqual({
      paymentId: REFUND_MESSAGES.paymentNotFound,
    });
    const view = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn;
    expect(view.payments).toMatchObject({ paidPence: 0, payments: [{ refundedPence: 3000 }] });
    expect(await motoristSees(pcn)).toMatchObject({ paidPence: 0, amountDuePence: 6000 });
  });

  it('refunds once for a replayed Idempotency-Key, and refuses the key for another refund', async () => {
    const pcn = await issuedCharge();
    const paymentId = (await pay(pcn.id, 4000)).payments!.payments[0]!.id;
    const key = randomUUID();
    const body = { paymentId, amountPence: 1500, reason: 'Double click' };
    const [first, second] = await Promise.all([refund(pcn.id, body, key), refund(pcn.id, body, key)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.headers.get('Idempotent-Replayed'), second.headers.get('Idempotent-Replayed')].sort()).toEqual(['true', null].sort());
    const again = await refund(pcn.id, body, key);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((again.json.data as Pcn).payments).toMatchObject({ paidPence: 2500, payments: [{ refunds: [{ amountPence: 1500 }] }] });
    const other = await refund(pcn.id, { ...body, amountPence: 1600 }, key);
    expect(other.status).toBe(422);
    expect(other.json.error).toBe(REFUND_MESSAGES.keyForAnotherRefund);
    expect((await auditOf(pcn.id)).filter((entry) => entry.action === 'refund_recorded')).toHaveLength(1);
  });

  it('keeps a refund the card processor reports, even past what was recorded by hand, once', async () => {
    const pcn = await issuedCharge();
    const paymentId = (await pay(pcn.id, 3000, 'CARD')).payments!.payments[0]!.id;
    expect((await refund(pcn.id, { paymentId, amountPence: 3000, reason: 'Terminal refund' })).status).toBe(200);
    const reported = {
      pcnId: pcn.id,
      paymentId,
      amountPence: 500,
      reason: 'Refunded at the card processor',
      method: 'CARD' as const,
      status: 'SUCCEEDED' as const,
      stripeRefundId: 're_dashboard_1',
      idempotencyKey: null,
      actor: null,
      now: new Date(NOW),
    };
    expect(await t.db.transaction().execute((trx) => applyRefund(trx, reported))).toMatchObject({ replayed: false });
    expect(await t.db.transaction().execute((trx) => applyRefund(trx, reported))).toMatchObject({ replayed: true });
    const view = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn;
    expect(view.payments).toMatchObject({ paidPence: 0, payments: [{ refundedPence: 3500 }] });
    expect(view.payments!.payments[0]!.refunds.find((made) => made.stripeRefundId === 're_dashboard_1')).toMatchObject({
      recordedBy: 'Card processor',
      method: 'CARD',
    });
    expect(await motoristSees(pcn)).toMatchObject({ paidPence: 0, amountDuePence: 6000 });
  });

  it('is for admins only', async () => {
    const pcn = await issuedCharge();
    const paymentId = (await pay(pcn.id, 4000)).payments!.payments[0]!.id;
    const res = await refund(pcn.id, { paymentId, amountPence: 100, reason: 'Officer tries' }, randomUUID(), officer.token);
    expect(res.status).toBe(403);
    expect((await auditOf(pcn.id)).filter((entry) => entry.action === 'refund_recorded')).toHaveLength(0);
  });

  it('records a card payment an admin typed in as refunded by hand, and one taken online only when told to', async () => {
    const pcn = await issuedCharge();
    const typedIn = (await pay(pcn.id, 2000, 'CARD')).payments!.payments[0]!.id;
    const byHand = await refund(pcn.id, { paymentId: typedIn, amountPence: 2000, reason: 'Terminal refund' });
    expect(byHand.status, byHand.text).toBe(200);
    expect((byHand.json.data as Pcn).payments!.payments[0]!.refunds[0]).toMatchObject({ method: 'BY_HAND', status: 'SUCCEEDED' });

    // A card payment taken online (its payment intent kept), with no card processor set up here.
    const online = randomUUID();
    await t.deps.db
      .insertInto('pcn_payments')
      .values({
        id: online,
        pcn_id: pcn.id,
        amount_pence: 6000,
        paid_on: '2026-02-03',
        method: 'CARD',
        reference: 'pi_online',
        recorded_by: null,
        created_at: new Date(NOW).toISOString(),
        idempotency_key: null,
        overpaid_pence: 0,
        stripe_payment_intent: 'pi_online',
      })
      .execute();
    const refused = await refund(pcn.id, { paymentId: online, amountPence: 6000, reason: 'Appeal accepted' });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe(REFUND_MESSAGES.cardProcessorMissing);
    const told = await refund(pcn.id, { paymentId: online, amountPence: 6000, reason: 'Refunded in the Stripe dashboard', byHand: true });
    expect(told.status, told.text).toBe(200);
    expect((told.json.data as Pcn).payments!.payments.find((p) => p.id === online)!.refunds).toMatchObject([
      { method: 'BY_HAND', status: 'SUCCEEDED', amountPence: 6000 },
    ]);
    const status: PcnStatus = (told.json.data as Pcn).status;
    expect(status).toBe('ISSUED');
  });
});

/**
 * A card payment taken on /charge is refunded through the card processor (the fake Stripe server
 * on loopback, with the real `stripe` library): the refund's id is kept, and the processor's
 * `charge.refunded` event for it afterwards records nothing more.
 */
describe('POST /pcns/{id}/refunds of a card payment taken online', () => {
  let t: TestApp;
  let fake: FakeStripe;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  const NOW = Date.parse('2026-02-04T12:00:00.000Z');

  beforeAll(async () => {
    fake = await startFakeStripe({
      now: () => t.deps.now(),
      webhook: async (payload, signature) => {
        const res = await t.request('POST', '/payments/stripe/webhook', {
          body: payload,
          headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
        });
        return { status: res.status, body: res.text };
      },
    });
    t = await createTestApp({ config: { stripe: { secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, apiBase: fake.url } } });
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Rita', lastName: 'Refunds' });
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('refunds through the card processor once, keeps its id, and the charge.refunded event for it changes nothing', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: 'CD12RFD',
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
    for (const status of ['UNDER_REVIEW', 'APPROVED', 'ISSUED'] as const) {
      await t.request('PATCH', `/pcns/${pcn.id}/status`, { token: admin.token, json: { status } });
    }
    const lookup = await t.request('POST', '/public/charges/lookup', { json: { reference: pcn.pcnNumber, registration: 'CD12RFD' } });
    const { accessToken } = lookup.json.data as ChargeLookupResponse;
    const started = await t.request('POST', '/public/charges/current/checkout', { token: accessToken });
    expect(started.status, started.text).toBe(201);
    const { delivered } = await fake.pay((started.json.data as CardCheckout).url.split('/').at(-1)!);
    expect(delivered.status, delivered.body).toBe(200);
    const paid = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn;
    expect(paid.status).toBe('PAID');
    const payment = paid.payments!.payments[0]!;
    const paymentIntent = payment.reference;

    const key = randomUUID();
    const body = { paymentId: payment.id, amountPence: 6000, reason: 'Appeal accepted after payment' };
    const res = await t.request('POST', `/pcns/${pcn.id}/refunds`, {
      token: admin.token,
      json: body,
      headers: { [IDEMPOTENCY_KEY_HEADER]: key },
    });
    expect(res.status, res.text).toBe(200);
    const after = res.json.data as Pcn;
    const [made] = after.payments!.payments[0]!.refunds;
    expect(made).toMatchObject({ method: 'CARD', status: 'SUCCEEDED', amountPence: 6000, recordedBy: 'Rita Refunds' });
    expect(made!.stripeRefundId).toMatch(/^re_/);
    expect(after.status).toBe('ISSUED');
    const refundCalls = fake.requests.filter((request) => request.path === '/v1/refunds');
    expect(refundCalls).toHaveLength(1);
    expect(refundCalls[0]).toMatchObject({
      idempotencyKey: key,
      params: { payment_intent: paymentIntent, amount: '6000', 'metadata[pcnId]': pcn.id, 'metadata[reason]': body.reason },
    });

    // A double click: answered as the first, nothing more asked of the processor.
    const again = await t.request('POST', `/pcns/${pcn.id}/refunds`, {
      token: admin.token,
      json: body,
      headers: { [IDEMPOTENCY_KEY_HEADER]: key },
    });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(fake.requests.filter((request) => request.path === '/v1/refunds')).toHaveLength(1);

    // The processor's event for the same refund: a replay.
    const auditBefore = ((await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse).entries;
    const event = await fake.send(fake.chargeRefundedEvent(paymentIntent));
    expect(event.status, event.body).toBe(200);
    const view = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn;
    expect(view.payments!.payments[0]!.refunds).toHaveLength(1);
    expect(view).toMatchObject({ status: 'ISSUED', payments: { paidPence: 0 } });
    const auditAfter = ((await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse).entries;
    expect(auditAfter).toHaveLength(auditBefore.length);

    // Nothing is left of it: the processor is not asked.
    const more = await t.request('POST', `/pcns/${pcn.id}/refunds`, {
      token: admin.token,
      json: { ...body, amountPence: 1 },
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(more.json.details).toEqual({ amountPence: 'Nothing is left of this payment to refund' });
    expect(fake.requests.filter((request) => request.path === '/v1/refunds')).toHaveLength(1);
  });
});
