import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';
import { ok } from '../http/respond.ts';
import { receiveStripeEvent } from '../workflows/card-payments.ts';

/** The webhook's path under /api: no sign-in and no cross-site check, its signature is the gate (app.ts). */
export const STRIPE_WEBHOOK_PATH = '/api/payments/stripe/webhook';

/** Stripe's events are a few kilobytes; anything far bigger is not one. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * The card processor's calls to us. The webhook reads the body as the exact text Stripe signed
 * (never parsed first: a parse and re-serialise would change the bytes the signature covers).
 */
export function createPaymentRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().post(
    '/stripe/webhook',
    bodyLimit({
      maxSize: WEBHOOK_BODY_LIMIT,
      onError: () => {
        throw new AppError('PAYLOAD_TOO_LARGE', SERVER_MESSAGES.bodyTooLarge);
      },
    }),
    async (c) => {
      const signature = c.req.header('stripe-signature') ?? '';
      const rawBody = await c.req.text();
      const outcome = await receiveStripeEvent(deps, { rawBody, signature, now: deps.now() });
      deps.logger.info('card processor event', { outcome });
      return ok(c, 'POST /payments/stripe/webhook', { received: true });
    },
  );
}
