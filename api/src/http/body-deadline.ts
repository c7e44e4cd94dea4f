import type { IncomingMessage, Server } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { CONNECTION_LIMITS, limitConnections } from './connection-limits.ts';

/**
 * How long a request may take to arrive (OWASP: slow requests). Node's own `requestTimeout` is
 * one number for every route, and uploads over one bar of signal need minutes; a stranger's
 * request needs seconds. So every request starts with the short deadline, and a signed-in
 * officer's evidence upload is given the long one once its token is checked (requireAuth).
 */
export const BODY_DEADLINES = { shortMs: 60_000, longMs: 600_000 } as const;

/** POST /api/pcns, PUT /api/pcns/{id} and appeals (the motorist's, and one an admin enters): the multipart routes that carry files. */
export function isEvidenceUpload(method: string, path: string): boolean {
  if (method === 'POST') {
    return /^\/api\/pcns\/?$/.test(path) || /^\/api\/public\/charges\/current\/appeal\/?$/.test(path) || /^\/api\/appeals\/?$/.test(path);
  }
  if (method === 'PUT') return /^\/api\/pcns\/[^/]+\/?$/.test(path);
  return false;
}

type Deadline = { timer: NodeJS.Timeout; extend: () => void };
const deadlines = new WeakMap<IncomingMessage, Deadline>();

function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

export function bodyDeadline(limits: { shortMs: number; longMs: number } = BODY_DEADLINES): MiddlewareHandler {
  return async (c, next) => {
    const incoming = incomingOf(c);
    // Under app.request() in tests there is no socket, and nothing to cut.
    if (!incoming || incoming.complete) return next();
    const cut = (after: number) =>
      setTimeout(() => {
        if (!incoming.complete) incoming.socket.destroy();
      }, after).unref();
    const deadline: Deadline = {
      timer: cut(limits.shortMs),
      extend: () => {
        clearTimeout(deadline.timer);
        deadline.timer = cut(limits.longMs);
      },
    };
    deadlines.set(incoming, deadline);
    // Settled when the body has all arrived; answering early (a 401) does not settle it, since
    // the socket stays open for the rest of the body.
    // A keep-alive socket carries many requests: each takes its listener off once settled, or
    // they pile up on the socket until it closes.
    const settle = () => {
      clearTimeout(deadline.timer);
      incoming.off('end', settle);
      incoming.socket.off('close', settle);
    };
    incoming.once('end', settle);
    incoming.socket.once('close', settle);
    await next();
  };
}

/** Called once an upload's sender is known (requireAuth, or a motorist's charge token): its body may take the long deadline. */
export function extendBodyDeadline(c: Context): void {
  const incoming = incomingOf(c);
  if (incoming) deadlines.get(incoming)?.extend();
}

/**
 * The Node server's own limits: the long deadline as an outer bound, and the connection caps in
 * all and per client address (http/connection-limits.ts; `connectionsPerAddress: null` sets none).
 */
export function limitHttpServer(
  server: Server,
  options: { longMs?: number; maxConnections?: number; connectionsPerAddress?: number | null } = {},
): void {
  // Node closes idle keep-alive sockets after 5 s; a phone reusing one at that moment sees its
  // upload fail with EPIPE. Keep them longer than typical proxies and clients do.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = options.longMs ?? BODY_DEADLINES.longMs;
  limitConnections(server, {
    max: options.maxConnections ?? CONNECTION_LIMITS.max,
    perAddress: options.connectionsPerAddress === undefined ? CONNECTION_LIMITS.perAddress : options.connectionsPerAddress,
  });
}
