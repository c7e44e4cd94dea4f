import type { Selectable } from 'kysely';
import { debtRecoveryBatchFileName, type DebtRecoveryBatch, type DebtRecoveryOutcome } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { DebtRecoveryBatchesTable } from '../db/schema.ts';

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
