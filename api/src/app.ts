import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { etag } from 'hono/etag';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { serveStatic } from '@hono/node-server/serve-static';
import { SERVER_MESSAGES, WORKER_SCRIPT_PREFIX, type ApiFailure, type ErrorCode } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from './app-env.ts';
import { createSignInLimiter } from './auth/sign-in-limiter.ts';
import { AppError } from './http/app-error.ts';
import { inlineScriptHashes } from './http/inline-scripts.ts';
import { isUnstorableText } from './repositories/constraint-errors.ts';
import { sendJson } from './http/respond.ts';
import { createAuthRoutes } from './routes/auth.ts';
import { createCarParkRoutes } from './routes/car-parks.ts';
import { createPermitSyncRoutes, createPublicVisitRoutes } from './routes/permits.ts';
import { createSettingsRoutes } from './routes/settings.ts';
import { createPublicAppealRoutes, createPublicChargeRoutes } from './routes/public-charges.ts';
import { createAppealRoutes } from './routes/appeals.ts';
import { createDebtRecoveryRoutes } from './routes/debt-recovery.ts';
import { createCollectionLetterRoutes } from './routes/collection-letters.ts';
import { createKeeperNoticeRoutes, createKeeperReplyRoutes } from './routes/keeper-notices.ts';
import { createHealthRoutes } from './routes/health.ts';
import { createOnboardingRoutes } from './routes/onboarding.ts';
import { createObservationRoutes } from './routes/observations.ts';
import { refuseCrossSite } from './http/cross-site.ts';
import { bodyDeadline, isEvidenceUpload } from './http/body-deadline.ts';
import { createPcnRoutes } from './routes/pcns.ts';
import { createPaymentRoutes, STRIPE_WEBHOOK_PATH } from './routes/payments.ts';
import { createMoneyAnalyticsRoutes, createPaymentExportRoutes } from './routes/money.ts';
import { createTrackingRoutes } from './routes/tracking.ts';
import { createUploadRoutes } from './routes/uploads.ts';
import { createUserRoutes } from './routes/users.ts';
import { createClientErrorRoutes } from './routes/client-errors.ts';
import { createMetricsRoutes } from './routes/metrics.ts';
import { observeRequests } from './http/observe-requests.ts';
import { countingStoreErrors } from './services/metrics.ts';

export type { AppDeps } from './app-env.ts';

/** JSON bodies are small; multipart PCN uploads get their own, larger limit in routes/pcns.ts. */
const JSON_BODY_LIMIT = 1024 * 1024;

