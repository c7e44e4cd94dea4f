import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage, type KeyValueStorage } from './api-client.ts';
import { createLocalDb } from './local-db/database.ts';
import { createDraftJournal, DRAFT_JOURNAL_KEY } from './local-db/draft-journal.ts';
import { createEmptyDraft } from './local-db/drafts.ts';
import type { LocalDb } from './local-db/records.ts';
import { readSessionRow, saveSessionRow } from './local-db/session-row.ts';
import { createSessionTokens, SESSION_MOVED_KEY } from './session-tokens.ts';

let storage: KeyValueStorage;
let db: LocalDb;

beforeEach(() => {
  storage = createMemoryStorage();
  db = createLocalDb(`session-tokens-${randomUUID()}`);
});
afterEach(() => db.close());

const tokensOf = () => createSessionTokens({ name: db.name, db: async () => db, mirror: storage });

/** What the version before kept in localStorage beside its copy in IndexedDB. */
function earlierVersion(pair: { token: string; refreshToken: string; storedAt: number; deviceToken?: string }) {
  storage.setItem('token', pair.token);
  storage.setItem('refreshToken', pair.refreshToken);
  storage.setItem('tokensSetAt', String(pair.storedAt));
  if (pair.deviceToken) storage.setItem('sessionDeviceToken', pair.deviceToken);
  storage.setItem('profile', JSON.stringify({ id: 'u1', email: 'officer@example.com' }));
}

describe('the session upgraded from the version that kept it in localStorage', () => {
  it('keeps the session of an officer whose pair was only in localStorage, once', async () => {
    earlierVersion({ token: 't1', refreshToken: 'r1', storedAt: 1000, deviceToken: 'device-1' });
    expect(await tokensOf().read()).toMatchObject({ userId: 'u1', token: 't1', refreshToken: 'r1', deviceToken: 'device-1' });
    expect(storage.getItem(SESSION_MOVED_KEY)).toBe('1');
    expect(storage.getItem('tokensSetAt')).toBeNull();
    expect(storage.getItem('sessionDeviceToken')).toBeNull();

    // Once only: after a sign-out, the keys (here written by hand) bring nobody back.
    await tokensOf().end();
    earlierVersion({ token: 't2', refreshToken: 'r2', storedAt: 2000 });
    expect(await tokensOf().read()).toBeNull();
  });

  it('takes the newer pair when localStorage holds a rotation its copy in IndexedDB missed', async () => {
    await saveSessionRow(db, { userId: 'u1', token: 'old', refreshToken: 'old-refresh', deviceToken: 'device-1' }, 1000);
    earlierVersion({ token: 'new', refreshToken: 'new-refresh', storedAt: 2000 });
    expect(await tokensOf().read()).toMatchObject({ userId: 'u1', token: 'new', refreshToken: 'new-refresh', deviceToken: 'device-1' });
  });

  it('keeps the IndexedDB pair when the service worker rotated it last', async () => {
    await saveSessionRow(db, { userId: 'u1', token: 'worker', refreshToken: 'worker-refresh' }, 3000);
    earlierVersion({ token: 'page', refreshToken: 'page-refresh', storedAt: 2000, deviceToken: 'device-1' });
    expect(await tokensOf().read()).toMatchObject({ token: 'worker', refreshToken: 'worker-refresh', deviceToken: 'device-1' });
    // The keys now show the session's pair.
    expect([storage.getItem('token'), storage.getItem('refreshToken')]).toEqual(['worker', 'worker-refresh']);
  });
});

describe('session tokens', () => {
  it('a refresh replaces only the pair it was refreshed from', async () => {
    const tokens = tokensOf();
    await tokens.signIn({ userId: 'u1', token: 't1', refreshToken: 'r1', deviceToken: 'device-1' });
    expect(await tokens.rotate({ token: 't2', refreshToken: 'r2' }, 'r1')).toBe(true);
    // An answer to the pair before: another tab has rotated since, and its pair stays.
    expect(await tokens.rotate({ token: 'stale', refreshToken: 'stale-refresh' }, 'r1')).toBe(false);
    expect(await readSessionRow(db)).toMatchObject({ userId: 'u1', token: 't2', refreshToken: 'r2', deviceToken: 'device-1' });
    expect([storage.getItem('token'), storage.getItem('refreshToken')]).toEqual(['t2', 'r2']);
    // Signed out: a late answer signs nobody back in.
    await tokens.end();
    expect(await tokens.rotate({ token: 't3', refreshToken: 'r3' }, 'r2')).toBe(false);
    expect(await tokens.read()).toBeNull();
    expect([storage.getItem('token'), storage.getItem('refreshToken')]).toEqual([null, null]);
  });

  it('sign-out saves the form writes left in flight for their officer, then clears their notes', async () => {
    const tokens = tokensOf();
    await tokens.signIn({ userId: 'u1', token: 't1', refreshToken: 'r1' });
    const draft = { ...createEmptyDraft('u1', randomUUID(), 1000), vehicleRegistration: 'LEFT1' };
    createDraftJournal(storage).note({ kind: 'fields', userId: 'u1', draftId: draft.id, draft });
    await tokens.end();
    expect(await db.drafts.get(draft.id)).toMatchObject({ userId: 'u1', vehicleRegistration: 'LEFT1' });
    expect(storage.getItem(DRAFT_JOURNAL_KEY)).toBeNull();
  });
});
