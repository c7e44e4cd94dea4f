import { Dexie } from 'dexie';
import { abortTransactionsWhenCached } from '../page-cache-guard.ts';
import { LOCAL_DB_NAME, type LocalDb } from './records.ts';

/**
 * The device's own database (decision 0009). Everything an officer types or photographs
 * lands here first, so a killed app, a dead battery or a week without signal loses nothing.
 * Page and service worker open the same database, and the session's token pair lives in its
 * `auth` store (lib/session-tokens.ts), so the service worker sends with the page's session.
 *
 * The schema's versions stay as they are, in order: an installed app upgrades through them and
 * must keep the notices it has queued.
 */

/** Opens the database; the tests open their own by name. */
export function createLocalDb(name: string = LOCAL_DB_NAME): LocalDb {
  const db = new Dexie(name) as LocalDb;
  db.version(1).stores({
    // [userId+state]: the outbox list and unsent count of one officer; [state+nextAttemptAt]:
    // the engine's "what is due" query; [userId+updatedAt]: the form's "resume my drafts" list.
    drafts: 'id, state, [userId+state], [state+nextAttemptAt], [userId+updatedAt]',
    photos: 'id, draftId, [draftId+position]',
    cache: 'key, storedAt',
    auth: 'id',
  });
  return db;
}

let sharedDb: LocalDb | null = null;

/** The app's one database connection (page or service worker). */
export function getLocalDb(): LocalDb {
  if (!sharedDb) {
    sharedDb = createLocalDb();
    if (typeof window !== 'undefined') abortTransactionsWhenCached(sharedDb, window);
  }
  return sharedDb;
}
