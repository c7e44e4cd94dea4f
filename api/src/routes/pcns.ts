import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAuth } from '../auth/middleware.ts';
import { createPcnEvidenceRoutes } from './pcn-evidence.ts';
import { createPcnFilingRoutes } from './pcn-filing.ts';
import { createPcnListRoutes } from './pcn-list.ts';
import { createPcnReviewRoutes } from './pcn-review.ts';
import { createPcnStatusRoutes } from './pcn-status.ts';
import { createCancellationRequestRoutes } from './landowners.ts';

/**
 * /api/pcns, by purpose. Every route needs a signed-in caller. The lists come first: GET /:id
 * (filing) would otherwise take /stats, /export.csv, /selection and /duplicates as an id.
 */
export function createPcnRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .use('*', requireAuth(deps))
    .route('/', createPcnListRoutes(deps))
    .route('/', createPcnStatusRoutes(deps))
    .route('/', createPcnEvidenceRoutes(deps))
    .route('/', createPcnReviewRoutes(deps))
    .route('/', createCancellationRequestRoutes(deps))
    .route('/', createPcnFilingRoutes(deps));
}
