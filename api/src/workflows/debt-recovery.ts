import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import {
  addDays,
  debtRecoveryBatchReference,
  formatCalendarDate,
  formatPence,
  letterBeforeClaimReplyEndsOn,
  pastLetterBeforeClaim,
  PCN_STATUS_LABELS,
  pcnTitle,
  ukDate,
  type DebtRecoveryBatch,
  type DebtRecoveryBatchListResponse,
  type DebtRecoveryEligibleCharge,
  type DebtRecoveryEligibleResponse,
  type DebtRecoveryHandover,
  type DebtRecoveryHandoverListResponse,
  type Keeper,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { amountDueOf } from '../domain/public-charge.ts';
import { AppError, failureText } from '../http/app-error.ts';
import { JOB_LIFE_SECONDS } from '../jobs/job-queue.ts';
import {
  countBatchesWithReferencePrefix,
  deleteDebtRecoveryHandover,
  findChargesBeingHandedOver,
  findDebtRecoveryBatch,
  findDebtRecoveryHandover,
  findLetterBeforeClaimPcnIds,
  insertDebtRecoveryBatch,
  insertDebtRecoveryHandover,
  listDebtRecoveryBatches,
  listHandoverPcnIds,
  listUnfinishedHandovers,
  toDebtRecoveryBatch,
  toDebtRecoveryHandover,
  updateDebtRecoveryHandover,
} from '../repositories/debt-recovery.ts';
import { findKeepers } from '../repositories/keepers.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById, type PcnRow } from '../repositories/pcn-rows.ts';
import { insertStatusChange } from '../repositories/pcn-status.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { sha256Hex } from '../services/crypto-tokens.ts';
import { authorOf } from '../services/sent-documents.ts';
import { writeBatchFile, type BatchCharge } from './debt-recovery-batch-file.ts';
import { chargeFactsOf } from './look-up-charge.ts';

/**
 * The hand-over of unpaid charges to a debt recovery agency (decision 0040). A charge may go once
 * it stands at its letter before claim and the debtor's 30 days to answer it have ended (the
 * Pre-Action Protocol for Debt Claims, paragraph 3.1(e): pastLetterBeforeClaim), it is issued,
 * something is still due and no appeal is open. Every chosen charge is checked before anything is
 * made: one that cannot go is named with why, and the request changes nothing. The batch itself is
 * packed by a job (decision 0049).
 */

type Deps = Pick<AppDeps, 'db' | 'evidence' | 'config' | 'now'>;

/** Why a charge cannot be handed over today, or its figures when it can. */
async function examine(db: Db, row: PcnRow, keeper: Keeper | undefined, now: Date): Promise<{ problem: string } | BatchCharge> {
  if (row.collection_stage === 'DEBT_RECOVERY') return { problem: 'It is already with the debt recovery agency' };
  if (row.status !== 'ISSUED') {
    return { problem: `Only an issued charge can go; this one is ${PCN_STATUS_LABELS[row.status].toLowerCase()}` };
  }
  if (row.collection_stage !== 'LETTER_BEFORE_CLAIM' || !row.letter_before_claim_posted_on) {
    return { problem: 'No letter before claim has been posted for it' };
  }
  const today = ukDate(now);
  const replyEndedOn = letterBeforeClaimReplyEndsOn(row.letter_before_claim_posted_on);
  if (!pastLetterBeforeClaim(row.letter_before_claim_posted_on, today)) {
    return {
      problem: `Too early: the 30 days to answer the letter before claim run to ${formatCalendarDate(replyEndedOn)}. Hand it over from ${formatCalendarDate(addDays(replyEndedOn, 1))}`,
    };
  }
  const facts = await chargeFactsOf(db, row, () => '');
  if (facts.appeal?.status === 'OPEN') return { problem: 'An appeal is open: decide it before handing the charge over' };
  const due = amountDueOf(facts, now);
  if (due.chargePence === null) return { problem: 'The terms in force when it was issued were not recorded (the car park’s charge)' };
  if (due.amountDuePence <= 0) return { problem: 'Nothing is due on it' };
  if (!keeper) return { problem: 'No keeper details: the agency needs a name and address to pursue' };
  return {
    row,
    keeper,
    chargePence: due.chargePence,
    charge: {
      pcnId: row.id,
      pcnNumber: row.pcn_number,
      vehicleRegistration: row.vehicle_registration,
      carParkName: row.car_park_name ?? '',
      issuedOn: ukDate(row.issued_at ?? row.created_at),
      letterBeforeClaimPostedOn: row.letter_before_claim_posted_on,
      replyEndedOn,
      amountDuePence: due.amountDuePence,
      debtRecoveryFeePence: row.debt_recovery_fee_pence,
      paidPence: due.paidPence,
    },
  };
}

/** GET /debt-recovery/eligible: the charges that may be handed over today, oldest reference first. */
export async function listEligibleCharges(deps: Pick<Deps, 'db' | 'now'>): Promise<DebtRecoveryEligibleResponse> {
  const ids = await findLetterBeforeClaimPcnIds(deps.db);
  const keepers = await findKeepers(deps.db, ids);
  const items: DebtRecoveryEligibleCharge[] = [];
  const now = deps.now();
  const spokenFor = await findChargesBeingHandedOver(deps.db, ids, liveSince(now), null);
  for (const id of ids) {
    if (spokenFor.has(id)) continue;
    const row = await findPcnRowById(deps.db, id);
    if (!row) continue;
    const examined = await examine(deps.db, row, keepers.get(id), now);
    if ('charge' in examined) items.push(examined.charge);
  }
  return { items };
}

/** Hand-overs younger than a job's whole life may still be packed: their charges are spoken for. */
function liveSince(now: Date): string {
  return new Date(now.getTime() - JOB_LIFE_SECONDS * 1000).toISOString();
}

/** Every chosen charge examined, and refused while another hand-over still being made holds it. */
async function prepare(db: Db, pcnIds: readonly string[], now: Date, handoverId: string | null): Promise<BatchCharge[]> {
  const ids = [...new Set(pcnIds)];
  const keepers = await findKeepers(db, ids);
  const spokenFor = await findChargesBeingHandedOver(db, ids, liveSince(now), handoverId);
  const problems = new Map<string, string>();
  const names = new Map<string, string>();
  const candidates: BatchCharge[] = [];
  for (const id of ids) {
    const row = await findPcnRowById(db, id);
    if (!row) {
      problems.set(id, 'No such charge');
      names.set(id, id);
      continue;
    }
    names.set(id, pcnTitle(row.pcn_number));
    if (spokenFor.has(id)) {
      problems.set(id, 'It is in a hand-over still being made');
      continue;
    }
    const examined = await examine(db, row, keepers.get(id), now);
    if ('problem' in examined) problems.set(id, examined.problem);
    else candidates.push(examined);
  }
  if (problems.size > 0) {
    const listed = [...problems.keys()].map((id) => names.get(id)!);
    throw new AppError(
      'DEBT_RECOVERY_REFUSED',
      `${problems.size === 1 ? 'A charge cannot' : `${problems.size} charges cannot`} go to the agency: ${listed.join(', ')}. Nothing was handed over`,
      { details: Object.fromEntries(problems) },
    );
  }
  return candidates.sort((a, b) => a.row.pcn_number.localeCompare(b.row.pcn_number));
}

/** Who asked for a hand-over, as its history and audit entries name them. */
type Author = { id: string | null; name: string };

/**
 * POST /debt-recovery/exports: every charge checked now (all or none, as before), then the
 * hand-over stored WAITING with its charges and a job asked for (decision 0049). Nothing is drawn
 * while the admin waits: a batch of hundreds of charges is hundreds of evidence packs.
 */
export async function startDebtRecoveryHandover(
  deps: Pick<AppDeps, 'db' | 'jobs' | 'now'>,
  input: { pcnIds: readonly string[]; user: AuthUser },
): Promise<DebtRecoveryHandover> {
  const now = deps.now();
  const candidates = await prepare(deps.db, input.pcnIds, now, null);
  const author = authorOf(input.user);
  const row = {
    id: randomUUID(),
    state: 'WAITING' as const,
    total: candidates.length,
    made: 0,
    error: null,
    batch_id: null,
    created_by: author.id,
    created_by_name: author.name,
    created_at: now.toISOString(),
    finished_at: null,
  };
  await deps.db.transaction().execute((trx) =>
    insertDebtRecoveryHandover(
      trx,
      row,
      candidates.map((candidate) => candidate.row.id),
    ),
  );
  // Asked for once the hand-over is there to find; a queue that cannot take it leaves none behind.
  try {
    await deps.jobs.send('debtRecoveryBatch', { handoverId: row.id });
  } catch (error) {
    await deleteDebtRecoveryHandover(deps.db, row.id);
    throw error;
  }
  return toDebtRecoveryHandover(row, undefined);
}

/**
 * The job: the charges checked again (one paid or appealed meanwhile fails the hand-over, naming
 * it), the ZIP made and stored, then in one transaction the batch row and each charge moved to
 * DEBT_RECOVERY with the batch, a note in its history and its audit entry. What cannot be
 * made (a charge that changed, a document that no longer matches its SHA-256) fails the hand-over
 * for good with why, and nothing is handed over; anything else is thrown for the queue to try
 * again, and a try starts afresh.
 */
export async function makeDebtRecoveryBatch(deps: Deps, handoverId: string): Promise<void> {
  const handover = await findDebtRecoveryHandover(deps.db, handoverId);
  if (!handover || handover.state === 'READY' || handover.state === 'FAILED') return;
  await updateDebtRecoveryHandover(deps.db, handoverId, { state: 'MAKING', made: 0 });
  const fail = (error: AppError) =>
    updateDebtRecoveryHandover(deps.db, handoverId, { state: 'FAILED', error: failureText(error), finished_at: deps.now().toISOString() });
  const now = deps.now();
  const total = Number(handover.total);
  // The admin's count moves in steps of about a tenth.
  const step = Math.max(1, Math.ceil(total / 10));
  let candidates: BatchCharge[];
  let made: Awaited<ReturnType<typeof writeBatchFile>>;
  try {
    candidates = await prepare(deps.db, await listHandoverPcnIds(deps.db, handoverId), now, handoverId);
    made = await writeBatchFile(deps, candidates, now, async (packed) => {
      if (packed % step === 0 && packed < total) await updateDebtRecoveryHandover(deps.db, handoverId, { made: packed });
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await fail(error);
    return;
  }
  let fileName: string;
  try {
    [fileName] = (await deps.evidence.place([
      { tempPath: made.tempPath, extension: 'zip', mimeType: 'application/zip', size: made.size },
    ])) as [string];
  } finally {
    await rm(made.tempPath, { force: true });
  }
  try {
    await handOver(deps.db, {
      handoverId,
      candidates,
      file: { name: fileName, size: made.size, sha256: made.sha256 },
      now,
      author: { id: handover.created_by, name: handover.created_by_name },
    });
  } catch (error) {
    await deps.evidence.delete([fileName]).catch(() => undefined);
    if (!(error instanceof AppError)) throw error;
    await fail(error);
  }
}

/** The batch recorded and its charges moved, all in one transaction or none. */
async function handOver(
  db: Db,
  input: {
    handoverId: string;
    candidates: readonly BatchCharge[];
    file: { name: string; size: number; sha256: string };
    now: Date;
    author: Author;
  },
): Promise<void> {
  const { candidates, now, author } = input;
  const at = now.toISOString();
  const actor = { id: author.id, firstName: author.name, lastName: '' };
  await db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const day = ukDate(now);
    const reference = debtRecoveryBatchReference(day, (await countBatchesWithReferencePrefix(trx, `DR-${day}-`)) + 1);
    const row = {
      id: randomUUID(),
      reference,
      charge_count: candidates.length,
      file_name: input.file.name,
      size_bytes: input.file.size,
      sha256: input.file.sha256,
      created_by: author.id,
      created_by_name: author.name,
      created_at: at,
    };
    await insertDebtRecoveryBatch(trx, row);
    for (const { row: pcn, charge } of candidates) {
      const moved = await trx
        .updateTable('pcns')
        .set({ collection_stage: 'DEBT_RECOVERY', debt_recovery_batch_id: row.id, updated_at: at })
        .where('id', '=', pcn.id)
        .where('status', '=', 'ISSUED')
        .where('collection_stage', '=', 'LETTER_BEFORE_CLAIM')
        .where('debt_recovery_batch_id', 'is', null)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) {
        throw new AppError('CONFLICT', `${pcnTitle(pcn.pcn_number)} changed while the batch was made: nothing was handed over, try again`);
      }
      const note = `Handed to the debt recovery agency in batch ${reference}: ${formatPence(charge.amountDuePence)} due`;
      await insertStatusChange(trx, { pcnId: pcn.id, from: 'ISSUED', to: 'ISSUED', note, changedBy: author.id, now: at });
      await insertAuditEntries(trx, [
        auditEntry(pcn.id, 'debt_recovery_exported', actor, null, at, {
          collectionStage: { from: 'LETTER_BEFORE_CLAIM', to: 'DEBT_RECOVERY' },
          debtRecoveryBatch: { from: null, to: reference },
          amountDuePence: { from: null, to: charge.amountDuePence },
        }),
      ]);
    }
    await updateDebtRecoveryHandover(trx, input.handoverId, {
      state: 'READY',
      made: candidates.length,
      error: null,
      batch_id: row.id,
      finished_at: at,
    });
  });
}

