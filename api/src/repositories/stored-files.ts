import type { Db } from '../db/database.ts';
import { findKnownAttachmentFileNames } from './appeals.ts';
import { findKnownImageFileNames } from './pcns.ts';
import { findKnownDocumentFileNames } from './sent-documents.ts';

/** Which stored names a row still points at: a notice's photo, an appeal's attachment or a document sent (the orphan sweep keeps them). */
export async function findKnownStoredFileNames(db: Db, fileNames: readonly string[]): Promise<Set<string>> {
  const [images, attachments, documents] = await Promise.all([
    findKnownImageFileNames(db, fileNames),
    findKnownAttachmentFileNames(db, fileNames),
    findKnownDocumentFileNames(db, fileNames),
  ]);
  return new Set([...images, ...attachments, ...documents]);
}
