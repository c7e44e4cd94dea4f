import { randomUUID } from 'node:crypto';
import { ERROR_MESSAGES, evidencePackFileName, type EvidencePack } from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { JOB_RETRY, type JobQueue } from '../jobs/job-queue.ts';
import {
  deleteEvidencePack,
  findEvidencePack,
  findEvidencePackById,
  findPackInTheMaking,
  insertEvidencePack,
  toEvidencePack,
  updateEvidencePack,
} from '../repositories/evidence-packs.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { buildEvidencePack, type EvidencePackDeps } from '../services/build-evidence-pack.ts';
import { sha256Hex } from '../services/crypto-tokens.ts';
import { newEvidenceFileName } from '../services/evidence-storage.ts';
import { authorOf } from '../services/sent-documents.ts';

/**
 * An evidence pack made by a job, not while the admin waits (decision 0048): the request stores
 * the pack WAITING and asks for the job; the job reads the notice as it stands then, draws the PDF
 * and keeps it in the evidence store with its SHA-256; the admin's screen follows the pack and
 * downloads it once READY. A pack is kept for EVIDENCE_PACK_KEPT_HOURS, then the daily retention
 * run removes it.
 */

const NO_SUCH_PACK = 'No such evidence pack';

/** POST /pcns/{id}/evidence-packs: a pack still being made for the notice is answered rather than a second begun. */
export async function askForEvidencePack(
  deps: { db: Db; jobs: JobQueue; now: () => Date },
  input: { pcnId: string; user: AuthUser },
): Promise<EvidencePack> {
  const pcn = await findPcnRowById(deps.db, input.pcnId);
  if (!pcn) throw new AppError('NOT_FOUND', ERROR_MESSAGES.pcnNotFound);
  const now = deps.now();
  // A try outlives this only when its process died; then a new pack is worth asking for.
  const since = new Date(now.getTime() - JOB_RETRY.expireInSeconds * 1000).toISOString();
  const making = await findPackInTheMaking(deps.db, input.pcnId, since);
  if (making) return toEvidencePack(making);
  const author = authorOf(input.user);
  const row = {
    id: randomUUID(),
    pcn_id: input.pcnId,
    state: 'WAITING' as const,
    error: null,
    file_name: null,
    sha256: null,
    created_by: author.id,
    created_by_name: author.name,
    created_at: now.toISOString(),
    finished_at: null,
  };
  await insertEvidencePack(deps.db, row);
  // Asked for once the pack is there to find; a queue that cannot take it leaves no pack behind.
  try {
    await deps.jobs.send('evidencePack', { packId: row.id });
  } catch (error) {
    await deleteEvidencePack(deps.db, row.id);
    throw error;
  }
  return toEvidencePack(row);
}

/** The job. A notice deleted meanwhile fails the pack for good; anything else is thrown, for the queue to try again. */
export async function makeEvidencePack(deps: EvidencePackDeps, packId: string): Promise<void> {
  const pack = await findEvidencePackById(deps.db, packId);
  if (!pack || pack.state === 'READY' || pack.state === 'FAILED') return;
  await updateEvidencePack(deps.db, packId, { state: 'MAKING' });
  let made;
  try {
    made = await buildEvidencePack(deps, pack.pcn_id);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await updateEvidencePack(deps.db, packId, { state: 'FAILED', error: error.message, finished_at: deps.now().toISOString() });
    return;
  }
  const fileName = newEvidenceFileName('pdf');
  await deps.evidence.put(fileName, made.bytes, 'application/pdf');
  await updateEvidencePack(deps.db, packId, {
    state: 'READY',
    file_name: fileName,
    sha256: sha256Hex(made.bytes),
    error: null,
    finished_at: deps.now().toISOString(),
  });
  // The notice (and so the pack's row) deleted while the pack was drawn: its file goes too.
  if (!(await findEvidencePackById(deps.db, packId))) await deps.evidence.delete([fileName]);
}

/** GET /pcns/{id}/evidence-packs/{packId}: where it stands. */
export async function readEvidencePack(db: Db, pcnId: string, packId: string): Promise<EvidencePack> {
  const row = await findEvidencePack(db, pcnId, packId);
  if (!row) throw new AppError('NOT_FOUND', NO_SUCH_PACK);
  return toEvidencePack(row);
}

/** GET /pcns/{id}/evidence-packs/{packId}/file: the PDF as made, checked against its SHA-256. */
export async function readEvidencePackFile(
  deps: Pick<EvidencePackDeps, 'db' | 'evidence'>,
  pcnId: string,
  packId: string,
): Promise<{ bytes: Uint8Array; fileName: string; sha256: string }> {
  const row = await findEvidencePack(deps.db, pcnId, packId);
  const pcn = row ? await findPcnRowById(deps.db, pcnId) : undefined;
  if (!row || !pcn) throw new AppError('NOT_FOUND', NO_SUCH_PACK);
  if (row.state !== 'READY' || !row.file_name || !row.sha256) {
    throw new AppError(
      'CONFLICT',
      row.state === 'FAILED' ? `The evidence pack was not made: ${row.error ?? 'it failed'}` : 'The evidence pack is still being made',
    );
  }
  const bytes = await deps.evidence.read(row.file_name);
  if (!bytes) throw new AppError('NOT_FOUND', NO_SUCH_PACK);
  if (sha256Hex(bytes) !== row.sha256) throw new AppError('INTERNAL', 'The stored evidence pack no longer matches its SHA-256');
  return { bytes, fileName: evidencePackFileName(pcn.pcn_number), sha256: row.sha256 };
}
