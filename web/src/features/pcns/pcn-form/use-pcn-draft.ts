import { useCallback, useEffect, useRef, useState } from 'react';
import { createDraftPhoto, type PcnDraft, type PcnDraftFields } from '../pcn-draft.ts';
import { draftStore as defaultStore, type DraftStore } from './draft-store.ts';

export type PcnDraftApi = {
  /** null until the stored draft (or the initial one) is loaded. */
  draft: PcnDraft | null;
  updateFields(patch: Partial<PcnDraftFields>): void;
  setStep(step: number): void;
  addPhotos(files: readonly File[]): void;
  removePhoto(photoId: string): void;
  removeExistingImage(imageId: string): void;
  /** Forget the draft after it was sent (or abandoned). */
  discard(): Promise<void>;
};

/**
 * The PCN form's state: one draft object, saved to the draft store on every change. Screens
 * only talk to this hook, so the storage can change (memory now, IndexedDB offline) unseen.
 */
export function usePcnDraft(key: string, createInitial: () => PcnDraft, store: DraftStore = defaultStore): PcnDraftApi {
  const [draft, setDraft] = useState<PcnDraft | null>(null);
  const createInitialRef = useRef(createInitial);
  createInitialRef.current = createInitial;

  useEffect(() => {
    let isCurrent = true;
    setDraft(null);
    void store.load(key).then((stored) => {
      if (!isCurrent) return;
      const next = stored ?? createInitialRef.current();
      setDraft(next);
      if (!stored) void store.save(key, next);
    });
    return () => {
      isCurrent = false;
    };
  }, [key, store]);

  const change = useCallback(
    (recipe: (current: PcnDraft) => PcnDraft) => {
      setDraft((current) => {
        if (!current) return current;
        const next = { ...recipe(current), updatedAt: new Date().toISOString() };
        void store.save(key, next);
        return next;
      });
    },
    [key, store],
  );

  return {
    draft,
    updateFields: useCallback((patch) => change((d) => ({ ...d, ...patch })), [change]),
    setStep: useCallback((step) => change((d) => ({ ...d, step })), [change]),
    addPhotos: useCallback((files) => change((d) => ({ ...d, photos: [...d.photos, ...files.map(createDraftPhoto)] })), [change]),
    removePhoto: useCallback((photoId) => change((d) => ({ ...d, photos: d.photos.filter((p) => p.id !== photoId) })), [change]),
    removeExistingImage: useCallback(
      (imageId) =>
        change((d) => ({
          ...d,
          existingImages: d.existingImages.filter((image) => image.id !== imageId),
          removeImageIds: [...d.removeImageIds, imageId],
        })),
      [change],
    ),
    discard: useCallback(() => store.remove(key), [key, store]),
  };
}
