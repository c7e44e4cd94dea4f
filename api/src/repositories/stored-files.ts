import type { Db } from '../db/database.ts';
import { findKnownAttachmentFileNames } from './appeals.ts';
import { findKnownBatchFileNames } from './debt-recovery.ts';
import { findKnownEvidencePackFileNames } from './evidence-packs.ts';
import { findKnownLetterBatchFileNames } from './letter-batches.ts';
import { findKnownImageFileNames } from './pcn-images.ts';
import { findKnownPendingAttachmentFileNames } from './pending-appeals.ts';
import { findKnownDocumentFileNames } from './sent-documents.ts';

/** Which stored names a row still points at: a notice's photo, an appeal's attachment (pending or not), a document sent, a batch of letters, an evidence pack or a debt recovery batch (the orphan sweep keeps them). */
export async function findKnownStoredFileNames(db: Db, fileNames: readonly string[]): Promise<Set<string>> {
  const [images, attachments, pending, documents, batches, letterBatches, packs] = await Promise.all([
    findKnownImageFileNames(db, fileNames),
    findKnownAttachmentFileNames(db, fileNames),
    findKnownPendingAttachmentFileNames(db, fileNames),
    findKnownDocumentFileNames(db, fileNames),
    findKnownBatchFileNames(db, fileNames),
    findKnownLetterBatchFileNames(db, fileNames),
    findKnownEvidencePackFileNames(db, fileNames),
  ]);
  return new Set([...images, ...attachments, ...pending, ...documents, ...batches, ...letterBatches, ...packs]);
}
