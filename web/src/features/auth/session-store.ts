import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { ERROR_MESSAGES, type LoginResponse, type User } from '@parkpatrol/shared';
import { apiClient, browserStorage, toApiError, type ApiClient, type KeyValueStorage } from '../../lib/api-client.ts';

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
  login(credentials: { email: string; password: string }): Promise<boolean>;
  logout(): Promise<void>;
  restoreSession(): Promise<void>;
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

export function createSessionStore(deps: { client: ApiClient; profileCache: ProfileCache }): SessionStore {
  const { client, profileCache } = deps;
  const stored = client.getTokens();

  const fetchProfile = () => client.get<User>('users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });

  const store = createStore<SessionState & SessionActions>()((set, get) => {
    function becomeAuthenticated(user: User, isProfileStale = false) {
      if (!isProfileStale) profileCache.write(user);
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
    function keepOfflineSession() {
      const cached = profileCache.read();
      if (cached) {
        becomeAuthenticated(cached, true);
      } else {
        set({ isLoading: false, hasRestored: true });
      }
    }

    function endSession() {
      client.clearTokens();
      profileCache.clear();
      set({ ...signedOut, isLoading: false, hasRestored: true });
    }

    return {
      user: null,
      token: stored.token,
      refreshToken: stored.refreshToken,
      isAuthenticated: false,
      isLoading: Boolean(stored.token),
      error: null,
      hasRestored: false,
      isProfileStale: false,

      async login(credentials) {
        set({ isLoading: true, error: null });
        try {
          const data = await client.post<LoginResponse>('auth/login', {
            json: credentials,
            skipRefresh: true,
            fallbackMessage: ERROR_MESSAGES.loginFailed,
          });
          client.setTokens({ token: data.token, refreshToken: data.refreshToken });
          becomeAuthenticated(data.user);
          return true;
        } catch (error) {
          set({ isLoading: false, error: toApiError(error, ERROR_MESSAGES.loginFailed).message });
          return false;
        }
      },

      async logout() {
        const { token, refreshToken } = client.getTokens();
        // Spec section 4: logout clears everything even if the server call fails, so clear first
        // and let the revocation go out on its own with the tokens captured above.
        client.clearTokens();
        profileCache.clear();
        set({ ...signedOut, isLoading: false, error: null, hasRestored: true });
        if (!refreshToken) return;
        await client
          .post('auth/logout', { json: { refreshToken }, token, skipRefresh: true, fallbackMessage: ERROR_MESSAGES.loginFailed })
          .catch(() => undefined);
      },

      async restoreSession() {
        const { token } = client.getTokens();
        if (!token || get().isAuthenticated) {
          set({ isLoading: false, hasRestored: true });
          return;
        }
        set({ isLoading: true });
        try {
          // A 401 here is already refreshed and retried once by the client.
          becomeAuthenticated(await fetchProfile());
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
        try {
          becomeAuthenticated(await fetchProfile());
        } catch {
          // The tokens are good but the profile is not available right now (e.g. a 5xx).
          keepOfflineSession();
        }
      },

      clearError() {
        if (get().error) set({ error: null });
      },
    };
  });

  client.onTokensChanged((tokens) => {
    store.setState({ token: tokens?.token ?? null, refreshToken: tokens?.refreshToken ?? null });
  });
  client.onSessionExpired(() => {
    // Spec section 4: a failed refresh clears user, tokens and the authenticated flag; the route
    // guard then sends the browser to /login, remembering where it was.
    profileCache.clear();
    store.setState({ ...signedOut, isLoading: false, hasRestored: true });
  });

  return store;
}

export const sessionStore = createSessionStore({
  client: apiClient,
  profileCache: createStorageProfileCache(browserStorage()),
});

export function useSession<T>(selector: (state: SessionState & SessionActions) => T): T {
  return useStore(sessionStore, selector);
}
