import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@parkpatrol/shared';
import { startFakeApi, unusedBaseUrl, type FakeApi } from '../test-support/fake-api-server.ts';
import { ApiError, createApiClient, createMemoryStorage, type KeyValueStorage } from './api-client.ts';
import { createLocalDb } from './local-db/database.ts';
import type { LocalDb } from './local-db/records.ts';
import { saveSessionRow } from './local-db/session-row.ts';
import { createSessionTokens, type SessionTokens } from './session-tokens.ts';
import type { LockManagerLike } from './token-refresh.ts';

let api: FakeApi;
let storage: KeyValueStorage;
let db: LocalDb;
let session: SessionTokens;

beforeEach(async () => {
  api = await startFakeApi();
  storage = createMemoryStorage();
  db = createLocalDb(`api-client-${randomUUID()}`);
  session = createSessionTokens({ name: db.name, db: async () => db, mirror: storage });
});
afterEach(async () => {
  await api.close();
  db.close();
});

async function signedInClient(token = 'expired', refreshToken = 'refresh-1') {
  await session.signIn({ userId: 'u1', token, refreshToken });
  api.refreshPairs.set(refreshToken, { token: 'fresh', refreshToken: 'refresh-rotated' });
  return createApiClient({ baseUrl: api.baseUrl, session });
}

