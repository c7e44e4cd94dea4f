import { REFRESH_TOKEN_STORAGE_KEY, TOKEN_STORAGE_KEY, type AuthTokens } from '@parkpatrol/shared';
import type { AuthRecord, LocalDb } from './local-db/records.ts';
import { createSessionRowReader } from './local-db/session-row-reader.ts';
import type { SharedTokens } from './token-refresh.ts';

/**
 * THE home of the session's token pair: the `auth` row of the device's database. Every reader
 * and writer in the page goes through here (the API client, its refresh, the session store);
 * the service worker reads and rotates the same row. One copy, so no copy can be older than
 * another: a refresh token another tab or the worker rotated is simply what the next read sees,
 * and a refresh under the shared Web Lock (lib/token-refresh.ts) reads the row first. Reads use
 * IndexedDB's own API (the sign-in screen carries no Dexie); writes go through Dexie.
 *
 * The product names two localStorage keys for the session, `token` and `refreshToken`. They are
 * written from here, after every write and every read of the row (so also after the service worker,
 * which has no localStorage, rotated it), but never read to decide anything: a pair written there
 * by hand signs nobody in.
 */

export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type SessionSignIn = AuthTokens & { userId: string; deviceToken?: string };

/** Set once this installation's session lives in IndexedDB, so the one-time move never runs again. */
export const SESSION_MOVED_KEY = 'sessionInIndexedDb';
/** Keys an earlier version wrote beside the pair; read once by the move, then removed. */
const LEGACY_STORED_AT_KEY = 'tokensSetAt';
const LEGACY_DEVICE_KEY = 'sessionDeviceToken';
/** The profile cache of features/auth/session-store.ts: the officer a moved pair belongs to. */
const LEGACY_PROFILE_KEY = 'profile';

