import { getLocalDb } from '../../../lib/local-db/database.ts';
import {
  createEmptyDraft as createEmptyDraftRecord,
  EDITABLE_DRAFT_STATES,
  findDraftPhotos,
  queueDraft,
  saveDraft,
  saveDraftIfNew,
} from '../../../lib/local-db/drafts.ts';
import {
  discardDraftAndNotes,
  journaled,
  pageDraftJournal,
  replayDraftJournal,
  type DraftJournal,
} from '../../../lib/local-db/draft-journal.ts';
import type { DraftRecord, LocalDb } from '../../../lib/local-db/records.ts';
import { addPhotoToDraft, removePhotoFromDraft, setPhotoShots } from '../../../lib/photos/store-photo.ts';
import { readDevicePosition } from '../evidence/capture-facts.ts';
import { toDraftPhoto, type DraftPhoto, type PcnDraft } from '../pcn-draft.ts';

/**
 * Where the PCN form keeps its drafts: IndexedDB (lib/local-db/drafts.ts), so a reload, a killed app or
 * a flat battery loses nothing. Fields are saved on every change and each photo as it is added,
 * compressed, with its SHA-256 and capture time.
 */
export type DraftStore = {
  /**
   * The officer's draft, or 'locked' when it has left the form (queued or sent) or belongs to
   * another officer (a shared phone's history), or null when unknown.
   */
  load(id: string, userId: string): Promise<PcnDraft | 'locked' | null>;
  /** The officer's unsent changes to an existing PCN, if any. */
  findEdit(userId: string, pcnId: string): Promise<PcnDraft | null>;
  save(userId: string, draft: PcnDraft): Promise<void>;
  /** `shots`: what the photo shows when it was taken for a checklist row (guided capture). */
  addPhoto(userId: string, draft: PcnDraft, file: File, shots?: readonly string[]): Promise<DraftPhoto>;
  removePhoto(userId: string, photoId: string): Promise<void>;
  /** The checklist shots the officer marked on a stored photo. */
  setPhotoShots(userId: string, photoId: string, shots: readonly string[]): Promise<void>;
  remove(id: string): Promise<void>;
  /**
   * Submit: the draft joins the outbox, which sends it (never the form). The draft passed in
   * carries what Submit fixes: issuedAt and the effective stayApplies.
   */
  queue(userId: string, draft: PcnDraft): Promise<void>;
};

/**
 * Every write is noted in the draft journal first (lib/local-db/draft-journal.ts, decision 0045):
 * a page left while the write is in flight keeps it, and opening a draft applies what was left.
 */
export function createDexieDraftStore(getDb: () => LocalDb = getLocalDb, journal: DraftJournal = pageDraftJournal()): DraftStore {
  async function readDraft(record: DraftRecord): Promise<PcnDraft> {
    const photos = await findDraftPhotos(getDb(), record.id);
    return fromRecord(record, photos.map(toDraftPhoto));
  }

  async function save(userId: string, draft: PcnDraft): Promise<void> {
    const record = toRecord(userId, draft);
    await journaled(journal, { kind: 'fields', userId, draftId: draft.id, draft: record }, () => saveDraft(getDb(), record));
  }

  return {
    async load(id, userId) {
      await replayDraftJournal(getDb(), journal, userId);
      const record = await getDb().drafts.get(id);
      if (!record) return null;
      if (record.userId !== userId || !EDITABLE_DRAFT_STATES.includes(record.state)) return 'locked';
      return readDraft(record);
    },
    async findEdit(userId, pcnId) {
      await replayDraftJournal(getDb(), journal, userId);
      const records = await getDb().drafts.where('[userId+state]').equals([userId, 'draft']).toArray();
      const record = records.find((row) => row.pcnId === pcnId);
      return record ? readDraft(record) : null;
    },
    save: (userId, draft) => save(userId, draft),
    async addPhoto(userId, draft, file, shots = []) {
      // Compression (and its library) loads only when the first photo is added: the officer path
      // stays small (decisions 0008 and 0011).
      const { compressPhoto } = await import('../../../lib/photos/compress-photo.ts');
      // The position is read while the photo compresses; it gives up after a few seconds.
      const [compressed, place] = await Promise.all([compressPhoto(file), readDevicePosition()]);
      // The row first: a photo is never stored for a draft a reload could not find.
      await saveDraftIfNew(getDb(), toRecord(userId, draft));
      return toDraftPhoto(await addPhotoToDraft(getDb(), draft.id, compressed, Date.now(), place, shots));
    },
    removePhoto: (userId, photoId) =>
      journaled(journal, { kind: 'photo-removed', userId, photoId }, () => removePhotoFromDraft(getDb(), photoId)),
    setPhotoShots: (userId, photoId, shots) =>
      journaled(journal, { kind: 'shots', userId, photoId, shots: [...shots] }, () => setPhotoShots(getDb(), photoId, shots)),
    remove: (id) => discardDraftAndNotes(getDb(), journal, id),
    async queue(userId, draft) {
      const now = Date.now();
      const photoIds = draft.photos.map((photo) => photo.id);
      // The officer's own first sighting, never a photo's time: the server measures the wait
      // from what is sent, and a shorter one than the form allowed is a 400 nobody can retry.
      const saved = save(userId, draft);
      // Noted at the press, with the fields noted just before it: a page left before either
      // write commits still submits, at the next start.
      await journaled(journal, { kind: 'queued', userId, draftId: draft.id, at: now, photoIds }, async () => {
        await saved;
        await queueDraft(getDb(), draft.id, now, photoIds);
      });
    },
  };
}

