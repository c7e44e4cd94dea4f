import { randomUUID } from 'node:crypto';
import { keeperLettersFileName, type LetterBatch, type LetterBatchListResponse } from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
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
import { authorOf } from '../services/sent-documents.ts';
import { keepKeeperLetter, postingDayOf, prepareKeeperLetters, renderKeeperLetter } from './keeper-notices.ts';

/**
 * A day's notices to keeper made by a job, not while the admin waits (decision 0047): the request
 * checks every notice as POST /keeper-notices/letters does (422 naming each that cannot go) and
 * stores the batch; the job makes each letter, keeps it with its notice and counts it in one
 * transaction, then joins them into the batch's one PDF. A job tried again after a crash or a
 * failure makes only the letters not yet made, so each notice gets its letter once.
 */

type Deps = { db: Db; evidence: EvidenceStore; jobs: JobQueue; now: () => Date };

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
    const reasons = Object.values(error.details ?? {});
    const why = reasons.length > 0 ? `${error.message} (${[...new Set(reasons)].join('; ')})` : error.message;
    await updateLetterBatch(deps.db, batchId, { state: 'FAILED', error: why, finished_at: deps.now().toISOString() });
    return;
  }
  for (const [index, item] of prepared.entries()) {
    const now = deps.now();
    const bytes = await renderKeeperLetter(item, now);
    await deps.db.transaction().execute(async (trx) => {
      const document = await keepKeeperLetter({ db: trx, evidence: deps.evidence }, item, bytes, { postOn: batch.post_on, author, now });
      await recordLetterMade(trx, batchId, todo[index]!.position, document.id);
    });
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
