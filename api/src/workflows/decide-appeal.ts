import { randomInt } from 'node:crypto';
import {
  addDays,
  APPEAL_MESSAGES,
  APPEAL_STATUS_LABELS,
  APPEALS_CHARTER,
  appealDecisionLetter,
  appealsServiceDeadline,
  formatCalendarDate,
  pcnTitle,
  REDUCED_PAYABLE_DAYS,
  REDUCED_RATE_HELD_DAYS,
  ukDate,
  usesVerificationCode,
  type AppealDecisionInput,
  type AppealReason,
  type CharterCase,
  type PcnStatus,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { amountDueOf, toPublicCharge } from '../domain/public-charge.ts';
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
import {
  auditEntry,
  findPcnRowById,
  type PcnRow,
  insertAuditEntries,
  insertStatusChange,
  lockPcnWrites,
  updatePcnStatus,
} from '../repositories/pcns.ts';
import { renderKeeperLetters } from '../services/keeper-letters/render-keeper-letters.ts';
import { authorOf, findSentDocumentBytes, storeSentDocument } from '../services/sent-documents.ts';
import { escapeHtml } from '../services/mail.ts';
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
    if (appeal.is_late !== 1) throw new AppError('CONFLICT', 'This appeal was made in time: it is already being considered');
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
  if (!rule.reasons.includes(appeal.reason as AppealReason)) {
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

/**
 * POST /appeals/{id}/decision: accept (the charge is cancelled), accept at a reduced amount (it
 * replaces the charge), reject with reasons (a verification code where the appeals service
 * uses one; the reduced rate held 14 days when the appeal came within the discount period), or,
 * for a late appeal not yet considered, decline it as out of time (the charge stands). Deciding
 * a late appeal any other way considers it. The decision, its effect on the charge and their
 * audit entries commit together; then the motorist is emailed the letter.
 */
export async function decideAppeal(
  deps: Pick<AppDeps, 'db' | 'config' | 'mailer' | 'logger' | 'evidence'>,
  input: { appealId: string; decision: AppealDecisionInput; user: AuthUser; now: Date },
): Promise<AppealRow> {
  const { decision, user } = input;
  const now = input.now.toISOString();
  const decidedOn = ukDate(input.now);
  const decided = await deps.db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const appeal = await findAppealById(trx, input.appealId);
    if (!appeal) throw appealNotFound();
    if (appeal.status !== 'OPEN') throw new AppError('CONFLICT', APPEAL_MESSAGES.notOpen);
    const isUnconsideredLate = appeal.is_late === 1 && appeal.considered_at === null;
    if (decision.outcome === 'DECLINED_LATE' && !isUnconsideredLate) {
      throw new AppError('CONFLICT', appeal.is_late === 1 ? APPEAL_MESSAGES.alreadyConsidered : APPEAL_MESSAGES.notLate);
    }
    const row = await findPcnRowById(trx, appeal.pcn_id);
    if (!row) throw appealNotFound();
    const facts = await chargeFactsOf(trx, row, () => '');
    const operator = facts.terms.operator;

    const charterOutcome = decision.charterOutcome ?? null;
    if (charterOutcome) await checkCharterCase(trx, charterOutcome, appeal, row);

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
      if (usesVerificationCode(operator.appealsService)) fields.verification_code = await newVerificationCode(trx);
    }
    // Deciding a late appeal on its merits is considering it (before the decision closes it).
    const considered = isUnconsideredLate && decision.outcome !== 'DECLINED_LATE';
    if (considered && !(await recordConsidered(trx, appeal.id, now, user.id))) {
      throw new AppError('CONFLICT', APPEAL_MESSAGES.alreadyConsidered);
    }
    if (!(await recordDecision(trx, appeal.id, fields))) throw new AppError('CONFLICT', APPEAL_MESSAGES.notOpen);

    const status = row.status as PcnStatus;
    if (decision.outcome === 'ACCEPTED' && status !== 'CANCELLED') {
      const note = `Appeal ${appeal.reference} accepted`;
      if (!(await updatePcnStatus(trx, { pcnId: row.id, from: status, to: 'CANCELLED', now }))) {
        throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} changed while the appeal was decided: try again`);
      }
      await insertStatusChange(trx, { pcnId: row.id, from: status, to: 'CANCELLED', note, changedBy: user.id, now });
      await insertAuditEntries(trx, [
        auditEntry(row.id, 'status_changed', user, null, now, {
          status: { from: status, to: 'CANCELLED' },
          note: { from: null, to: note },
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
    // The letter is kept as made, with the decision (decision 0025): what is emailed and downloaded
    // later. A notice issued before the operator's terms were set has no letter to make: the
    // decision still stands, as it always did.
    const letter = await makeAppealLetter({ db: trx, config: deps.config }, decidedRow, input.now);
    if (letter) {
      await storeSentDocument(
        { db: trx, evidence: deps.evidence },
        {
          pcnId: row.id,
          kind: 'DECISION_LETTER',
          bytes: letter.bytes,
          mimeType: 'application/pdf',
          postOn: null,
          reference: appeal.reference,
          createdBy: authorOf(user),
          now: input.now,
        },
      );
    }
    return decidedRow;
  });
  await sendDecision(deps, decided, input.now);
  return decided;
}

/**
 * The decision letter (PDF) of a decided appeal, as the motorist was sent it: the one kept when it
 * was decided (decision 0025), so a later change of terms or wording never changes it. A decision
 * made before letters were kept has none, and is drawn as it stands.
 */
export async function renderAppealLetter(
  deps: Pick<AppDeps, 'db' | 'config' | 'evidence'>,
  appeal: AppealRow,
  now: Date,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  if (appeal.status === 'OPEN' || appeal.decided_at === null) throw new AppError('NOT_FOUND', 'This appeal has no decision yet');
  const kept = await findSentDocumentBytes(deps, { pcnId: appeal.pcn_id, kind: 'DECISION_LETTER', reference: appeal.reference });
  if (kept) return { bytes: kept, fileName: `appeal-${appeal.reference}-decision.pdf` };
  const letter = await makeAppealLetter(deps, appeal, now);
  if (!letter) throw new AppError('CONFLICT', 'Set the operator’s terms before letters can be made');
  return letter;
}

async function makeAppealLetter(
  deps: Pick<AppDeps, 'db' | 'config'>,
  appeal: AppealRow,
  now: Date,
): Promise<{ bytes: Uint8Array; fileName: string } | null> {
  if (appeal.status === 'OPEN' || appeal.decided_at === null) throw new AppError('NOT_FOUND', 'This appeal has no decision yet');
  const row = await findPcnRowById(deps.db, appeal.pcn_id);
  if (!row) throw appealNotFound();
  const facts = await chargeFactsOf(deps.db, row, () => '');
  const operator = facts.terms.operator;
  if (!operator) return null;
  const decidedAt = new Date(appeal.decided_at);
  const charge = toPublicCharge(facts, decidedAt);
  const chargeReference = pcnTitle(row.pcn_number);
  const letter = appealDecisionLetter({
    appealReference: appeal.reference,
    chargeReference,
    vehicleRegistration: row.vehicle_registration,
    appellantName: appeal.appellant_name,
    receivedOn: ukDate(appeal.received_at),
    decidedOn: ukDate(decidedAt),
    reason: appeal.reason as AppealReason,
    outcome: appeal.status as AppealDecisionInput['outcome'],
    reasons: appeal.decision_reasons ?? '',
    reducedChargePence: appeal.reduced_charge_pence,
    reducedPayableUntil: appeal.reduced_payable_until,
    charterOutcome: (appeal.charter_outcome as CharterCase | null) ?? null,
    parkedFrom: facts.parkedFrom,
    parkedUntil: facts.parkedUntil,
    amount: amountDueOf(facts, decidedAt),
    reducedHeldUntil: appeal.reduced_held_until,
    verificationCode: appeal.verification_code,
    appealsServiceUntil: appeal.appeals_service_until,
    appealUntil: charge.appealUntil,
    operator,
    lookupUrl: `${deps.config.appUrl}/charge`,
  });
  const address = [
    appeal.appellant_name,
    ...appeal.appellant_address
      .split(/\n|,/)
      .map((line) => line.trim())
      .filter(Boolean),
  ];
  const bytes = await renderKeeperLetters(
    [
      {
        letter,
        keeperAddress: address,
        sender: { name: operator.creditorName, address: operator.creditorAddress },
        lookupUrl: `${deps.config.appUrl}/charge?ref=${encodeURIComponent(chargeReference)}`,
      },
    ],
    now,
    `Decision on appeal ${appeal.reference}`,
  );
  return { bytes, fileName: `appeal-${appeal.reference}-decision.pdf` };
}

/** The decision by email with its letter; a failed email is logged (the letter stays on the motorist's page). */
async function sendDecision(
  deps: Pick<AppDeps, 'db' | 'config' | 'mailer' | 'logger' | 'evidence'>,
  appeal: AppealRow,
  now: Date,
): Promise<void> {
  // An appeal by post without an email address: the admin downloads the letter and posts it.
  if (appeal.appellant_email === '') return;
  try {
    const { bytes, fileName } = await renderAppealLetter(deps, appeal, now);
    const lines = [
      `Dear ${appeal.appellant_name},`,
      `We have decided your appeal ${appeal.reference}: ${APPEAL_STATUS_LABELS[appeal.status as AppealDecisionInput['outcome']].toLowerCase()}.`,
      ...(appeal.decision_reasons ? [appeal.decision_reasons] : []),
      ...(appeal.reduced_payable_until
        ? [`You may pay the reduced amount until ${formatCalendarDate(appeal.reduced_payable_until)}; after that the full charge is due.`]
        : []),
      ...(appeal.verification_code ? [`Your verification code for the independent appeals service: ${appeal.verification_code}.`] : []),
      ...(appeal.appeals_service_until
        ? [`You may appeal to the independent appeals service by ${formatCalendarDate(appeal.appeals_service_until)}.`]
        : []),
      'The letter attached sets out the decision in full. It is also on your charge’s page.',
    ];
    await deps.mailer.send({
      to: appeal.appellant_email,
      subject: `Decision on your appeal ${appeal.reference}`,
      text: lines.join('\n\n'),
      html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
      attachments: [{ filename: fileName, content: Buffer.from(bytes), contentType: 'application/pdf' }],
      purpose: 'appeal-decision',
    });
  } catch (error) {
    deps.logger.warn('appeal decision not emailed', { appeal: appeal.reference, error: String(error) });
  }
}
