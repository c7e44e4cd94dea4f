import type { Selectable } from 'kysely';
import type { LetterBatch } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { LetterBatchesTable } from '../db/schema.ts';

/** Batches of notices to keeper made by a job (migration 0040): rows here, the one PDF in the evidence store under `file_name`. */
export type LetterBatchRow = Selectable<LetterBatchesTable>;

export function toLetterBatch(row: LetterBatchRow): LetterBatch {
  return {
    id: row.id,
    postOn: row.post_on,
    state: row.state,
    total: Number(row.total),
    made: Number(row.made),
    error: row.error,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** How many of the newest batches the keeper notices screen lists. */
const RECENT_BATCHES = 10;

export async function listRecentLetterBatches(db: Db): Promise<LetterBatchRow[]> {
  return db.selectFrom('letter_batches').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(RECENT_BATCHES).execute();
}

export async function findLetterBatch(db: Db, id: string): Promise<LetterBatchRow | undefined> {
  return db.selectFrom('letter_batches').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A new batch, WAITING, with its notices in the order given. */
export async function insertLetterBatch(trx: Db, row: LetterBatchRow, pcnIds: readonly string[]): Promise<void> {
  await trx.insertInto('letter_batches').values(row).execute();
  // Chunked to stay well under SQLite's bound-parameter limit.
  for (let start = 0; start < pcnIds.length; start += 250) {
    await trx
      .insertInto('letter_batch_items')
      .values(
        pcnIds
          .slice(start, start + 250)
          .map((pcnId, index) => ({ batch_id: row.id, position: start + index, pcn_id: pcnId, sent_document_id: null })),
      )
      .execute();
  }
}

export async function deleteLetterBatch(db: Db, id: string): Promise<void> {
  await db.deleteFrom('letter_batch_items').where('batch_id', '=', id).execute();
  await db.deleteFrom('letter_batches').where('id', '=', id).execute();
}

/** A batch's notices in order, each with the document made for it (null until made) and that document's file. */
export async function listLetterBatchItems(db: Db, batchId: string) {
  return db
    .selectFrom('letter_batch_items')
    .leftJoin('sent_documents', 'sent_documents.id', 'letter_batch_items.sent_document_id')
    .select(['letter_batch_items.pcn_id', 'letter_batch_items.position', 'letter_batch_items.sent_document_id', 'sent_documents.file_name'])
    .where('letter_batch_items.batch_id', '=', batchId)
    .orderBy('letter_batch_items.position')
    .execute();
}

/** One notice's letter made: recorded with it in the transaction that kept the document. */
export async function recordLetterMade(trx: Db, batchId: string, position: number, sentDocumentId: string): Promise<void> {
  await trx
    .updateTable('letter_batch_items')
    .set({ sent_document_id: sentDocumentId })
    .where('batch_id', '=', batchId)
    .where('position', '=', position)
    .execute();
  await trx
    .updateTable('letter_batches')
    .set((eb) => ({ made: eb('made', '+', 1) }))
    .where('id', '=', batchId)
    .execute();
}

export async function updateLetterBatch(
  db: Db,
  id: string,
  changes: Partial<Pick<LetterBatchRow, 'state' | 'error' | 'file_name' | 'sha256' | 'finished_at'>>,
): Promise<void> {
  await db.updateTable('letter_batches').set(changes).where('id', '=', id).execute();
}
