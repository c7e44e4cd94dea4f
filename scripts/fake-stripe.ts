import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import Stripe from 'stripe';

/**
 * A small stand-in for the parts of Stripe's API the app calls, for tests and the browser tests:
 * the official `stripe` library talks to it through STRIPE_API_BASE, and its events reach the
 * app's webhook signed the way Stripe signs them (`stripe.webhooks.generateTestHeaderString`).
 * No network: it listens on loopback.
 *
 * - POST /v1/checkout/sessions (form-encoded, as the library sends it): a Checkout Session. The
 *   Idempotency-Key is honoured as Stripe does: the same key with the same parameters answers
 *   the same session (with `Idempotent-Replayed: true`), with other parameters a 400.
 * - GET /v1/checkout/sessions/:id: the session as it stands.
 * - POST /v1/refunds: a refund of a payment intent, answered 'succeeded'.
 * - GET /checkout/:id: the hosted page, whose Pay button completes the session, sends the signed
 *   `checkout.session.completed` event to the app's webhook, and goes back to the success_url.
 *
 * Objects carry the fields of Stripe's own (Checkout Session, Event, Refund, Charge) that the app
 * reads, with Stripe's names and types.
 */

export type FakeStripeRequest = {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** The form body as the library encoded it, flat: `metadata[pcnId]`, `line_items[0][price_data][unit_amount]`. */
  params: Record<string, string>;
};

export type Delivery = (payload: string, signature: string) => Promise<{ status: number; body: string }>;

type Session = {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: string;
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  url: string | null;
};

type PaymentIntentRecord = { amount: number; chargeId: string; metadata: Record<string, string>; refunds: Refund[] };

type Refund = {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  status: 'succeeded';
};

export type FakeStripe = {
  /** STRIPE_API_BASE for the app. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every API request received, in order. */
  requests: FakeStripeRequest[];
  sessions: Map<string, Session>;
  /** Completes a session as the hosted page's Pay does and delivers its signed event; `at` is the event's time. */
  pay(sessionId: string, options?: { at?: Date }): Promise<{ event: Record<string, unknown>; delivered: { status: number; body: string } }>;
  /** Delivers an event as Stripe would, signed at `at` (default: the fake's clock). */
  send(event: Record<string, unknown>, options?: { at?: Date; signature?: string }): Promise<{ status: number; body: string }>;
  /** The `charge.refunded` event for a payment intent's refunds so far (a refund made in Stripe's dashboard, or through the API). */
  chargeRefundedEvent(paymentIntent: string, at?: Date): Record<string, unknown>;
  /** An event object as Stripe builds it. */
  eventOf(type: string, object: unknown, at?: Date): Record<string, unknown>;
  signatureOf(payload: string, at?: Date): string;
  close(): Promise<void>;
};

const API_VERSION = '2026-10-28.endive';

