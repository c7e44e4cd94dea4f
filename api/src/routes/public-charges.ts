import { Hono, type Context } from 'hono';
import {
  APPEAL_MULTIPART_FIELDS,
  appealInputSchema,
  chargeLookupInputSchema,
  CHARGE_NOT_FOUND,
  confirmAppealInputSchema,
  IDEMPOTENCY_KEY_HEADER,
  SERVER_MESSAGES,
  UUID_PATTERN,
  withdrawAppealInputSchema,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { verifyChargeToken } from '../auth/charge-token.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { AppError } from '../http/app-error.ts';
import { checkAppealBodyHeaders, readAppealForm } from '../http/appeal-form.ts';
import { extendBodyDeadline } from '../http/body-deadline.ts';
import { clientAddress } from '../http/client-address.ts';
import { ok } from '../http/respond.ts';
import { parseWith, readJson } from '../http/validation.ts';
import { discardSpooledFiles } from '../services/multipart-spool.ts';
import { createUploadGate } from '../services/upload-gate.ts';
import { downloadAppealLetter } from '../workflows/appeal-letter.ts';
import { readPublicOperator } from '../workflows/change-operator-terms.ts';
import { OPERATOR_LOGO_MIME_TYPE, readOperatorLogo } from '../workflows/operator-logo.ts';
import { lookUpCharge, readPublicCharge } from '../workflows/look-up-charge.ts';
import { confirmAppeal, fileAppeal } from '../workflows/pending-appeals.ts';
import { withdrawAppeal } from '../workflows/withdraw-appeal.ts';
import { startCardCheckout } from '../workflows/card-payments.ts';

const UNAUTHENTICATED = 'Look the charge up again: the page was open too long';
const APPEAL_TEXT_FIELDS = Object.values(APPEAL_MULTIPART_FIELDS).filter((name) => name !== APPEAL_MULTIPART_FIELDS.attachments);

/** The motorist's side: no sign-in, a lookup by reference and registration, then a token for that charge. */
export function createPublicChargeRoutes(deps: AppDeps) {
  const limits = createRateLimiter({ db: deps.db, now: deps.now });
  const gate = deps.uploadGate ?? createUploadGate();

  /** The charge the bearer's token was given for, or 401. */
  const chargeOf = (c: Context<AppEnv>): string => {
    const header = c.req.header('authorization') ?? '';
    const token = /^Bearer ([A-Za-z0-9._-]{20,2000})$/.exec(header)?.[1];
    const pcnId = token ? verifyChargeToken(deps.config.jwtSecret, token, deps.now()) : null;
    if (!pcnId) throw new AppError('UNAUTHENTICATED', UNAUTHENTICATED);
    return pcnId;
  };

  return (
    new Hono<AppEnv>()
      .get('/operator', async (c) => ok(c, 'GET /public/charges/operator', await readPublicOperator(deps.db)))

      // Its name holds its hash: the bytes at one address never change, so anyone may cache them for good.
      .get('/operator/logo/:file', async (c) => {
        const logo = await readOperatorLogo(deps.db, c.req.param('file'));
        return c.body(new Uint8Array(logo.image), 200, {
          'Content-Type': OPERATOR_LOGO_MIME_TYPE,
          'Cache-Control': 'public, max-age=31536000, immutable',
          ETag: `"${logo.sha256}"`,
        });
      })

      .post('/lookup', async (c) => {
        const input = await readJson(c, chargeLookupInputSchema);
        const address = clientAddress(c, { trustProxy: deps.config.trustProxy });
        c.header('Cache-Control', 'no-store');
        return ok(c, 'POST /public/charges/lookup', await lookUpCharge(deps, limits, { ...input, address }));
      })

      .get('/current', async (c) => {
        const pcnId = chargeOf(c);
        const charge = await readPublicCharge(deps, pcnId, deps.now());
        if (!charge) throw new AppError('NOT_FOUND', CHARGE_NOT_FOUND);
        c.header('Cache-Control', 'no-store');
        return ok(c, 'GET /public/charges/current', charge);
      })

      .post('/current/appeal', async (c) => {
        // The token first: a stranger's body is never read, and the sender's gets the upload deadline.
        const pcnId = chargeOf(c);
        const key = c.req.header(IDEMPOTENCY_KEY_HEADER)?.trim() ?? '';
        if (!UUID_PATTERN.test(key)) throw new AppError('BAD_REQUEST', SERVER_MESSAGES.idempotencyKeyInvalid);
        checkAppealBodyHeaders(c);
        const release = gate.enter(`charge:${pcnId}`);
        if (!release.ok) {
          const isThisCharge = release.scope === 'user';
          throw new AppError(
            isThisCharge ? 'RATE_LIMITED' : 'SERVICE_BUSY',
            isThisCharge ? SERVER_MESSAGES.tooManyUploads : SERVER_MESSAGES.uploadsBusy,
            {
              headers: { 'Retry-After': String(release.retryAfterSeconds) },
            },
          );
        }
        extendBodyDeadline(c);
        const spooled: string[] = [];
        try {
          const form = await readAppealForm(c, deps.config.uploadsDir, spooled, APPEAL_TEXT_FIELDS);
          const appeal = parseWith(appealInputSchema, form.text);
          const address = clientAddress(c, { trustProxy: deps.config.trustProxy });
          const { result, replayed } = await fileAppeal(deps, limits, {
            pcnId,
            idempotencyKey: key.toLowerCase(),
            appeal,
            files: form.files,
            address,
            now: deps.now(),
          });
          if (replayed) c.header('Idempotent-Replayed', 'true');
          // 202 until the emailed link confirms it (decision 0032); a key sent again after that answers the appeal.
          if (result.kind === 'PENDING') {
            const { kind: _kind, ...awaiting } = result;
            return ok(c, 'POST /public/charges/current/appeal', awaiting, { status: 202 });
          }
          return ok(c, 'POST /public/charges/current/appeal', { reference: result.reference, appeal: result.appeal }, { status: 201 });
        } finally {
          release.leave();
          await discardSpooledFiles(spooled);
        }
      })

      .post('/current/appeal/withdraw', async (c) => {
        // The token first: a stranger's body is never read.
        const pcnId = chargeOf(c);
        const { email } = await readJson(c, withdrawAppealInputSchema);
        const withdrawal = await withdrawAppeal(deps, limits, { pcnId, email, now: deps.now() });
        c.header('Cache-Control', 'no-store');
        return ok(c, 'POST /public/charges/current/appeal/withdraw', withdrawal);
      })

      .post('/current/checkout', async (c) => {
        const pcnId = chargeOf(c);
        const checkout = await startCardCheckout(deps, { pcnId, now: deps.now() });
        c.header('Cache-Control', 'no-store');
        return ok(c, 'POST /public/charges/current/checkout', checkout, { status: 201 });
      })

      .get('/current/appeal/letter', async (c) => {
        const pcnId = chargeOf(c);
        const address = clientAddress(c, { trustProxy: deps.config.trustProxy });
        const { bytes, fileName } = await downloadAppealLetter(deps, limits, { pcnId, address, now: deps.now() });
        return c.body(new Uint8Array(bytes), 200, {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${fileName}"`,
          'Cache-Control': 'no-store',
        });
      })
  );
}

/** The link emailed for an appeal from /charge (decision 0032): no sign-in and no charge token, only the link's own token. */
export function createPublicAppealRoutes(deps: AppDeps) {
  const limits = createRateLimiter({ db: deps.db, now: deps.now });
  return new Hono<AppEnv>().post('/confirm', async (c) => {
    // A POST, never a GET: mail scanners open links, and opening one must not file the appeal.
    const { token } = await readJson(c, confirmAppealInputSchema);
    const address = clientAddress(c, { trustProxy: deps.config.trustProxy });
    const result = await confirmAppeal(deps, limits, { token, address, now: deps.now() });
    if (result.replayed) c.header('Idempotent-Replayed', 'true');
    c.header('Cache-Control', 'no-store');
    return ok(
      c,
      'POST /public/appeals/confirm',
      { reference: result.reference, appeal: result.appeal },
      { status: result.replayed ? 200 : 201 },
    );
  });
}
