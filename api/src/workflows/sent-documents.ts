import {
  formatCalendarDate,
  formatPence,
  isAdminRole,
  SERVER_MESSAGES,
  type CalendarDate,
  type SentDocument,
  type SentDocumentKind,
  type SentDocumentListResponse,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { findLatestLetters, findSentDocument, findSentDocuments } from '../repositories/sent-documents.ts';
import { sha256Hex } from '../services/crypto-tokens.ts';
import type { EvidenceStore } from '../services/evidence-storage.ts';
import { pcnNotFound } from './pcn-access.ts';

/**
 * The documents sent for a charge, as kept (decision 0025). Admins only, as the evidence pack
 * and the keeper are: letters carry the keeper's name and address, and an officer gets 403
 * whether or not the notice exists.
 */
async function assertMaySee(db: Db, user: AuthUser, pcnId: string): Promise<void> {
  if (!isAdminRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  if (!(await findPcnRowById(db, pcnId))) throw pcnNotFound();
}

/** GET /pcns/{id}/documents: oldest first. */
export async function listSentDocuments(db: Db, input: { user: AuthUser; pcnId: string }): Promise<SentDocumentListResponse> {
  await assertMaySee(db, input.user, input.pcnId);
  return { items: await findSentDocuments(db, input.pcnId) };
}

/**
 * GET /pcns/{id}/documents/{documentId}: the stored bytes, checked against the SHA-256 taken when
 * they were made, so what is answered is what was sent or nothing.
 */
export async function readSentDocument(
  deps: { db: Db; evidence: EvidenceStore },
  input: { user: AuthUser; pcnId: string; documentId: string },
): Promise<{ document: SentDocument; bytes: Uint8Array }> {
  await assertMaySee(deps.db, input.user, input.pcnId);
  const found = await findSentDocument(deps.db, input.pcnId, input.documentId);
  if (!found) throw new AppError('NOT_FOUND', 'No such document');
  if (found.row.purged_at !== null)
    throw new AppError('NOT_FOUND', 'This document was removed under the retention policy; its SHA-256 is kept');
  const bytes = await deps.evidence.read(found.row.file_name);
  if (!bytes) throw new AppError('INTERNAL', 'The stored document is missing from the evidence store');
  if (sha256Hex(bytes) !== found.row.sha256) throw new AppError('INTERNAL', 'The stored document no longer matches its SHA-256');
  return { document: found.document, bytes };
}

/**
 * Why each notice's kept letter is not the one to mark posted on `postedOn`: none was made, it is
 * dated another day (it states its posting day, Schedule 4 paragraphs 8(2)(i) and 9(2)(i)), or a
 * payment made before that day was recorded after the letter was made, so its "remains unpaid"
 * as at 23:59 the day before is no longer true. Notices whose letter is right are absent.
 */
export async function lettersNotToPost(
  db: Db,
  pcnIds: readonly string[],
  kind: SentDocumentKind,
  postedOn: CalendarDate,
): Promise<Map<string, string>> {
  const letters = await findLatestLetters(db, pcnIds, kind, postedOn);
  const problems = new Map<string, string>();
  for (const pcnId of pcnIds) {
    const letter = letters.get(pcnId);
    if (!letter) problems.set(pcnId, `No letter was made for it: make its letter for ${formatCalendarDate(postedOn)}`);
    else if (letter.postOn !== postedOn) {
      problems.set(
        pcnId,
        `Its letter is dated ${formatCalendarDate(letter.postOn ?? postedOn)}, not ${formatCalendarDate(postedOn)}: make its letter again for the day it is posted`,
      );
    } else if (letter.paidSincePence > 0) {
      problems.set(
        pcnId,
        `${formatPence(letter.paidSincePence)} paid before ${formatCalendarDate(postedOn)} was recorded after its letter was made: make its letter again so it states what remains unpaid`,
      );
    }
  }
  return problems;
}
