import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { ERROR_MESSAGES, type LoginResponse, type User } from '@parkpatrol/shared';
import { apiClient, browserStorage, toApiError, type ApiClient, type KeyValueStorage } from '../../lib/api-client.ts';
import { EVIDENCE_CACHE_NAME } from '../../lib/evidence-cache.ts';
import { createKnownDevices, type KnownDevices } from './known-devices.ts';

/**
 * The session's state (docs/product.md, Sessions), plus whether the start-up restore has finished.
 * The token pair is not in it: it lives in one place, lib/session-tokens.ts, read through the client.
 */
export type SessionState = {
  user: User | null;
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
  /**
   * Reads whether this device holds a session, before the first render: with none, the sign-in
   * screen takes over the form index.html painted at once, instead of a spinner over it.
   */
  loadSession(): Promise<void>;
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
  isAuthenticated: false,
  isProfileStale: false,
} as const;

export function createSessionStore(deps: { client: ApiClient; profileCache: ProfileCache; knownDevices: KnownDevices }): SessionStore {
  const { client, profileCache, knownDevices } = deps;

  const fetchProfile = () => client.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });

  /**
   * A session signed in before sessions kept their device token would have its refresh retries
   * refused as a copy's (docs/decisions/0030): this browser's known-device token for the account
   * is as stable, and goes with the rotation and its retry alike.
   */
  async function keepKnownDeviceToken(): Promise<void> {
    if (await client.getDeviceToken()) return;
    const email = profileCache.read()?.email;
    const knownDevice = email ? knownDevices.tokenFor(email) : undefined;
    if (knownDevice) await client.keepDeviceToken(knownDevice);
  }

  /** The evidence images the service worker kept go with the session: personal data on a shared phone. */
  async function dropEvidenceImages(): Promise<void> {
    if (typeof caches !== 'undefined') await caches.delete(EVIDENCE_CACHE_NAME).catch(() => false);
  }

  const store = createStore<SessionState & SessionActions>()((set, get) => {
    async function becomeAuthenticated(user: User, isProfileStale = false) {
      if (!isProfileStale) profileCache.write(user);
      set({
        user,
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

    /**
     * Ends the session on this device, then shows it signed out. The session kept on the device goes
     * before the screen changes: the sign-in screen may be reloaded (or the next officer sign in) at
     * once, and a session row still there would sign this officer back in.
     */
    async function endSession(shown: Partial<SessionState> = {}) {
      profileCache.clear();
      await client.endSession().catch((error: unknown) => console.warn('Could not clear the data kept on this device', error));
      set({ ...signedOut, isLoading: false, hasRestored: true, ...shown });
      await dropEvidenceImages();
    }

    return {
      user: null,
      isAuthenticated: false,
      // Until loadSession has read the device's session the app shows the spinner.
      isLoading: true,
      error: null,
      hasRestored: false,
      isProfileStale: false,

      async loadSession() {
        const { token } = await client.getTokens().catch(() => ({ token: null }));
        // With no token there is nothing to restore: the sign-in screen shows at once.
        if (!token && !get().isAuthenticated) set({ isLoading: false, hasRestored: true });
      },

      async login(credentials) {
        set({ isLoading: true, error: null });
        try {
          const data = await client.call('POST /auth/login', {
            json: { ...credentials, deviceToken: knownDevices.tokenFor(credentials.email) },
            skipRefresh: true,
            fallbackMessage: ERROR_MESSAGES.loginFailed,
          });
          knownDevices.remember(credentials.email, data.deviceToken);
          // Before the app shows the signed-in screens (and starts the outbox), so the outbox finds a session.
          await client.signIn({ userId: data.user.id, token: data.token, refreshToken: data.refreshToken, deviceToken: data.deviceToken });
          await becomeAuthenticated(data.user);
          return true;
        } catch (error) {
          set({ isLoading: false, error: toApiError(error, ERROR_MESSAGES.loginFailed).message });
          return false;
        }
      },

      async logout() {
        const { token, refreshToken } = await client.getTokens().catch(() => ({ token: null, refreshToken: null }));
        // Logout clears everything even if the server call fails (docs/product.md, Sessions), so clear first
        // and let the revocation go out on its own with the tokens captured above.
        await endSession({ error: null });
        if (!refreshToken) return;
        await client
          .call('POST /auth/logout', { json: { refreshToken }, token, skipRefresh: true, fallbackMessage: ERROR_MESSAGES.loginFailed })
          .catch(() => undefined);
      },

      async restoreSession() {
        const { token } = await client.getTokens().catch(() => ({ token: null }));
        if (!token || get().isAuthenticated) {
          set({ isLoading: false, hasRestored: true });
          return;
        }
        await keepKnownDeviceToken().catch(() => undefined);
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
        // The profile failed, so try a refresh; if that fails remove both tokens (docs/product.md, Sessions).
        if (!(await client.getTokens()).refreshToken) return endSession();
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
        await client.signIn({
          userId: answer.user.id,
          token: answer.token,
          refreshToken: answer.refreshToken,
          deviceToken: answer.deviceToken,
        });
        set({ error: null });
        await becomeAuthenticated(answer.user);
      },

      clearError() {
        if (get().error) set({ error: null });
      },
    };
  });

  client.onSessionExpired(() => {
    // A failed refresh clears user, tokens and the authenticated flag (docs/product.md, Sessions); the route
    // guard then sends the browser to /login, remembering where it was.
    // The client has already ended the device's session (its pair, cached reads, held notices).
    profileCache.clear();
    store.setState({ ...signedOut, isLoading: false, hasRestored: true });
    void dropEvidenceImages();
  });

  return store;
}

export const sessionStore = createSessionStore({
  client: apiClient,
  profileCache: createStorageProfileCache(browserStorage()),
  knownDevices: createKnownDevices(browserStorage()),
});

export function useSession<T>(selector: (state: SessionState & SessionActions) => T): T {
  return useStore(sessionStore, selector);
}