export const draftStore: DraftStore = createDexieDraftStore();

function toRecord(userId: string, draft: PcnDraft): DraftRecord {
  const createdAt = Date.parse(draft.createdAt) || Date.now();
  return {
    ...createEmptyDraftRecord(userId, draft.id, createdAt),
    vehicleRegistration: draft.vehicleRegistration,
    carParkId: draft.carParkId,
    offenceType: draft.offenceType as DraftRecord['offenceType'],
    description: draft.description,
    location: draft.location,
    observedAt: draft.observedAt,
    stayApplies: draft.stayApplies,
    duplicateReason: draft.duplicateReason,
    permitOverrideReason: draft.permitOverrideReason ?? '',
    checklistWaived: draft.checklistWaived,
    issuedAt: draft.issuedAt,
    observationDueAt: draft.observationDueAt ?? null,
    observationStatus: draft.observationStatus ?? null,
    noticeServedBy: draft.noticeServedBy ?? null,
    noticeServedAt: draft.noticeServedAt ?? null,
    firstSeenAt: draft.firstSeenAt ?? null,
    step: draft.step,
    pcnId: draft.pcnId,
    pcnNumber: draft.pcnNumber ?? null,
    existingImages: draft.existingImages,
    removeImageIds: draft.removeImageIds,
  };
}

function fromRecord(record: DraftRecord, photos: DraftPhoto[]): PcnDraft {
  return {
    id: record.id,
    pcnId: record.pcnId ?? null,
    pcnNumber: record.pcnNumber ?? null,
    vehicleRegistration: record.vehicleRegistration,
    carParkId: record.carParkId,
    offenceType: record.offenceType,
    description: record.description,
    location: record.location,
    observedAt: record.observedAt ?? null,
    stayApplies: record.stayApplies ?? null,
    duplicateReason: record.duplicateReason ?? '',
    permitOverrideReason: record.permitOverrideReason ?? '',
    checklistWaived: record.checklistWaived ?? false,
    issuedAt: record.issuedAt ?? null,
    observationDueAt: record.observationDueAt ?? null,
    observationStatus: record.observationStatus ?? null,
    noticeServedBy: record.noticeServedBy ?? null,
    noticeServedAt: record.noticeServedAt ?? null,
    firstSeenAt: record.firstSeenAt ?? null,
    step: record.step,
    photos,
    existingImages: record.existingImages ?? [],
    removeImageIds: record.removeImageIds ?? [],
    serverError: record.state === 'failed' && record.lastError ? { message: record.lastError, fields: record.lastErrorFields } : null,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

export function editDraftKey(pcnId: string): string {
  return `edit:${pcnId}`;
}
