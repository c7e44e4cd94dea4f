import type { MiddlewareHandler } from 'hono';
import { AppError } from './app-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CROSS_SITE_MESSAGE = 'Requests that change data must come from this app, not another website';

/**
 * State-changing requests sent by a browser from another site are refused (OWASP's Fetch
 * Metadata and Origin checks): a page elsewhere can make a victim's browser post a form, or a
 * 'simple' text/plain body, without any preflight. A browser says where a request comes from in
 * `Sec-Fetch-Site` (every current engine); without it, `Origin` must be this server's or
 * APP_URL's. Clients that send neither (the service worker's own fetches send both;
 * curl, scripts and server-to-server calls send none) are not browsers acting for a victim, and
 * every route but sign-in also needs a bearer token no other site can read.
 */
export function refuseCrossSite(allowedOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined) {
      // The browser's own word, which no page can set: trusted over Origin, which a dev proxy or
      // a reverse proxy may see differently from the browser (the request URL is the proxy's).
      if (site === 'same-origin' || site === 'none') return next();
      throw new AppError('FORBIDDEN', CROSS_SITE_MESSAGE);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== new URL(c.req.url).origin && !allowedOrigins.includes(origin)) {
      throw new AppError('FORBIDDEN', CROSS_SITE_MESSAGE);
    }
    return next();
  };
}

/**
 * Whether a Content-Type's essence (type/subtype, parameters dropped, case ignored) is JSON:
 * `application/json` or a `+json` type. 'text/plain; application/json' is not: browsers send
 * that from any site without asking first.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(essence);
}
