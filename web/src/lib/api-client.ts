import {
  ERROR_MESSAGES,
  fillPath,
  splitRoute,
  type ApiContract,
  type ApiFailure,
  type ApiParamsOf,
  type ApiResponseOf,
  type ApiRoute,
  type AuthTokens,
  type FileRoute,
  type JsonRoute,
} from '@parkpatrol/shared';
import { API_URL } from '../config/env.ts';
import { LOCAL_DB_NAME } from './local-db/records.ts';
import { createSessionTokens, type KeyValueStorage, type SessionSignIn, type SessionTokens } from './session-tokens.ts';
import { createTokenRefresh, type LockManagerLike } from './token-refresh.ts';

/**
 * The one HTTP client of the web app. Every call names a route of the shared contract
 * (shared/src/api-contract.ts), so its path, parameters, body and answer are the compiler's to
 * check. Every call goes through `request`, which adds the bearer token, refreshes once and
 * retries once on a 401 (decision 0015), and turns every failure into an ApiError carrying a
 * human message and per-field messages.
 */

export type { KeyValueStorage } from './session-tokens.ts';

export class ApiError extends Error {
  /** HTTP status, or null when no answer arrived (offline, DNS, timeout, aborted). */
  readonly status: number | null;
  readonly code: string | undefined;
  /** Field name to message, from the envelope's `details`. */
  readonly fields: Record<string, string>;
  /** The answer's headers (a 429's Retry-After); empty when no answer arrived. */
  readonly headers: Headers;

  constructor(
    message: string,
    options: { status?: number | null; code?: string; fields?: Record<string, string>; headers?: Headers } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status ?? null;
    this.code = options.code;
    this.fields = options.fields ?? {};
    this.headers = options.headers ?? new Headers();
  }

  /** No answer from the server: the network, not the officer, is at fault. Never a sign-out. */
  get isNetworkError(): boolean {
    return this.status === null;
  }
}

/** Any thrown value as `{ message, fields }`, with the call's fallback when nothing better exists. */
export function toApiError(error: unknown, fallbackMessage: string): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(fallbackMessage, { status: null });
}

export type SearchParams = Record<string, string | number | boolean | undefined | null>;

type RequestOptions = {
  /** The fallback used when the server gives no message (docs/product.md, Errors and fallback messages). */
  fallbackMessage: string;
  searchParams?: SearchParams;
  json?: unknown;
  body?: FormData;
  headers?: Record<string, string>;
  /** Login and refresh answer 401 for bad credentials, which a refresh cannot fix. */
  skipRefresh?: boolean;
  /** Sends this access token instead of the stored one (logout after the session was cleared). */
  token?: string | null;
  timeoutMs?: number | false;
  /** 'blob' answers the body as it came (a PDF); failures still read the JSON envelope. */
  responseType?: 'json' | 'blob';
};

/** What a call of one route takes: its path parameters, its query, and its JSON or multipart body. */
export type CallOptions<R extends ApiRoute> = Pick<RequestOptions, 'fallbackMessage' | 'headers' | 'skipRefresh' | 'token' | 'timeoutMs'> &
  (keyof ApiParamsOf<R> extends never ? { params?: never } : { params: ApiParamsOf<R> }) &
  (ApiContract[R] extends { query: infer Q } ? { query?: Q } : { query?: never }) &
  (ApiContract[R] extends { body: infer B }
    ? { json: B; body?: never }
    : ApiContract[R] extends { form: true }
      ? { body: FormData; json?: never }
      : { json?: never; body?: never });

export type ApiClientOptions = {
  baseUrl: string;
  /** The session's one home (lib/session-tokens.ts): every token read and write goes through it. */
  session: SessionTokens;
  fetch?: typeof fetch;
  /** JSON calls give up after this long; uploads (FormData) have no timeout on a slow network. */
  timeoutMs?: number;
  /** Defaults to navigator.locks. */
  locks?: LockManagerLike | null;
};

type Listener<T> = (value: T) => void;

