import type { Db } from '../db/database.ts';
import { findKnownAttachmentFileNames } from './appeals.ts';
import { findKnownImageFileNames } from './pcns.ts';

/** Which stored names a row still points at: a notice's photo or an appeal's attachment (the orphan sweep keeps them). */
export async function findKnownStoredFileNames(db: Db, fileNames: readonly string[]): Promise<Set<string>> {
  const [images, attachments] = await Promise.all([findKnownImageFileNames(db, fileNames), findKnownAttachmentFileNames(db, fileNames)]);
  return new Set([...images, ...attachments]);
}
