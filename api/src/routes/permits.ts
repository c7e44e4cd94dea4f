import { Hono } from 'hono';
import {
  permitImportInputSchema,
  permitInputSchema,
  permitListQuerySchema,
  permitSyncQuerySchema,
  updatePermitInputSchema,
  visitorPageSettingsInputSchema,
  visitorRegistrationInputSchema,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAuth } from '../auth/middleware.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { clientAddress } from '../http/client-address.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import { importPermits } from '../workflows/import-permits.ts';
import { addPermit, changePermit, endCarParkPermit, listCarParkPermits, syncPermits } from '../workflows/permits.ts';
import { readVisitorPage, registerVisitor, saveVisitorPage, viewVisitorPage } from '../workflows/visitor-page.ts';

/**
 * A car park's permits, under /car-parks/:id/permits (mounted inside the car parks' routes, whose
 * sign-in check covers them): admins for every car park, a landowner for their own
 * (workflows/permit-access.ts).
 */
export function createCarParkPermitRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { status } = readQuery(c, permitListQuerySchema);
      const carParkId = c.req.param('id')!;
      return ok(c, 'GET /car-parks/:id/permits', await listCarParkPermits(deps, { user: c.get('user'), carParkId, all: status === 'all' }));
    })

    .post('/', async (c) => {
      const permit = await readJson(c, permitInputSchema);
      const carParkId = c.req.param('id')!;
      return ok(c, 'POST /car-parks/:id/permits', await addPermit(deps, { user: c.get('user'), carParkId, permit }), { status: 201 });
    })

    .post('/import', async (c) => {
      const { csv } = await readJson(c, permitImportInputSchema);
      const carParkId = c.req.param('id')!;
      return ok(c, 'POST /car-parks/:id/permits/import', await importPermits(deps, { user: c.get('user'), carParkId, csv }));
    })

    .put('/:permitId', async (c) => {
      const changes = await readJson(c, updatePermitInputSchema);
      const input = { user: c.get('user'), carParkId: c.req.param('id')!, permitId: c.req.param('permitId'), changes };
      return ok(c, 'PUT /car-parks/:id/permits/:permitId', await changePermit(deps, input));
    })

    .delete('/:permitId', async (c) => {
      const input = { user: c.get('user'), carParkId: c.req.param('id')!, permitId: c.req.param('permitId') };
      return ok(c, 'DELETE /car-parks/:id/permits/:permitId', await endCarParkPermit(deps, input));
    });
}

/** GET /permits/sync: what an officer's phone keeps to warn of a permit with no signal (decision 0041). */
export function createPermitSyncRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().use('*', requireAuth(deps)).get('/sync', async (c) => {
    const { since } = readQuery(c, permitSyncQuerySchema);
    return ok(c, 'GET /permits/sync', await syncPermits(deps, { user: c.get('user'), since }));
  });
}

/** GET/PUT /car-parks/:id/visitor: the visitor page's settings, for whoever may manage the car park's permits. */
export function createCarParkVisitorRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) =>
      ok(c, 'GET /car-parks/:id/visitor', await viewVisitorPage(deps, { user: c.get('user'), carParkId: c.req.param('id')! })),
    )
    .put('/', async (c) => {
      const settings = await readJson(c, visitorPageSettingsInputSchema);
      return ok(
        c,
        'PUT /car-parks/:id/visitor',
        await saveVisitorPage(deps, { user: c.get('user'), carParkId: c.req.param('id')!, settings }),
      );
    });
}

/** The visitor page's calls: no sign-in; the page's address and the site's code are the key. */
export function createPublicVisitRoutes(deps: AppDeps) {
  const limits = createRateLimiter({ db: deps.db, now: deps.now });
  return new Hono<AppEnv>()
    .get('/:siteCode', async (c) => {
      c.header('Cache-Control', 'no-store');
      return ok(c, 'GET /public/visit/:siteCode', await readVisitorPage(deps, c.req.param('siteCode')));
    })
    .post('/:siteCode', async (c) => {
      const input = await readJson(c, visitorRegistrationInputSchema);
      const address = clientAddress(c, { trustProxy: deps.config.trustProxy });
      const { granted, isNew } = await registerVisitor(deps, limits, { siteCode: c.req.param('siteCode'), ...input, address });
      c.header('Cache-Control', 'no-store');
      return ok(c, 'POST /public/visit/:siteCode', granted, { status: isNew ? 201 : 200 });
    });
}