/** GET /debt-recovery/handovers/{id}: where it stands, with its batch once made. */
export async function readHandover(db: Db, id: string): Promise<DebtRecoveryHandover> {
  const row = await findDebtRecoveryHandover(db, id);
  if (!row) throw new AppError('NOT_FOUND', 'No such hand-over');
  return toDebtRecoveryHandover(row, row.batch_id ? await findDebtRecoveryBatch(db, row.batch_id) : undefined);
}

/** GET /debt-recovery/handovers: those still being made and those that failed in the last day, so a reload finds them. */
export async function listHandovers(deps: Pick<Deps, 'db' | 'now'>): Promise<DebtRecoveryHandoverListResponse> {
  const since = new Date(deps.now().getTime() - 24 * 3600 * 1000).toISOString();
  return { items: (await listUnfinishedHandovers(deps.db, since)).map((row) => toDebtRecoveryHandover(row, undefined)) };
}

/** GET /debt-recovery/exports: newest first. */
export async function listBatches(db: Db): Promise<DebtRecoveryBatchListResponse> {
  return { items: (await listDebtRecoveryBatches(db)).map(toDebtRecoveryBatch) };
}

/** GET /debt-recovery/exports/{id}: the ZIP as made, checked against the SHA-256 taken then. */
export async function readBatch(deps: Pick<Deps, 'db' | 'evidence'>, id: string): Promise<{ batch: DebtRecoveryBatch; bytes: Uint8Array }> {
  const row = await findDebtRecoveryBatch(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND', 'No such batch');
  const bytes = await deps.evidence.read(row.file_name);
  if (!bytes) throw new AppError('INTERNAL', 'The stored batch is missing from the evidence store');
  if (sha256Hex(bytes) !== row.sha256) throw new AppError('INTERNAL', 'The stored batch no longer matches its SHA-256');
  return { batch: toDebtRecoveryBatch(row), bytes };
}
