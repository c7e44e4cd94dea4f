import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDexieDraftStore } from './draft-store.ts';
import type { PcnDraft } from '../pcn-draft.ts';
import { createMemoryStorage } from '../../../lib/api-client.ts';
import { abortTransactionsWhenCached } from '../../../lib/page-cache-guard.ts';
import { createLocalDb } from '../../../lib/local-db/database.ts';
import {
  createDraftJournal,
  DRAFT_JOURNAL_KEY,
  DRAFT_JOURNAL_MAX_CHARS,
  DRAFT_JOURNAL_MAX_NOTES,
  replayDraftJournal,
  settleDraftJournalAtSignOut,
  type JournalStorage,
} from '../../../lib/local-db/draft-journal.ts';
import { createEmptyDraft, saveDraft } from '../../../lib/local-db/drafts.ts';
import type { LocalDb, PhotoRecord } from '../../../lib/local-db/records.ts';

/**
 * A write in flight when the page is left: its commit never happens. The page-cache guard is what
 * aborts a page's open transactions as it goes (page-cache-guard.ts); a transaction the write had
 * not opened yet (Dexie opens one a few microtasks after the call) is aborted as it opens, as a
 * page that is gone runs nothing more. The "next start" is a new connection and a new store over
 * the same local storage.
 */
let name: string;
let storage: JournalStorage;
const opened: LocalDb[] = [];

beforeEach(() => {
  name = `draft-journal-${randomUUID()}`;
  storage = createMemoryStorage();
});
afterEach(async () => {
  for (const db of opened.splice(0)) db.close();
  await createLocalDb(name).delete();
});

/** Another tab's view of the database, as it stands. */
function otherConnection(): LocalDb {
  const db = createLocalDb(name);
  opened.push(db);
  return db;
}

async function startPage() {
  const db = createLocalDb(name);
  opened.push(db);
  const page = Object.assign(new EventTarget(), { location: { reload: vi.fn() } });
  let left = false;
  db.use({
    stack: 'dbcore',
    name: 'page-left',
    create: (down) => ({
      ...down,
      transaction(stores, mode, options) {
        const transaction = down.transaction(stores, mode, options);
        if (left && transaction instanceof IDBTransaction) transaction.abort();
        return transaction;
      },
    }),
  });
  abortTransactionsWhenCached(db, page);
  await db.open();
  const journal = createDraftJournal(storage);
  return {
    db,
    journal,
    store: createDexieDraftStore(() => db, journal),
    /** The officer leaves: whatever the page has in flight never commits. */
    leave: () => {
      left = true;
      page.dispatchEvent(Object.assign(new Event('pagehide'), { persisted: true }));
    },
  };
}

function formDraft(id: string, patch: Partial<PcnDraft> = {}): PcnDraft {
  const now = new Date().toISOString();
  return {
    id,
    pcnId: null,
    pcnNumber: null,
    vehicleRegistration: '',
    carParkId: 'park-1',
    offenceType: 'OTHER',
    description: '',
    location: '',
    observedAt: null,
    stayApplies: null,
    duplicateReason: '',
    checklistWaived: false,
    issuedAt: null,
    step: 0,
    photos: [],
    existingImages: [],
    removeImageIds: [],
    serverError: null,
    createdAt: now,
    updatedAt: now,
    ...patch,
  };
}

function photoRow(draftId: string, position = 0): PhotoRecord {
  const bytes = new Uint8Array([1, 2, 3, 4]).buffer;
  return {
    id: randomUUID(),
    draftId,
    bytes,
    type: 'image/jpeg',
    name: 'a.jpg',
    size: bytes.byteLength,
    takenAt: null,
    sha256: 'x',
    shots: [],
    position,
    createdAt: Date.now(),
  };
}