describe('api client', () => {
  it('sends the stored token as a bearer header and unwraps the envelope', async () => {
    api.validTokens.add('good');
    await session.signIn({ userId: 'u1', token: 'good', refreshToken: 'refresh-1' });
    const client = createApiClient({ baseUrl: api.baseUrl, session });
    const data = await client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });
    expect(data.email).toBe('officer@example.com');
    expect(api.calls[0]?.authorization).toBe('Bearer good');
  });

  it('refreshes once on a 401, stores both rotated tokens and retries the request once', async () => {
    const client = await signedInClient();
    const data = await client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });
    expect(data.id).toBe('u1');
    expect(api.calls.map((c) => `${c.method} ${c.path} ${c.authorization ?? ''}`)).toEqual([
      'GET /users/profile Bearer expired',
      'POST /auth/refresh ',
      'GET /users/profile Bearer fresh',
    ]);
    expect(storage.getItem('token')).toBe('fresh');
    expect(storage.getItem('refreshToken')).toBe('refresh-rotated');
    expect(await session.read()).toMatchObject({ userId: 'u1', token: 'fresh', refreshToken: 'refresh-rotated' });
  });

  it('downloads a file with the bearer token, refreshing once on a 401, and reads a failure from the envelope', async () => {
    const client = await signedInClient();
    api.overrides.set('GET /pcns/p1/evidence-packs/k1/file', (req, res) => {
      if (req.headers.authorization !== 'Bearer fresh') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, message: 'Your session has expired', code: 'UNAUTHORIZED' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.7 test');
    });
    const blob = await client.download('GET /pcns/:id/evidence-packs/:packId/file', {
      params: { id: 'p1', packId: 'k1' },
      fallbackMessage: 'Failed',
    });
    expect(blob.type).toBe('application/pdf');
    expect(await blob.text()).toBe('%PDF-1.7 test');
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /pcns/p1/evidence-packs/k1/file',
      'POST /auth/refresh',
      'GET /pcns/p1/evidence-packs/k1/file',
    ]);

    api.overrides.set('GET /pcns/p2/evidence-packs/k2/file', (_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, message: "You don't have permission to do that", code: 'FORBIDDEN' }));
    });
    const error = await client
      .download('GET /pcns/:id/evidence-packs/:packId/file', { params: { id: 'p2', packId: 'k2' }, fallbackMessage: 'Failed' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, message: "You don't have permission to do that" });
  });

  it("sends the session's device token with every refresh (a replay is answered only on the device that rotated), and forgets it at sign-out", async () => {
    const client = createApiClient({ baseUrl: api.baseUrl, session });
    await client.signIn({ userId: 'u1', token: 'expired', refreshToken: 'refresh-1', deviceToken: 'device-1' });
    api.refreshPairs.set('refresh-1', { token: 'fresh', refreshToken: 'refresh-2' });
    await client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });
    // The refresh's own answer keeps the device token the sign-in gave.
    api.refreshPairs.set('refresh-2', { token: 'fresher', refreshToken: 'refresh-3' });
    api.validTokens.delete('fresh');
    await client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });
    expect(api.refreshBodies).toEqual([
      { refreshToken: 'refresh-1', deviceToken: 'device-1' },
      { refreshToken: 'refresh-2', deviceToken: 'device-1' },
    ]);
    await client.endSession();
    expect(await client.getDeviceToken()).toBeNull();
  });

  it('shares one in-flight refresh between concurrent requests that get a 401', async () => {
    const client = await signedInClient();
    api.refreshDelayMs = 50;
    const results = await Promise.all([
      client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile }),
      client.call('GET /pcns', { fallbackMessage: ERROR_MESSAGES.fetchPcns }),
      client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile }),
    ]);
    expect(results).toHaveLength(3);
    expect(api.calls.filter((c) => c.path === '/auth/refresh')).toHaveLength(1);
  });

  it('does not retry a second time when the retried request is refused again', async () => {
    const client = await signedInClient();
    // The fresh token is not accepted either: one refresh, one retry, then the 401 surfaces.
    api.refreshPairs.set('refresh-1', { token: 'also-bad', refreshToken: 'refresh-2' });
    api.overrides.set('POST /auth/refresh', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: { token: 'also-bad', refreshToken: 'refresh-2' } }));
    });
    const error = await client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(api.calls.filter((c) => c.path === '/users/profile')).toHaveLength(2);
    expect(api.calls.filter((c) => c.path === '/auth/refresh')).toHaveLength(1);
  });

  it('removes both tokens and reports an expired session when the refresh is refused', async () => {
    const client = await signedInClient('expired', 'revoked');
    api.refreshPairs.clear();
    const expired: ApiError[] = [];
    client.onSessionExpired((error) => expired.push(error));
    const error = await client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile }).catch((e: unknown) => e);
    expect((error as ApiError).message).toBe('Your session is no longer valid. Please sign in again.');
    expect(await session.read()).toBeNull();
    expect(storage.getItem('token')).toBeNull();
    expect(storage.getItem('refreshToken')).toBeNull();
    expect(expired).toHaveLength(1);
  });

  it('keeps the tokens when the refresh gets no answer (offline is not a sign-out)', async () => {
    const client = await signedInClient();
    api.overrides.set('POST /auth/refresh', (req) => req.socket.destroy());
    const expired: ApiError[] = [];
    client.onSessionExpired((error) => expired.push(error));
    const error = (await client
      .call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.isNetworkError).toBe(true);
    expect(await session.read()).toMatchObject({ token: 'expired', refreshToken: 'refresh-1' });
    expect(storage.getItem('token')).toBe('expired');
    expect(storage.getItem('refreshToken')).toBe('refresh-1');
    expect(expired).toHaveLength(0);
  });

  it('keeps the tokens when the refresh fails with a server error', async () => {
    const client = await signedInClient();
    api.overrides.set('POST /auth/refresh', (_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, message: 'Try later', error: 'Try later', code: 'INTERNAL' }));
    });
    await expect(client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile })).rejects.toThrow('Try later');
    expect((await session.read())?.refreshToken).toBe('refresh-1');
  });

  it('does not try a refresh for the login call', async () => {
    const client = createApiClient({ baseUrl: api.baseUrl, session });
    await client.signIn({ userId: 'u1', token: 'stale', refreshToken: 'refresh-x' });
    const error = (await client
      .call('POST /auth/login', {
        json: { email: 'officer@example.com', password: 'wrong' },
        skipRefresh: true,
        fallbackMessage: ERROR_MESSAGES.loginFailed,
      })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('Invalid email or password');
    expect(api.calls.some((c) => c.path === '/auth/refresh')).toBe(false);
  });

  it('turns failures into a message and per-field messages, with the fallback when the server gives none', async () => {
    api.validTokens.add('good');
    await session.signIn({ userId: 'u1', token: 'good', refreshToken: 'refresh-1' });
    const client = createApiClient({ baseUrl: api.baseUrl, session });
    const validation = (await client
      .call('POST /pcns', { body: new FormData(), fallbackMessage: ERROR_MESSAGES.createPcn })
      .catch((e: unknown) => e)) as ApiError;
    expect(validation.message).toBe('Some fields are not valid');
    expect(validation.fields).toEqual({ vehicleRegistration: 'Enter 2 to 10 letters and digits' });
    api.overrides.set('GET /pcns/stats', (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('oops');
    });
    const broken = (await client
      .call('GET /pcns/stats', { fallbackMessage: ERROR_MESSAGES.fetchPcns })
      .catch((e: unknown) => e)) as ApiError;
    expect(broken.message).toBe(ERROR_MESSAGES.fetchPcns);
    expect(broken.status).toBe(500);
  });

  it('sends the query without empty values, and a JSON body with its type', async () => {
    api.validTokens.add('good');
    await session.signIn({ userId: 'u1', token: 'good', refreshToken: 'refresh-1' });
    const client = createApiClient({ baseUrl: `${api.baseUrl}/`, session });
    const seen: Array<{ url: string; type: string | undefined; body: string }> = [];
    const answer = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', type: req.headers['content-type'], body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: true, data: { items: [], total: 0 } }));
      });
    };
    api.overrides.set('GET /pcns', answer);
    api.overrides.set('POST /auth/login', answer);
    await client.call('GET /pcns', { query: { page: 2, search: 'BN12 XYZ', status: '' }, fallbackMessage: ERROR_MESSAGES.fetchPcns });
    await client.call('POST /auth/login', {
      json: { email: 'officer@example.com', password: 'officer123' },
      skipRefresh: true,
      fallbackMessage: ERROR_MESSAGES.loginFailed,
    });
    expect(seen).toEqual([
      { url: '/api/pcns?page=2&search=BN12+XYZ', type: undefined, body: '' },
      { url: '/api/auth/login', type: 'application/json', body: '{"email":"officer@example.com","password":"officer123"}' },
    ]);
  });

  it('gives up on an answer that does not come within the timeout, as no answer', async () => {
    api.validTokens.add('good');
    await session.signIn({ userId: 'u1', token: 'good', refreshToken: 'refresh-1' });
    const client = createApiClient({ baseUrl: api.baseUrl, session, timeoutMs: 200 });
    api.overrides.set('GET /pcns/stats', () => undefined);
    const startedAt = Date.now();
    const error = (await client
      .call('GET /pcns/stats', { fallbackMessage: ERROR_MESSAGES.fetchPcns })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.isNetworkError).toBe(true);
    expect(error.message).toBe(ERROR_MESSAGES.fetchPcns);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });

  it('reports a network error with the fallback message when nothing answers', async () => {
    const client = createApiClient({ baseUrl: await unusedBaseUrl(), session });
    const error = (await client.call('GET /pcns', { fallbackMessage: ERROR_MESSAGES.fetchPcns }).catch((e: unknown) => e)) as ApiError;
    expect(error.isNetworkError).toBe(true);
    expect(error.message).toBe(ERROR_MESSAGES.fetchPcns);
  });

  it('takes the pair the service worker refreshed instead of presenting a rotated refresh token', async () => {
    const client = await signedInClient('expired', 'refresh-1');
    api.validTokens.add('worker-token');
    let isFirst = true;
    api.overrides.set('GET /users/profile', (req, res) => {
      if (req.headers.authorization === 'Bearer worker-token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: true, data: { id: 'u1' } }));
        return;
      }
      // While this request was out, the service worker refreshed and rotated the session's row.
      void (isFirst ? saveSessionRow(db, { userId: 'u1', token: 'worker-token', refreshToken: 'worker-refresh' }) : Promise.resolve()).then(
        () => {
          isFirst = false;
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ success: false, message: 'Your session has expired', code: 'UNAUTHORIZED' }));
        },
      );
    });
    const data = await client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });
    expect(data.id).toBe('u1');
    expect(api.calls.map((c) => `${c.method} ${c.path} ${c.authorization ?? ''}`)).toEqual([
      'GET /users/profile Bearer expired',
      'GET /users/profile Bearer worker-token',
    ]);
    expect(await session.read()).toMatchObject({ token: 'worker-token', refreshToken: 'worker-refresh' });
  });

  it('two tabs refreshing at once send one refresh and end with one pair', async () => {
    await session.signIn({ userId: 'u1', token: 'expired', refreshToken: 'refresh-1' });
    const locks = exclusiveLocks();
    api.refreshPairs.set('refresh-1', { token: 'fresh', refreshToken: 'refresh-rotated' });
    api.refreshDelayMs = 50;
    // Two tabs: each its own module instance, the one database and the origin's one localStorage.
    const tabs = [1, 2].map(() =>
      createApiClient({
        baseUrl: api.baseUrl,
        session: createSessionTokens({ name: db.name, db: async () => db, mirror: storage }),
        locks,
      }),
    );
    await Promise.all(tabs.map((client) => client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile })));
    expect(api.calls.filter((c) => c.path === '/auth/refresh')).toHaveLength(1);
    expect(await Promise.all(tabs.map((client) => client.getTokens()))).toEqual([
      { token: 'fresh', refreshToken: 'refresh-rotated' },
      { token: 'fresh', refreshToken: 'refresh-rotated' },
    ]);
    expect(await session.read()).toMatchObject({ userId: 'u1', token: 'fresh', refreshToken: 'refresh-rotated' });
    expect([storage.getItem('token'), storage.getItem('refreshToken')]).toEqual(['fresh', 'refresh-rotated']);
  });
});

/** One lock across the "tabs", as navigator.locks is across a browser's tabs and service worker. */
function exclusiveLocks(): LockManagerLike {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request<T>(_name: string, callback: () => Promise<T>): Promise<T> {
      const result = tail.then(callback);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
