import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, createMemoryStorage, type KeyValueStorage } from '../../lib/api-client.ts';
import { createLocalDb } from '../../lib/local-db/database.ts';
import type { LocalDb } from '../../lib/local-db/records.ts';
import { readSessionRow, saveSessionRow } from '../../lib/local-db/session-row.ts';
import { createSessionTokens } from '../../lib/session-tokens.ts';
import { OFFICER, startFakeApi, unusedBaseUrl, type FakeApi } from '../../test-support/fake-api-server.ts';
import { createKnownDevices } from './known-devices.ts';
import { createSessionStore, createStorageProfileCache } from './session-store.ts';

let api: FakeApi;
let storage: KeyValueStorage;
let db: LocalDb;

beforeEach(async () => {
  api = await startFakeApi();
  storage = createMemoryStorage();
  db = createLocalDb(`session-store-${randomUUID()}`);
});
afterEach(async () => {
  await api.close();
  db.close();
});

function makeClient(baseUrl = api.baseUrl, timeoutMs?: number) {
  return createApiClient({ baseUrl, session: createSessionTokens({ name: db.name, db: async () => db, mirror: storage }), timeoutMs });
}

function makeStore(baseUrl = api.baseUrl, timeoutMs?: number) {
  const client = makeClient(baseUrl, timeoutMs);
  return createSessionStore({ client, profileCache: createStorageProfileCache(storage), knownDevices: createKnownDevices(storage) });
}

/** A session this device already holds, in its one home. */
function keep(token: string, refreshToken: string, deviceToken?: string) {
  return saveSessionRow(db, { userId: OFFICER.id, token, refreshToken, ...(deviceToken ? { deviceToken } : {}) });
}

const heldPair = async () => {
  const row = await readSessionRow(db);
  return row ? { token: row.token, refreshToken: row.refreshToken } : null;
};