describe('a write in flight when the page is left', () => {
  it('keeps the last change of a field: applied when the draft is opened at the next start, once', async () => {
    const first = await startPage();
    const draft = formDraft(randomUUID(), { vehicleRegistration: 'AB12' });
    await first.store.save('officer-1', draft);
    expect(first.journal.notes()).toEqual([]);

    const saving = first.store.save('officer-1', { ...draft, vehicleRegistration: 'AB12CDE', step: 1 });
    first.leave();
    await expect(saving).rejects.toThrow();
    // Without the journal the phone would resume with the change lost.
    expect(await otherConnection().drafts.get(draft.id)).toMatchObject({ vehicleRegistration: 'AB12' });
    // Local storage holds fields only, never a photo's bytes.
    expect(storage.getItem(DRAFT_JOURNAL_KEY)).toContain('AB12CDE');

    const next = await startPage();
    expect(await next.store.load(draft.id, 'officer-1')).toMatchObject({ vehicleRegistration: 'AB12CDE', step: 1 });
    expect(next.journal.notes()).toEqual([]);
    expect(storage.getItem(DRAFT_JOURNAL_KEY)).toBeNull();
  });

  it('keeps the first change of a new draft, whose row was never written: the start lists it', async () => {
    const first = await startPage();
    const draft = formDraft(randomUUID(), { vehicleRegistration: 'NEW1' });
    const saving = first.store.save('officer-1', draft);
    first.leave();
    await expect(saving).rejects.toThrow();

    const next = await startPage();
    expect(await replayDraftJournal(next.db, next.journal, 'officer-1')).toBe(0);
    expect(await next.db.drafts.get(draft.id)).toMatchObject({ userId: 'officer-1', state: 'draft', vehicleRegistration: 'NEW1' });
  });

  it('keeps a photo’s ticked shots and a photo’s removal, never its bytes', async () => {
    const first = await startPage();
    const draft = formDraft(randomUUID());
    await first.store.save('officer-1', draft);
    const [kept, removed] = [photoRow(draft.id, 0), photoRow(draft.id, 1)];
    await first.db.photos.bulkAdd([kept, removed]);

    const ticking = first.store.setPhotoShots('officer-1', kept.id, ['PLATE', 'SIGNAGE']);
    const removing = first.store.removePhoto('officer-1', removed.id);
    first.leave();
    await expect(ticking).rejects.toThrow();
    await expect(removing).rejects.toThrow();
    expect(storage.getItem(DRAFT_JOURNAL_KEY)).not.toContain('bytes');

    const next = await startPage();
    const loaded = await next.store.load(draft.id, 'officer-1');
    expect(loaded).toMatchObject({ photos: [{ id: kept.id, shots: ['PLATE', 'SIGNAGE'] }] });
  });

  it('keeps a Submit: the next start puts the notice in the outbox as it was pressed, and again changes nothing', async () => {
    const first = await startPage();
    const draft = formDraft(randomUUID(), { vehicleRegistration: 'SUB1', step: 3 });
    await first.store.save('officer-1', draft);
    const photo = photoRow(draft.id);
    await first.db.photos.add(photo);
    const issuedAt = new Date().toISOString();

    const before = Date.now();
    const submitting = first.store.queue('officer-1', {
      ...draft,
      issuedAt,
      stayApplies: false,
      photos: [{ ...photo, blob: new Blob(), shots: [] }],
    });
    first.leave();
    await expect(submitting).rejects.toThrow();
    expect(await otherConnection().drafts.get(draft.id)).toMatchObject({ state: 'draft', issuedAt: null });

    const next = await startPage();
    expect(await replayDraftJournal(next.db, next.journal, 'officer-1')).toBe(1);
    const queued = await next.db.drafts.get(draft.id);
    expect(queued).toMatchObject({ state: 'queued', issuedAt, stayApplies: false });
    expect(queued!.queuedAt).toBeGreaterThanOrEqual(before);
    expect(queued!.queuedAt).toBeLessThanOrEqual(Date.now());
    // The form, opened again, finds it submitted.
    expect(await next.store.load(draft.id, 'officer-1')).toBe('locked');
    expect(await replayDraftJournal(next.db, next.journal, 'officer-1')).toBe(0);
  });

  it('applies a note twice as once: a page that died after the commit but before the note went', async () => {
    const { db, journal } = await startPage();
    const record = { ...createEmptyDraft('officer-1', randomUUID(), 1000), vehicleRegistration: 'TWICE' };
    await saveDraft(db, record);
    journal.note({ kind: 'fields', userId: 'officer-1', draftId: record.id, draft: record });
    await replayDraftJournal(db, journal, 'officer-1');
    expect(await db.drafts.get(record.id)).toMatchObject({ vehicleRegistration: 'TWICE', state: 'draft' });
    expect(await db.drafts.count()).toBe(1);
  });

  it('drops a Submit the officer carried on from: a change after it means the draft stays a draft', async () => {
    const { db, journal } = await startPage();
    const record = createEmptyDraft('officer-1', randomUUID(), 1000);
    await saveDraft(db, record);
    journal.note({ kind: 'queued', userId: 'officer-1', draftId: record.id, at: Date.now(), photoIds: [] });
    journal.note({ kind: 'fields', userId: 'officer-1', draftId: record.id, draft: { ...record, description: 'More to say' } });
    expect(await replayDraftJournal(db, journal, 'officer-1')).toBe(0);
    expect(await db.drafts.get(record.id)).toMatchObject({ state: 'draft', description: 'More to say' });
  });
});

