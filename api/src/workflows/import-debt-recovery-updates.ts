import { randomUUID } from 'node:crypto';
import {
  DEBT_RECOVERY_OUTCOMES,
  DEBT_RECOVERY_UPDATE_COLUMNS,
  DEBT_RECOVERY_UPDATE_RESULTS,
  formatCalendarDate,
  formatPence,
  normaliseChargeReference,
  normaliseRegistration,
  pcnTitle,
  ukDate,
  type DebtRecoveryOutcome,
  type DebtRecoveryUpdateImport,
  type DebtRecoveryUpdateResult,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { findDebtRecoveryUpdates, insertDebtRecoveryUpdate } from '../repositories/debt-recovery.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { insertStatusChange } from '../repositories/pcn-status.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { authorOf } from '../services/sent-documents.ts';
import { applyPayment } from './record-payment.ts';
import { readCsvRows } from '../services/csv-import.ts';

const MAX_ROWS = 2000;
/** Rows committed together, the event loop let go between batches: as the keeper replies import does, for the same reasons. */
const BATCH_ROWS = 100;
const YIELD_MS = 10;
const REQUIRED_COLUMNS = ['reference', 'vrm', 'outcome'] as const;

type UpdateRow = Partial<Record<(typeof DEBT_RECOVERY_UPDATE_COLUMNS)[number], string>>;

/** A dry run's transaction is undone by throwing this once its rows are read. */
class PreviewRollback extends Error {}

/**
 * POST /debt-recovery/updates (decision 0040): the agency's CSV of outcomes, matched to charges as
 * the keeper replies are, by our reference and the registration. Only a row that matches a charge
 * the agency holds, and is not an outcome already imported (the same agency reference and
 * outcome), is applied; every other row is listed with why and changes nothing. With `preview`
 * each row is tried in a transaction that is then undone: the answer says what applying would do
 * (rows go 100 at a time, each hundred undone before the next is tried; a repeat within the file
 * is found by the file's own list of what it applied).
 */
export async function importDebtRecoveryUpdates(
  db: Db,
  input: { csv: string; preview: boolean; user: AuthUser; now: Date },
): Promise<DebtRecoveryUpdateImport> {
  const rows = readCsvRows(input.csv, { columns: DEBT_RECOVERY_UPDATE_COLUMNS, required: REQUIRED_COLUMNS, maxRows: MAX_ROWS });
  const results: DebtRecoveryUpdateResult[] = [];
  // Two rows of one file with the same agency reference and outcome: the second is a repeat.
  const seen = new Set<string>();
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const batch = rows.slice(start, start + BATCH_ROWS);
    const batchResults: DebtRecoveryUpdateResult[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        await lockPcnWrites(trx);
        for (const [offset, row] of batch.entries()) {
          batchResults.push(await importRow(trx, start + offset + 1, row, seen, input.user, input.now));
        }
        if (input.preview) throw new PreviewRollback();
      });
    } catch (error) {
      if (!(error instanceof PreviewRollback)) throw error;
    }
    results.push(...batchResults);
    await new Promise((resolve) => setTimeout(resolve, YIELD_MS));
  }
  const counts = Object.fromEntries(DEBT_RECOVERY_UPDATE_RESULTS.map((kind) => [kind, 0])) as DebtRecoveryUpdateImport['counts'];
  for (const result of results) counts[result.result]++;
  return { preview: input.preview, results, counts };
}

/** 'PART PAID', 'part-paid', 'Part_Paid' to PART_PAID; null when it is none of the four. */
function readOutcome(text: string | undefined): DebtRecoveryOutcome | null {
  const outcome = (text ?? '')
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  return (DEBT_RECOVERY_OUTCOMES as readonly string[]).includes(outcome) ? (outcome as DebtRecoveryOutcome) : null;
}

/** paid_pence (whole pence) or amount (pounds: '60', '£60.50', '1,060.00'); null when given but unreadable, 0 when neither is given. */
function readPaidPence(row: UpdateRow): number | null {
  const pence = row.paid_pence?.trim();
  if (pence) return /^\d{1,9}$/.test(pence) ? Number(pence) : null;
  const pounds = row.amount?.trim().replace(/^£/, '').replaceAll(',', '');
  if (!pounds) return 0;
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(pounds);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0')) : null;
}

