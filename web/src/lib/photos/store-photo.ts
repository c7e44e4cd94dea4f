import { findDraftPhotos } from '../local-db/drafts.ts';
import type { LocalDb, PhotoRecord } from '../local-db/records.ts';
import type { CompressedPhoto } from './compress-photo.ts';
import { sha256Hex } from './sha256.ts';

/**
 * Adds a compressed photo to a draft. The hash is taken here, once, from the exact bytes that
 * will be uploaded. A full disk surfaces as Dexie's QuotaExceededError (see isQuotaExceededError)
 * and nothing already stored is touched.
 */
export type PhotoPlace = { latitude: number; longitude: number; accuracyM: number | null };

export async function addPhotoToDraft(
  db: LocalDb,
  draftId: string,
  photo: CompressedPhoto,
  now = Date.now(),
  place: PhotoPlace | null = null,
  shots: readonly string[] = [],
): Promise<PhotoRecord> {
  const sha256 = await sha256Hex(photo.bytes);
  return db.transaction('rw', db.photos, async () => {
    const existing = await findDraftPhotos(db, draftId);
    const position = existing.reduce((max, row) => Math.max(max, row.position + 1), 0);
    const record: PhotoRecord = {
      id: crypto.randomUUID(),
      draftId,
      ...photo,
      sha256,
      latitude: place?.latitude ?? null,
      longitude: place?.longitude ?? null,
      accuracyM: place?.accuracyM ?? null,
      shots: [...shots],
      position,
      createdAt: now,
    };
    await db.photos.add(record);
    return record;
  });
}

/** What the officer marked a stored photo as showing (the checklist). */
export async function setPhotoShots(db: LocalDb, photoId: string, shots: readonly string[]): Promise<void> {
  await db.photos.update(photoId, { shots: [...shots] });
}

export async function removePhotoFromDraft(db: LocalDb, photoId: string): Promise<void> {
  await db.photos.delete(photoId);
}

/** A Blob to preview a stored photo (URL.createObjectURL); made on demand, never stored. */
export function toPhotoBlob(photo: Pick<PhotoRecord, 'bytes' | 'type'>): Blob {
  return new Blob([photo.bytes], { type: photo.type });
}
