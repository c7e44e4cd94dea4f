import { Hono } from 'hono';
import { heartbeatInputSchema } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { readJson } from '../http/validation.ts';
import { ok } from '../http/respond.ts';
import { analyticsSummary, recordVisit, usersWithStats } from '../workflows/site-analytics.ts';

export function createTrackingRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .post('/heartbeat', auth, async (c) => {
      // The path is accepted for future per-page figures; only visible time is kept today.
      await readJson(c, heartbeatInputSchema);
      await recordVisit(deps, c.get('user').id);
      return ok(c, 'POST /tracking/heartbeat', { ok: true });
    })
    .get('/admin/analytics', auth, requireAdmin, async (c) => {
      return ok(c, 'GET /tracking/admin/analytics', await analyticsSummary(deps));
    })
    .get('/admin/users', auth, requireAdmin, async (c) => {
      return ok(c, 'GET /tracking/admin/users', await usersWithStats(deps));
    });
}
