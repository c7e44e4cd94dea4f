import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARD_PAYMENT_MESSAGES,
  pcnTitle,
  type CardCheckout,
  type ChargeLookupResponse,
  type Pcn,
  type PcnAuditResponse,
  type PublicCharge,
} from '@parkpatrol/shared';
import { startFakeStripe, type FakeStripe } from '../../scripts/fake-stripe.ts';
import { freePort } from '../../scripts/test-support.ts';
import { loadConfig } from '../src/config.ts';
import { appealForm, chargeToken } from './support/appeals.ts';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { createPcnViaApi, type NewPcn } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * Card payments on /charge through Stripe, end to end with the real `stripe` library against the
 * fake Stripe server (scripts/fake-stripe.ts) on loopback: the checkout is for the server's amount,
 * and only the signed webhook records a payment (decision 0037).
 */
describe('card payments: POST /public/charges/current/checkout and POST /payments/stripe/webhook', () => {
  let t: TestApp;
  let fake: FakeStripe;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  // Noon on Wednesday 4 February 2026.
  const NOW = Date.parse('2026-02-04T12:00:00.000Z');
  const appNow = () => t.deps.now();

  beforeAll(async () => {
    fake = await startFakeStripe({
      now: appNow,
      // The test app answers in process: each event is sent to its webhook route as Stripe would post it.
      webhook: async (payload, signature) => {
        const res = await t.request('POST', '/payments/stripe/webhook', {
          body: payload,
          headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
        });
        return { status: res.status, body: res.text };
      },
    });
    t = await createTestApp({
      config: { stripe: { secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, apiBase: fake.url } },
    });
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A ticket fixed on 1 February 2026: £60 if paid by 15 February, then £100. */
  const fixedOnFirstFebruary = (registration: string) =>
    createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: registration,
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
  const current = async (token: string) => (await t.request('GET', '/public/charges/current', { token })).json.data as PublicCharge;
  const checkout = (token: string) => t.request('POST', '/public/charges/current/checkout', { token });
  const sessionIdOf = (url: string) => url.split('/').at(-1)!;
  const paymentsOf = (pcnId: string) => t.db.selectFrom('pcn_payments').selectAll().where('pcn_id', '=', pcnId).orderBy('method').execute();
  const eventCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('stripe_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const pcnOf = async (id: string) => (await t.request('GET', `/pcns/${id}`, { token: admin.token })).json.data as Pcn;

  it('checks out the reduced amount in GBP, and the signed webhook makes the charge PAID', async () => {
    const pcn = await fixedOnFirstFebruary('CP12PAY');
    const lookup = await t.request('POST', '/public/charges/lookup', { json: { reference: pcn.pcnNumber, registration: 'CP12PAY' } });
    const { accessToken, charge } = lookup.json.data as ChargeLookupResponse;
    expect(charge.card).toEqual({ payable: true, amountPence: 6000, confirming: false });

    const started = await checkout(accessToken);
    expect(started.status, started.text).toBe(201);
    const { url } = started.json.data as CardCheckout;
    expect(url.startsWith(`${fake.url}/checkout/cs_test_`)).toBe(true);
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      idempotencyKey: `checkout-${pcn.id}-6000-0`,
      params: {
        mode: 'payment',
        'line_items[0][price_data][unit_amount]': '6000',
        'line_items[0][price_data][currency]': 'gbp',
        'line_items[0][quantity]': '1',
        'metadata[pcnId]': pcn.id,
        'metadata[reference]': pcnTitle(pcn.pcnNumber),
        success_url: 'http://localhost:5173/charge?card=returned',
        cancel_url: 'http://localhost:5173/charge?card=cancelled',
      },
    });

    // A second press of Pay: the same key, the same session, kept once.
    const again = await checkout(accessToken);
    expect((again.json.data as CardCheckout).url).toBe(url);
    expect(fake.requests.at(-1)!.idempotencyKey).toBe(`checkout-${pcn.id}-6000-0`);
    expect(await t.db.selectFrom('card_checkouts').select(['amount_pence']).where('pcn_id', '=', pcn.id).execute()).toEqual([
      { amount_pence: 6000 },
    ]);

    // Paid at Stripe, its webhook not here yet: the page says it is being confirmed, and nothing is recorded.
    fake.sessions.get(sessionIdOf(url))!.status = 'complete';
    expect((await current(accessToken)).card).toEqual({ payable: true, amountPence: 6000, confirming: true });
    expect(await paymentsOf(pcn.id)).toEqual([]);

    const { event, delivered } = await fake.pay(sessionIdOf(url));
    expect(delivered.status, delivered.body).toBe(200);
    const intent = fake.sessions.get(sessionIdOf(url))!.payment_intent!;
    expect(await paymentsOf(pcn.id)).toMatchObject([
      { amount_pence: 6000, method: 'CARD', reference: intent, stripe_payment_intent: intent, paid_on: '2026-02-04', recorded_by: null },
    ]);
    const seen = await current(accessToken);
    expect(seen).toMatchObject({ state: 'PAID', amountDuePence: 0, paidPence: 6000 });
    expect(seen.card).toEqual({ payable: false, amountPence: 0, confirming: false });
    const review = await pcnOf(pcn.id);
    expect(review.status).toBe('PAID');
    expect(review.statusHistory!.at(-1)).toMatchObject({
      toStatus: 'PAID',
      note: 'Paid in full: £60 received, the last £60 by card on 4 Feb 2026',
    });
    const audit = (await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.filter((entry) => entry.action === 'payment_recorded')).toMatchObject([{ actorName: 'Card payment' }]);
    expect(
      await t.db.selectFrom('stripe_events').select(['type', 'pcn_id', 'outcome']).where('id', '=', String(event.id)).execute(),
    ).toEqual([{ type: 'checkout.session.completed', pcn_id: pcn.id, outcome: 'recorded' }]);

    // The same event again (Stripe retries until it hears 2xx): answered, nothing more recorded.
    const events = await eventCount();
    const replay = await fake.send(event);
    expect(replay.status).toBe(200);
    expect(await paymentsOf(pcn.id)).toHaveLength(1);
    expect(await eventCount()).toBe(events);

    // Paid is paid: no second checkout.
    const refused = await checkout(accessToken);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'CONFLICT', message: CARD_PAYMENT_MESSAGES.paid });
  });

  it('refuses a tampered or old signature with 400 and records nothing', async () => {
    const pcn = await fixedOnFirstFebruary('CP12TMP');
    const token = chargeToken(t, pcn.id);
    const { url } = (await checkout(token)).json.data as CardCheckout;
    const session = fake.sessions.get(sessionIdOf(url))!;
    const completed = fake.eventOf('checkout.session.completed', {
      ...session,
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_test_forged',
    });
    const payload = JSON.stringify(completed);
    const events = await eventCount();

    // Signed, then changed (a bigger amount): the signature no longer covers the body.
    const signature = fake.signatureOf(payload);
    const tampered = payload.replace('"amount_total":6000', '"amount_total":1');
    const post = (body: string, stripeSignature: string) =>
      t.request('POST', '/payments/stripe/webhook', {
        body,
        headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature },
      });
    const bad = await post(tampered, signature);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'BAD_REQUEST', message: CARD_PAYMENT_MESSAGES.badSignature });
    // Signed ten minutes ago: a captured event replayed later is refused (Stripe's five-minute tolerance).
    const old = await post(payload, fake.signatureOf(payload, new Date(appNow().getTime() - 10 * 60 * 1000)));
    expect(old.status).toBe(400);
    // Signed with another secret, and not signed at all.
    expect((await post(payload, signature.replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`))).status).toBe(400);
    expect((await post(payload, '')).status).toBe(400);

    expect(await paymentsOf(pcn.id)).toEqual([]);
    expect(await eventCount()).toBe(events);
    expect((await current(token)).state).toBe('OUTSTANDING');
  });

  it('records a payment below what is due by then (the discount ended before it was paid) as a part payment', async () => {
    const pcn = await fixedOnFirstFebruary('CP12LTE');
    const { url } = (await checkout(chargeToken(t, pcn.id))).json.data as CardCheckout;
    expect(fake.requests.at(-1)!.params['line_items[0][price_data][unit_amount]']).toBe('6000');
    // The motorist pays on 20 February, after the reduced amount ended on 15 February.
    t.clock.frozenAtMs = Date.parse('2026-02-20T12:00:00.000Z');
    try {
      const { delivered } = await fake.pay(sessionIdOf(url));
      expect(delivered.status, delivered.body).toBe(200);
      expect(await paymentsOf(pcn.id)).toMatchObject([{ amount_pence: 6000, paid_on: '2026-02-20', overpaid_pence: 0 }]);
      const seen = await current(chargeToken(t, pcn.id));
      expect(seen).toMatchObject({ state: 'OUTSTANDING', paidPence: 6000, amountDuePence: 4000, reduced: null });
      // What remains can be paid by card too: a new session for £40, under a new key.
      expect(seen.card).toEqual({ payable: true, amountPence: 4000, confirming: false });
      expect((await checkout(chargeToken(t, pcn.id))).status).toBe(201);
      expect(fake.requests.at(-1)).toMatchObject({
        idempotencyKey: `checkout-${pcn.id}-4000-6000`,
        params: { 'line_items[0][price_data][unit_amount]': '4000' },
      });
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });

  it('records a payment Stripe dated just after our midnight on our day, not refused as paid in the future', async () => {
    const pcn = await fixedOnFirstFebruary('CP12MID');
    const { url } = (await checkout(chargeToken(t, pcn.id))).json.data as CardCheckout;
    // Our clock ten seconds before midnight (GMT in February); Stripe's thirty seconds after it.
    t.clock.frozenAtMs = Date.parse('2026-02-04T23:59:50.000Z');
    try {
      const { delivered } = await fake.pay(sessionIdOf(url), { at: new Date('2026-02-05T00:00:30.000Z') });
      expect(delivered.status, delivered.body).toBe(200);
      expect(await paymentsOf(pcn.id)).toMatchObject([{ amount_pence: 6000, paid_on: '2026-02-04' }]);
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });

  it('keeps a card payment that arrives after the charge was paid another way, all of it as excess, the charge still PAID', async () => {
    const pcn = await fixedOnFirstFebruary('CP12TWO');
    const { url } = (await checkout(chargeToken(t, pcn.id))).json.data as CardCheckout;
    const byHand = await t.request('POST', `/pcns/${pcn.id}/payments`, {
      token: admin.token,
      json: { amountPence: 6000, paidOn: '2026-02-04', method: 'BANK_TRANSFER' },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(byHand.status, byHand.text).toBe(200);
    const { delivered } = await fake.pay(sessionIdOf(url));
    expect(delivered.status, delivered.body).toBe(200);
    expect(await paymentsOf(pcn.id)).toMatchObject([
      { method: 'BANK_TRANSFER', overpaid_pence: 0 },
      { method: 'CARD', amount_pence: 6000, overpaid_pence: 6000 },
    ]);
    expect((await pcnOf(pcn.id)).status).toBe('PAID');
  });

  it('refuses a checkout while an appeal holds the charge (409)', async () => {
    const pcn = await fixedOnFirstFebruary('CP12APL');
    const token = chargeToken(t, pcn.id);
    const appealed = await t.fileAndConfirmAppeal(token, appealForm({ email: `card-${randomUUID()}@example.com` }));
    expect(appealed.status, appealed.text).toBe(201);
    const before = fake.requests.length;
    const refused = await checkout(token);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'CONFLICT', message: CARD_PAYMENT_MESSAGES.onHold });
    expect(fake.requests.length).toBe(before);
    expect((await current(token)).card).toEqual({ payable: false, amountPence: 0, confirming: false });
  });

  it('records a refund made at Stripe from charge.refunded, once', async () => {
    const pcn = await fixedOnFirstFebruary('CP12RFD');
    const { url } = (await checkout(chargeToken(t, pcn.id))).json.data as CardCheckout;
    await fake.pay(sessionIdOf(url));
    const intent = fake.sessions.get(sessionIdOf(url))!.payment_intent!;
    const refund = await t.deps.cardProcessor!.refund({
      paymentIntent: intent,
      amountPence: 1500,
      idempotencyKey: `refund-${randomUUID()}`,
      metadata: { reason: 'Goodwill gesture' },
    });
    expect(refund.status).toBe('SUCCEEDED');
    const event = fake.chargeRefundedEvent(intent);
    expect((await fake.send(event)).status).toBe(200);
    expect((await fake.send(event)).status).toBe(200);
    expect(
      await t.db
        .selectFrom('pcn_refunds')
        .select(['amount_pence', 'stripe_refund_id', 'method', 'status', 'reason'])
        .where('pcn_id', '=', pcn.id)
        .execute(),
    ).toEqual([{ amount_pence: 1500, stripe_refund_id: refund.id, method: 'CARD', status: 'SUCCEEDED', reason: 'Goodwill gesture' }]);
    // £45 kept of £60 due: the charge is owed again.
    expect(await current(chargeToken(t, pcn.id))).toMatchObject({ state: 'OUTSTANDING', paidPence: 4500, amountDuePence: 1500 });
  });

  it('answers 200 to an event it does not act on, and records it as ignored; no cross-site check stands in the way', async () => {
    const event = fake.eventOf('customer.created', { id: 'cus_test_1', object: 'customer' });
    const payload = JSON.stringify(event);
    // Not a browser acting for a victim: whatever fetch metadata it carries, the signature decides.
    const res = await t.request('POST', '/payments/stripe/webhook', {
      body: payload,
      headers: { 'stripe-signature': fake.signatureOf(payload), 'sec-fetch-site': 'cross-site', origin: 'https://elsewhere.example' },
    });
    expect(res.status, res.text).toBe(200);
    expect(await t.db.selectFrom('stripe_events').select(['type', 'outcome']).where('id', '=', String(event.id)).execute()).toEqual([
      { type: 'customer.created', outcome: 'ignored' },
    ]);
  });
});

describe('card payments without the Stripe keys', () => {
  let t: TestApp;
  let pcn: NewPcn;
  beforeAll(async () => {
    t = await createTestApp();
    const officer = await t.signedInUser('USER');
    const carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
    pcn = await createPcnViaApi(t, officer.token, carParkId);
  });
  afterAll(() => t.close());

  it('shows no card payment, refuses a checkout with CARD_PAYMENTS_OFF, and has no webhook', async () => {
    const token = chargeToken(t, pcn.id);
    const charge = (await t.request('GET', '/public/charges/current', { token })).json.data as PublicCharge;
    expect(charge.card).toBeNull();
    expect(charge.creditor?.howToPay).toBeTruthy();
    const refused = await t.request('POST', '/public/charges/current/checkout', { token });
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({ code: 'CARD_PAYMENTS_OFF', message: CARD_PAYMENT_MESSAGES.unavailable });
    const webhook = await t.request('POST', '/payments/stripe/webhook', { body: '{}', headers: { 'stripe-signature': 't=1,v1=00' } });
    expect(webhook.status).toBe(404);
  });
});

describe('card payments when Stripe cannot be reached', () => {
  let t: TestApp;
  let pcn: NewPcn;
  beforeAll(async () => {
    // Nothing listens on this port: every call to the processor fails as a network error.
    const apiBase = `http://127.0.0.1:${await freePort()}`;
    t = await createTestApp({ config: { stripe: { secretKey: 'sk_test_unreachable', webhookSecret: 'whsec_unreachable', apiBase } } });
    const officer = await t.signedInUser('USER');
    const carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
    pcn = await createPcnViaApi(t, officer.token, carParkId);
  });
  afterAll(() => t.close());

  it('answers the checkout 502 CARD_PROCESSOR_FAILED, keeps nothing, and still shows the charge', async () => {
    const token = chargeToken(t, pcn.id);
    const refused = await t.request('POST', '/public/charges/current/checkout', { token });
    expect(refused.status).toBe(502);
    expect(refused.json).toMatchObject({ code: 'CARD_PROCESSOR_FAILED', message: CARD_PAYMENT_MESSAGES.processorFailed });
    expect(await t.db.selectFrom('card_checkouts').selectAll().execute()).toEqual([]);
    const charge = (await t.request('GET', '/public/charges/current', { token })).json.data as PublicCharge;
    expect(charge.card).toMatchObject({ payable: true, confirming: false });
  });
});

describe('the Stripe configuration', () => {
  const configWith = (env: Record<string, string>) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-stripe-config-'));
    try {
      return loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789', ...env }).stripe;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  it('takes both keys and an http(s) API base, and stops the start naming a bad one', () => {
    expect(configWith({})).toEqual({ secretKey: undefined, webhookSecret: undefined, apiBase: undefined });
    expect(
      configWith({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_API_BASE: 'http://127.0.0.1:12111' }),
    ).toEqual({ secretKey: 'sk_test_abc', webhookSecret: 'whsec_abc', apiBase: 'http://127.0.0.1:12111' });
    expect(() => configWith({ STRIPE_API_BASE: 'ftp://stripe.example' })).toThrow(/STRIPE_API_BASE: STRIPE_API_BASE must be an http/);
    expect(() => configWith({ STRIPE_API_BASE: 'not a url' })).toThrow(/STRIPE_API_BASE/);
    expect(() => configWith({ STRIPE_SECRET_KEY: 'pk_test_publishable' })).toThrow(/STRIPE_SECRET_KEY must be a Stripe secret key/);
    expect(() => configWith({ STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(/STRIPE_WEBHOOK_SECRET must be/);
  });
});
