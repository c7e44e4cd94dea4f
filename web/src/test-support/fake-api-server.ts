import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on loopback that speaks our envelope, for testing the web client's
 * network behaviour (401 -> one refresh -> one retry) without mocking our own modules.
 */
export type FakeApi = {
  baseUrl: string;
  /** Access tokens the server accepts right now. */
  validTokens: Set<string>;
  /** Refresh token -> the pair it rotates to. */
  refreshPairs: Map<string, { token: string; refreshToken: string }>;
  calls: Array<{ method: string; path: string; authorization: string | undefined }>;
  /** What each POST /auth/login carried. */
  loginBodies: Array<Record<string, any>>;
  /** What each POST /auth/refresh carried. */
  refreshBodies: Array<Record<string, any>>;
  refreshDelayMs: number;
  /** Overrides the answer for a path (method + ' ' + path), e.g. to send a 500. */
  overrides: Map<string, (req: IncomingMessage, res: ServerResponse) => void>;
  close(): Promise<void>;
};

export const OFFICER = {
  id: 'u1',
  firstName: 'Olivia',
  lastName: 'Officer',
  email: 'officer@example.com',
  role: 'USER',
  isActive: true,
  hasPassword: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
} as const;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function failure(res: ServerResponse, status: number, message: string, code: string, details?: Record<string, string>) {
  send(res, status, { success: false, message, error: message, code, ...(details ? { details } : {}) });
}

async function readJson(req: IncomingMessage): Promise<any> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw ? JSON.parse(raw) : {};
}

export async function startFakeApi(): Promise<FakeApi> {
  const api: FakeApi = {
    baseUrl: '',
    validTokens: new Set(),
    refreshPairs: new Map(),
    calls: [],
    loginBodies: [],
    refreshBodies: [],
    refreshDelayMs: 0,
    overrides: new Map(),
    close: async () => undefined,
  };
  // A handler that throws fails the test as an unhandled rejection, which vitest reports.
  const server: Server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/^\/api/, '');
    const authorization = req.headers.authorization;
    api.calls.push({ method: req.method ?? 'GET', path, authorization });
    const override = api.overrides.get(`${req.method} ${path}`);
    if (override) return override(req, res);
    const token = authorization?.replace(/^Bearer /, '');
    const isSignedIn = Boolean(token && api.validTokens.has(token));

    if (req.method === 'POST' && path === '/auth/login') {
      const body = await readJson(req);
      api.loginBodies.push(body);
      if (body.email === OFFICER.email && body.password === 'officer123') {
        api.validTokens.add('access-1');
        api.refreshPairs.set('refresh-1', { token: 'access-2', refreshToken: 'refresh-2' });
        const deviceToken = body.deviceToken ?? `device-${api.loginBodies.length}`;
        return send(res, 200, { success: true, data: { user: OFFICER, token: 'access-1', refreshToken: 'refresh-1', deviceToken } });
      }
      return failure(res, 401, 'Invalid email or password', 'UNAUTHENTICATED');
    }
    if (req.method === 'POST' && path === '/auth/refresh') {
      const body = await readJson(req);
      api.refreshBodies.push(body);
      if (api.refreshDelayMs) await new Promise((resolve) => setTimeout(resolve, api.refreshDelayMs));
      const next = api.refreshPairs.get(body.refreshToken);
      if (!next) return failure(res, 401, 'Your session is no longer valid. Please sign in again.', 'UNAUTHENTICATED');
      api.refreshPairs.delete(body.refreshToken);
      api.validTokens.add(next.token);
      return send(res, 200, { success: true, data: next });
    }
    if (req.method === 'POST' && path === '/auth/logout') return send(res, 200, { success: true, data: null });
    if (!isSignedIn) return failure(res, 401, 'Please sign in to continue', 'UNAUTHENTICATED');
    if (req.method === 'GET' && path === '/users/profile') return send(res, 200, { success: true, data: OFFICER });
    if (req.method === 'GET' && path === '/pcns') {
      return send(res, 200, { success: true, data: { pcns: [], pagination: { page: 1, limit: 10, total: 0, pages: 0 } } });
    }
    if (req.method === 'POST' && path === '/pcns') {
      return failure(res, 400, 'Some fields are not valid', 'VALIDATION_FAILED', {
        vehicleRegistration: 'Enter 2 to 10 letters and digits',
      });
    }
    return failure(res, 404, 'Not found', 'NOT_FOUND');
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  api.baseUrl = `http://127.0.0.1:${port}/api`;
  api.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return api;
}

/** An address where nothing listens: every request fails without an answer. */
export async function unusedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/api`;
}
