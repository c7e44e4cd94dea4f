import { apiPath, type ApiBodyOf, type AuthTokens } from '@parkpatrol/shared';

/**
 * THE refresh of the session's token pair: the page's API client and the outbox (in the page
 * and in the service worker) all refresh through here, and nowhere else.
 *
 * Refresh tokens rotate, and presenting one that another context has already rotated revokes
 * the session once the server's reuse window has passed. So a refresh runs under one Web Lock
 * shared by every tab and the service worker, and inside it first reads the shared pair (the
 * IndexedDB row every context reads): if another context rotated meanwhile, that pair is taken
 * and no second refresh is sent. Two tabs refreshing at once end with one pair.
 */

export type SharedTokens = AuthTokens & { userId: string; updatedAt: number; deviceToken?: string | null };

/** The pair every context reads (IndexedDB's `auth` row in the app; a map in unit tests). */
export type SharedTokenStore = {
  read(): Promise<SharedTokens | null>;
  /** Replaces the pair refreshed from `from` (the refresh token presented); a store without a session keeps nothing. */
  write(tokens: AuthTokens, from: string): Promise<void>;
};

export type Presented = AuthTokens & {
  /**
   * The device token of the session, sent along: the server answers a token it has already
   * rotated (a cut-off answer, another tab) only to the device that rotated it.
   */
  deviceToken?: string | null;
};

export type RefreshOutcome =
  | { kind: 'refreshed'; tokens: AuthTokens }
  /** The server refused the refresh token (400, 401, 403): the session is over. */
  | { kind: 'refused'; status: number; body: unknown }
  /** No answer, or one that may pass by itself (5xx, 429): never a sign-out. */
  | { kind: 'unreachable'; status: number | null; body: unknown; timedOut?: boolean };

export type LockManagerLike = { request<T>(name: string, callback: () => Promise<T>): Promise<T> };

export const TOKEN_REFRESH_LOCK = 'parkpatrol-token-refresh';
const REFUSED_STATUSES = new Set([400, 401, 403]);

export function createTokenRefresh(deps: {
  /** API base, e.g. '/api' in the app or 'http://127.0.0.1:1234/api' in a test. */
  baseUrl: string;
  store?: SharedTokenStore | null;
  fetch?: typeof fetch;
  /** Defaults to navigator.locks; null means none here, and one refresh at a time in this context. */
  locks?: LockManagerLike | null;
  timeoutMs?: number;
}) {
  const fetchFn = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const locks = deps.locks === undefined ? navigatorLocks() : deps.locks;
  const url = deps.baseUrl.replace(/\/+$/, '') + apiPath('POST /auth/refresh', {});
  let inThisContext: Promise<RefreshOutcome> | null = null;

  async function refreshUnderLock(presented: Presented): Promise<RefreshOutcome> {
    const shared = await deps.store?.read().catch(() => null);
    // The pair was read from the one shared row before the lock: if the row now holds another,
    // a context refreshed meanwhile, and its pair is the session's.
    if (shared && shared.refreshToken !== presented.refreshToken) {
      return { kind: 'refreshed', tokens: { token: shared.token, refreshToken: shared.refreshToken } };
    }
    const outcome = await post(presented.refreshToken, presented.deviceToken ?? shared?.deviceToken ?? null);
    if (outcome.kind === 'refreshed') await deps.store?.write(outcome.tokens, presented.refreshToken).catch(() => undefined);
    return outcome;
  }

  async function post(refreshToken: string, deviceToken: string | null): Promise<RefreshOutcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, deps.timeoutMs ?? 30_000);
    try {
      const response = await fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refreshToken, ...(deviceToken ? { deviceToken } : {}) } satisfies ApiBodyOf<'POST /auth/refresh'>),
        cache: 'no-store',
        signal: controller.signal,
      });
      const body: unknown = await response.json().catch(() => null);
      const tokens = pairOf(body);
      if (response.ok && tokens)
        return { kind: 'refreshed', tokens: { token: tokens.token, refreshToken: tokens.refreshToken ?? refreshToken } };
      if (REFUSED_STATUSES.has(response.status)) return { kind: 'refused', status: response.status, body };
      // A 2xx without a pair is a Wi-Fi login page, not our server: as good as no answer.
      return { kind: 'unreachable', status: response.status, body };
    } catch {
      return { kind: 'unreachable', status: null, body: null, timedOut };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** Refreshes the pair presented, or takes the one another context refreshed since. */
    refresh(presented: Presented): Promise<RefreshOutcome> {
      // Concurrent 401s in one context share one refresh; contexts queue on the lock.
      inThisContext ??= (
        locks ? locks.request(TOKEN_REFRESH_LOCK, () => refreshUnderLock(presented)) : refreshUnderLock(presented)
      ).finally(() => {
        inThisContext = null;
      });
      return inThisContext;
    },
  };
}

export type TokenRefresh = ReturnType<typeof createTokenRefresh>;

/** The new token comes as data.token or as a top-level token; the rotated refresh token beside it. */
function pairOf(body: unknown): { token: string; refreshToken: string | null } | null {
  if (!body || typeof body !== 'object') return null;
  const top = body as { data?: unknown; token?: unknown; refreshToken?: unknown };
  const data = top.data && typeof top.data === 'object' ? (top.data as { token?: unknown; refreshToken?: unknown }) : {};
  const token = typeof data.token === 'string' ? data.token : typeof top.token === 'string' ? top.token : null;
  const refreshToken =
    typeof data.refreshToken === 'string' ? data.refreshToken : typeof top.refreshToken === 'string' ? top.refreshToken : null;
  return token ? { token, refreshToken } : null;
}

function navigatorLocks(): LockManagerLike | null {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return locks && typeof locks.request === 'function' ? locks : null;
}
