import { Hono } from 'hono';
import { chargeLookupInputSchema, CHARGE_NOT_FOUND } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { verifyChargeToken } from '../auth/charge-token.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { AppError } from '../http/app-error.ts';
import { clientAddress } from '../http/client-address.ts';
import { ok } from '../http/respond.ts';
import { readJson } from '../http/validation.ts';
import { lookUpCharge, readPublicCharge } from '../workflows/look-up-charge.ts';

const UNAUTHENTICATED = 'Look the charge up again: the page was open too long';

/** The motorist's side: no sign-in, a lookup by reference and registration, then a token for that charge. */
export function createPublicChargeRoutes(deps: AppDeps) {
  const limits = createRateLimiter({ db: deps.db, now: deps.now });
  return new Hono<AppEnv>()
    .post('/lookup', async (c) => {
      const input = await readJson(c, chargeLookupInputSchema);
      const address = clientAddress(c, { trustProxy: deps.config.trustProxy });
      c.header('Cache-Control', 'no-store');
      return ok(c, 'POST /public/charges/lookup', await lookUpCharge(deps, limits, { ...input, address }));
    })

    .get('/current', async (c) => {
      const header = c.req.header('authorization') ?? '';
      const token = /^Bearer ([A-Za-z0-9._-]{20,2000})$/.exec(header)?.[1];
      const now = deps.now();
      const pcnId = token ? verifyChargeToken(deps.config.jwtSecret, token, now) : null;
      if (!pcnId) throw new AppError('UNAUTHENTICATED', UNAUTHENTICATED);
      const charge = await readPublicCharge(deps, pcnId, now);
      if (!charge) throw new AppError('NOT_FOUND', CHARGE_NOT_FOUND);
      c.header('Cache-Control', 'no-store');
      return ok(c, 'GET /public/charges/current', charge);
    });
}
