import type { CacheRecord, LocalDb } from './records.ts';

/** What was read from the server (car parks, PCN pages and details, profile), for a start without signal. */

export async function writeCache<T>(db: LocalDb, key: string, value: T, now = Date.now()): Promise<void> {
  await db.cache.put({ key, value, storedAt: now });
}

/** Logout: what was read from the server must not outlive the session on a shared phone. */
export async function clearCache(db: LocalDb): Promise<void> {
  await db.cache.clear();
}

export async function readCache<T>(db: LocalDb, key: string): Promise<CacheRecord<T> | undefined> {
  return (await db.cache.get(key)) as CacheRecord<T> | undefined;
}
