import type { EvidenceStore } from '../services/evidence-storage.ts';
import { makeThumbnails } from '../workflows/make-thumbnails.ts';
import type { JobHandlers } from './job-queue.ts';

/** What each kind of job does, in whichever process works it. */
export function jobHandlers(deps: { evidence: EvidenceStore }): JobHandlers {
  return {
    thumbnails: ({ fileNames }) => makeThumbnails(deps.evidence, fileNames),
  };
}
