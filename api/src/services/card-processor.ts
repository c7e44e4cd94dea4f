import Stripe from 'stripe';
import type { Config } from '../config.ts';

/**
 * What the app asks of the card processor (Stripe): a hosted Checkout Session for an amount the
 * server worked out, a refund of a card payment, and the check that a webhook came from Stripe.
 * The webhook is the only proof a card payment happened (decision 0037): nothing here records one.
 */
export type CardProcessor = {
  createCheckoutSession(input: {
    pcnId: string;
    reference: string;
    amountPence: number;
    idempotencyKey: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string; expiresAt: string }>;
  refund(input: {
    paymentIntent: string;
    amountPence: number;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<{ id: string; status: 'PENDING' | 'SUCCEEDED' | 'FAILED' }>;
  /** A checkout's state at the processor: 'complete' once the motorist has paid there (the webhook may still be on its way). */
  retrieveCheckoutSession(id: string): Promise<{ status: string | null; paymentStatus: string }>;
  /** The event Stripe signed; throws (Stripe.errors.StripeSignatureVerificationError) on a bad or old signature. */
  verifyEvent(rawBody: string, signature: string): Stripe.Event;
};

export type CardProcessorConfig = Pick<Config, 'stripe'>;

/** Stripe's default: a signature older than five minutes is refused, so a captured event cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The card processor, or null when the operator has not set both keys: without the webhook's
 * secret no payment could ever be confirmed, so the page keeps its "how to pay" text instead.
 * `now` is the app's clock, so a signature's age is judged by the same time as everything else.
 */
export function createCardProcessor(config: CardProcessorConfig, now: () => Date = () => new Date()): CardProcessor | null {
  const { secretKey, webhookSecret, apiBase } = config.stripe;
  if (!secretKey || !webhookSecret) return null;
  const stripe = new Stripe(secretKey, {
    ...(apiBase ? baseAddress(apiBase) : {}),
    // The library retries with the same idempotency key, so a lost answer never pays twice.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
  return {
    async createCheckoutSession(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'gbp',
                unit_amount: input.amountPence,
                product_data: { name: `Parking charge ${input.reference}` },
              },
            },
          ],
          client_reference_id: input.pcnId,
          metadata: { pcnId: input.pcnId, reference: input.reference },
          payment_intent_data: { metadata: { pcnId: input.pcnId, reference: input.reference } },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe returned Checkout Session ${session.id} without a url`);
      return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000).toISOString() };
    },
    async retrieveCheckoutSession(id) {
      // Asked while the motorist's page loads: a slow processor must not hold the page up.
      const session = await stripe.checkout.sessions.retrieve(id, {}, { timeout: 3000, maxNetworkRetries: 0 });
      return { status: session.status, paymentStatus: session.payment_status };
    },
    async refund(input) {
      const refund = await stripe.refunds.create(
        { payment_intent: input.paymentIntent, amount: input.amountPence, metadata: input.metadata },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: refund.id, status: refundStatusOf(refund.status) };
    },
    verifyEvent(rawBody, signature) {
      return stripe.webhooks.constructEvent(
        rawBody,
        signature,
        webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        // In milliseconds: the library divides by 1000 itself.
        now().getTime(),
      );
    },
  };
}

/** Stripe's refund statuses, in ours: only `succeeded` is money back; `failed` and `canceled` are none. */
export function refundStatusOf(status: string | null): 'PENDING' | 'SUCCEEDED' | 'FAILED' {
  if (status === 'succeeded') return 'SUCCEEDED';
  if (status === 'failed' || status === 'canceled') return 'FAILED';
  return 'PENDING';
}

/** STRIPE_API_BASE as the library's host, port and protocol (a local stand-in for tests). */
function baseAddress(apiBase: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}
