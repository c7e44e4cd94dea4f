import { Hono } from 'hono';
import { sql } from 'kysely';
import type { HealthResponse } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { ok } from '../http/respond.ts';

export function createHealthRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/', async (c) => {
    let db: HealthResponse['db'] = 'ok';
    try {
      await sql`select 1`.execute(deps.db);
    } catch {
      db = 'error';
    }
    const body: HealthResponse = { status: db === 'ok' ? 'ok' : 'degraded', db };
    return ok(c, 'GET /health', body, { status: db === 'ok' ? 200 : 503 });
  });
}
