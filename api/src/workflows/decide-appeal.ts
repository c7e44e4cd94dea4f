import { randomInt } from 'node:crypto';
import {
  addDays,
  APPEAL_MESSAGES,
  APPEALS_CHARTER,
  appealsServiceDeadline,
  pcnTitle,
  REDUCED_PAYABLE_DAYS,
  reducedAmountProblem,
  REDUCED_RATE_HELD_DAYS,
  ukDate,
  usesVerificationCode,
  VERIFICATION_CODE_PREVIEW,
  type AppealDecisionInput,
  type AppealDecisionPreview,
  type CharterCase,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { amountDueOf } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import {
  findAppealById,
  findEarlierCharges,
  isVerificationCodeTaken,
  recordConsidered,
  recordDecision,
  type AppealDecisionRow,
  type AppealRow,
} from '../repositories/appeals.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById, type PcnRow } from '../repositories/pcn-rows.ts';
import { insertStatusChange, updatePcnStatus } from '../repositories/pcn-status.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import type { KeeperLetterToRender } from '../services/keeper-letters/render-keeper-letters.ts';
import { authorOf } from '../services/sent-documents.ts';
import { drawAndKeepAppealLetter, prepareAppealLetter } from './appeal-letter.ts';
import { askForAppealEmail } from './appeal-emails.ts';
import { chargeFactsOf } from './look-up-charge.ts';

export function appealNotFound(): AppError {
  return new AppError('NOT_FOUND', 'No such appeal');
}

/** A new 10-digit verification code no other appeal has (the unique index is the backstop). */
async function newVerificationCode(db: Db): Promise<string> {
  for (;;) {
    const code = String(randomInt(1_000_000_000, 10_000_000_000));
    if (!(await isVerificationCodeTaken(db, code))) return code;
  }
}

/**
 * POST /appeals/{id}/consider: a late appeal the admin agrees to consider (decision 0023). From
 * now it holds the charge and runs like an appeal made in time. Audited.
 */
export async function considerLateAppeal(
  deps: Pick<AppDeps, 'db'>,
  input: { appealId: string; user: AuthUser; now: Date },
): Promise<AppealRow> {
  const now = input.now.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const appeal = await findAppealById(trx, input.appealId);
    if (!appeal) throw appealNotFound();
    if (appeal.status !== 'OPEN') throw new AppError('CONFLICT', APPEAL_MESSAGES.notOpen);
    if (!appeal.is_late) throw new AppError('CONFLICT', 'This appeal was made in time: it is already being considered');
    if (!(await recordConsidered(trx, appeal.id, now, input.user.id))) throw new AppError('CONFLICT', APPEAL_MESSAGES.alreadyConsidered);
    await insertAuditEntries(trx, [
      auditEntry(appeal.pcn_id, 'appeal_considered', input.user, null, now, {
        appeal: { from: null, to: appeal.reference },
        considered: { from: 'late, not considered', to: 'considered: the charge is on hold' },
      }),
    ]);
    return { ...appeal, considered_at: now, considered_by: input.user.id };
  });
}

/**
 * Following the Appeals Charter: the case must answer the appeal's reason, and a case the Charter
 * grants only the first time must not have been granted to an earlier charge of the registration.
 */
async function checkCharterCase(trx: Db, charterCase: CharterCase, appeal: AppealRow, pcn: PcnRow): Promise<void> {
  const rule = APPEALS_CHARTER[charterCase];
  if (!rule.reasons.includes(appeal.reason)) {
    throw new AppError('VALIDATION_FAILED', APPEAL_MESSAGES.charterNotForReason, {
      details: { charterOutcome: APPEAL_MESSAGES.charterNotForReason },
    });
  }
  if (!rule.firstTimeOnly) return;
  const before = (await findEarlierCharges(trx, pcn)).find((charge) => charge.appeal?.charterOutcome === charterCase);
  if (before) {
    throw new AppError('CONFLICT', APPEAL_MESSAGES.charterNotFirstTime, {
      details: { charterOutcome: APPEAL_MESSAGES.charterNotFirstTime, charge: before.pcnNumber },
    });
  }
}

/** Where a decision's verification code comes from: a new one to record, or the preview's stand-in. */
type VerificationCodes = (trx: Db) => Promise<string>;

