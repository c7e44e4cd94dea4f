import { readMirroredTokens, saveMirroredTokens, type LocalDb } from '../../lib/local-db.ts';
import type { TokenProvider } from './outbox-sync.ts';

/**
 * Tokens from the Dexie `auth` row, the one place page and service worker both read. Refresh
 * tokens rotate: whichever side refreshes writes the new pair here, and the page's session store
 * follows the row (watchMirroredTokens), so nobody replays a rotated token and revokes the family.
 */
export function createMirroredTokenProvider(db: LocalDb): TokenProvider {
  return {
    async getTokens() {
      const row = await readMirroredTokens(db);
      return row
        ? {
            userId: row.userId,
            token: row.token,
            refreshToken: row.refreshToken,
            updatedAt: row.updatedAt,
            ...(row.deviceToken ? { deviceToken: row.deviceToken } : {}),
          }
        : null;
    },
    async saveTokens({ updatedAt, ...tokens }) {
      await saveMirroredTokens(db, tokens, updatedAt);
    },
  };
}
