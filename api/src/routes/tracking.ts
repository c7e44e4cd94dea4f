import { Hono } from 'hono';
import { heartbeatInputSchema } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { readJson } from '../http/validation.ts';
import { ok } from '../http/respond.ts';
import { findAnalyticsSummary, findUsersWithStats, recordHeartbeat } from '../repositories/analytics.ts';

export function createTrackingRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .post('/heartbeat', auth, async (c) => {
      // The path is accepted for future per-page figures; only visible time is kept today.
      await readJson(c, heartbeatInputSchema);
      await recordHeartbeat(deps.db, { userId: c.get('user').id, now: deps.now() });
      return ok(c, 'POST /tracking/heartbeat', { ok: true });
    })
    .get('/admin/analytics', auth, requireAdmin, async (c) => {
      return ok(c, 'GET /tracking/admin/analytics', await findAnalyticsSummary(deps.db, deps.now()));
    })
    .get('/admin/users', auth, requireAdmin, async (c) => {
      return ok(c, 'GET /tracking/admin/users', await findUsersWithStats(deps.db));
    });
}