/**
 * POST /appeals/{id}/decision: accept (the charge is cancelled), accept at a reduced amount (it
 * replaces the charge), reject with reasons (a verification code where the appeals service
 * uses one; the reduced rate held 14 days when the appeal came within the discount period), or,
 * for a late appeal not yet considered, decline it as out of time (the charge stands). Deciding
 * a late appeal any other way considers it. The decision, its effect on the charge and their
 * audit entries commit together; then the letter is drawn and kept, and the motorist emailed it.
 */
export async function decideAppeal(
  deps: Pick<AppDeps, 'db' | 'config' | 'jobs' | 'logger' | 'evidence' | 'metrics'>,
  input: { appealId: string; decision: AppealDecisionInput; user: AuthUser; now: Date },
): Promise<AppealRow> {
  const decided = await deps.db.transaction().execute((trx) => recordDecisionIn(trx, deps.config, input, newVerificationCode));
  if (decided.letter) {
    try {
      await drawAndKeepAppealLetter(deps, decided.row, decided.letter, authorOf(input.user), input.now);
    } catch (error) {
      // The decision stands; its letter is drawn and kept on its first download instead.
      deps.logger.warn('decision letter not drawn', { appeal: decided.row.reference, error: String(error) });
    }
  }
  // The email, with the letter kept above, follows as a job: the decision stands whatever the mail server says.
  await askForAppealEmail(deps, decided.row, 'decided');
  return decided.row;
}

/** A preview's transaction is undone by throwing this, with what it read, once the letter's words are read. */
class PreviewRollback extends Error {
  readonly preview: AppealDecisionPreview;
  constructor(preview: AppealDecisionPreview) {
    super('decision preview undone');
    this.preview = preview;
  }
}

/**
 * POST /appeals/{id}/decision-preview: the decision is made exactly as `decideAppeal` makes it,
 * with the same checks and refusals, in a transaction that is then undone; the answer is the
 * outcome and the letter's words as the decision would send them (the verification code, made
 * only when the decision is recorded, is stood in for). Nothing is written, drawn or emailed.
 */
export async function previewAppealDecision(
  deps: Pick<AppDeps, 'db' | 'config'>,
  input: { appealId: string; decision: AppealDecisionInput; user: AuthUser; now: Date },
): Promise<AppealDecisionPreview> {
  try {
    await deps.db.transaction().execute(async (trx) => {
      const { row, letter } = await recordDecisionIn(trx, deps.config, input, async () => VERIFICATION_CODE_PREVIEW);
      throw new PreviewRollback({ outcome: input.decision.outcome, letter: letter?.letter ?? null, emailTo: row.appellant_email || null });
    });
  } catch (error) {
    if (error instanceof PreviewRollback) return error.preview;
    throw error;
  }
  throw new Error('The decision preview was not undone');
}

/**
 * The decision in the caller's transaction: its checks, the appeal's decided fields, its effect on
 * the charge and the audit entries, and the letter's words as the decision leaves the charge.
 */
