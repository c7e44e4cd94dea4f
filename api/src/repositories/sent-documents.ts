import type { CalendarDate, SentDocument, SentDocumentKind } from '@parkpatrol/shared';
import { sentDocumentFileName, ukDate } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { SentDocumentsTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';

/** Documents as sent (decision 0025): rows here, bytes in the evidence store under `file_name`. */
export type SentDocumentRow = Selectable<SentDocumentsTable>;

export async function insertSentDocument(db: Db, row: SentDocumentRow): Promise<void> {
  await db.insertInto('sent_documents').values(row).execute();
}

/** A notice's documents, oldest first, with its number for the download's name. */
export async function findSentDocuments(db: Db, pcnId: string): Promise<SentDocument[]> {
  const rows = await db
    .selectFrom('sent_documents')
    .innerJoin('pcns', 'pcns.id', 'sent_documents.pcn_id')
    .selectAll('sent_documents')
    .select('pcns.pcn_number')
    .where('sent_documents.pcn_id', '=', pcnId)
    .orderBy('sent_documents.created_at')
    .orderBy('sent_documents.id')
    .execute();
  return rows.map((row) => toSentDocument(row, row.pcn_number));
}

export async function findSentDocument(
  db: Db,
  pcnId: string,
  documentId: string,
): Promise<{ row: SentDocumentRow; document: SentDocument } | null> {
  const row = await db
    .selectFrom('sent_documents')
    .innerJoin('pcns', 'pcns.id', 'sent_documents.pcn_id')
    .selectAll('sent_documents')
    .select('pcns.pcn_number')
    .where('sent_documents.pcn_id', '=', pcnId)
    .where('sent_documents.id', '=', documentId)
    .executeTakeFirst();
  if (!row) return null;
  const { pcn_number: pcnNumber, ...stored } = row;
  return { row: stored, document: toSentDocument(stored, pcnNumber) };
}

/**
 * Each notice's newest letter of `kind` (the one that would be in the envelope): its posting day,
 * when it was made, and the payments recorded since that were made before the posting day (the
 * letter, made earlier, cannot have stated them).
 */
export async function findLatestLetters(
  db: Db,
  pcnIds: readonly string[],
  kind: SentDocumentKind,
  postedOn: CalendarDate,
): Promise<Map<string, { postOn: CalendarDate | null; paidSincePence: number }>> {
  const latest = new Map<string, { postOn: CalendarDate | null; createdAt: string }>();
  const paidSince = new Map<string, number>();
  for (let start = 0; start < pcnIds.length; start += 500) {
    const chunk = pcnIds.slice(start, start + 500);
    const rows = await db
      .selectFrom('sent_documents')
      .select(['pcn_id', 'post_on', 'created_at', 'id'])
      .where('pcn_id', 'in', chunk)
      .where('kind', '=', kind)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // Oldest first: each later row replaces the one before.
    for (const row of rows) latest.set(row.pcn_id, { postOn: row.post_on, createdAt: row.created_at });
    const payments = await db
      .selectFrom('pcn_payments')
      .select(['pcn_id', 'amount_pence', 'created_at'])
      .where('pcn_id', 'in', chunk)
      .where('paid_on', '<', postedOn)
      .execute();
    for (const payment of payments) {
      const letter = latest.get(payment.pcn_id);
      if (letter && payment.created_at > letter.createdAt) {
        paidSince.set(payment.pcn_id, (paidSince.get(payment.pcn_id) ?? 0) + payment.amount_pence);
      }
    }
  }
  return new Map([...latest].map(([pcnId, letter]) => [pcnId, { postOn: letter.postOn, paidSincePence: paidSince.get(pcnId) ?? 0 }]));
}

/** The newest document of `kind` for a notice, with `reference` when given. */
export async function findNewestSentDocument(
  db: Db,
  query: { pcnId: string; kind: SentDocumentKind; reference?: string | undefined },
): Promise<SentDocumentRow | undefined> {
  let select = db.selectFrom('sent_documents').selectAll().where('pcn_id', '=', query.pcnId).where('kind', '=', query.kind);
  if (query.reference !== undefined) select = select.where('reference', '=', query.reference);
  return select.orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/** Whether a notice already has a document of `kind` (one made at filing is not made twice). */
export async function hasSentDocument(db: Db, pcnId: string, kind: SentDocumentKind): Promise<boolean> {
  const row = await db.selectFrom('sent_documents').select('id').where('pcn_id', '=', pcnId).where('kind', '=', kind).executeTakeFirst();
  return row !== undefined;
}

export function toSentDocument(row: SentDocumentRow, pcnNumber: string): SentDocument {
  return {
    id: row.id,
    pcnId: row.pcn_id,
    kind: row.kind,
    createdAt: row.created_at,
    postOn: row.post_on,
    sha256: row.sha256,
    sizeBytes: row.size_bytes,
    mimeType: row.mime_type,
    reference: row.reference,
    createdBy: { id: row.created_by, name: row.created_by_name },
    purgedAt: row.purged_at,
    fileName: sentDocumentFileName({
      kind: row.kind,
      pcnNumber,
      day: row.post_on ?? ukDate(row.created_at),
      mimeType: row.mime_type,
    }),
  };
}