/** '19/12/2026' (UK order) or '2026-12-19' to '2026-12-19'; null when unreadable. */
function readDay(text: string): string | null {
  const uk = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso = uk ? `${uk[3]}-${uk[2]!.padStart(2, '0')}-${uk[1]!.padStart(2, '0')}` : text;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return null;
  const parsed = new Date(`${iso}T12:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === iso ? iso : null;
}

async function importRow(
  trx: Db,
  rowNumber: number,
  raw: UpdateRow,
  seen: Set<string>,
  user: AuthUser,
  now: Date,
): Promise<DebtRecoveryUpdateResult> {
  const reference = raw.reference ?? '';
  const vrm = normaliseRegistration(raw.vrm ?? '');
  const outcome = readOutcome(raw.outcome);
  const paidPence = readPaidPence(raw);
  const agencyReference = (raw.agency_reference ?? '').trim();
  const result = (kind: DebtRecoveryUpdateResult['result'], message: string, pcnId: string | null = null): DebtRecoveryUpdateResult => ({
    row: rowNumber,
    reference,
    vrm,
    outcome,
    paidPence,
    agencyReference,
    result: kind,
    message,
    pcnId,
  });
  const number = normaliseChargeReference(reference);
  if (!number) return result('INVALID', 'The reference is not one of ours (PCN- and up to 8 digits)');
  if (!outcome) return result('INVALID', `The outcome must be one of ${DEBT_RECOVERY_OUTCOMES.join(', ')}`);
  if (!agencyReference) return result('INVALID', 'Give the agency’s reference for this outcome (agency_reference)');
  if (agencyReference.length > 100) return result('INVALID', 'The agency’s reference is at most 100 characters');
  const paying = outcome === 'PAID' || outcome === 'PART_PAID';
  if (paidPence === null) return result('INVALID', 'The amount cannot be read: give paid_pence in pence or amount in pounds');
  if (paying && paidPence <= 0) return result('INVALID', 'A paid outcome needs the amount the agency passed on');
  if (!paying && paidPence > 0) return result('INVALID', 'A closed or returned charge records no payment: leave the amount empty');
  const paidOn = raw.paid_on?.trim() ? readDay(raw.paid_on.trim()) : ukDate(now);
  if (!paidOn) return result('INVALID', 'The day paid cannot be read: give it as 2026-12-19 or 19/12/2026');

  const found = await trx.selectFrom('pcns').select('id').where('pcn_number', '=', number).executeTakeFirst();
  const row = found ? await findPcnRowById(trx, found.id) : undefined;
  if (!row) return result('NOT_FOUND', `No charge has the reference ${pcnTitle(number)}`);
  if (vrm !== row.vehicle_registration) {
    return result('MISMATCH', `The registration ${vrm || '(none)'} is not the charge's (${row.vehicle_registration})`, row.id);
  }
  const key = `${row.id}\n${agencyReference}\n${outcome}`;
  const earlier = await findDebtRecoveryUpdates(trx, row.id);
  if (seen.has(key) || earlier.some((update) => update.agency_reference === agencyReference && update.outcome === outcome)) {
    return result('ALREADY_IMPORTED', `This outcome (${agencyReference}, ${outcome}) was imported before: nothing more was done`, row.id);
  }
  const batchId = row.debt_recovery_batch_id;
  if (batchId === null || row.collection_stage !== 'DEBT_RECOVERY') {
    return result('NOT_IN_BATCH', 'The charge is not with the agency: it was never handed over, or was returned', row.id);
  }
  const closed = earlier.find((update) => update.batch_id === batchId && update.outcome === 'CLOSED');
  if (closed) {
    return result('NOT_IN_BATCH', `The agency closed it (${closed.agency_reference}): import a new hand-over's outcomes only`, row.id);
  }
  const at = now.toISOString();
  const batch = await trx.selectFrom('debt_recovery_batches').select('reference').where('id', '=', batchId).executeTakeFirstOrThrow();
  let message: string;
  const stageChange: Record<string, { from: unknown; to: unknown }> = {};
  if (paying) {
    try {
      const applied = await applyPayment(trx, {
        row,
        payment: { amountPence: paidPence, paidOn, method: 'DEBT_RECOVERY_AGENCY', reference: agencyReference },
        idempotencyKey: null,
        actor: user,
        now,
      });
      message = `${formatPence(paidPence)} recorded as paid through the agency on ${formatCalendarDate(paidOn)}${applied.paid ? ': the charge is paid' : ''}`;
    } catch (error) {
      // The payment rules refused it (already paid, cancelled, a day outside the charge's life): listed, not applied.
      if (error instanceof AppError) return result('INVALID', error.message, row.id);
      throw error;
    }
  } else if (outcome === 'CLOSED') {
    message = 'Closed by the agency: it pursues the charge no further';
    await insertStatusChange(trx, {
      pcnId: row.id,
      from: row.status,
      to: row.status,
      note: `Closed by the agency (batch ${batch.reference}, agency reference ${agencyReference})`,
      changedBy: user.id,
      now: at,
    });
  } else {
    message = 'Returned by the agency: back at the letter before claim';
    await trx
      .updateTable('pcns')
      .set({ collection_stage: 'LETTER_BEFORE_CLAIM', debt_recovery_batch_id: null, updated_at: at })
      .where('id', '=', row.id)
      .execute();
    stageChange.collectionStage = { from: 'DEBT_RECOVERY', to: 'LETTER_BEFORE_CLAIM' };
    await insertStatusChange(trx, {
      pcnId: row.id,
      from: row.status,
      to: row.status,
      note: `Returned by the agency (batch ${batch.reference}, agency reference ${agencyReference}): back at the letter before claim`,
      changedBy: user.id,
      now: at,
    });
  }
  await insertDebtRecoveryUpdate(trx, {
    id: randomUUID(),
    pcnId: row.id,
    batchId,
    outcome,
    paidPence,
    agencyReference,
    importedBy: authorOf(user),
    now: at,
  });
  await insertAuditEntries(trx, [
    auditEntry(row.id, 'debt_recovery_outcome', user, null, at, {
      outcome: { from: null, to: outcome },
      debtRecoveryBatch: { from: null, to: batch.reference },
      agencyReference: { from: null, to: agencyReference },
      ...(paying && { paidPence: { from: null, to: paidPence } }),
      ...stageChange,
    }),
  ]);
  seen.add(key);
  return result('APPLIED', message, row.id);
}
