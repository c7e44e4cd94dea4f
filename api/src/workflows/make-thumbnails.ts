import type { EvidenceStore } from '../services/evidence-storage.ts';
import { hasThumbnail, makeThumbnail, storeThumbnail, thumbnailFileName } from '../services/thumbnails.ts';

/** What became of one photo's thumbnail. */
export type ThumbnailOutcome = 'notAPhoto' | 'present' | 'made' | 'cannotMake' | 'missingOriginal';

/**
 * One photo's thumbnail, unless it has one: made from the original and stored beside it. Safe to
 * run again, so a retried job makes only what is still missing. A photo no longer in the store
 * (its notice's filing was refused and its files removed, or it was purged since) has nothing to
 * make; one that cannot be decoded here (a HEIC) keeps being shown as itself. A store that fails
 * throws.
 */
export async function makeThumbnailFor(evidence: EvidenceStore, fileName: string): Promise<ThumbnailOutcome> {
  if (!hasThumbnail(fileName)) return 'notAPhoto';
  if (await evidence.read(thumbnailFileName(fileName))) return 'present';
  const original = await evidence.read(fileName);
  if (!original) return 'missingOriginal';
  const thumbnail = await makeThumbnail(original);
  if (!thumbnail) return 'cannotMake';
  await storeThumbnail(evidence, fileName, thumbnail);
  // The notice may have been refused, and its photos removed, while this was being made.
  if (!(await isStored(evidence, fileName))) {
    await evidence.delete([thumbnailFileName(fileName)]);
    return 'missingOriginal';
  }
  return 'made';
}

/**
 * The thumbnails of photos just stored, made after the officer's upload has been answered (a job),
 * one at a time: a few decodes at once would crowd a small server.
 */
export async function makeThumbnails(evidence: EvidenceStore, fileNames: readonly string[]): Promise<void> {
  for (const fileName of fileNames) await makeThumbnailFor(evidence, fileName);
}

async function isStored(evidence: EvidenceStore, fileName: string): Promise<boolean> {
  const opened = await evidence.open(fileName);
  await opened?.stream.cancel();
  return opened !== null;
}
