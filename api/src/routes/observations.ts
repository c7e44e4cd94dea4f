import { Hono } from 'hono';
import { observationListQuerySchema, saveObservationInputSchema, UUID_PATTERN } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { AppError } from '../http/app-error.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import { listObservationPage } from '../workflows/list-observations.ts';
import { saveObservation } from '../workflows/save-observation.ts';

/** The stay rule's observations (docs/decisions/0012): officers' phones report them, admins read them. */
export function createObservationRoutes(deps: AppDeps) {
  const { db, now } = deps;
  return new Hono<AppEnv>()
    .use('*', requireAuth(deps))

    .get('/', requireAdmin, async (c) => {
      return ok(c, 'GET /observations', await listObservationPage(deps, readQuery(c, observationListQuerySchema)));
    })

    .put('/:id', async (c) => {
      const id = c.req.param('id');
      if (!UUID_PATTERN.test(id)) throw new AppError('BAD_REQUEST', 'An observation id is a UUID made by the phone');
      const observation = await readJson(c, saveObservationInputSchema);
      const saved = await saveObservation(db, { actor: c.get('user'), id: id.toLowerCase(), observation, now: now() });
      deps.metrics.outboxUploads.inc({ kind: 'observation', outcome: 'stored' });
      return ok(c, 'PUT /observations/:id', saved);
    });
}
