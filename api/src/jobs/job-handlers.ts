import type { EvidenceStore } from '../services/evidence-storage.ts';
import type { Logger } from '../services/logger.ts';
import { makeThumbnails } from '../workflows/make-thumbnails.ts';
import type { JobHandlers } from './job-queue.ts';

/** What each kind of job does, in whichever process works it. */
export function jobHandlers(deps: { evidence: EvidenceStore; logger: Logger }): JobHandlers {
  return {
    thumbnails: ({ fileNames }) => makeThumbnails(deps, fileNames),
  };
}
