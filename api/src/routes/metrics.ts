import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';

/** Compared in constant time, so the token cannot be found a character at a time. */
function isToken(presented: string | undefined, expected: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** GET /metrics: Prometheus's text format, only for `Authorization: Bearer $METRICS_TOKEN`. */
export function createMetricsRoutes(deps: AppDeps, token: string) {
  return new Hono<AppEnv>().get('/', async (c) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!isToken(bearer, token)) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.notSignedIn);
    const text = await deps.metrics.registry.metrics();
    return c.body(text, 200, { 'Content-Type': deps.metrics.registry.contentType, 'Cache-Control': 'no-store' });
  });
}