export function createApiClient(options: ApiClientOptions) {
  const { session } = options;
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const base = options.baseUrl.replace(/\/+$/, '');
  const expiryListeners = new Set<Listener<ApiError>>();
  const tokenRefresh = createTokenRefresh({
    baseUrl: options.baseUrl,
    store: { read: session.read, write: async (pair, from) => void (await session.rotate(pair, from)) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.locks !== undefined ? { locks: options.locks } : {}),
  });

  async function getTokens(): Promise<{ token: string | null; refreshToken: string | null }> {
    const stored = await session.read();
    return { token: stored?.token ?? null, refreshToken: stored?.refreshToken ?? null };
  }

  async function send(method: string, path: string, opts: RequestOptions, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    if (token) headers.Authorization = `Bearer ${token}`;
    const searchParams = compactParams(opts.searchParams);
    const url = `${base}/${stripLeadingSlash(path)}${searchParams ? `?${new URLSearchParams(searchParams)}` : ''}`;
    if (opts.json !== undefined) headers['Content-Type'] ??= 'application/json';
    const timeout = opts.timeoutMs ?? (opts.body ? false : (options.timeoutMs ?? 30_000));
    // The timeout covers the wait for the answer's head, not the reading of its body.
    const abort = new AbortController();
    const timer = timeout === false ? undefined : setTimeout(() => abort.abort(), timeout);
    try {
      return await fetchFn(url, {
        method,
        headers,
        signal: abort.signal,
        // A FormData object can be sent again as is: the retry after a refresh rebuilds the body.
        ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : opts.body ? { body: opts.body } : {}),
      });
    } catch {
      // fetch rejects only when no answer arrived (offline, DNS, reset, timeout).
      throw new ApiError(opts.fallbackMessage, { status: null });
    } finally {
      clearTimeout(timer);
    }
  }

  async function request<T>(method: string, path: string, opts: RequestOptions): Promise<T> {
    const usedToken = opts.token !== undefined ? opts.token : (await getTokens()).token;
    let response = await send(method, path, opts, usedToken);
    if (response.status === 401 && !opts.skipRefresh && opts.token === undefined && usedToken) {
      const current = (await getTokens()).token;
      // Another request may already have rotated the tokens while this one was in flight.
      const freshToken = current && current !== usedToken ? current : (await refreshTokens()).token;
      response = await send(method, path, opts, freshToken);
    }
    if (!response.ok) throw await errorFromResponse(response, opts.fallbackMessage);
    if (opts.responseType === 'blob') return (await response.blob()) as T;
    return (await readData(response)) as T;
  }

  /** Refreshes through lib/token-refresh.ts, the one refresh of the app, which rotates the session's row. */
  async function refreshTokens(): Promise<AuthTokens> {
    const presented = await session.read();
    if (!presented) {
      const error = new ApiError(ERROR_MESSAGES.noRefreshToken, { status: 401 });
      await expireSession(error);
      throw error;
    }
    const outcome = await tokenRefresh.refresh(presented);
    if (outcome.kind === 'refreshed') {
      const stored = (await session.read())?.refreshToken;
      if (stored === outcome.tokens.refreshToken) return outcome.tokens;
      // Signed out (or in as someone else) while the refresh was out: the answer must not sign anyone back in.
      if (stored !== presented.refreshToken) throw new ApiError(ERROR_MESSAGES.noRefreshToken, { status: 401 });
      // The row's write failed inside the refresh (a full disk): once more, or the next refresh replays a rotated token.
      await session.rotate(outcome.tokens, presented.refreshToken);
      return outcome.tokens;
    }
    const error = errorFromBody(outcome.status, outcome.body, ERROR_MESSAGES.tokenRefreshFailed);
    // Only an explicit refusal ends the session (docs/decisions/0002); no answer, a 5xx or a 429 is transient.
    if (outcome.kind === 'refused') await expireSession(error);
    throw error;
  }

  async function expireSession(error: ApiError): Promise<void> {
    await session.end().catch((cause: unknown) => console.warn('Could not clear the session kept on this device', cause));
    for (const listener of expiryListeners) listener(error);
  }

  function requestOf(
    route: ApiRoute,
    opts: CallOptions<ApiRoute>,
    responseType: 'json' | 'blob',
  ): RequestOptions & { method: string; path: string } {
    const { method, path } = splitRoute(route);
    const { params, query, ...rest } = opts as CallOptions<ApiRoute> & { params?: Record<string, string>; query?: SearchParams };
    return { ...rest, method, path: fillPath(path, params ?? {}), responseType, ...(query ? { searchParams: query } : {}) };
  }

  return {
    /** A JSON route of the contract; answers its envelope's `data`, typed by the contract. */
    call<R extends JsonRoute>(route: R, opts: CallOptions<R>): Promise<ApiResponseOf<R>> {
      const { method, path, ...rest } = requestOf(route, opts as CallOptions<ApiRoute>, 'json');
      return request<ApiResponseOf<R>>(method, path, rest);
    },
    /** A file route (CSV, PDF) with the same bearer token, refresh and error handling as every other call. */
    download<R extends FileRoute>(route: R, opts: CallOptions<R>): Promise<Blob> {
      const { method, path, ...rest } = requestOf(route, opts as CallOptions<ApiRoute>, 'blob');
      return request<Blob>(method, path, rest);
    },
    refreshTokens,
    getTokens,
    /** The session's device token, or null (none signed in, or signed in before sessions kept one). */
    async getDeviceToken(): Promise<string | null> {
      return (await session.read())?.deviceToken ?? null;
    },
    /** A sign-in: the pair (and device token) the server has just issued becomes the session's. */
    signIn: (signIn: SessionSignIn) => session.signIn(signIn),
    /**
     * For a session signed in before sessions kept their device token: any stable secret of this
     * device goes, as long as the rotation and its retry send the same one, so it is kept from now on.
     */
    keepDeviceToken: (deviceToken: string) => session.keepDeviceToken(deviceToken),
    /** Sign-out: the pair goes from the device (the caller has what it needs to revoke it). */
    endSession: () => session.end(),
    /** Called when the server refused the refresh token: the session is over. */
    onSessionExpired(listener: Listener<ApiError>): () => void {
      expiryListeners.add(listener);
      return () => expiryListeners.delete(listener);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

async function errorFromResponse(response: Response, fallbackMessage: string): Promise<ApiError> {
  return errorFromBody(response.status, await response.json().catch(() => null), fallbackMessage, response.headers);
}

/** The failure envelope (docs/architecture.md), read defensively: a proxy's HTML page has none of it. */
function errorFromBody(status: number | null, json: unknown, fallbackMessage: string, headers?: Headers): ApiError {
  const body = json && typeof json === 'object' ? (json as Partial<ApiFailure>) : null;
  const message = (typeof body?.message === 'string' && body.message) || (typeof body?.error === 'string' && body.error) || fallbackMessage;
  return new ApiError(message, { status, code: body?.code, fields: body?.details ?? {}, ...(headers ? { headers } : {}) });
}

async function readData(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  const body = JSON.parse(text) as { data?: unknown };
  return body.data;
}

function compactParams(params: SearchParams | undefined): Record<string, string> | undefined {
  if (!params) return undefined;
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return entries.length ? Object.fromEntries(entries.map(([k, v]) => [k, String(v)])) : undefined;
}

function stripLeadingSlash(path: string): string {
  return path.replace(/^\/+/, '');
}

/** localStorage in the browser; an in-memory map where there is none (tests, old WebViews). */
export function browserStorage(): KeyValueStorage {
  try {
    if (typeof globalThis.localStorage !== 'undefined') return globalThis.localStorage;
  } catch {
    // Safari in some private modes throws on access.
  }
  return createMemoryStorage();
}

export function createMemoryStorage(): KeyValueStorage {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, String(value)),
    removeItem: (key) => void values.delete(key),
  };
}

/** The session's one home in the app; the database is loaded when first needed. */
export const sessionTokens = createSessionTokens({
  name: LOCAL_DB_NAME,
  db: async () => (await import('./local-db/database.ts')).getLocalDb(),
  mirror: browserStorage(),
});

/** The app's client. Tests build their own with createApiClient. */
export const apiClient = createApiClient({ baseUrl: API_URL, session: sessionTokens });
