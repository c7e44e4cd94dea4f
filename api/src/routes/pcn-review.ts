import { Hono } from 'hono';
import {
  driverInputSchema,
  hirerInputSchema,
  keeperInputSchema,
  paymentInputSchema,
  pcnLetterInputSchema,
  pcnLetterPostedInputSchema,
  refundInputSchema,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { readIdempotencyKey } from '../http/pcn-form.ts';
import { ok } from '../http/respond.ts';
import { readJson } from '../http/validation.ts';
import { viewerOf } from '../http/viewer.ts';
import { generatePcnLetter, markPcnLetterPosted, recordHirer, recordNamedDriver } from '../workflows/driver-and-hirer.ts';
import { viewPcnById } from '../workflows/pcn-view.ts';
import { enterKeeper } from '../workflows/record-keeper.ts';
import { recordPayment } from '../workflows/record-payment.ts';
import { refundPayment } from '../workflows/record-refund.ts';

/**
 * An admin's work on a notice after it is filed: payments taken, the keeper, a hirer or named
 * driver, and their letters. An officer gets 403 before the body is read, whether or not the PCN exists.
 */
export function createPcnReviewRoutes(deps: AppDeps) {
  return (
    new Hono<AppEnv>()
      // A payment taken by the operator's own means.
      .post('/:id/payments', requireAdmin, async (c) => {
        // One key per attempt, kept across its retries: the payment is recorded once.
        const idempotencyKey = readIdempotencyKey(c);
        const payment = await readJson(c, paymentInputSchema);
        const result = await recordPayment(deps.db, {
          pcnId: c.req.param('id'),
          idempotencyKey,
          payment,
          user: c.get('user'),
          now: deps.now(),
        });
        if (result.replayed) c.header('Idempotent-Replayed', 'true');
        return ok(c, 'POST /pcns/:id/payments', await viewPcnById(deps, c.req.param('id'), viewerOf(c)));
      })

      // A refund of one payment: through the card processor for a card payment taken online, else by hand.
      .post('/:id/refunds', requireAdmin, async (c) => {
        // One key per attempt, kept across its retries: the refund is made and recorded once.
        const idempotencyKey = readIdempotencyKey(c);
        const refund = await readJson(c, refundInputSchema);
        const result = await refundPayment(deps, {
          pcnId: c.req.param('id'),
          idempotencyKey,
          refund,
          user: c.get('user'),
          now: deps.now(),
        });
        if (result.replayed) c.header('Idempotent-Replayed', 'true');
        return ok(c, 'POST /pcns/:id/refunds', await viewPcnById(deps, c.req.param('id'), viewerOf(c)));
      })

      // The registered keeper, as an admin entered it (and their check of the DVLA's vehicle).
      .put('/:id/keeper', requireAdmin, async (c) => {
        const keeper = await readJson(c, keeperInputSchema);
        await enterKeeper(deps.db, { pcnId: c.req.param('id'), keeper, user: c.get('user'), now: deps.now() });
        return ok(c, 'PUT /pcns/:id/keeper', await viewPcnById(deps, c.req.param('id'), viewerOf(c)));
      })

      // The hirer a hire firm named with its documents, and a named driver (decision 0027).
      .put('/:id/hirer', requireAdmin, async (c) => {
        const hirer = await readJson(c, hirerInputSchema);
        await recordHirer(deps.db, { pcnId: c.req.param('id'), hirer, user: c.get('user'), now: deps.now() });
        return ok(c, 'PUT /pcns/:id/hirer', await viewPcnById(deps, c.req.param('id'), viewerOf(c)));
      })

      .put('/:id/driver', requireAdmin, async (c) => {
        const driver = await readJson(c, driverInputSchema);
        await recordNamedDriver(deps.db, { pcnId: c.req.param('id'), driver, user: c.get('user'), now: deps.now() });
        return ok(c, 'PUT /pcns/:id/driver', await viewPcnById(deps, c.req.param('id'), viewerOf(c)));
      })

      .post('/:id/letters', requireAdmin, async (c) => {
        const input = await readJson(c, pcnLetterInputSchema);
        const { bytes, fileName } = await generatePcnLetter(
          { db: deps.db, evidence: deps.evidence },
          { pcnId: c.req.param('id'), kind: input.kind, postOn: input.postOn, appUrl: deps.config.appUrl, user: c.get('user') },
          deps.now(),
        );
        return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${fileName}"`,
          // Names and addresses: nothing may keep a copy on the way.
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        });
      })

      .post('/:id/letters/posted', requireAdmin, async (c) => {
        const input = await readJson(c, pcnLetterPostedInputSchema);
        const posting = await markPcnLetterPosted(deps.db, {
          pcnId: c.req.param('id'),
          ...input,
          user: c.get('user'),
          now: deps.now(),
          appUrl: deps.config.appUrl,
        });
        return ok(c, 'POST /pcns/:id/letters/posted', posting);
      })
  );
}
