import type { AppDeps } from '../app-env.ts';
import { findAnalyticsSummary, findUsersWithStats, recordHeartbeat } from '../repositories/analytics.ts';

type Deps = Pick<AppDeps, 'db' | 'now'>;

/** A visible tab's heartbeat extends the caller's visit (domain/site-time.ts). */
export function recordVisit(deps: Deps, userId: string) {
  return recordHeartbeat(deps.db, { userId, now: deps.now() });
}

export function analyticsSummary(deps: Deps) {
  return findAnalyticsSummary(deps.db, deps.now());
}

export function usersWithStats(deps: Pick<AppDeps, 'db'>) {
  return findUsersWithStats(deps.db);
}