const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // React sets style attributes through the CSSOM, which CSP does not govern; react-aria
  // also adds a few inline <style> rules for visually hidden text.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'blob:', 'data:'],
  workerSrc: ["'self'", 'blob:'],
  connectSrc: ["'self'"],
  manifestSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export function createApp(given: AppDeps): Hono<AppEnv> {
  const deps: AppDeps = { ...given, evidence: countingStoreErrors(given.evidence, given.metrics) };
  const app = new Hono<AppEnv>();
  // First: every answer and log line of a request carries its id; every answer is logged and timed.
  app.use('*', observeRequests({ logger: deps.logger, metrics: deps.metrics, trustProxy: deps.config.trustProxy }));

  const securityHeaders = secureHeaders({
    contentSecurityPolicy: {
      ...CONTENT_SECURITY_POLICY,
      scriptSrc: [...CONTENT_SECURITY_POLICY.scriptSrc, ...inlineScriptHashes(deps.config.webDistDir)],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'strict-origin-when-cross-origin',
    // HSTS only means something over HTTPS; sending it on plain localhost is harmless but noisy.
    strictTransportSecurity: deps.config.appUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : false,
    crossOriginEmbedderPolicy: false,
  });
  app.use('*', async (c, next) => {
    // An answer that set its own policy keeps it: a motorist's file or a kept document is served
    // with SANDBOXED_FILE_POLICY, which the app's policy (written after the handler) would
    // otherwise replace with one that lets an HTML or SVG file run scripts in our origin.
    let ownPolicy: string | null = null;
    await securityHeaders(c, async () => {
      await next();
      ownPolicy = c.res.headers.get('Content-Security-Policy');
    });
    if (ownPolicy !== null) c.res.headers.set('Content-Security-Policy', ownPolicy);
    const isApi = c.req.path === '/api' || c.req.path.startsWith('/api/');
    if (deps.config.webDistDir && !isApi) trimDocumentHeaders(c.req.path, c.res.headers);
  });

  const api = new Hono<AppEnv>();
  // API answers carry tokens, profiles and PCNs: no shared cache (or browser history) may keep
  // them. Evidence images set their own private caching and keep it.
  // (On the answer's own headers: c.header() after the handler rebuilds the whole response.)
  api.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  // A stranger's request gets a short time to arrive; requireAuth lengthens it for uploads.
  api.use('*', bodyDeadline(deps.bodyDeadlines));
  // Before any body is read: a cross-site browser request never reaches a workflow.
  // The card processor's webhook is no browser's request: its signature over the body is its proof.
  const crossSite = refuseCrossSite([new URL(deps.config.appUrl).origin]);
  api.use('*', (c, next) => (c.req.path === STRIPE_WEBHOOK_PATH ? next() : crossSite(c, next)));
  const jsonBodyLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: () => {
      throw new AppError('PAYLOAD_TOO_LARGE', SERVER_MESSAGES.bodyTooLarge);
    },
  });
  // GET and HEAD carry no body, and asking would build a whole web Request for nothing.
  api.use('*', (c, next) => (hasNoBody(c.req.method) || isEvidenceUpload(c.req.method, c.req.path) ? next() : jsonBodyLimit(c, next)));
  api.route('/health', createHealthRoutes(deps));
  // One limiter for every password check: sign-in and the profile's current password.
  const signInLimiter = deps.signInLimiter ?? createSignInLimiter({ db: deps.db, now: deps.now });
  api.route('/auth', createAuthRoutes(deps, signInLimiter));
  api.route('/users', createUserRoutes(deps, signInLimiter));
  api.route('/car-parks', createCarParkRoutes(deps));
  api.route('/permits', createPermitSyncRoutes(deps));
  api.route('/public/visit', createPublicVisitRoutes(deps));
  api.route('/settings', createSettingsRoutes(deps));
  api.route('/keeper-replies', createKeeperReplyRoutes(deps));
  api.route('/public/charges', createPublicChargeRoutes(deps));
  api.route('/public/appeals', createPublicAppealRoutes(deps));
  api.route('/payments', createPaymentRoutes(deps));
  api.route('/payments', createPaymentExportRoutes(deps));
  api.route('/analytics', createMoneyAnalyticsRoutes(deps));
  api.route('/keeper-notices', createKeeperNoticeRoutes(deps));
  api.route('/collection-letters', createCollectionLetterRoutes(deps));
  api.route('/debt-recovery', createDebtRecoveryRoutes(deps));
  api.route('/appeals', createAppealRoutes(deps));
  api.route('/pcns', createPcnRoutes(deps));
  api.route('/uploads', createUploadRoutes(deps));
  api.route('/tracking', createTrackingRoutes(deps));
  api.route('/onboarding', createOnboardingRoutes(deps));
  api.route('/observations', createObservationRoutes(deps));
  api.route('/client-errors', createClientErrorRoutes(deps));
  // Last: an unknown /api path is the JSON 404, never the web app's index.html.
  api.all('*', () => {
    throw new AppError('NOT_FOUND', SERVER_MESSAGES.notFound);
  });
  app.route('/api', api);
  // Unset METRICS_TOKEN: no route at all (the web app's 404, like any unknown address).
  if (deps.config.metricsToken) app.route('/metrics', createMetricsRoutes(deps, deps.config.metricsToken));
  app.notFound((c) => {
    const body: ApiFailure = { success: false, message: SERVER_MESSAGES.notFound, error: SERVER_MESSAGES.notFound, code: 'NOT_FOUND' };
    return c.json(body, 404);
  });

  if (deps.config.webDistDir) mountWebApp(app, deps.config.webDistDir);

  app.onError((err, c) => {
    const failure = toFailure(err);
    if (failure.status >= 500) {
      deps.logger.error('unhandled error', {
        method: c.req.method,
        path: c.req.path,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
        stack: err instanceof Error ? err.stack : undefined,
      });
    }
    if (err instanceof AppError && err.headers) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    }
    return sendJson(c, failure.body, failure.status as 400);
  });

  return app;
}

