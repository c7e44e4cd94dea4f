import type { AuthTokens } from '@parkpatrol/shared';
import { holdDraftsForSignIn, resumeDraftsAfterSignIn } from './outbox-queue.ts';
import { clearCache } from './read-cache.ts';
import { AUTH_ROW_ID, type AuthRecord, type LocalDb } from './records.ts';

/**
 * The `auth` row: the session's token pair. Only lib/session-tokens.ts (the page) and the
 * outbox's token provider (page and service worker) use these.
 */

export async function readSessionRow(db: LocalDb): Promise<AuthRecord | undefined> {
  return db.auth.get(AUTH_ROW_ID);
}

/**
 * A sign-in. A saved session is a working one, so the officer's notices parked as
 * 'needs-sign-in' go back to the queue in the same transaction: signing in again is all it
 * takes to send them.
 */
export async function saveSessionRow(
  db: LocalDb,
  session: { userId: string; token: string; refreshToken: string; deviceToken?: string },
  now = Date.now(),
): Promise<void> {
  await db.transaction('rw', db.auth, db.drafts, async () => {
    await db.auth.put({ id: AUTH_ROW_ID, ...session, updatedAt: now });
    await resumeDraftsAfterSignIn(db, session.userId, now);
  });
}

/**
 * A refresh: the new pair replaces the one it was refreshed from, keeping the row's officer and
 * device token. A row that is gone (signed out meanwhile) or holds another pair (another
 * sign-in) is left alone: an answer to an old session must not sign anyone back in.
 */
export async function rotateSessionRow(db: LocalDb, from: string, pair: AuthTokens, now = Date.now()): Promise<boolean> {
  return db.transaction('rw', db.auth, async () => {
    const row = await readSessionRow(db);
    if (!row || row.refreshToken !== from) return false;
    await db.auth.put({ ...row, ...pair, updatedAt: now });
    return true;
  });
}

/** For a session that has none yet: the device token it sends from now on with every refresh. */
export async function keepSessionDeviceToken(db: LocalDb, deviceToken: string): Promise<void> {
  await db.transaction('rw', db.auth, async () => {
    const row = await readSessionRow(db);
    if (row && !row.deviceToken) await db.auth.put({ ...row, deviceToken });
  });
}

/**
 * The session is over. Its pair and the cached reads go; the officer's waiting notices stay on
 * the phone as 'Sign in to send' and are sent after the next sign-in.
 */
export async function endSessionRow(db: LocalDb): Promise<void> {
  await db.transaction('rw', db.auth, db.drafts, db.cache, async () => {
    const row = await readSessionRow(db);
    await db.auth.delete(AUTH_ROW_ID);
    if (row) await holdDraftsForSignIn(db, row.userId);
    await clearCache(db);
  });
}
