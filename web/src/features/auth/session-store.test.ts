import { createServer, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, createMemoryStorage, type KeyValueStorage } from '../../lib/api-client.ts';
import { OFFICER, startFakeApi, unusedBaseUrl, type FakeApi } from '../../test-support/fake-api-server.ts';
import { createKnownDevices } from './known-devices.ts';
import { createSessionStore, createStorageProfileCache } from './session-store.ts';

let api: FakeApi;
let storage: KeyValueStorage;

beforeEach(async () => {
  api = await startFakeApi();
  storage = createMemoryStorage();
});
afterEach(async () => {
  await api.close();
});

function makeStore(baseUrl = api.baseUrl, timeoutMs?: number) {
  const client = createApiClient({ baseUrl, storage, timeoutMs });
  return createSessionStore({ client, profileCache: createStorageProfileCache(storage), knownDevices: createKnownDevices(storage) });
}

describe('session store', () => {
  it('starts signed out and not loading when no token is stored', async () => {
    const store = makeStore();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, isLoading: false, user: null, token: null });
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

  it('signs in, keeps both tokens in storage and the user in state', async () => {
    const store = makeStore();
    const ok = await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
    expect(ok).toBe(true);
    expect(store.getState()).toMatchObject({
      isAuthenticated: true,
      isLoading: false,
      error: null,
      token: 'access-1',
      refreshToken: 'refresh-1',
    });
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
    storage.setItem('token', 'good');
    storage.setItem('refreshToken', 'r');
    const store = makeStore();
    expect(store.getState().isLoading).toBe(true);
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: true, isLoading: false, hasRestored: true, isProfileStale: false });
    expect(store.getState().user?.email).toBe(OFFICER.email);
  });

  it('restores with a refresh when the stored access token has expired, and mirrors the rotated tokens', async () => {
    storage.setItem('token', 'expired');
    storage.setItem('refreshToken', 'refresh-1');
    api.refreshPairs.set('refresh-1', { token: 'fresh', refreshToken: 'refresh-2' });
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: true, token: 'fresh', refreshToken: 'refresh-2' });
  });

  it("refreshes a session signed in before sessions kept their device token with this browser's known-device token", async () => {
    storage.setItem('token', 'expired');
    storage.setItem('refreshToken', 'refresh-1');
    createStorageProfileCache(storage).write(OFFICER);
    createKnownDevices(storage).remember(OFFICER.email, 'device-known');
    api.refreshPairs.set('refresh-1', { token: 'fresh', refreshToken: 'refresh-2' });
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: true, token: 'fresh' });
    // The server binds the rotation to it, so a retry of the same refresh is answered, not a sign-out.
    expect(api.refreshBodies[0]).toMatchObject({ refreshToken: 'refresh-1', deviceToken: 'device-known' });
    expect(storage.getItem('sessionDeviceToken')).toBe('device-known');
  });

  it('removes both tokens when neither the profile nor the refresh succeeds', async () => {
    storage.setItem('token', 'expired');
    storage.setItem('refreshToken', 'revoked');
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, isLoading: false, user: null, token: null, refreshToken: null });
    expect(storage.getItem('token')).toBeNull();
    expect(storage.getItem('refreshToken')).toBeNull();
  });

  it('keeps the tokens and the cached profile when the server cannot be reached', async () => {
    storage.setItem('token', 'any');
    storage.setItem('refreshToken', 'any-refresh');
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
      storage.setItem('token', 'any');
      storage.setItem('refreshToken', 'any-refresh');
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
    storage.setItem('token', 'good');
    storage.setItem('profile', JSON.stringify({ ...OFFICER, firstName: 'Kept' }));
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: true, isProfileStale: false });
    expect(store.getState().user?.firstName).toBe('Olivia');
  });

  it('signs out a device whose kept profile opened the app once the server refuses its tokens', async () => {
    storage.setItem('token', 'expired');
    storage.setItem('refreshToken', 'revoked');
    storage.setItem('profile', JSON.stringify(OFFICER));
    const store = makeStore();
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, user: null, token: null, refreshToken: null });
    expect(storage.getItem('profile')).toBeNull();
  });

  it('keeps the tokens but stays signed out offline when no profile was ever cached', async () => {
    storage.setItem('token', 'any');
    storage.setItem('refreshToken', 'any-refresh');
    const store = makeStore(await unusedBaseUrl());
    await store.getState().restoreSession();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, hasRestored: true });
    expect(storage.getItem('token')).toBe('any');
  });

  it('signs out when a refresh is refused later in the session', async () => {
    const client = createApiClient({ baseUrl: api.baseUrl, storage });
    const store = createSessionStore({
      client,
      profileCache: createStorageProfileCache(storage),
      knownDevices: createKnownDevices(storage),
    });
    await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
    api.validTokens.clear();
    api.refreshPairs.clear();
    await expect(client.call('GET /pcns', { fallbackMessage: 'x' })).rejects.toThrow();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, user: null, token: null, refreshToken: null });
    expect(storage.getItem('profile')).toBeNull();
  });

  it('logs out: clears state and storage even when the server call fails', async () => {
    const store = makeStore();
    await store.getState().login({ email: 'officer@example.com', password: 'officer123' });
    api.overrides.set('POST /auth/logout', (req) => req.socket.destroy());
    await store.getState().logout();
    expect(store.getState()).toMatchObject({ isAuthenticated: false, user: null, token: null, refreshToken: null });
    expect(storage.getItem('token')).toBeNull();
    expect(storage.getItem('refreshToken')).toBeNull();
    expect(storage.getItem('profile')).toBeNull();
    expect(api.calls.at(-1)).toMatchObject({ method: 'POST', path: '/auth/logout', authorization: 'Bearer access-1' });
  });
});