function hasNoBody(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * The multipart PCN create and edit, which carry photos and enforce their own limit as they
 * stream. Every other body under /api/pcns (a bulk status change) is JSON and keeps the 1 MB one.
 */

function toFailure(err: unknown): { status: number; body: ApiFailure } {
  let code: ErrorCode = 'INTERNAL';
  let message: string = SERVER_MESSAGES.internal;
  let status = 500;
  let details: Record<string, string> | undefined;
  if (err instanceof AppError) {
    ({ code, status, details } = err);
    message = err.message;
  } else if (err instanceof HTTPException) {
    status = err.status;
    code = codeForStatus(status);
    message = status === 413 ? SERVER_MESSAGES.bodyTooLarge : err.message || SERVER_MESSAGES.invalidInput;
  } else if (isUnstorableText(err)) {
    status = 400;
    code = 'BAD_REQUEST';
    message = SERVER_MESSAGES.unstorableCharacter;
  }
  const body: ApiFailure = { success: false, message, error: message, code };
  if (details) body.details = details;
  return { status, body };
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    default:
      return status < 500 ? 'BAD_REQUEST' : 'INTERNAL';
  }
}

/**
 * Serves the built PWA on the same origin, as officers on one bar of signal need it:
 * - every text file as the brotli or gzip copy the build wrote beside it (web/scripts/precompress.mjs),
 *   chosen by Accept-Encoding, with `Vary: Accept-Encoding` on every answer that could differ;
 * - hashed assets cached for a year; index.html, the service worker and the manifest revalidated
 *   on each visit with an ETag, so an unchanged one costs a 304 and no body;
 * - any other path (a screen's address) gets index.html the same way.
 */
function mountWebApp(app: Hono<AppEnv>, distDir: string): void {
  const indexFile = join(distDir, 'index.html');
  const root = relative(process.cwd(), distDir) || '.';
  const revalidated = etag();
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  app.use('*', async (c, next) => {
    const path = c.req.path;
    if (path.startsWith('/assets/')) return next();
    // Not hashed: revalidate every time (no-cache), answered 304 while unchanged.
    await revalidated(c, next);
    c.header('Cache-Control', 'no-cache');
  });
  app.use('*', async (c, next) => {
    await next();
    if (isPrecompressed(c.req.path) || c.res.headers.get('Content-Type')?.startsWith('text/html')) c.header('Vary', 'Accept-Encoding');
  });
  app.use('*', serveStatic({ root, precompressed: true }));
  const serveIndex = serveStatic({ root, path: 'index.html', precompressed: true });
  app.get('*', async (c, next) => {
    if (!existsSync(indexFile)) return c.text('The web app has not been built. Run npm run build.', 503);
    return (await serveIndex(c, next)) ?? c.notFound();
  });
}

/** Headers that only a document (a page, or a worker for the first two lists) acts on. */
const DOCUMENT_ONLY_HEADERS = [
  'x-frame-options',
  'x-xss-protection',
  'x-download-options',
  'x-dns-prefetch-control',
  'origin-agent-cluster',
  'x-permitted-cross-domain-policies',
  'cross-origin-opener-policy',
];
const PAGE_AND_WORKER_HEADERS = ['content-security-policy', 'referrer-policy'];

/**
 * A first install fetches some eighty files over one bar of signal, and each answer carried a
 * kilobyte of security headers that only a document acts on. Pages, SVG (which can be
 * opened as a document) and sw.js keep them all; the scripts that start workers keep the policy
 * and referrer rules a worker obeys; other scripts (a module script obeys its page's policy, not
 * its own), styles, images and the manifest keep only nosniff and CORP.
 */
function trimDocumentHeaders(path: string, headers: Headers): void {
  const type = headers.get('content-type') ?? '';
  if (path === '/sw.js' || type.startsWith('text/html') || type.startsWith('image/svg+xml')) return;
  const isWorkerScript = path.startsWith(`/${WORKER_SCRIPT_PREFIX}`) && /javascript/.test(type);
  const names = isWorkerScript ? DOCUMENT_ONLY_HEADERS : [...DOCUMENT_ONLY_HEADERS, ...PAGE_AND_WORKER_HEADERS];
  for (const name of names) headers.delete(name);
}

/** The kinds of file the build writes compressed copies of (web/scripts/precompress.mjs). */
function isPrecompressed(path: string): boolean {
  return /\.(?:html|js|mjs|css|svg|webmanifest|json|txt)$/.test(path);
}