async function recordDecisionIn(
  trx: Db,
  config: AppDeps['config'],
  input: { appealId: string; decision: AppealDecisionInput; user: AuthUser; now: Date },
  verificationCodes: VerificationCodes,
): Promise<{ row: AppealRow; letter: KeeperLetterToRender | null }> {
  const { decision, user } = input;
  const now = input.now.toISOString();
  const decidedOn = ukDate(input.now);
  await lockPcnWrites(trx);
  const appeal = await findAppealById(trx, input.appealId);
  if (!appeal) throw appealNotFound();
  if (appeal.status !== 'OPEN') throw new AppError('CONFLICT', APPEAL_MESSAGES.notOpen);
  const isUnconsideredLate = appeal.is_late && appeal.considered_at === null;
  if (decision.outcome === 'DECLINED_LATE' && !isUnconsideredLate) {
    throw new AppError('CONFLICT', appeal.is_late ? APPEAL_MESSAGES.alreadyConsidered : APPEAL_MESSAGES.notLate);
  }
  const row = await findPcnRowById(trx, appeal.pcn_id);
  if (!row) throw appealNotFound();
  const facts = await chargeFactsOf(trx, row, () => '');
  const operator = facts.terms.operator;

  const charterOutcome = decision.charterOutcome ?? null;
  if (charterOutcome) await checkCharterCase(trx, charterOutcome, appeal, row);
  if (decision.outcome === 'ACCEPTED_REDUCED') {
    // The schema knows only that an amount was given; the charge it must be below is the notice's.
    const problem = reducedAmountProblem(decision.reducedChargePence ?? 0, facts.terms.carPark?.chargePence ?? null);
    if (problem) throw new AppError('VALIDATION_FAILED', problem, { details: { reducedChargePence: problem } });
  }

  const fields: AppealDecisionRow = {
    status: decision.outcome,
    decision_reasons: decision.reasons,
    reduced_charge_pence: decision.outcome === 'ACCEPTED_REDUCED' ? (decision.reducedChargePence ?? null) : null,
    verification_code: null,
    reduced_held_until: null,
    reduced_payable_until: null,
    appeals_service_until: null,
    charter_outcome: charterOutcome,
    decided_at: now,
    decided_by: user.id,
  };
  if (decision.outcome === 'REJECTED') {
    // On hold, the charge reads as on the day the appeal came: was the discount still running?
    if (amountDueOf(facts, appeal.received_at).reduced) fields.reduced_held_until = addDays(decidedOn, REDUCED_RATE_HELD_DAYS);
  }
  if (decision.outcome === 'ACCEPTED_REDUCED') fields.reduced_payable_until = addDays(decidedOn, REDUCED_PAYABLE_DAYS);
  // A rejection, and an acceptance at a reduced amount (the motorist may still hold that nothing
  // is owed), keep the way to the independent service: its deadline and, for POPLA, the code.
  if ((decision.outcome === 'REJECTED' || decision.outcome === 'ACCEPTED_REDUCED') && operator) {
    fields.appeals_service_until = appealsServiceDeadline(operator.appealsService, decidedOn);
    if (usesVerificationCode(operator.appealsService)) fields.verification_code = await verificationCodes(trx);
  }
  // Deciding a late appeal on its merits is considering it (before the decision closes it).
  const considered = isUnconsideredLate && decision.outcome !== 'DECLINED_LATE';
  if (considered && !(await recordConsidered(trx, appeal.id, now, user.id))) {
    throw new AppError('CONFLICT', APPEAL_MESSAGES.alreadyConsidered);
  }
  if (!(await recordDecision(trx, appeal.id, fields))) throw new AppError('CONFLICT', APPEAL_MESSAGES.notOpen);

  const status = row.status;
  if (decision.outcome === 'ACCEPTED' && status !== 'CANCELLED') {
    const note = `Appeal ${appeal.reference} accepted`;
    // Decision 0042: an appeal accepted under an Appeals Charter case is cancelled as the Charter
    // requires it; any other accepted appeal means the charge should not have been issued.
    const cancellation = { reason: charterOutcome ? 'APPEALS_CHARTER' : 'OPERATOR_ERROR', note } as const;
    if (!(await updatePcnStatus(trx, { pcnId: row.id, from: status, to: 'CANCELLED', cancellation, now }))) {
      throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} changed while the appeal was decided: try again`);
    }
    await insertStatusChange(trx, { pcnId: row.id, from: status, to: 'CANCELLED', note, changedBy: user.id, now });
    await insertAuditEntries(trx, [
      auditEntry(row.id, 'status_changed', user, null, now, {
        status: { from: status, to: 'CANCELLED' },
        note: { from: null, to: note },
        cancellationReason: { from: null, to: cancellation.reason },
      }),
    ]);
  }
  await insertAuditEntries(trx, [
    auditEntry(row.id, 'appeal_decided', user, null, now, {
      appeal: { from: null, to: appeal.reference },
      outcome: { from: 'OPEN', to: decision.outcome },
      ...(decision.reasons && { reasons: { from: null, to: decision.reasons } }),
      ...(fields.reduced_charge_pence !== null && { reducedChargePence: { from: null, to: fields.reduced_charge_pence } }),
      ...(fields.verification_code !== null && { verificationCode: { from: null, to: fields.verification_code } }),
      ...(fields.reduced_payable_until !== null && { reducedPayableUntil: { from: null, to: fields.reduced_payable_until } }),
      ...(charterOutcome !== null && { charterOutcome: { from: null, to: charterOutcome } }),
    }),
  ]);
  const decidedRow = { ...appeal, ...fields, ...(considered && { considered_at: now, considered_by: user.id }) };
  // The letter's words are read with the decision, so it says what was decided; it is drawn
  // after the commit, in a worker, so neither the writer nor the request thread waits on the
  // drawing (decision 0032). A notice issued before the operator's terms were set has no letter
  // to make: the decision still stands, as it always did.
  const letter = await prepareAppealLetter({ db: trx, config }, decidedRow);
  return { row: decidedRow, letter };
}
