import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../app-env.ts';
import { withLogFields, type Logger } from '../services/logger.ts';
import type { Metrics } from '../services/metrics.ts';

/** What a proxy's request id may look like before we repeat it in a header and the log. */
const TRUSTED_REQUEST_ID = /^[\w.:@+=/-]{1,128}$/;

/** The proxy's X-Request-Id when the proxy is trusted and the id is sane, else a new one. */
export function requestIdFor(header: string | undefined, options: { trustProxy: boolean }): string {
  return options.trustProxy && header && TRUSTED_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * First on every request: gives it a request id (on the answer as X-Request-Id, and on every log
 * line written while it is answered), then writes one access-log line and times it by route.
 * The log names the route pattern, never the path or query (registrations, emails, tokens in
 * links), and the user by id only.
 */
export function observeRequests(deps: { logger: Logger; metrics: Metrics; trustProxy: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFor(c.req.header('x-request-id'), deps);
    c.set('requestId', requestId);
    // Set before the answer is made, so it is made with it: touching c.res's headers afterwards
    // makes @hono/node-server turn its light answer into a full web Response, a cost that
    // shows on the hot path in scripts/bench/api.ts.
    c.header('X-Request-Id', requestId);
    await withLogFields({ requestId }, next);
    const durationMs = performance.now() - started;
    const route = routePath(c) || 'unmatched';
    const status = c.res.status;
    deps.metrics.requestDuration.observe({ method: c.req.method, route, status: String(status) }, durationMs / 1000);
    deps.logger.info('request', {
      requestId,
      method: c.req.method,
      route,
      status,
      durationMs: Math.round(durationMs * 10) / 10,
      userId: c.get('user')?.id,
    });
  };
}
