import { useCallback, useEffect, useRef, useState } from 'react';
import { isQuotaExceededError, STORAGE_FULL_MESSAGE } from '../../../lib/storage-full.ts';
import type { PcnDraft, PcnDraftFields, PcnEvidenceFields } from '../pcn-draft.ts';
import { draftStore as defaultStore, type DraftStore } from './draft-store.ts';

export type DraftStatus = 'loading' | 'ready' | 'locked';

export type PcnDraftApi = {
  /** null until the stored draft (or the initial one) is loaded. */
  draft: PcnDraft | null;
  /** 'locked': the draft has been submitted meanwhile (another tab, Back after Submit). */
  status: DraftStatus;
  /** Photos still being compressed and stored. */
  pendingPhotos: number;
  /** Storage full, or a file that is not a photo; what is already stored is kept. */
  storageError: string | null;
  photoError: string | null;
  updateFields(patch: Partial<PcnDraftFields & PcnEvidenceFields>): void;
  setStep(step: number): void;
  /** `shots`: what each photo shows, when taken from a checklist row (guided capture). */
  addPhotos(files: readonly File[], shots?: readonly string[]): Promise<void>;
  removePhoto(photoId: string): void;
  removeExistingImage(imageId: string): void;
  /** The checklist shots the officer marked on a new photo. */
  setPhotoShots(photoId: string, shots: string[]): void;
  /** Submit a new notice with what Submit fixes (issuedAt, stayApplies): it joins the outbox, which sends it. */
  queue(final?: Partial<PcnEvidenceFields>): Promise<void>;
  /** Forget the draft (sent edit, or abandoned). */
  discard(): Promise<void>;
};

type Options = {
  /** A draft id (new notice) or editDraftKey(pcnId). */
  draftKey: string;
  userId: string;
  createInitial: () => PcnDraft;
  /** Brings a stored edit draft up to date with the PCN as the server has it now. */
  reconcile?: (stored: PcnDraft) => PcnDraft;
  store?: DraftStore;
};

/**
 * The PCN form's state: one draft object, saved to IndexedDB on every change, photos compressed
 * and stored as they are added. The store notes each write in local storage before it starts, so a
 * page left while a write is in flight keeps it (decision 0045). Screens only talk to this hook.
 */
export function usePcnDraft({ draftKey, userId, createInitial, reconcile, store = defaultStore }: Options): PcnDraftApi {
  const [draft, setDraftState] = useState<PcnDraft | null>(null);
  const [status, setStatus] = useState<DraftStatus>('loading');
  const [pendingPhotos, setPendingPhotos] = useState(0);
  const [storageError, setStorageError] = useState<string | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const draftRef = useRef<PcnDraft | null>(null);
  const createInitialRef = useRef(createInitial);
  createInitialRef.current = createInitial;
  const reconcileRef = useRef(reconcile);
  reconcileRef.current = reconcile;

  const setDraft = useCallback((next: PcnDraft | null) => {
    draftRef.current = next;
    setDraftState(next);
  }, []);

  const reportStorageError = useCallback((error: unknown) => {
    if (isQuotaExceededError(error)) setStorageError(STORAGE_FULL_MESSAGE);
    else console.warn('Could not save the draft on this phone', error);
  }, []);

  useEffect(() => {
    let isCurrent = true;
    setDraft(null);
    setStatus('loading');
    const pcnId = draftKey.startsWith('edit:') ? draftKey.slice('edit:'.length) : null;
    const loading = pcnId ? store.findEdit(userId, pcnId) : store.load(draftKey, userId);
    void loading.then(
      (stored) => {
        if (!isCurrent) return;
        if (stored === 'locked') {
          setStatus('locked');
          return;
        }
        // Nothing is written until the officer changes something: opening the form and leaving
        // must not leave an empty draft behind.
        setDraft(stored ? (reconcileRef.current?.(stored) ?? stored) : createInitialRef.current());
        setStatus('ready');
      },
      (error: unknown) => {
        if (!isCurrent) return;
        reportStorageError(error);
        setDraft(createInitialRef.current());
        setStatus('ready');
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [draftKey, userId, store, setDraft, reportStorageError]);

  const change = useCallback(
    (recipe: (current: PcnDraft) => PcnDraft) => {
      const current = draftRef.current;
      if (!current) return;
      const next = { ...recipe(current), updatedAt: new Date().toISOString() };
      setDraft(next);
      store.save(userId, next).then(() => setStorageError(null), reportStorageError);
    },
    [store, userId, setDraft, reportStorageError],
  );

  const addPhotos = useCallback(
    async (files: readonly File[], shots: readonly string[] = []) => {
      setPhotoError(null);
      setPendingPhotos((n) => n + files.length);
      // One at a time: a phone holding four 12-megapixel decodes at once can run out of memory.
      for (const file of files) {
        try {
          const current = draftRef.current;
          if (!current) break;
          const photo = await store.addPhoto(userId, current, file, shots);
          const latest = draftRef.current ?? current;
          setDraft({ ...latest, photos: [...latest.photos, photo], updatedAt: new Date().toISOString() });
          setStorageError(null);
        } catch (error) {
          // Why, for whoever reads the console or the error report; the officer reads the message.
          console.warn('A photo could not be added', error);
          if (isQuotaExceededError(error)) setStorageError(STORAGE_FULL_MESSAGE);
          else setPhotoError(`${file.name || 'This file'} could not be read as a photo. Take it again or choose another.`);
        } finally {
          setPendingPhotos((n) => n - 1);
        }
      }
    },
    [store, userId, setDraft],
  );

  return {
    draft,
    status,
    pendingPhotos,
    storageError,
    photoError,
    updateFields: useCallback((patch) => change((d) => ({ ...d, ...patch })), [change]),
    setStep: useCallback((step) => change((d) => ({ ...d, step })), [change]),
    addPhotos,
    removePhoto: useCallback(
      (photoId) => {
        change((d) => ({ ...d, photos: d.photos.filter((p) => p.id !== photoId) }));
        store.removePhoto(userId, photoId).catch(reportStorageError);
      },
      [change, store, userId, reportStorageError],
    ),
    removeExistingImage: useCallback(
      (imageId) =>
        change((d) => ({
          ...d,
          existingImages: d.existingImages.filter((image) => image.id !== imageId),
          removeImageIds: [...d.removeImageIds, imageId],
        })),
      [change],
    ),
    setPhotoShots: useCallback(
      (photoId, shots) => {
        const current = draftRef.current;
        if (!current) return;
        setDraft({
          ...current,
          photos: current.photos.map((photo) => (photo.id === photoId ? { ...photo, shots } : photo)),
          updatedAt: new Date().toISOString(),
        });
        store.setPhotoShots(userId, photoId, shots).then(() => setStorageError(null), reportStorageError);
      },
      [store, userId, setDraft, reportStorageError],
    ),
    queue: useCallback(
      async (final = {}) => {
        const current = draftRef.current;
        if (!current) return;
        const next = { ...current, ...final };
        setDraft(next);
        await store.queue(userId, next);
      },
      [store, userId, setDraft],
    ),
    discard: useCallback(async () => {
      const current = draftRef.current;
      if (current) await store.remove(current.id);
    }, [store]),
  };
}
