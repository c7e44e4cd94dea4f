import type { Db } from '../db/database.ts';
import type { EvidenceStore } from '../services/evidence-storage.ts';
import { makeKeeperLetterBatch } from '../workflows/keeper-letter-batches.ts';
import { makeThumbnails } from '../workflows/make-thumbnails.ts';
import type { JobHandlers } from './job-queue.ts';

/** What each kind of job does, in whichever process works it. */
export function jobHandlers(deps: { db: Db; evidence: EvidenceStore; appUrl: string; now: () => Date }): JobHandlers {
  return {
    thumbnails: ({ fileNames }) => makeThumbnails(deps.evidence, fileNames),
    keeperLetters: ({ batchId }) => makeKeeperLetterBatch(deps, batchId),
  };
}