describe('session store', () => {
  it('starts signed out and not loading when no token is stored', async () => {
    const store = makeStore();
    await store.getState().loadSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, isLoading: false, hasRestored: true, user: null });
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, hasRestored: true });
    expect(api.calls).toHaveLength(0);
  });

  it("keeps the device's token across sign-out and sends it with the next sign-in to that account only", async () => {
    const store = makeStore();
    await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
    expect(api.loginBodies[0]).not.toHaveProperty('deviceToken');
    await store.getState().logout();
    await store.getState().login({ email: ' Officer@Example.com', password: 'officer123' });
    expect(api.loginBodies[1]).toMatchObject({ deviceToken: 'device-1' });
    await store.getState().login({ email: 'someone-else@example.com', password: 'whatever1' });
    expect(api.loginBodies[2]).not.toHaveProperty('deviceToken');
  });

  it('has ended the session kept on the device by the time the screen shows the officer signed out', async () => {
    const store = makeStore();
    await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
    // What a reload of the sign-in screen, the moment it shows, would find on the device.
    let foundAtSignOut: Promise<unknown> | null = null;
    const stop = store.subscribe((state) => {
      if (!state.isAuthenticated && !foundAtSignOut) foundAtSignOut = Promise.all([heldPair(), makeClient().getTokens()]);
    });
    await store.getState().logout();
    stop();
    expect(await foundAtSignOut).toEqual([null, { token: null, refreshToken: null }]);
  });

  it('signs in, keeps both tokens in storage and the user in state', async () => {
    const store = makeStore();
    const ok = await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
    expect(ok).toBe(true);
    expect(store.getState()).toMatchObject({
      isAuthenticated: true,
      isLoading: false,
      error: null,
    });
    expect(await heldPair()).toEqual({ token: 'access-1', refreshToken: 'refresh-1' });
    expect(store.getState().user?.firstName).toBe('Olivia');
    expect(storage.getItem('token')).toBe('access-1');
    expect(storage.getItem('refreshToken')).toBe('refresh-1');
  });

  it('keeps the server message as the error after a failed sign-in and clears it on request', async () => {
    const store = makeStore();
    const ok = await store.getState().login({ email: 'officer@example.com', password: 'nope-nope' });
    expect(ok).toBe(false);
    expect(store.getState()).toMatchObject({ isAuthenticated: false, isLoading: false, error: 'Invalid email or password' });
    store.getState().clearError();
    expect(store.getState().error).toBeNull();
  });

  it('restores the session from the profile when the stored token is valid', async () => {
    api.validTokens.add('good');
    await keep('good', 'r');
    const store = makeStore();
    await store.getState().loadSession();
    expect(store.getState()).toMatchObject({ isLoading: true, hasRestored: false });
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: true, isLoading: false, hasRestored: true, isProfileStale: false });
    expect(store.getState().user?.email).toBe(OFFICER.email);
  });

  it('restores with a refresh when the stored access token has expired, and mirrors the rotated tokens', async () => {
    await keep('expired', 'refresh-1');
    api.refreshPairs.set('refresh-1', { token: 'fresh', refreshToken: 'refresh-2' });
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: true });
    expect(await heldPair()).toEqual({ token: 'fresh', refreshToken: 'refresh-2' });
    expect([storage.getItem('token'), storage.getItem('refreshToken')]).toEqual(['fresh', 'refresh-2']);
  });

  it("refreshes a session signed in before sessions kept their device token with this browser's known-device token", async () => {
    await keep('expired', 'refresh-1');
    createStorageProfileCache(storage).write(OFFICER);
    createKnownDevices(storage).remember(OFFICER.email, 'device-known');
    api.refreshPairs.set('refresh-1', { token: 'fresh', refreshToken: 'refresh-2' });
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: true });
    expect((await heldPair())?.token).toBe('fresh');
    // The server binds the rotation to it, so a retry of the same refresh is answered, not a sign-out.
    expect(api.refreshBodies[0]).toMatchObject({ refreshToken: 'refresh-1', deviceToken: 'device-known' });
    expect((await readSessionRow(db))?.deviceToken).toBe('device-known');
  });

  it('removes both tokens when neither the profile nor the refresh succeeds', async () => {
    await keep('expired', 'revoked');
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, isLoading: false, user: null });
    expect(await heldPair()).toBeNull();
    expect(storage.getItem('token')).toBeNull();
    expect(storage.getItem('refreshToken')).toBeNull();
  });

  it('keeps the tokens and the cached profile when the server cannot be reached', async () => {
    await keep('any', 'any-refresh');
    storage.setItem('profile', JSON.stringify(OFFICER));
    const store = makeStore(await unusedBaseUrl());
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: true, isProfileStale: true, isLoading: false });
    expect(store.getState().user?.firstName).toBe('Olivia');
    expect(storage.getItem('token')).toBe('any');
    expect(storage.getItem('refreshToken')).toBe('any-refresh');
  });

  it('opens at once with the cached profile while the server does not answer, and takes the fresh profile when it does', async () => {
    // A server that accepts and never answers: one bar of signal.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    try {
      await keep('any', 'any-refresh');
      storage.setItem('profile', JSON.stringify({ ...OFFICER, firstName: 'Kept' }));
      // The client gives up after 3 s here (30 s in the app): the officer is in long before.
      const store = makeStore(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`, 3000);
      const restoring = store.getState().restoreSession();
      await expect.poll(() => store.getState().isAuthenticated, { timeout: 1000 }).toBe(true);
      expect(store.getState()).toMatchObject({ isLoading: false, hasRestored: true, isProfileStale: true });
      expect(store.getState().user?.firstName).toBe('Kept');
      await restoring;
      expect(store.getState()).toMatchObject({ isAuthenticated: true, isProfileStale: true });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }

    // With an answer, the server's profile replaces the kept one.
    api.validTokens.add('good');
    await keep('good', 'any-refresh');
    storage.setItem('profile', JSON.stringify({ ...OFFICER, firstName: 'Kept' }));
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: true, isProfileStale: false });
    expect(store.getState().user?.firstName).toBe('Olivia');
  });

  it('signs out a device whose kept profile opened the app once the server refuses its tokens', async () => {
    await keep('expired', 'revoked');
    storage.setItem('profile', JSON.stringify(OFFICER));
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, user: null });
    expect(await heldPair()).toBeNull();
    expect(storage.getItem('profile')).toBeNull();
  });

  it('keeps the tokens but stays signed out offline when no profile was ever cached', async () => {
    await keep('any', 'any-refresh');
    const store = makeStore(await unusedBaseUrl());
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, hasRestored: true });
    expect(storage.getItem('token')).toBe('any');
  });

  it('signs out when a refresh is refused later in the session', async () => {
    const client = makeClient();
    const store = createSessionStore({
      client,
      profileCache: createStorageProfileCache(storage),
      knownDevices: createKnownDevices(storage),
    });
    await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
    api.validTokens.clear();
    api.refreshPairs.clear();
    await expect(client.call('GET /pcns', { fallbackMessage: 'x' })).rejects.toThrow();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, user: null });
    expect(await heldPair()).toBeNull();
    expect(storage.getItem('profile')).toBeNull();
  });

  it('logs out: clears state and storage even when the server call fails', async () => {
    const store = makeStore();
    await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
    api.overrides.set('POST /auth/logout', (req) => req.socket.destroy());
    await store.getState().logout();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, user: null });
    expect(await heldPair()).toBeNull();
    expect(storage.getItem('token')).toBeNull();
    expect(storage.getItem('refreshToken')).toBeNull();
    expect(storage.getItem('profile')).toBeNull();
    expect(api.calls.at(-1)).toMatchObject({ method: 'POST', path: '/auth/logout', authorization: 'Bearer access-1' });
  });

  describe('the token pair has one home', () => {
    it('after sign-in IndexedDB holds the pair and localStorage shows it', async () => {
      const store = makeStore();
      await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
      expect(await readSessionRow(db)).toMatchObject({
        userId: OFFICER.id,
        token: 'access-1',
        refreshToken: 'refresh-1',
        deviceToken: 'device-1',
      });
      expect([storage.getItem('token'), storage.getItem('refreshToken')]).toEqual(['access-1', 'refresh-1']);
      // Nothing else about the session is kept beside the two keys the product names.
      expect(storage.getItem('tokensSetAt')).toBeNull();
      expect(storage.getItem('sessionDeviceToken')).toBeNull();
      expect(store.getState()).not.toHaveProperty('token');
      expect(store.getState()).not.toHaveProperty('refreshToken');
    });

    it('a token written to localStorage by hand is not used', async () => {
      api.validTokens.add('access-1');
      api.validTokens.add('hand-written');
      const store = makeStore();
      await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
      storage.setItem('token', 'hand-written');
      storage.setItem('refreshToken', 'hand-written-refresh');
      await makeClient().call('GET /pcns', { fallbackMessage: 'x' });
      expect(api.calls.at(-1)).toMatchObject({ path: '/pcns', authorization: 'Bearer access-1' });
    });

    it('a pair only in localStorage signs nobody in', async () => {
      // This installation already keeps its session in IndexedDB: the keys are no way in.
      await makeClient().getTokens();
      api.validTokens.add('hand-written');
      storage.setItem('token', 'hand-written');
      storage.setItem('refreshToken', 'hand-written-refresh');
      storage.setItem('profile', JSON.stringify(OFFICER));
      const store = makeStore();
      await store.getState().loadSession();
      await store.getState().restoreSession();
      expect(store.getState()).toMatchObject({ isAuthenticated: false, hasRestored: true });
      expect(api.calls).toHaveLength(0);
    });

    it('a refresh another tab made is what this tab sends with next', async () => {
      const store = makeStore();
      await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
      api.validTokens.add('other-tab');
      await keep('other-tab', 'other-tab-refresh', 'device-1');
      await makeClient().call('GET /pcns', { fallbackMessage: 'x' });
      expect(api.calls.at(-1)).toMatchObject({ path: '/pcns', authorization: 'Bearer other-tab' });
    });
  });
});
