import { useCallback } from 'react';
import { toApiError } from './api-client.ts';
import { useCurrentUser } from './current-user.tsx';
import { getLocalDb } from './local-db/database.ts';
import { readCache, writeCache } from './local-db/read-cache.ts';
import { useAsync, type AsyncState } from './use-async.ts';

export type CachedAsyncState<T> = AsyncState<T> & {
  /** Epoch ms the shown data was stored on the phone, when it came from there (no network); else null. */
  staleSince: number | null;
};

type Loaded<T> = { data: T; storedAt: number | null };

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
  return { ...state, data: state.data?.data, staleSince: state.data?.storedAt ?? null };
}

async function loadWithCache<T>(key: string | null, load: () => Promise<T>): Promise<Loaded<T>> {
  if (key === null || typeof indexedDB === 'undefined') return { data: await load(), storedAt: null };
  const db = getLocalDb();
  try {
    const data = await load();
    // Keeping a copy must never fail the screen (a full phone still shows what it fetched).
    void writeCache(db, key, data).catch(() => undefined);
    return { data, storedAt: null };
  } catch (error) {
    if (!toApiError(error, '').isNetworkError) throw error;
    const cached = await readCache<T>(db, key).catch(() => undefined);
    if (!cached) throw error;
    return { data: cached.value, storedAt: cached.storedAt };
  }
}
