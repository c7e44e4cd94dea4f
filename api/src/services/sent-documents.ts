import { randomBytes } from 'node:crypto';
import type { CalendarDate, SentDocument, SentDocumentKind } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { findNewestSentDocument, insertSentDocument, toSentDocument, type SentDocumentRow } from '../repositories/sent-documents.ts';
import { sha256Hex } from './crypto-tokens.ts';
import { newEvidenceFileName, type EvidenceStore } from './evidence-storage.ts';

/** The two kinds of file a sent document is: a letter (PDF) or a notice to driver as printed (its facts and text, JSON). */
export type SentDocumentMimeType = 'application/pdf' | 'application/json';

export type SentDocumentToStore = {
  pcnId: string;
  kind: SentDocumentKind;
  /** The document exactly as it was given: what GET /pcns/{id}/documents/{documentId} returns. */
  bytes: Uint8Array;
  mimeType: SentDocumentMimeType;
  /** The posting day a letter prints as its date sent; null for a document not posted. */
  postOn: CalendarDate | null;
  /** What it printed beside the charge's number: a ticket's draft reference, an appeal's reference. */
  reference: string | null;
  /** Who made it: an account (id and name), or a name alone for the system. */
  createdBy: { id: string | null; name: string };
  now: Date;
};

/**
 * Keeps a document as it was sent (decision 0025): the bytes go to the evidence store under a
 * name we make, durably, then a row names them with their SHA-256. Pass a transaction as `db` to
 * commit the row with the change that sent the document; the file is written first, as photos
 * are, so a committed row never lacks its file, and a row that never commits leaves an orphan
 * file the start-up sweep removes. Nothing here renders: a template change later cannot touch it.
 */
export async function storeSentDocument(deps: { db: Db; evidence: EvidenceStore }, document: SentDocumentToStore): Promise<SentDocument> {
  const row = await putSentDocumentFile(deps.evidence, document);
  try {
    await insertSentDocument(deps.db, row);
  } catch (error) {
    await deps.evidence.delete([row.file_name]).catch(() => undefined);
    throw error;
  }
  const pcn = await deps.db.selectFrom('pcns').select('pcn_number').where('id', '=', document.pcnId).executeTakeFirstOrThrow();
  return toSentDocument(row, pcn.pcn_number);
}

/**
 * The first half of storeSentDocument, for many documents at once (a batch of letters): the file
 * written durably, and the row that names it, to insert in the caller's transaction. A row that
 * never commits leaves an orphan file the start-up sweep removes.
 */
export async function putSentDocumentFile(evidence: EvidenceStore, document: SentDocumentToStore): Promise<SentDocumentRow> {
  const fileName = newEvidenceFileName(document.mimeType === 'application/pdf' ? 'pdf' : 'json');
  await evidence.put(fileName, document.bytes, document.mimeType);
  return {
    id: timeOrderedId(document.now),
    pcn_id: document.pcnId,
    kind: document.kind,
    file_name: fileName,
    mime_type: document.mimeType,
    size_bytes: document.bytes.byteLength,
    sha256: sha256Hex(document.bytes),
    post_on: document.postOn,
    reference: document.reference,
    created_at: document.now.toISOString(),
    created_by: document.createdBy.id,
    created_by_name: document.createdBy.name,
    purged_at: null,
  };
}

let made = 0;

/**
 * A UUID-shaped id that sorts as the documents were made (the time, then a counter, then random
 * bits, as UUIDv7 does): two letters made in the same millisecond still have a newest, and the
 * newest letter is the one marking posted checks.
 */
function timeOrderedId(now: Date): string {
  made = (made + 1) % 0x1000000;
  const hex = now.getTime().toString(16).padStart(12, '0') + made.toString(16).padStart(6, '0') + randomBytes(7).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The name a document records for an account: as the audit names people. */
export function authorOf(user: { id: string; firstName: string; lastName: string }): { id: string; name: string } {
  return { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() };
}

/**
 * The newest kept document of `kind` for a notice (with `reference`, when given), its bytes checked
 * against their SHA-256; null when none was kept. A file that no longer matches is an error, never
 * quietly replaced by a fresh rendering.
 */
export async function findSentDocumentBytes(
  deps: { db: Db; evidence: EvidenceStore },
  query: { pcnId: string; kind: SentDocumentKind; reference?: string },
): Promise<Uint8Array | null> {
  const row = await findNewestSentDocument(deps.db, query);
  if (!row) return null;
  if (row.purged_at !== null) throw new AppError('NOT_FOUND', 'This document was removed under the retention policy; its SHA-256 is kept');
  const bytes = await deps.evidence.read(row.file_name);
  if (!bytes || sha256Hex(bytes) !== row.sha256) throw new Error(`The kept ${row.kind} ${row.id} is missing or does not match its SHA-256`);
  return bytes;
}
