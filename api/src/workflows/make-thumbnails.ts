import type { EvidenceStore } from '../services/evidence-storage.ts';
import type { Logger } from '../services/logger.ts';
import { hasThumbnail, makeThumbnail, storeThumbnail, thumbnailFileName } from '../services/thumbnails.ts';

/**
 * The thumbnails of photos just stored, made after the officer's upload has been answered (a job).
 * One at a time (a few decodes at once would crowd a small server). Safe to run again: a photo
 * that has its thumbnail is passed over, so a retry after a failure part way makes only the rest.
 * A photo no longer in the store (its notice's filing was refused and its files removed, or it was
 * purged since) has nothing to make. One that cannot be decoded here (a HEIC) keeps being shown
 * as itself. A store that fails throws, and the job is tried again.
 */
export async function makeThumbnails(deps: { evidence: EvidenceStore; logger: Logger }, fileNames: readonly string[]): Promise<void> {
  for (const fileName of fileNames) {
    if (!hasThumbnail(fileName) || (await deps.evidence.read(thumbnailFileName(fileName)))) continue;
    const original = await deps.evidence.read(fileName);
    if (!original) continue;
    const thumbnail = await makeThumbnail(original);
    if (!thumbnail) continue;
    await storeThumbnail(deps.evidence, fileName, thumbnail);
    // The notice may have been refused, and its photos removed, while this was being made.
    if (!(await isStored(deps.evidence, fileName))) await deps.evidence.delete([thumbnailFileName(fileName)]);
  }
}

async function isStored(evidence: EvidenceStore, fileName: string): Promise<boolean> {
  const opened = await evidence.open(fileName);
  await opened?.stream.cancel();
  return opened !== null;
}
