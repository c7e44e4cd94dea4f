import { Dexie } from 'dexie';
import type { DraftRecord, DraftState, LocalDb, PhotoRecord } from './records.ts';

/** A draft notice and its photos, as the form writes them (decision 0009). */

export function createEmptyDraft(userId: string, id: string, now: number): DraftRecord {
  return {
    id,
    userId,
    vehicleRegistration: '',
    carParkId: '',
    offenceType: '',
    description: '',
    location: '',
    // The officer records the first sighting; the draft's creation time is not it.
    observedAt: null,
    stayApplies: null,
    duplicateReason: '',
    checklistWaived: false,
    issuedAt: null,
    step: 0,
    state: 'draft',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    lastErrorFields: null,
    serverPcnId: null,
    serverPcnNumber: null,
    queuedAt: null,
    sentAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** A photo the form showed could not be read back from the phone's storage: the notice is not queued. */
export class PhotoReadBackError extends Error {
  readonly missing: number;
  constructor(missing: number) {
    super(`${missing} ${missing === 1 ? 'photo' : 'photos'} could not be read back from this phone's storage`);
    this.name = 'PhotoReadBackError';
    this.missing = missing;
  }
}

/**
 * Submit: the draft joins the outbox. A failed draft the officer corrected goes back the same
 * way, keeping its id, so a PCN the server did make (answer lost) is still never duplicated.
 *
 * Hands a draft to the outbox. With `photoIds` (what the form showed), each photo is read back
 * first, in the same transaction: a photo whose write was lost (storage evicted, a write that
 * never landed) stops the notice here, where the officer can take it again, instead of a notice
 * sent without it.
 */
export async function queueDraft(db: LocalDb, id: string, now = Date.now(), photoIds?: readonly string[]): Promise<void> {
  await db.transaction('rw', db.drafts, db.photos, async () => {
    const draft = await db.drafts.get(id);
    if (!draft) throw new Error(`Draft ${id} not found`);
    if (draft.state === 'sent' || draft.state === 'sending') return;
    if (photoIds) {
      const stored = await db.photos.bulkGet([...photoIds]);
      const missing = stored.filter(
        (photo) => !photo || photo.draftId !== id || !(photo.bytes?.byteLength > 0) || photo.bytes.byteLength !== photo.size,
      ).length;
      if (missing > 0) throw new PhotoReadBackError(missing);
    }
    await db.drafts.update(id, {
      state: 'queued',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      lastErrorFields: null,
      queuedAt: draft.queuedAt ?? now,
      updatedAt: now,
    });
  });
}

/** 'Retry now': forget the backoff of a waiting draft, or requeue a failed or signed-out one. */
export async function retryDraftNow(db: LocalDb, id: string, now = Date.now()): Promise<void> {
  await db.transaction('rw', db.drafts, async () => {
    const draft = await db.drafts.get(id);
    if (!draft || !['queued', 'failed', 'needs-sign-in'].includes(draft.state)) return;
    await db.drafts.update(id, { state: 'queued', nextAttemptAt: 0, updatedAt: now });
  });
}

/** 'Discard': the draft and its photos go together, never one without the other. */
export async function discardDraft(db: LocalDb, id: string): Promise<void> {
  await db.transaction('rw', db.drafts, db.photos, async () => {
    const draft = await db.drafts.get(id);
    // A notice in flight may already be on the server; discarding it now would hide a real PCN.
    if (draft?.state === 'sending') throw new Error('This notice is being sent and cannot be discarded now');
    await db.photos.where('draftId').equals(id).delete();
    await db.drafts.delete(id);
  });
}

/** Unfinished forms of one officer, newest first, so the form can offer to resume them. */
export async function findOpenDrafts(db: LocalDb, userId: string): Promise<DraftRecord[]> {
  const rows = await db.drafts.where('[userId+updatedAt]').between([userId, Dexie.minKey], [userId, Dexie.maxKey]).reverse().toArray();
  // An open observation is listed as one (findObservations), not as an unfinished draft.
  return rows.filter((draft) => draft.state === 'draft' && draft.observationStatus !== 'OPEN');
}

/** States in which the form may still change a draft: a queued or sent one belongs to the outbox. */
export const EDITABLE_DRAFT_STATES: readonly DraftState[] = ['draft', 'failed'];

/**
 * Saves what the form holds. A draft another tab has queued (or the outbox has sent) meanwhile
 * is left alone: the form's copy is out of date, and the server's copy wins.
 */
export async function saveDraft(db: LocalDb, draft: DraftRecord, now = Date.now()): Promise<boolean> {
  return db.transaction('rw', db.drafts, async () => {
    const stored = await db.drafts.get(draft.id);
    // Another officer's draft (a shared phone, an old ?draft= link) is never written over.
    if (stored && (stored.userId !== draft.userId || !EDITABLE_DRAFT_STATES.includes(stored.state))) return false;
    await db.drafts.put({ ...(stored ?? draft), ...pickDraftContent(draft), updatedAt: now });
    return true;
  });
}

/**
 * Makes sure the draft's row exists before a photo is stored for it (a reload must find the
 * draft of every photo), writing nothing when it does: the copy a photo's caller holds was taken
 * before the photo compressed, and the form may have saved newer fields meanwhile (the
 * observation turning OPEN once its first photo is in), which a full save would undo.
 */
export async function saveDraftIfNew(db: LocalDb, draft: DraftRecord, now = Date.now()): Promise<void> {
  await db.transaction('rw', db.drafts, async () => {
    if (!(await db.drafts.get(draft.id))) await db.drafts.put({ ...draft, updatedAt: now });
  });
}

function pickDraftContent(draft: DraftRecord): Partial<DraftRecord> {
  const {
    vehicleRegistration,
    carParkId,
    offenceType,
    description,
    location,
    observedAt,
    step,
    pcnId,
    pcnNumber,
    existingImages,
    removeImageIds,
    userId,
  } = draft;
  const {
    stayApplies,
    duplicateReason,
    permitOverrideReason,
    checklistWaived,
    issuedAt,
    observationDueAt,
    observationStatus,
    noticeServedBy,
    noticeServedAt,
    firstSeenAt,
  } = draft;
  return {
    userId,
    vehicleRegistration,
    carParkId,
    offenceType,
    description,
    location,
    observedAt,
    stayApplies,
    duplicateReason,
    permitOverrideReason,
    checklistWaived,
    issuedAt,
    observationDueAt,
    observationStatus,
    noticeServedBy,
    noticeServedAt,
    firstSeenAt,
    step,
    pcnId,
    pcnNumber,
    existingImages,
    removeImageIds,
  };
}

export async function findDraftPhotos(db: LocalDb, draftId: string): Promise<PhotoRecord[]> {
  return db.photos.where('[draftId+position]').between([draftId, Dexie.minKey], [draftId, Dexie.maxKey]).toArray();
}
