import type { Db } from '../db/database.ts';
import type { EvidenceStore } from '../services/evidence-storage.ts';
import type { Logger } from '../services/logger.ts';
import { makeThumbnailFor } from './make-thumbnails.ts';

export type ThumbnailRunResult = {
  /** Photos still on file that were looked at. */
  checked: number;
  made: number;
  /** Photos the server cannot decode (a HEIC): their original is shown in place of a thumbnail. */
  cannotMake: number;
  /** Rows whose file is not in the store (a bug or a restore gone wrong: logged, not fixed here). */
  missingOriginal: number;
};

const BATCH = 200;

/**
 * Gives every photo still on file a thumbnail (`npm run thumbnails`): photos stored before
 * thumbnails existed, or whose thumbnail job failed for good. One at a time, in id order, so it
 * can run beside the server; a second run makes nothing.
 */
export async function makeMissingThumbnails(deps: { db: Db; evidence: EvidenceStore; logger: Logger }): Promise<ThumbnailRunResult> {
  const result: ThumbnailRunResult = { checked: 0, made: 0, cannotMake: 0, missingOriginal: 0 };
  let after = '';
  for (;;) {
    const rows = await deps.db
      .selectFrom('pcn_images')
      .select(['id', 'file_name'])
      .where('purged_at', 'is', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return result;
    after = rows.at(-1)!.id;
    for (const row of rows) {
      const outcome = await makeThumbnailFor(deps.evidence, row.file_name);
      if (outcome === 'notAPhoto') continue;
      result.checked++;
      if (outcome === 'made') result.made++;
      else if (outcome === 'cannotMake') result.cannotMake++;
      else if (outcome === 'missingOriginal') {
        result.missingOriginal++;
        deps.logger.warn('a photo row names a file the store does not have', { fileName: row.file_name });
      }
    }
  }
}
