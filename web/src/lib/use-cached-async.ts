import { useCallback } from 'react';
import { toApiError } from './api-client.ts';
import { useCurrentUser } from './current-user.tsx';
import { getLocalDb } from './local-db/database.ts';
import { readCache, writeCache } from './local-db/read-cache.ts';
import { useAsync, type AsyncState } from './use-async.ts';

export type CachedAsyncState<T> = AsyncState<T> & {
  /** Epoch ms the shown data was stored on the phone, when it came from there (no network); else null. */
  staleSince: number | null;
  /** Epoch ms the shown data came from the server (now for a fresh answer, the copy's time for the phone's); null with none shown. */
  asOf: number | null;
  /** The last read got no answer (offline, a dead network): what is shown, if anything, is the phone's copy or an older answer. */
  isUnreachable: boolean;
};

type Loaded<T> = { data: T; storedAt: number | null; loadedAt: number };

/**
 * useAsync for reads the officer needs in a car park with no signal (decision 0009): every
 * answer is kept in IndexedDB, and when no answer comes (offline, a dead network) the last kept
 * copy is shown instead, with the time it was stored so the screen can say it may be out of date.
 * Only "no answer" falls back; a 404 or 403 is the server's word and is shown as such.
 * A null key reads without caching (e.g. free-text searches, which would only fill the phone).
 */
export function useCachedAsync<T>(
  cacheKey: string | null,
  load: () => Promise<T>,
  deps: readonly unknown[],
  fallbackMessage: string,
): CachedAsyncState<T> {
  const userId = useCurrentUser()?.id ?? null;
  // Cached answers belong to one officer: a shared phone never shows one officer's PCNs to another.
  const key = cacheKey && userId ? `${userId}:${cacheKey}` : null;
  const loadCached = useCallback(() => loadWithCache(key, load), [key, load]);
  const state = useAsync<Loaded<T>>(loadCached, [key, ...deps], fallbackMessage);
  return {
    ...state,
    data: state.data?.data,
    staleSince: state.data?.storedAt ?? null,
    asOf: state.data ? (state.data.storedAt ?? state.data.loadedAt) : null,
    isUnreachable: state.data?.storedAt != null || state.error?.isNetworkError === true,
  };
}

async function loadWithCache<T>(key: string | null, load: () => Promise<T>): Promise<Loaded<T>> {
  if (key === null || typeof indexedDB === 'undefined') return { data: await load(), storedAt: null, loadedAt: Date.now() };
  const db = getLocalDb();
  try {
    const data = await load();
    // Keeping a copy must never fail the screen (a full phone still shows what it fetched).
    void writeCache(db, key, data).catch(() => undefined);
    return { data, storedAt: null, loadedAt: Date.now() };
  } catch (error) {
    if (!toApiError(error, '').isNetworkError) throw error;
    const cached = await readCache<T>(db, key).catch(() => undefined);
    if (!cached) throw error;
    return { data: cached.value, storedAt: cached.storedAt, loadedAt: cached.storedAt };
  }
}
