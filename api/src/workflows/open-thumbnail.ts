import type { EvidenceStore } from '../services/evidence-storage.ts';
import { hasThumbnail, THUMBNAIL_MIME_TYPE, thumbnailFileName } from '../services/thumbnails.ts';

export type OpenedThumbnail = { body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>; size: number; mimeType: string };

/**
 * A photo's thumbnail, or the photo itself while it has none: in the moments before the job that
 * makes it has run (decision 0046), or for good when the photo cannot be decoded here (a HEIC).
 * Nothing is made on request: decoding photos while the officer's list waits is the work the job
 * keeps off the request path. Null when the original is gone too (removed under the retention
 * policy).
 */
export async function openThumbnail(
  deps: { evidence: EvidenceStore },
  image: { fileName: string; mimeType: string },
): Promise<OpenedThumbnail | null> {
  if (hasThumbnail(image.fileName)) {
    const stored = await deps.evidence.open(thumbnailFileName(image.fileName));
    if (stored) return { body: stored.stream, size: stored.size, mimeType: THUMBNAIL_MIME_TYPE };
  }
  const original = await deps.evidence.open(image.fileName);
  return original ? { body: original.stream, size: original.size, mimeType: image.mimeType } : null;
}
