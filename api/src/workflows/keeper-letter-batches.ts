import { randomUUID } from 'node:crypto';
import { keeperLettersFileName, type LetterBatch, type LetterBatchListResponse } from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError, failureText } from '../http/app-error.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import {
  deleteLetterBatch,
  findLetterBatch,
  insertLetterBatch,
  listLetterBatchItems,
  listRecentLetterBatches,
  recordLetterMade,
  toLetterBatch,
  updateLetterBatch,
} from '../repositories/letter-batches.ts';
import { sha256Hex } from '../services/crypto-tokens.ts';
import { newEvidenceFileName, type EvidenceStore } from '../services/evidence-storage.ts';
import { joinPdfs } from '../services/keeper-letters/render-keeper-letters.ts';
import { insertSentDocument } from '../repositories/sent-documents.ts';
import { authorOf, putSentDocumentFile } from '../services/sent-documents.ts';
import { keeperLetterDocument, postingDayOf, prepareKeeperLetters, renderKeeperLetter } from './keeper-notices.ts';

/**
 * A day's notices to keeper made by a job, not while the admin waits (decision 0047): the request
 * checks every notice as POST /keeper-notices/letters does (422 naming each that cannot go) and
 * stores the batch; the job makes the letters a few at a time, keeping each with its notice and
 * counting it in the transaction that keeps it, then joins them into the batch's one PDF. A job tried again after a crash or a
 * failure makes only the letters not yet made, so each notice gets its letter once.
 */

type Deps = { db: Db; evidence: EvidenceStore; jobs: JobQueue; now: () => Date };

/**
 * Letters kept and counted per transaction: up to 25, so a disk's flush is paid once per 25
 * letters, and at least ten transactions a batch, so the admin's count moves in steps of a tenth.
 */
export function lettersPerCommit(total: number): number {
  return Math.max(1, Math.min(25, Math.ceil(total / 10)));
}

/** POST /keeper-notices/batches: checked and stored, WAITING for the job. */
export async function startKeeperLetterBatch(
  deps: Deps,
  input: { pcnIds: readonly string[]; postOn?: string | undefined; appUrl: string; user: AuthUser },
): Promise<LetterBatch> {
  const now = deps.now();
  const postOn = postingDayOf(input.postOn, now);
  const prepared = await prepareKeeperLetters(deps.db, input.pcnIds, postOn, input.appUrl);
  const author = authorOf(input.user);
  const row = {
    id: randomUUID(),
    post_on: postOn,
    state: 'WAITING' as const,
    total: prepared.length,
    made: 0,
    error: null,
    file_name: null,
    sha256: null,
    created_by: author.id,
    created_by_name: author.name,
    created_at: now.toISOString(),
    finished_at: null,
  };
  await deps.db.transaction().execute((trx) =>
    insertLetterBatch(
      trx,
      row,
      prepared.map((item) => item.row.id),
    ),
  );
  // Asked for once the batch is there to find; a queue that cannot take it leaves no batch behind.
  try {
    await deps.jobs.send('keeperLetters', { batchId: row.id });
  } catch (error) {
    await deleteLetterBatch(deps.db, row.id);
    throw error;
  }
  return toLetterBatch(row);
}

/** The job: each letter not yet made, then the batch's one PDF. */
export async function makeKeeperLetterBatch(deps: Omit<Deps, 'jobs'> & { appUrl: string }, batchId: string): Promise<void> {
  const batch = await findLetterBatch(deps.db, batchId);
  if (!batch || batch.state === 'READY' || batch.state === 'FAILED') return;
  await updateLetterBatch(deps.db, batchId, { state: 'MAKING' });
  const items = await listLetterBatchItems(deps.db, batchId);
  const todo = items.filter((item) => item.sent_document_id === null);
  const author = { id: batch.created_by, name: batch.created_by_name };
  let prepared;
  try {
    // Checked again: a keeper corrected or a window passed since the batch was asked for.
    prepared = await prepareKeeperLetters(
      deps.db,
      todo.map((item) => item.pcn_id),
      batch.post_on,
      deps.appUrl,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Nothing a second try would change: the admin reads why, and makes a batch of the others.
    await updateLetterBatch(deps.db, batchId, { state: 'FAILED', error: failureText(error), finished_at: deps.now().toISOString() });
    return;
  }
  // A chunk's letters are drawn and their files written side by side, then kept and counted in one
  // transaction.
  const perCommit = lettersPerCommit(Number(batch.total));
  for (let start = 0; start < prepared.length; start += perCommit) {
    const now = deps.now();
    const chunk = prepared.slice(start, start + perCommit);
    const rows = await Promise.all(
      chunk.map(async (item) =>
        putSentDocumentFile(
          deps.evidence,
          keeperLetterDocument(item, await renderKeeperLetter(item, now), { postOn: batch.post_on, author, now }),
        ),
      ),
    );
    try {
      await deps.db.transaction().execute(async (trx) => {
        for (const [index, row] of rows.entries()) {
          await insertSentDocument(trx, row);
          await recordLetterMade(trx, batchId, todo[start + index]!.position, row.id);
        }
      });
    } catch (error) {
      await deps.evidence.delete(rows.map((row) => row.file_name)).catch(() => undefined);
      throw error;
    }
  }
  const letters: Uint8Array[] = [];
  for (const item of await listLetterBatchItems(deps.db, batchId)) {
    const bytes = item.file_name ? await deps.evidence.read(item.file_name) : null;
    if (!bytes) throw new Error(`the letter of batch ${batchId} at ${item.position} is missing from the evidence store`);
    letters.push(bytes);
  }
  const now = deps.now();
  const joined = await joinPdfs(letters, now, 'Notices to keeper');
  const fileName = newEvidenceFileName('pdf');
  await deps.evidence.put(fileName, joined, 'application/pdf');
  await updateLetterBatch(deps.db, batchId, {
    state: 'READY',
    file_name: fileName,
    sha256: sha256Hex(joined),
    error: null,
    finished_at: now.toISOString(),
  });
}

/** GET /keeper-notices/batches: the newest first. */
export async function listKeeperLetterBatches(db: Db): Promise<LetterBatchListResponse> {
  return { items: (await listRecentLetterBatches(db)).map(toLetterBatch) };
}

export async function readKeeperLetterBatch(db: Db, id: string): Promise<LetterBatch> {
  const row = await findLetterBatch(db, id);
  if (!row) throw new AppError('NOT_FOUND', 'No such batch of letters');
  return toLetterBatch(row);
}

/** GET /keeper-notices/batches/{id}/file: the one PDF as made, checked against its SHA-256. */
export async function readKeeperLetterBatchFile(
  deps: { db: Db; evidence: EvidenceStore },
  id: string,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const row = await findLetterBatch(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND', 'No such batch of letters');
  if (row.state !== 'READY' || !row.file_name) {
    throw new AppError(
      'CONFLICT',
      row.state === 'FAILED' ? `The letters were not made: ${row.error ?? 'the batch failed'}` : 'The letters are still being made',
    );
  }
  const bytes = await deps.evidence.read(row.file_name);
  if (!bytes) throw new AppError('INTERNAL', 'The stored letters are missing from the evidence store');
  if (sha256Hex(bytes) !== row.sha256) throw new AppError('INTERNAL', 'The stored letters no longer match their SHA-256');
  return { bytes, fileName: keeperLettersFileName(row.post_on) };
}
