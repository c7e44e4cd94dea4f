import { apiPath, type ClientErrorReport } from '@parkpatrol/shared';
import { API_URL } from '../config/env.ts';
import { BUILD_NAME } from './build-name.ts';

/** A page in a loop of one error must not flood the server: the first few tell the story. */
const REPORTS_PER_PAGE_LOAD = 5;

/** The report of one uncaught error or rejection, bounded as POST /client-errors accepts it. */
export function clientErrorReport(reason: unknown, page: string, buildId: string): ClientErrorReport {
  const error = reason instanceof Error ? reason : null;
  const message = (error ? `${error.name}: ${error.message}` : String(reason)).slice(0, 1000) || 'Unknown error';
  const report: ClientErrorReport = { message, page: (page.split(/[?#]/)[0] || '/').slice(0, 500), buildId };
  if (error?.stack) report.stack = error.stack.slice(0, 8000);
  return report;
}

/**
 * Sends the app's uncaught errors and unhandled rejections to the server, which logs them with
 * the build id (its source maps are kept for that build). Plain fetch, not the API client: it
 * must work when the app's own code is what broke. Offline, a report is simply lost.
 */
export function reportUncaughtErrors(
  target: Pick<Window, 'addEventListener'> = window,
  send: (report: ClientErrorReport) => void = post,
): void {
  const seen = new Set<string>();
  const report = (reason: unknown) => {
    const built = clientErrorReport(reason, location.pathname, BUILD_NAME);
    const key = `${built.message}\n${built.stack ?? ''}`;
    if (seen.has(key) || seen.size >= REPORTS_PER_PAGE_LOAD) return;
    seen.add(key);
    send(built);
  };
  target.addEventListener('error', (event) => report((event as ErrorEvent).error ?? (event as ErrorEvent).message));
  target.addEventListener('unhandledrejection', (event) => report((event as PromiseRejectionEvent).reason));
}

function post(report: ClientErrorReport): void {
  fetch(API_URL + apiPath('POST /client-errors', {}), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
    // Still sent if the error is the last thing the page does before it goes.
    keepalive: true,
  }).catch(() => undefined);
}
