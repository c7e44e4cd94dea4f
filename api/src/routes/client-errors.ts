import { Hono } from 'hono';
import { clientErrorReportSchema } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { clientAddress } from '../http/client-address.ts';
import { ok } from '../http/respond.ts';
import { readJson } from '../http/validation.ts';
import { reportClientError } from '../workflows/report-client-error.ts';

/** Where the web app reports its uncaught errors; open to all (the sign-in screen breaks too), limited per address. */
export function createClientErrorRoutes(deps: AppDeps) {
  const limits = createRateLimiter({ db: deps.db, now: deps.now });
  return new Hono<AppEnv>().post('/', async (c) => {
    const report = await readJson(c, clientErrorReportSchema);
    await reportClientError(deps, limits, {
      report,
      address: clientAddress(c, { trustProxy: deps.config.trustProxy }),
      userAgent: c.req.header('user-agent'),
    });
    return ok(c, 'POST /client-errors', null, { status: 202 });
  });
}