export function createSessionTokens(deps: {
  /** The database's name, for the reads. */
  name: string;
  /** The database, for the writes, opened when first needed: the sign-in screen's code does not carry Dexie. */
  db: () => Promise<LocalDb>;
  /** localStorage in the app: written for the product's keys, never read but by the one-time move. */
  mirror: KeyValueStorage;
  now?: () => number;
}) {
  const { mirror } = deps;
  const now = deps.now ?? Date.now;
  type Rows = typeof import('./local-db/session-row.ts');
  let ready: Promise<{ db: LocalDb; rows: Rows }> | null = null;
  let mirrorMatches: SharedTokens | null | undefined;
  const readRow = createSessionRowReader(deps.name);

  /** The database for a write, after the one-time move of an earlier version's pair. */
  function open(): Promise<{ db: LocalDb; rows: Rows }> {
    // Dexie and the row's code come with the first write, not with the sign-in screen's code.
    ready ??= Promise.all([deps.db(), import('./local-db/session-row.ts')]).then(async ([db, rows]) => {
      await moveEarlierSession(db, rows);
      return { db, rows };
    });
    ready.catch(() => {
      // A database that failed to open is tried again at the next read.
      ready = null;
    });
    return ready;
  }

  /**
   * An earlier version kept the pair in localStorage and copied it into the row, the newer of
   * the two winning by its timestamp. An officer who upgrades mid-shift keeps the session: once,
   * the pair is taken from there when the row has none or an older one, and never again.
   */
  async function moveEarlierSession(db: LocalDb, { keepSessionDeviceToken, readSessionRow, saveSessionRow }: Rows): Promise<void> {
    if (mirror.getItem(SESSION_MOVED_KEY)) return;
    const token = mirror.getItem(TOKEN_STORAGE_KEY);
    const refreshToken = mirror.getItem(REFRESH_TOKEN_STORAGE_KEY);
    const deviceToken = mirror.getItem(LEGACY_DEVICE_KEY) ?? undefined;
    const storedAt = Number(mirror.getItem(LEGACY_STORED_AT_KEY)) || 0;
    const row = await readSessionRow(db);
    const userId = row?.userId ?? profileUserId();
    if (token && refreshToken && userId && (!row || (row.refreshToken !== refreshToken && storedAt > row.updatedAt))) {
      await saveSessionRow(
        db,
        { userId, token, refreshToken, ...((row?.deviceToken ?? deviceToken) ? { deviceToken: row?.deviceToken ?? deviceToken } : {}) },
        now(),
      );
    } else if (row && !row.deviceToken && deviceToken) {
      await keepSessionDeviceToken(db, deviceToken);
    }
    mirror.removeItem(LEGACY_STORED_AT_KEY);
    mirror.removeItem(LEGACY_DEVICE_KEY);
    mirror.setItem(SESSION_MOVED_KEY, '1');
  }

  function profileUserId(): string | undefined {
    try {
      const profile: unknown = JSON.parse(mirror.getItem(LEGACY_PROFILE_KEY) ?? 'null');
      const id = profile && typeof profile === 'object' ? (profile as { id?: unknown }).id : undefined;
      return typeof id === 'string' ? id : undefined;
    } catch {
      return undefined;
    }
  }

  function writeMirror(session: SharedTokens | null): void {
    if (mirrorMatches !== undefined && sameSession(mirrorMatches, session)) return;
    try {
      if (session) {
        mirror.setItem(TOKEN_STORAGE_KEY, session.token);
        mirror.setItem(REFRESH_TOKEN_STORAGE_KEY, session.refreshToken);
      } else {
        mirror.removeItem(TOKEN_STORAGE_KEY);
        mirror.removeItem(REFRESH_TOKEN_STORAGE_KEY);
      }
      mirrorMatches = session;
    } catch (error) {
      // The keys are a courtesy; a full disk must not stop a session the row holds.
      console.warn('Could not copy the session to local storage', error);
    }
  }

  /** Whether an earlier version's pair may still wait to be moved (which needs the database's writes). */
  function mayNeedMove(): boolean {
    if (mirror.getItem(SESSION_MOVED_KEY)) return false;
    if (mirror.getItem(TOKEN_STORAGE_KEY) !== null) return true;
    // No pair was left behind: there is nothing to move, now or later.
    try {
      mirror.setItem(SESSION_MOVED_KEY, '1');
    } catch {
      // Asked again at the next read; nothing waits on it.
    }
    return false;
  }

  async function read(): Promise<SharedTokens | null> {
    if (ready || mayNeedMove()) await open();
    const session = toShared(await readRow());
    writeMirror(session);
    return session;
  }

  return {
    /** The session's pair, or null when nobody is signed in on this device. */
    read,
    /** A sign-in (password or access link): the pair the server has just issued. */
    async signIn(session: SessionSignIn): Promise<void> {
      const { db, rows } = await open();
      await rows.saveSessionRow(db, session, now());
      await read();
    },
    /** A refresh: the new pair replaces `from`, the refresh token it was refreshed with, if the row still holds it. */
    async rotate(pair: AuthTokens, from: string): Promise<boolean> {
      const { db, rows } = await open();
      const rotated = await rows.rotateSessionRow(db, from, pair, now());
      await read();
      return rotated;
    },
    /** A session signed in before sessions kept their device token takes this device's known one. */
    async keepDeviceToken(deviceToken: string): Promise<void> {
      const { db, rows } = await open();
      await rows.keepSessionDeviceToken(db, deviceToken);
    },
    /** Sign-out or a refused refresh: the pair goes, with the cached reads, and the officer's queue waits for a sign-in. */
    async end(): Promise<void> {
      // The keys go first and whatever happens: a sign-out must leave no pair in sight.
      writeMirror(null);
      const { db, rows } = await open();
      // The session row next: the page may be left at once (the sign-in screen, another officer),
      // and a row still there would sign the last officer back in at the next start.
      await rows.endSessionRow(db);
      // Then form writes left in flight are saved for their own officer, and their notes go. Cut
      // short, they stay noted and are applied for that officer alone at a later start.
      const journal = await import('./local-db/draft-journal.ts');
      await journal.settleDraftJournalAtSignOut(db, journal.createDraftJournal(mirror));
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;

function toShared(row: AuthRecord | undefined): SharedTokens | null {
  return row
    ? {
        userId: row.userId,
        token: row.token,
        refreshToken: row.refreshToken,
        updatedAt: row.updatedAt,
        deviceToken: row.deviceToken ?? null,
      }
    : null;
}

function sameSession(a: SharedTokens | null, b: SharedTokens | null): boolean {
  return a === b || (a !== null && b !== null && a.token === b.token && a.refreshToken === b.refreshToken);
}