function id(prefix: string): string {
  return `${prefix}_test_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

function seconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/** `metadata[pcnId]` and friends back into an object (only the one level the app sends). */
function nested(params: Record<string, string>, name: string): Record<string, string> {
  const found: Record<string, string> = {};
  const prefix = `${name}[`;
  for (const [key, value] of Object.entries(params)) {
    if (key.startsWith(prefix) && key.endsWith(']') && !key.slice(prefix.length, -1).includes('['))
      found[key.slice(prefix.length, -1)] = value;
  }
  return found;
}

function stripeError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { type, message } }));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startFakeStripe(options: {
  port?: number;
  host?: string;
  /** Where events go: the app's POST /api/payments/stripe/webhook, or a function (an in-process test app). */
  webhook: string | Delivery;
  webhookSecret?: string;
  secretKey?: string;
  /** The fake's clock (events' `created`, signatures' time): the app's, when a test moves it. */
  now?: () => Date;
}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? `sk_test_fake${randomBytes(12).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_fake${randomBytes(16).toString('hex')}`;
  const now = options.now ?? (() => new Date());
  const host = options.host ?? '127.0.0.1';
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, Session>();
  const intents = new Map<string, PaymentIntentRecord>();
  const idempotent = new Map<string, { params: string; status: number; body: string }>();
  let base = '';

  const deliver: Delivery =
    typeof options.webhook === 'function'
      ? options.webhook
      : async (payload, signature) => {
          const answer = await fetch(options.webhook as string, {
            method: 'POST',
            headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
            body: payload,
          });
          return { status: answer.status, body: await answer.text() };
        };

  const signatureOf = (payload: string, at: Date = now()) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, timestamp: seconds(at) });

  const eventOf = (type: string, object: unknown, at: Date = now()): Record<string, unknown> => ({
    id: id('evt'),
    object: 'event',
    api_version: API_VERSION,
    created: seconds(at),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });

  const send: FakeStripe['send'] = (event, sendOptions = {}) => {
    const payload = JSON.stringify(event, null, 2);
    return deliver(payload, sendOptions.signature ?? signatureOf(payload, sendOptions.at));
  };

  const pay: FakeStripe['pay'] = async (sessionId, payOptions = {}) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`No session ${sessionId}`);
    if (session.payment_status !== 'paid') {
      session.status = 'complete';
      session.payment_status = 'paid';
      session.payment_intent = id('pi');
      intents.set(session.payment_intent, { amount: session.amount_total, chargeId: id('ch'), metadata: session.metadata, refunds: [] });
    }
    const event = eventOf('checkout.session.completed', { ...session }, payOptions.at);
    return { event, delivered: await send(event, { at: payOptions.at }) };
  };

  const chargeRefundedEvent: FakeStripe['chargeRefundedEvent'] = (paymentIntent, at) => {
    const intent = intents.get(paymentIntent);
    if (!intent) throw new Error(`No payment intent ${paymentIntent}`);
    const refunded = intent.refunds.reduce((sum, refund) => sum + refund.amount, 0);
    return eventOf(
      'charge.refunded',
      {
        id: intent.chargeId,
        object: 'charge',
        amount: intent.amount,
        amount_captured: intent.amount,
        amount_refunded: refunded,
        captured: true,
        created: seconds(now()),
        currency: 'gbp',
        livemode: false,
        metadata: intent.metadata,
        paid: true,
        payment_intent: paymentIntent,
        refunded: refunded >= intent.amount,
        refunds: { object: 'list', data: [...intent.refunds].reverse(), has_more: false, url: `/v1/charges/${intent.chargeId}/refunds` },
        status: 'succeeded',
      },
      at,
    );
  };

  /** Answers once per Idempotency-Key, as Stripe does; another body under a used key is refused. */
  const onceByKey = (
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string>,
    make: () => { status: number; body: unknown },
  ) => {
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    const scoped = key ? `${req.url}:${key}` : null;
    const paramsText = JSON.stringify(Object.entries(params).sort());
    const first = scoped ? idempotent.get(scoped) : undefined;
    if (first) {
      if (first.params !== paramsText) {
        return stripeError(
          res,
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        );
      }
      res.writeHead(first.status, {
        'content-type': 'application/json',
        'idempotent-replayed': 'true',
        ...(key && { 'idempotency-key': key }),
      });
      res.end(first.body);
      return;
    }
    const made = make();
    const body = JSON.stringify(made.body);
    if (scoped && made.status < 500) idempotent.set(scoped, { params: paramsText, status: made.status, body });
    res.writeHead(made.status, { 'content-type': 'application/json', ...(key && { 'idempotency-key': key }) });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname;

    // The hosted checkout page and its Pay button: a browser's, no API key.
    const page = /^\/checkout\/([\w]+)(\/pay)?$/.exec(path);
    if (page) {
      const session = sessions.get(page[1]!);
      if (!session) return stripeError(res, 404, 'invalid_request_error', 'No such checkout session');
      if (req.method === 'POST' && page[2]) {
        const { delivered } = await pay(session.id);
        if (delivered.status >= 300) {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`The webhook answered ${delivered.status}: ${delivered.body}`);
          return;
        }
        res.writeHead(303, { location: session.success_url ?? '/' });
        res.end();
        return;
      }
      if (req.method === 'GET' && !page[2]) {
        const amount = `£${(session.amount_total / 100).toFixed(2)}`;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Test checkout</title></head><body><main><h1>Test checkout</h1>
<p>${escapeHtml(session.metadata.reference ?? '')}: ${escapeHtml(amount)}</p>
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form>
<p><a href="${escapeHtml(session.cancel_url ?? '/')}">Cancel</a></p></main></body></html>`);
        return;
      }
    }

    if (!path.startsWith('/v1/'))
      return stripeError(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${path})`);
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return stripeError(res, 401, 'invalid_request_error', 'Invalid API Key provided');
    }
    const body = req.method === 'POST' ? await readBody(req) : '';
    const params = Object.fromEntries(new URLSearchParams(body));
    requests.push({
      method: req.method ?? '',
      path,
      idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
      params,
    });

    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      return onceByKey(req, res, params, () => {
        const amount = Number(params['line_items[0][price_data][unit_amount]']) * Number(params['line_items[0][quantity]'] ?? '1');
        const currency = params['line_items[0][price_data][currency]'];
        if (!Number.isInteger(amount) || amount <= 0 || !currency) {
          return { status: 400, body: { error: { type: 'invalid_request_error', message: 'line_items need a price and quantity' } } };
        }
        const created = seconds(now());
        const sessionId = id('cs');
        const session: Session = {
          id: sessionId,
          object: 'checkout.session',
          amount_subtotal: amount,
          amount_total: amount,
          cancel_url: params.cancel_url ?? null,
          client_reference_id: params.client_reference_id ?? null,
          created,
          currency,
          customer: null,
          expires_at: created + 24 * 60 * 60,
          livemode: false,
          metadata: nested(params, 'metadata'),
          mode: params.mode ?? 'payment',
          payment_intent: null,
          payment_method_types: ['card'],
          payment_status: 'unpaid',
          status: 'open',
          success_url: params.success_url ?? null,
          url: `${base}/checkout/${sessionId}`,
        };
        sessions.set(sessionId, session);
        return { status: 200, body: session };
      });
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path);
    if (req.method === 'GET' && retrieve) {
      const session = sessions.get(retrieve[1]!);
      if (!session) return stripeError(res, 404, 'invalid_request_error', `No such checkout.session: '${retrieve[1]}'`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(session));
      return;
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      return onceByKey(req, res, params, () => {
        const paymentIntent = params.payment_intent ?? '';
        const intent = intents.get(paymentIntent);
        if (!intent)
          return { status: 400, body: { error: { type: 'invalid_request_error', message: `No such payment_intent: '${paymentIntent}'` } } };
        const already = intent.refunds.reduce((sum, refund) => sum + refund.amount, 0);
        const amount = params.amount === undefined ? intent.amount - already : Number(params.amount);
        if (!Number.isInteger(amount) || amount <= 0 || already + amount > intent.amount) {
          return {
            status: 400,
            body: {
              error: {
                type: 'invalid_request_error',
                code: 'amount_too_large',
                message: 'Refund amount is greater than unrefunded amount on charge',
              },
            },
          };
        }
        const refund: Refund = {
          id: id('re'),
          object: 'refund',
          amount,
          charge: intent.chargeId,
          created: seconds(now()),
          currency: 'gbp',
          metadata: nested(params, 'metadata'),
          payment_intent: paymentIntent,
          reason: params.reason ?? null,
          status: 'succeeded',
        };
        intent.refunds.push(refund);
        return { status: 200, body: refund };
      });
    }
    return stripeError(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${path})`);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) stripeError(res, 500, 'api_error', String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  base = `http://${host}:${port}`;
  return {
    url: base,
    secretKey,
    webhookSecret,
    requests,
    sessions,
    pay,
    send,
    chargeRefundedEvent,
    eventOf,
    signatureOf,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run on its own (Playwright's web servers): FAKE_STRIPE_PORT, FAKE_STRIPE_WEBHOOK_URL,
// STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET say where and with which keys.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.env.FAKE_STRIPE_PORT);
  const webhook = process.env.FAKE_STRIPE_WEBHOOK_URL;
  if (!port || !webhook) throw new Error('Set FAKE_STRIPE_PORT and FAKE_STRIPE_WEBHOOK_URL');
  const fake = await startFakeStripe({
    port,
    webhook,
    secretKey: process.env.STRIPE_SECRET_KEY,
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
  });
  console.log(`fake Stripe listening on ${fake.url}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
