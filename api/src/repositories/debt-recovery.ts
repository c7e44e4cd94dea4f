import type { Selectable } from 'kysely';
import { debtRecoveryBatchFileName, type DebtRecoveryBatch, type DebtRecoveryHandover, type DebtRecoveryOutcome } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { DebtRecoveryBatchesTable, DebtRecoveryHandoversTable } from '../db/schema.ts';

/** Batches handed to a debt recovery agency (decision 0040): rows here, the ZIP in the evidence store under `file_name`. */
export type DebtRecoveryBatchRow = Selectable<DebtRecoveryBatchesTable>;

export function toDebtRecoveryBatch(row: DebtRecoveryBatchRow): DebtRecoveryBatch {
  return {
    id: row.id,
    reference: row.reference,
    chargeCount: Number(row.charge_count),
    fileName: debtRecoveryBatchFileName(row.reference),
    sizeBytes: Number(row.size_bytes),
    sha256: row.sha256,
    createdAt: row.created_at,
    createdBy: row.created_by_name,
  };
}

/** Newest first. */
export async function listDebtRecoveryBatches(db: Db): Promise<DebtRecoveryBatchRow[]> {
  return db.selectFrom('debt_recovery_batches').selectAll().orderBy('created_at', 'desc').orderBy('reference', 'desc').execute();
}

export async function findDebtRecoveryBatch(db: Db, id: string): Promise<DebtRecoveryBatchRow | undefined> {
  return db.selectFrom('debt_recovery_batches').selectAll().where('id', '=', id).executeTakeFirst();
}

/** How many batches already carry a reference of this day (the next is numbered one more). */
export async function countBatchesWithReferencePrefix(db: Db, prefix: string): Promise<number> {
  const row = await db
    .selectFrom('debt_recovery_batches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('reference', 'like', `${prefix}%`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertDebtRecoveryBatch(trx: Db, row: DebtRecoveryBatchRow): Promise<void> {
  await trx.insertInto('debt_recovery_batches').values(row).execute();
}

/** The outcomes already imported for a charge, oldest first. */
export async function findDebtRecoveryUpdates(db: Db, pcnId: string) {
  return db
    .selectFrom('debt_recovery_updates')
    .select(['batch_id', 'outcome', 'agency_reference', 'paid_pence', 'imported_at'])
    .where('pcn_id', '=', pcnId)
    .orderBy('imported_at')
    .orderBy('id')
    .execute();
}

export async function insertDebtRecoveryUpdate(
  trx: Db,
  row: {
    id: string;
    pcnId: string;
    batchId: string;
    outcome: DebtRecoveryOutcome;
    paidPence: number;
    agencyReference: string;
    importedBy: { id: string | null; name: string };
    now: string;
  },
): Promise<void> {
  await trx
    .insertInto('debt_recovery_updates')
    .values({
      id: row.id,
      pcn_id: row.pcnId,
      batch_id: row.batchId,
      outcome: row.outcome,
      paid_pence: row.paidPence,
      agency_reference: row.agencyReference,
      imported_by: row.importedBy.id,
      imported_by_name: row.importedBy.name,
      imported_at: row.now,
    })
    .execute();
}

/** A hand-over packed by a job (migration 0043): the batch is made, and the charges moved, only when it is READY. */
export type DebtRecoveryHandoverRow = Selectable<DebtRecoveryHandoversTable>;

export function toDebtRecoveryHandover(row: DebtRecoveryHandoverRow, batch: DebtRecoveryBatchRow | undefined): DebtRecoveryHandover {
  return {
    id: row.id,
    state: row.state,
    total: Number(row.total),
    made: Number(row.made),
    error: row.error,
    batch: batch ? toDebtRecoveryBatch(batch) : null,
    createdAt: row.created_at,
    createdBy: row.created_by_name,
    finishedAt: row.finished_at,
  };
}

export async function findDebtRecoveryHandover(db: Db, id: string): Promise<DebtRecoveryHandoverRow | undefined> {
  return db.selectFrom('debt_recovery_handovers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Hand-overs not yet made, or failed, since a time: newest first. */
export async function listUnfinishedHandovers(db: Db, since: string): Promise<DebtRecoveryHandoverRow[]> {
  return db
    .selectFrom('debt_recovery_handovers')
    .selectAll()
    .where('state', '!=', 'READY')
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(20)
    .execute();
}

/** A new hand-over, WAITING, with its charges in the order they are packed. */
export async function insertDebtRecoveryHandover(trx: Db, row: DebtRecoveryHandoverRow, pcnIds: readonly string[]): Promise<void> {
  await trx.insertInto('debt_recovery_handovers').values(row).execute();
  // Chunked to stay well under SQLite's bound-parameter limit.
  for (let start = 0; start < pcnIds.length; start += 250) {
    await trx
      .insertInto('debt_recovery_handover_items')
      .values(pcnIds.slice(start, start + 250).map((pcnId, index) => ({ handover_id: row.id, position: start + index, pcn_id: pcnId })))
      .execute();
  }
}

export async function deleteDebtRecoveryHandover(db: Db, id: string): Promise<void> {
  await db.deleteFrom('debt_recovery_handovers').where('id', '=', id).execute();
}

export async function updateDebtRecoveryHandover(
  db: Db,
  id: string,
  change: Partial<Pick<DebtRecoveryHandoverRow, 'state' | 'made' | 'error' | 'batch_id' | 'finished_at'>>,
): Promise<void> {
  await db.updateTable('debt_recovery_handovers').set(change).where('id', '=', id).execute();
}

/** A hand-over's charges, in order. */
export async function listHandoverPcnIds(db: Db, handoverId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('debt_recovery_handover_items')
    .select('pcn_id')
    .where('handover_id', '=', handoverId)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.pcn_id);
}

/**
 * Which of these charges are in a hand-over (but `except`) still being packed, created since
 * `since`: one older than a job's whole life of tries is taken for stopped.
 */
export async function findChargesBeingHandedOver(
  db: Db,
  pcnIds: readonly string[],
  since: string,
  except: string | null,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < pcnIds.length; start += 250) {
    let query = db
      .selectFrom('debt_recovery_handover_items')
      .innerJoin('debt_recovery_handovers', 'debt_recovery_handovers.id', 'debt_recovery_handover_items.handover_id')
      .select('debt_recovery_handover_items.pcn_id')
      .where('debt_recovery_handover_items.pcn_id', 'in', pcnIds.slice(start, start + 250))
      .where('debt_recovery_handovers.state', 'in', ['WAITING', 'MAKING'])
      .where('debt_recovery_handovers.created_at', '>=', since);
    if (except) query = query.where('debt_recovery_handovers.id', '!=', except);
    for (const row of await query.execute()) found.add(row.pcn_id);
  }
  return found;
}

/** The charges that stand at their letter before claim, not yet with an agency, unpaid and issued: the candidates for a batch. */
export async function findLetterBeforeClaimPcnIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('pcns')
    .select('id')
    .where('collection_stage', '=', 'LETTER_BEFORE_CLAIM')
    .where('status', '=', 'ISSUED')
    .where('debt_recovery_batch_id', 'is', null)
    .orderBy('pcn_number')
    .limit(1000)
    .execute();
  return rows.map((row) => row.id);
}
