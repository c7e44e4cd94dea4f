import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { ERROR_MESSAGES, type LoginResponse, type User } from '@parkpatrol/shared';
import { apiClient, browserStorage, toApiError, type ApiClient, type KeyValueStorage } from '../../lib/api-client.ts';
import { isQuotaExceededError } from '../../lib/storage-full.ts';
import { createKnownDevices, type KnownDevices } from './known-devices.ts';
import type { SessionMirror } from './session-mirror.ts';

/** Spec section 3's session state, plus whether the start-up restore has finished. */
export type SessionState = {
  user: User | null;
  token: string | null;
  refreshToken: string | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  error: string | null;
  /** False until restoreSession has run once; the app shows the full-page spinner until then. */
  hasRestored: boolean;
  /** The profile came from the device's cache because the server could not be reached. */
  isProfileStale: boolean;
};

export type SessionActions = {
  /** `deviceLink`: the emailed sign-in link this device was opened with, if any. */
  login(credentials: { email: string; password: string; deviceLink?: string }): Promise<boolean>;
  logout(): Promise<void>;
  restoreSession(): Promise<void>;
  /** Signs in with tokens the server has just issued (access link), as a password sign-in would. */
  adoptSession(answer: LoginResponse): Promise<void>;
  clearError(): void;
};

export type SessionStore = StoreApi<SessionState & SessionActions>;

/** Where the last known profile is kept so an officer who starts the app offline stays signed in. */
export type ProfileCache = {
  read(): User | null;
  write(user: User): void;
  clear(): void;
};

export const PROFILE_CACHE_KEY = 'profile';

export function createStorageProfileCache(storage: KeyValueStorage): ProfileCache {
  return {
    read() {
      try {
        const raw = storage.getItem(PROFILE_CACHE_KEY);
        return raw ? (JSON.parse(raw) as User) : null;
      } catch {
        return null;
      }
    },
    write: (user) => storage.setItem(PROFILE_CACHE_KEY, JSON.stringify(user)),
    clear: () => storage.removeItem(PROFILE_CACHE_KEY),
  };
}

const signedOut = {
  user: null,
  token: null,
  refreshToken: null,
  isAuthenticated: false,
  isProfileStale: false,
} as const;

