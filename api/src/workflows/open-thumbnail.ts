import type { EvidenceStore } from '../services/evidence-storage.ts';
import type { Logger } from '../services/logger.ts';
import { hasThumbnail, makeThumbnail, storeThumbnail, THUMBNAIL_MIME_TYPE, thumbnailFileName } from '../services/thumbnails.ts';

export type OpenedThumbnail = { body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>; size: number; mimeType: string };

/**
 * A photo's thumbnail: the stored one; else made now from the original and stored for next time
 * (photos from before thumbnails, or one whose thumbnail could not be stored at upload); else,
 * when the original cannot be decoded here (a HEIC), the original itself. Null when the original
 * is gone too (removed under the retention policy).
 */
export async function openThumbnail(
  deps: { evidence: EvidenceStore; logger: Logger },
  image: { fileName: string; mimeType: string },
): Promise<OpenedThumbnail | null> {
  if (hasThumbnail(image.fileName)) {
    const stored = await deps.evidence.open(thumbnailFileName(image.fileName));
    if (stored) return { body: stored.stream, size: stored.size, mimeType: THUMBNAIL_MIME_TYPE };
    const original = await deps.evidence.read(image.fileName);
    if (!original) return null;
    const made = await makeThumbnail(original);
    if (made) {
      await storeThumbnail(deps.evidence, image.fileName, made).catch((error: unknown) => {
        deps.logger.warn('could not store a thumbnail made on request', { fileName: image.fileName, error: String(error) });
      });
      return { body: new Uint8Array(made), size: made.length, mimeType: THUMBNAIL_MIME_TYPE };
    }
  }
  const original = await deps.evidence.open(image.fileName);
  return original ? { body: original.stream, size: original.size, mimeType: image.mimeType } : null;
}
