import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalDb } from './local-db/database.ts';
import {
  createEmptyDraft,
  discardDraft,
  findDraftPhotos,
  findOpenDrafts,
  saveDraft,
  saveDraftIfNew,
  queueDraft,
  PhotoReadBackError,
  retryDraftNow,
} from './local-db/drafts.ts';
import { countUnsentDrafts, findOutboxRows, findUnsentDrafts, holdDraftsForSignIn } from './local-db/outbox-queue.ts';
import type { DraftRecord, LocalDb } from './local-db/records.ts';
import { readSessionRow, saveSessionRow } from './local-db/session-row.ts';
import { isQuotaExceededError } from './storage-full.ts';

let db: LocalDb;
beforeEach(() => {
  db = createLocalDb(`local-db-test-${randomUUID()}`);
});
afterEach(() => db.close());

async function addDraft(userId: string, overrides: Partial<DraftRecord> = {}) {
  const draft = { ...createEmptyDraft(userId, randomUUID(), Date.now()), ...overrides };
  await db.drafts.add(draft);
  return draft;
}

describe('local database', () => {
  it('starts a draft with no first sighting and keeps the evidence fields the form saves', async () => {
    const draft = createEmptyDraft('u1', randomUUID(), Date.now());
    expect(draft).toMatchObject({ observedAt: null, stayApplies: null, duplicateReason: '', checklistWaived: false, issuedAt: null });
    const evidence = {
      observedAt: '2026-06-01T09:00:00.000Z',
      stayApplies: false,
      duplicateReason: 'Came back',
      checklistWaived: true,
      issuedAt: '2026-06-01T09:20:00.000Z',
    };
    await saveDraft(db, draft);
    await saveDraft(db, { ...draft, ...evidence });
    expect(await db.drafts.get(draft.id)).toMatchObject(evidence);
  });

  it('lists one officer’s unsent drafts oldest first and counts them', async () => {
    const newer = await addDraft('u1', { state: 'failed', queuedAt: 20 });
    const older = await addDraft('u1', { state: 'queued', queuedAt: 10 });
    await addDraft('u1', { state: 'sent' });
    await addDraft('u1', { state: 'draft' });
    await addDraft('u2', { state: 'queued' });
    expect((await findUnsentDrafts(db, 'u1')).map((d) => d.id)).toEqual([older.id, newer.id]);
    expect(await countUnsentDrafts(db, 'u1')).toBe(2);
  });

  it('lists open drafts newest first for resuming', async () => {
    const old = await addDraft('u1', { updatedAt: 1 });
    const recent = await addDraft('u1', { updatedAt: 2 });
    await addDraft('u1', { state: 'queued', updatedAt: 3 });
    expect((await findOpenDrafts(db, 'u1')).map((d) => d.id)).toEqual([recent.id, old.id]);
  });

  it('queues a draft with a clean slate and keeps its first queue time on resubmit', async () => {
    const draft = await addDraft('u1', { state: 'failed', attempts: 3, lastError: 'Bad', lastErrorFields: { location: 'x' }, queuedAt: 5 });
    await queueDraft(db, draft.id, 100);
    expect(await db.drafts.get(draft.id)).toMatchObject({
      state: 'queued',
      attempts: 0,
      lastError: null,
      lastErrorFields: null,
      queuedAt: 5,
    });
  });

  it('retries a waiting draft now, but leaves a sent one alone', async () => {
    const waiting = await addDraft('u1', { state: 'queued', nextAttemptAt: 9e12 });
    const sent = await addDraft('u1', { state: 'sent' });
    await retryDraftNow(db, waiting.id);
    await retryDraftNow(db, sent.id);
    expect((await db.drafts.get(waiting.id))?.nextAttemptAt).toBe(0);
    expect((await db.drafts.get(sent.id))?.state).toBe('sent');
  });

  it('reads every photo back before queuing: a lost or truncated write leaves the notice in the form, saying how many', async () => {
    const draft = await addDraft('u1');
    const photo = (id: string, bytes: number, size = bytes) => ({
      id,
      draftId: draft.id,
      bytes: new ArrayBuffer(bytes),
      type: 'image/jpeg',
      name: `${id}.jpg`,
      size,
      takenAt: null,
      sha256: 'x',
      position: 0,
      createdAt: 0,
    });
    await db.photos.bulkAdd([photo('p1', 4), photo('p2', 2, 4)]);
    // p2 lost half its bytes; p3 never landed.
    const refused = queueDraft(db, draft.id, 100, ['p1', 'p2', 'p3']);
    await expect(refused).rejects.toBeInstanceOf(PhotoReadBackError);
    await expect(refused).rejects.toThrow("2 photos could not be read back from this phone's storage");
    expect((await db.drafts.get(draft.id))?.state).toBe('draft');

    await queueDraft(db, draft.id, 100, ['p1']);
    expect((await db.drafts.get(draft.id))?.state).toBe('queued');
  });

  it('discards a draft with its photos, but never one in flight', async () => {
    const draft = await addDraft('u1');
    await db.photos.add({
      id: 'p1',
      draftId: draft.id,
      bytes: new ArrayBuffer(4),
      type: 'image/jpeg',
      name: 'a.jpg',
      size: 4,
      takenAt: null,
      sha256: 'x',
      position: 0,
      createdAt: 0,
    });
    await discardDraft(db, draft.id);
    expect(await db.drafts.get(draft.id)).toBeUndefined();
    expect(await findDraftPhotos(db, draft.id)).toEqual([]);

    const sending = await addDraft('u1', { state: 'sending' });
    await expect(discardDraft(db, sending.id)).rejects.toThrow(/being sent/);
  });

  it('mirrors tokens and requeues that officer’s needs-sign-in drafts only', async () => {
    const mine = await addDraft('u1', { state: 'needs-sign-in' });
    const theirs = await addDraft('u2', { state: 'needs-sign-in' });
    await saveSessionRow(db, { userId: 'u1', token: 't', refreshToken: 'r' });
    expect(await readSessionRow(db)).toMatchObject({ userId: 'u1', token: 't', refreshToken: 'r' });
    expect((await db.drafts.get(mine.id))?.state).toBe('queued');
    expect((await db.drafts.get(theirs.id))?.state).toBe('needs-sign-in');
  });

  it('recognises a full disk however Dexie wraps it', () => {
    expect(isQuotaExceededError({ name: 'QuotaExceededError' })).toBe(true);
    expect(isQuotaExceededError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(true);
    expect(isQuotaExceededError(new Error('other'))).toBe(false);
  });

  it('saves the form’s draft but never over one that has left the form', async () => {
    const draft = createEmptyDraft('u1', randomUUID(), 1000);
    expect(await saveDraft(db, { ...draft, vehicleRegistration: 'AB12' }, 2000)).toBe(true);
    expect(await db.drafts.get(draft.id)).toMatchObject({ vehicleRegistration: 'AB12', state: 'draft', updatedAt: 2000 });
    await queueDraft(db, draft.id);
    expect(await saveDraft(db, { ...draft, vehicleRegistration: 'ZZ99' })).toBe(false);
    expect(await db.drafts.get(draft.id)).toMatchObject({ vehicleRegistration: 'AB12', state: 'queued' });
  });

  it('creates a draft’s row for its first photo, but never writes a photo’s older copy over newer fields', async () => {
    const fresh = createEmptyDraft('officer-1', randomUUID(), 1000);
    await saveDraftIfNew(db, { ...fresh, vehicleRegistration: 'AB12' });
    expect(await db.drafts.get(fresh.id)).toMatchObject({ vehicleRegistration: 'AB12', state: 'draft' });

    // The form saved the observation as OPEN while the second photo compressed; the photo's copy predates it.
    const stale = { ...fresh, vehicleRegistration: 'AB12', observationDueAt: '2026-11-27T10:00:00.000Z', observationStatus: null };
    await saveDraft(db, { ...stale, observationStatus: 'OPEN' });
    await saveDraftIfNew(db, stale);
    expect(await db.drafts.get(fresh.id)).toMatchObject({ observationStatus: 'OPEN' });
  });

  it('never saves over another officer’s draft (a shared phone, an old ?draft= link)', async () => {
    const first = createEmptyDraft('officer-1', randomUUID(), 1000);
    expect(await saveDraft(db, { ...first, vehicleRegistration: 'AB12' })).toBe(true);
    expect(await saveDraft(db, { ...first, userId: 'officer-2', vehicleRegistration: 'ZZ99' })).toBe(false);
    expect(await db.drafts.get(first.id)).toMatchObject({ userId: 'officer-1', vehicleRegistration: 'AB12' });
  });

  it('holds an officer’s queued notices for the next sign-in, and lists only the unsent with their photo counts', async () => {
    const queued = await addDraft('u1', { state: 'queued', queuedAt: 1 });
    const other = await addDraft('u2', { state: 'queued', queuedAt: 2 });
    const sent = await addDraft('u1', { state: 'sent', sentAt: 5000, queuedAt: 4 });
    await db.photos.add({
      id: 'p9',
      draftId: queued.id,
      bytes: new ArrayBuffer(4),
      type: 'image/jpeg',
      name: 'a.jpg',
      size: 4,
      takenAt: null,
      sha256: 'x',
      position: 0,
      createdAt: 0,
    });
    expect(await holdDraftsForSignIn(db, 'u1')).toBe(1);
    expect((await db.drafts.get(queued.id))?.state).toBe('needs-sign-in');
    expect((await db.drafts.get(other.id))?.state).toBe('queued');
    const rows = await findOutboxRows(db, 'u1');
    expect(rows.map((row) => [row.id, row.photoCount])).toEqual([[queued.id, 1]]);
    expect(rows.map((row) => row.id)).not.toContain(sent.id);
  });
});