export function createSessionStore(deps: {
  client: ApiClient;
  profileCache: ProfileCache;
  knownDevices: KnownDevices;
  mirror?: SessionMirror;
}): SessionStore {
  const { client, profileCache, knownDevices, mirror } = deps;
  const stored = client.getTokens();
  // A session signed in before sessions kept their device token would have its refresh retries
  // refused as a copy's (docs/decisions/0030): this browser's known-device token for the account
  // is as stable, and goes with the rotation and its retry alike.
  const storedEmail = stored.refreshToken && !client.getDeviceToken() ? profileCache.read()?.email : undefined;
  const knownDevice = storedEmail ? knownDevices.tokenFor(storedEmail) : undefined;
  if (knownDevice) client.adoptDeviceToken(knownDevice);
  let stopWatchingMirror: (() => void) | null = null;

  const fetchProfile = () => client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });

  /** Mirrors the pair for the service worker; a failure must never keep the officer from working. */
  async function mirrorTokens(userId: string): Promise<void> {
    const { token, refreshToken } = client.getTokens();
    if (!mirror || !token || !refreshToken) return;
    try {
      const deviceToken = client.getDeviceToken();
      await mirror.save({
        userId,
        token,
        refreshToken,
        updatedAt: client.getTokensSetAt() || Date.now(),
        ...(deviceToken ? { deviceToken } : {}),
      });
    } catch (error) {
      console.warn(
        isQuotaExceededError(error)
          ? 'Storage is full: the session could not be kept for background sending'
          : 'Could not mirror the session',
        error,
      );
    }
  }

  /** Ends the mirrored session too; the page's own state is already cleared by the caller. */
  async function endMirroredSession(userId: string | null): Promise<void> {
    stopWatchingMirror?.();
    stopWatchingMirror = null;
    await mirror?.end(userId).catch((error: unknown) => console.warn('Could not clear the data kept on this device', error));
  }

  const store = createStore<SessionState & SessionActions>()((set, get) => {
    /**
     * Follows the mirrored pair: when the service worker refreshed the tokens, the page takes the
     * new pair instead of presenting a refresh token that has already been rotated.
     */
    function watchMirror(userId: string) {
      if (!mirror || stopWatchingMirror) return;
      stopWatchingMirror = mirror.watch((session) => {
        if (!session || session.userId !== userId || !get().isAuthenticated) return;
        const local = client.getTokens();
        // Only a pair stored after ours (the service worker refreshed) replaces it.
        if (!local.refreshToken || session.updatedAt <= client.getTokensSetAt()) return;
        if (session.token !== local.token || session.refreshToken !== local.refreshToken) {
          client.setTokens({ token: session.token, refreshToken: session.refreshToken });
        }
      });
    }

    async function becomeAuthenticated(user: User, isProfileStale = false) {
      if (!isProfileStale) profileCache.write(user);
      // Before the app shows the signed-in screens (and starts the outbox), so the outbox finds a session.
      await mirrorTokens(user.id);
      watchMirror(user.id);
      const tokens = client.getTokens();
      set({
        user,
        token: tokens.token,
        refreshToken: tokens.refreshToken,
        isAuthenticated: true,
        isLoading: false,
        hasRestored: true,
        isProfileStale,
      });
    }

    /** No answer from the server: keep the tokens and, if this device knows the officer, the session. */
    async function keepOfflineSession() {
      const cached = profileCache.read();
      if (cached) {
        await becomeAuthenticated(cached, true);
      } else {
        set({ isLoading: false, hasRestored: true });
      }
    }

    async function endSession() {
      const userId = profileCache.read()?.id ?? null;
      client.clearTokens();
      profileCache.clear();
      set({ ...signedOut, isLoading: false, hasRestored: true });
      await endMirroredSession(userId);
    }

    return {
      user: null,
      token: stored.token,
      refreshToken: stored.refreshToken,
      isAuthenticated: false,
      isLoading: Boolean(stored.token),
      error: null,
      // With no token there is nothing to restore: the sign-in screen shows at once instead of
      // a spinner for one frame over the form index.html already painted.
      hasRestored: !stored.token,
      isProfileStale: false,

      async login(credentials) {
        set({ isLoading: true, error: null });
        try {
          const data = await client.call('POST /auth/login', {
            json: { ...credentials, deviceToken: knownDevices.tokenFor(credentials.email) },
            skipRefresh: true,
            fallbackMessage: ERROR_MESSAGES.loginFailed,
          });
          knownDevices.remember(credentials.email, data.deviceToken);
          client.setTokens({ token: data.token, refreshToken: data.refreshToken }, data.deviceToken);
          await becomeAuthenticated(data.user);
          return true;
        } catch (error) {
          set({ isLoading: false, error: toApiError(error, ERROR_MESSAGES.loginFailed).message });
          return false;
        }
      },

      async logout() {
        const { token, refreshToken } = client.getTokens();
        const userId = get().user?.id ?? null;
        // Spec section 4: logout clears everything even if the server call fails, so clear first
        // and let the revocation go out on its own with the tokens captured above.
        client.clearTokens();
        profileCache.clear();
        set({ ...signedOut, isLoading: false, error: null, hasRestored: true });
        await endMirroredSession(userId);
        if (!refreshToken) return;
        await client
          .call('POST /auth/logout', { json: { refreshToken }, token, skipRefresh: true, fallbackMessage: ERROR_MESSAGES.loginFailed })
          .catch(() => undefined);
      },

      async restoreSession() {
        const { token } = client.getTokens();
        if (!token || get().isAuthenticated) {
          set({ isLoading: false, hasRestored: true });
          return;
        }
        const cached = profileCache.read();
        if (cached) {
          // The officer never waits for the network to open the app: the profile kept on this
          // device signs them in at once (marked stale) and the server's answer follows. A
          // request that hangs (one bar of signal) would otherwise hold every screen behind a
          // spinner for the client's whole timeout.
          await becomeAuthenticated(cached, true);
        } else {
          set({ isLoading: true });
        }
        try {
          // A 401 here is already refreshed and retried once by the client.
          await becomeAuthenticated(await fetchProfile());
          return;
        } catch (error) {
          if (toApiError(error, ERROR_MESSAGES.fetchProfile).isNetworkError) return keepOfflineSession();
        }
        // Spec section 4: the profile failed, so try a refresh; if that fails remove both tokens.
        if (!client.getTokens().refreshToken) return endSession();
        try {
          await client.refreshTokens();
        } catch (error) {
          if (toApiError(error, ERROR_MESSAGES.tokenRefreshFailed).isNetworkError) return keepOfflineSession();
          return endSession();
        }
        let user: User;
        try {
          user = await fetchProfile();
        } catch {
          // The tokens are good but the profile is not available right now (e.g. a 5xx).
          return keepOfflineSession();
        }
        await becomeAuthenticated(user);
      },

      async adoptSession(answer) {
        knownDevices.remember(answer.user.email, answer.deviceToken);
        client.setTokens({ token: answer.token, refreshToken: answer.refreshToken }, answer.deviceToken);
        set({ error: null });
        await becomeAuthenticated(answer.user);
      },

      clearError() {
        if (get().error) set({ error: null });
      },
    };
  });

  client.onTokensChanged((tokens) => {
    store.setState({ token: tokens?.token ?? null, refreshToken: tokens?.refreshToken ?? null });
    // A refresh: the service worker must send with the new pair (the old one is now rotated).
    const { user, isAuthenticated } = store.getState();
    if (tokens && user && isAuthenticated) void mirrorTokens(user.id);
  });
  client.onSessionExpired(() => {
    // Spec section 4: a failed refresh clears user, tokens and the authenticated flag; the route
    // guard then sends the browser to /login, remembering where it was.
    const userId = store.getState().user?.id ?? profileCache.read()?.id ?? null;
    profileCache.clear();
    store.setState({ ...signedOut, isLoading: false, hasRestored: true });
    void endMirroredSession(userId);
  });

  return store;
}

/**
 * The Dexie mirror, loaded on first use: the sign-in screen does not download Dexie,
 * and a signed-in start loads it with the rest of the signed-in code.
 */
export function createLazySessionMirror(): SessionMirror {
  let loaded: Promise<SessionMirror> | undefined;
  const load = () =>
    (loaded ??= Promise.all([import('./session-mirror.ts'), import('../../lib/local-db.ts')]).then(([mirror, local]) =>
      mirror.createDexieSessionMirror(local.getLocalDb),
    ));
  return {
    save: async (session) => (await load()).save(session),
    end: async (userId) => (await load()).end(userId),
    watch(listener) {
      let stop: (() => void) | undefined;
      let isStopped = false;
      void load().then((mirror) => {
        if (!isStopped) stop = mirror.watch(listener);
      });
      return () => {
        isStopped = true;
        stop?.();
      };
    },
  };
}

export const sessionStore = createSessionStore({
  client: apiClient,
  profileCache: createStorageProfileCache(browserStorage()),
  knownDevices: createKnownDevices(browserStorage()),
  mirror: typeof indexedDB === 'undefined' ? undefined : createLazySessionMirror(),
});

export function useSession<T>(selector: (state: SessionState & SessionActions) => T): T {
  return useStore(sessionStore, selector);
}