describe('a discarded draft', () => {
  it('stays discarded: what was noted of it goes with it, and the next start brings nothing back', async () => {
    const { db, journal, store } = await startPage();
    const record = { ...createEmptyDraft('officer-1', randomUUID(), 1000), vehicleRegistration: 'GONE1' };
    await saveDraft(db, record);
    journal.note({ kind: 'fields', userId: 'officer-1', draftId: record.id, draft: record });
    journal.note({ kind: 'queued', userId: 'officer-1', draftId: record.id, at: Date.now(), photoIds: [] });
    await store.remove(record.id);
    expect(journal.notes()).toEqual([]);
    await replayDraftJournal(db, journal, 'officer-1');
    expect(await db.drafts.get(record.id)).toBeUndefined();
  });
});

describe('the journal on a shared phone', () => {
  it('applies an officer’s notes only for that officer, and never to another officer’s draft', async () => {
    const { db, journal } = await startPage();
    const theirs = { ...createEmptyDraft('officer-2', randomUUID(), 1000), vehicleRegistration: 'THEIRS' };
    await saveDraft(db, theirs);
    const mine = { ...createEmptyDraft('officer-1', randomUUID(), 1000), vehicleRegistration: 'MINE' };
    journal.note({ kind: 'fields', userId: 'officer-1', draftId: mine.id, draft: mine });
    // A note naming officer 1 over officer 2's draft (an old link on a shared phone).
    journal.note({
      kind: 'fields',
      userId: 'officer-1',
      draftId: theirs.id,
      draft: { ...theirs, userId: 'officer-1', vehicleRegistration: 'TAKEN' },
    });

    await replayDraftJournal(db, journal, 'officer-2');
    expect(await db.drafts.get(mine.id)).toBeUndefined();
    expect(journal.notes('officer-1')).toHaveLength(2);

    await replayDraftJournal(db, journal, 'officer-1');
    expect(await db.drafts.get(mine.id)).toMatchObject({ userId: 'officer-1', vehicleRegistration: 'MINE' });
    expect(await db.drafts.get(theirs.id)).toMatchObject({ userId: 'officer-2', vehicleRegistration: 'THEIRS' });
    expect(journal.notes()).toEqual([]);
  });

  it('sign-out saves what is noted for its own officer, then clears the journal', async () => {
    const { db, journal } = await startPage();
    const record = { ...createEmptyDraft('officer-1', randomUUID(), 1000), vehicleRegistration: 'LEFT1' };
    journal.note({ kind: 'fields', userId: 'officer-1', draftId: record.id, draft: record });
    await settleDraftJournalAtSignOut(db, journal);
    expect(await db.drafts.get(record.id)).toMatchObject({ userId: 'officer-1', vehicleRegistration: 'LEFT1' });
    expect(storage.getItem(DRAFT_JOURNAL_KEY)).toBeNull();
  });
});

describe('the journal’s bounds', () => {
  it('keeps one note per thing and at most a fixed number, the oldest going first', () => {
    const journal = createDraftJournal(storage);
    const record = createEmptyDraft('officer-1', 'draft-1', 1000);
    journal.note({ kind: 'fields', userId: 'officer-1', draftId: 'draft-1', draft: record });
    journal.note({ kind: 'fields', userId: 'officer-1', draftId: 'draft-1', draft: { ...record, location: 'Gate' } });
    expect(journal.notes()).toMatchObject([{ draft: { location: 'Gate' } }]);
    for (let n = 0; n < DRAFT_JOURNAL_MAX_NOTES + 5; n++)
      journal.note({ kind: 'shots', userId: 'officer-1', photoId: `photo-${n}`, shots: [] });
    const notes = journal.notes();
    expect(notes).toHaveLength(DRAFT_JOURNAL_MAX_NOTES);
    expect(notes.at(-1)).toMatchObject({ photoId: `photo-${DRAFT_JOURNAL_MAX_NOTES + 4}` });
  });

  it('notes nothing too large or where local storage refuses, and the write still goes to IndexedDB', async () => {
    const record = createEmptyDraft('officer-1', 'draft-1', 1000);
    const journal = createDraftJournal(storage);
    expect(
      journal.note({
        kind: 'fields',
        userId: 'officer-1',
        draftId: 'draft-1',
        draft: { ...record, description: 'x'.repeat(DRAFT_JOURNAL_MAX_CHARS) },
      }),
    ).toBeNull();
    expect(journal.notes()).toEqual([]);

    const full: JournalStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    const { db } = await startPage();
    const store = createDexieDraftStore(() => db, createDraftJournal(full));
    const draft = formDraft(randomUUID(), { vehicleRegistration: 'FULL1' });
    await store.save('officer-1', draft);
    expect(await db.drafts.get(draft.id)).toMatchObject({ vehicleRegistration: 'FULL1' });
  });
});
