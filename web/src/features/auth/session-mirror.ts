import { liveQuery } from 'dexie';
import {
  clearCache,
  clearMirroredTokens,
  EVIDENCE_CACHE_NAME,
  holdDraftsForSignIn,
  readMirroredTokens,
  saveMirroredTokens,
  type LocalDb,
} from '../../lib/local-db.ts';

export type MirroredSession = {
  userId: string;
  token: string;
  refreshToken: string;
  /** When the pair was stored (epoch ms); the newer of the page's pair and the mirrored one wins. */
  updatedAt: number;
  /** The session's device token: the worker's refresh sends it, as the page's does. */
  deviceToken?: string;
};

/**
 * The session as the service worker sees it: the tokens mirrored into IndexedDB (the worker has
 * no localStorage) so it can send the outbox with the tab closed, and read back when the worker
 * refreshed them itself.
 */
export type SessionMirror = {
  save(session: MirroredSession): Promise<void>;
  /**
   * The session is over. Its tokens, the cached reads and the evidence images go; the officer's
   * waiting notices stay on the phone as 'Sign in to send' and are sent after the next sign-in.
   */
  end(userId: string | null): Promise<void>;
  /** Calls back with the mirrored pair whenever it changes (in this tab, another or the worker). */
  watch(listener: (session: MirroredSession | null) => void): () => void;
};

export function createDexieSessionMirror(getDb: () => LocalDb): SessionMirror {
  return {
    async save(session) {
      const db = getDb();
      const current = await readMirroredTokens(db);
      // Following the row writes the same pair back: do not touch the row (or the drafts) for that.
      if (current && current.userId === session.userId && current.token === session.token && current.refreshToken === session.refreshToken)
        return;
      const { updatedAt, ...tokens } = session;
      await saveMirroredTokens(db, tokens, updatedAt);
    },
    async end(userId) {
      const db = getDb();
      await db.transaction('rw', db.auth, db.drafts, db.cache, async () => {
        await clearMirroredTokens(db);
        if (userId) await holdDraftsForSignIn(db, userId);
        await clearCache(db);
      });
      if (typeof caches !== 'undefined') await caches.delete(EVIDENCE_CACHE_NAME).catch(() => false);
    },
    watch(listener) {
      const subscription = liveQuery(() => readMirroredTokens(getDb())).subscribe({
        next: (row) =>
          listener(row ? { userId: row.userId, token: row.token, refreshToken: row.refreshToken, updatedAt: row.updatedAt } : null),
        error: (error: unknown) => console.warn('Could not follow the mirrored session', error),
      });
      return () => subscription.unsubscribe();
    },
  };
}
