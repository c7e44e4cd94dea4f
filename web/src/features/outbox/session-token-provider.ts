import { readSessionRow, saveSessionRow } from '../../lib/local-db/session-row.ts';
import type { LocalDb } from '../../lib/local-db/records.ts';
import type { TokenProvider } from './outbox-sync.ts';

/**
 * The session's pair for the outbox, from the `auth` row: the one home of the pair
 * (lib/session-tokens.ts), which the page, its other tabs and the service worker all read.
 * Refresh tokens rotate, so whichever side refreshes writes the new pair to that row, and the
 * next read anywhere sees it: nobody replays a rotated token and revokes the family.
 */
export function createSessionTokenProvider(db: LocalDb): TokenProvider {
  return {
    async getTokens() {
      const row = await readSessionRow(db);
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
      await saveSessionRow(db, tokens, updatedAt);
    },
  };
}
