import {
  addDays,
  appealPeriodEnd,
  chaseProblem,
  COLLECTION_LETTER_LABELS,
  COLLECTION_LETTER_STAGES,
  COLLECTION_STAGE_LABELS,
  endOfUkDay,
  formatCalendarDate,
  keeperAddressBlock,
  letterBeforeClaim,
  letterBeforeClaimDueFrom,
  letterBeforeClaimReplyEndsOn,
  PCN_STATUS_LABELS,
  pcnTitle,
  reminderDueFrom,
  reminderLetter,
  SECTOR_LIMITS,
  ukDate,
  warnedDebtRecoveryFeePence,
  type CalendarDate,
  type CollectionLetterFacts,
  type CollectionLetterKind,
  type CollectionLetterPosting,
  type CollectionLetterQueue,
  type CollectionLetterQueueItem,
  type KeeperLetter,
  type OperatorTerms,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { amountDueOf, type ChargeFacts } from '../domain/public-charge.ts';
import { givenOnIfPosted } from '../domain/keeper-liability.ts';
import { AppError } from '../http/app-error.ts';
import { findChaseCandidateIds, findOperatorTermsInForceAt } from '../repositories/collection-letters.ts';
import { findKeepers } from '../repositories/keepers.ts';
import { pcnIdsWithNamedDriver } from '../repositories/letter-parties.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById, type PcnRow } from '../repositories/pcn-rows.ts';
import { insertStatusChange } from '../repositories/pcn-status.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { findNewestSentDocument } from '../repositories/sent-documents.ts';
import { findOperatorSettings } from '../repositories/terms.ts';
import type { EvidenceStore } from '../services/evidence-storage.ts';
import { joinPdfs, renderKeeperLetters, type KeeperLetterToRender } from '../services/keeper-letters/render-keeper-letters.ts';
import { authorOf, storeSentDocument } from '../services/sent-documents.ts';
import { chargeFactsOf } from './look-up-charge.ts';
import { lettersNotToPost } from './sent-documents.ts';

/**
 * The chase after the notice to keeper (decision 0039): a reminder when a charge is still unpaid
 * the operator's days after the notice to keeper was presumed given, then a letter before claim
 * under the Pre-Action Protocol for Debt Claims. As with the notices to keeper, every charge is
 * checked before anything is made or changed: one that cannot have its letter is named with why,
 * and the request changes nothing.
 */

type Chase = { row: PcnRow; facts: ChargeFacts; dueFrom: CalendarDate };
type Prepared = Chase & { letter: KeeperLetterToRender; title: string };

/** The operator's chase settings now: the days, and the debt recovery charge a letter warns of (capped by the sector's table). */
async function chaseSettings(db: Db): Promise<OperatorTerms | null> {
  const settings = await findOperatorSettings(db);
  if (!settings) return null;
  const { updatedAt: _at, updatedBy: _by, ...terms } = settings;
  return terms;
}

function feeWarnedBy(terms: Pick<OperatorTerms, 'debtRecoveryFeePence'>): number {
  return warnedDebtRecoveryFeePence(terms.debtRecoveryFeePence, SECTOR_LIMITS.maxDebtRecoveryFeePence);
}

/** The first day a charge's letter of `kind` may be posted, or null while it cannot be (no earlier letter posted). */
function dueFromOf(kind: CollectionLetterKind, row: PcnRow, terms: OperatorTerms): CalendarDate | null {
  if (kind === 'REMINDER') return row.keeper_notice_given_on ? reminderDueFrom(row.keeper_notice_given_on, terms.reminderAfterDays) : null;
  return row.reminder_posted_on ? letterBeforeClaimDueFrom(row.reminder_posted_on, terms.letterBeforeClaimAfterDays) : null;
}

const postedOnOf = (kind: CollectionLetterKind, row: PcnRow) =>
  kind === 'REMINDER' ? row.reminder_posted_on : row.letter_before_claim_posted_on;

/** Why a charge may not be chased now (paid, cancelled, held by an appeal, nothing owed), or null. */
function notChasedBecause(row: PcnRow, facts: ChargeFacts, now: Date): string | null {
  const due = amountDueOf(facts, now);
  const problem = chaseProblem({ status: row.status, onHold: due.onHold, amountDuePence: due.amountDuePence });
  if (problem === 'NOT_ISSUED') return `Only an issued charge is chased; this one is ${PCN_STATUS_LABELS[row.status].toLowerCase()}`;
  if (problem === 'ON_HOLD') return 'An open appeal holds the charge: nothing is chased while it is considered';
  if (problem === 'NOTHING_DUE') return 'Nothing is owed: the charge has been paid';
  return null;
}

/** GET /collection-letters?kind=: the charges whose letter of `kind` is due today and still unpaid, earliest due first. */
export async function listCollectionLetterQueue(db: Db, kind: CollectionLetterKind, now: Date): Promise<CollectionLetterQueue> {
  const terms = await chaseSettings(db);
  if (!terms) return { kind, items: [] };
  const today = ukDate(now);
  const ids = await findChaseCandidateIds(db, COLLECTION_LETTER_STAGES[kind].from);
  // The charges a letter would be refused for are not listed as due: the keeper is no longer
  // the one liable once the driver is named or where the keeper is a hire firm.
  const [driverNamed, keepers] = await Promise.all([pcnIdsWithNamedDriver(db, ids), findKeepers(db, ids)]);
  const items: CollectionLetterQueueItem[] = [];
  for (const id of ids) {
    const keeper = keepers.get(id);
    if (driverNamed.has(id) || !keeper || keeper.keeperType === 'HIRE_COMPANY') continue;
    const row = await findPcnRowById(db, id);
    if (!row) continue;
    const dueFrom = dueFromOf(kind, row, terms);
    if (!dueFrom || dueFrom > today) continue;
    const facts = await chargeFactsOf(db, row, () => '');
    if (notChasedBecause(row, facts, now)) continue;
    items.push({
      pcnId: row.id,
      pcnNumber: row.pcn_number,
      vehicleRegistration: row.vehicle_registration,
      carParkName: row.car_park_name,
      collectionStage: row.collection_stage ?? 'NOTICE_TO_KEEPER',
      keeperNoticeGivenOn: row.keeper_notice_given_on,
      reminderPostedOn: row.reminder_posted_on,
      dueFrom,
      amountDuePence: amountDueOf(facts, now).amountDuePence,
    });
  }
  items.sort((a, b) => a.dueFrom.localeCompare(b.dueFrom) || a.pcnNumber.localeCompare(b.pcnNumber));
  return { kind, items };
}

function refuse(kind: CollectionLetterKind, problems: Map<string, string>, numbers: Map<string, string | null>): never {
  const names = [...problems.keys()].map((id) => {
    const number = numbers.get(id);
    return number ? pcnTitle(number) : id;
  });
  const letter = COLLECTION_LETTER_LABELS[kind].toLowerCase();
  throw new AppError(
    'COLLECTION_LETTER_REFUSED',
    `${problems.size === 1 ? 'A charge cannot' : `${problems.size} charges cannot`} have a ${letter}: ${names.join(', ')}`,
    { details: Object.fromEntries(problems) },
  );
}

/**
 * Every charge checked for its letter of `kind` posted on `postOn`: at the stage before it, issued,
 * unpaid and not held by an appeal, due by then, with a keeper to write to. With
 * `alreadyPostedIsFine`, a charge whose letter was already marked posted is set aside, not refused.
 */
async function prepare(
  db: Db,
  input: { kind: CollectionLetterKind; pcnIds: readonly string[]; postOn: CalendarDate; appUrl: string; now: Date },
  options: { alreadyPostedIsFine: boolean },
): Promise<{ prepared: Prepared[]; alreadyPosted: PcnRow[]; terms: OperatorTerms }> {
  const { kind, postOn } = input;
  const terms = await chaseSettings(db);
  if (!terms) {
    throw new AppError('VALIDATION_FAILED', 'Set the operator settings first: every letter prints them', {
      details: { operator: 'Set the operator settings first' },
    });
  }
  const ids = [...new Set(input.pcnIds)];
  const rows = new Map<string, PcnRow>();
  for (const id of ids) {
    const row = await findPcnRowById(db, id);
    if (row) rows.set(id, row);
  }
  const keepers = await findKeepers(db, [...rows.keys()]);
  const driverNamed = await pcnIdsWithNamedDriver(db, [...rows.keys()]);
  const problems = new Map<string, string>();
  const numbers = new Map<string, string | null>(ids.map((id) => [id, rows.get(id)?.pcn_number ?? null]));
  const prepared: Prepared[] = [];
  const alreadyPosted: PcnRow[] = [];
  const appUrl = input.appUrl.replace(/\/+$/, '');
  const stages = COLLECTION_LETTER_STAGES[kind];
  const warnedFee = feeWarnedBy(terms);
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) {
      problems.set(id, 'No such notice');
      continue;
    }
    if (options.alreadyPostedIsFine && postedOnOf(kind, row)) {
      alreadyPosted.push(row);
      continue;
    }
    const facts = await chargeFactsOf(db, row, () => '');
    const notChased = notChasedBecause(row, facts, input.now);
    if (notChased) {
      problems.set(id, notChased);
      continue;
    }
    if (row.collection_stage !== stages.from) {
      problems.set(
        id,
        `A ${COLLECTION_LETTER_LABELS[kind].toLowerCase()} follows the ${COLLECTION_STAGE_LABELS[stages.from].toLowerCase()}; this charge stands at ${
          row.collection_stage ? COLLECTION_STAGE_LABELS[row.collection_stage].toLowerCase() : 'no stage (no notice to keeper was posted)'
        }`,
      );
      continue;
    }
    if (driverNamed.has(id)) {
      problems.set(id, 'The driver is named: the keeper is no longer chased');
      continue;
    }
    const dueFrom = dueFromOf(kind, row, terms)!;
    if (postOn < dueFrom) {
      problems.set(id, `Not due yet: a letter may be posted from ${formatCalendarDate(dueFrom)}`);
      continue;
    }
    const keeper = keepers.get(id);
    if (!keeper) {
      problems.set(id, 'No keeper details to write to');
      continue;
    }
    if (keeper.keeperType === 'HIRE_COMPANY') {
      problems.set(id, 'The keeper is a vehicle-hire firm: the hirer, not the firm, is liable');
      continue;
    }
    const operator = facts.terms.operator;
    if (!operator || !facts.terms.carPark) {
      problems.set(id, 'The terms in force when it was issued were not recorded');
      continue;
    }
    // What the letter states is owed: as at 23:59 on the day before it is posted, as the notice to keeper states it.
    const amount = amountDueOf(facts, endOfUkDay(addDays(postOn, -1)));
    const reference = pcnTitle(row.pcn_number);
    const noticeToDriverOn = facts.noticeToDriverAt ? ukDate(facts.noticeToDriverAt) : null;
    const common: CollectionLetterFacts = {
      reference,
      vehicleRegistration: row.vehicle_registration,
      carPark: facts.carPark,
      parkedFrom: facts.parkedFrom,
      parkedUntil: facts.parkedUntil,
      contravention: facts.contravention,
      signageTerms: facts.terms.carPark.signageTerms,
      // The creditor's details and how to pay as the operator has them now: the letter goes now.
      operator: terms,
      keeperNoticeSentOn: row.keeper_notice_posted_on!,
      keeperNoticeGivenOn: row.keeper_notice_given_on!,
      sentOn: postOn,
      givenOn: givenOnIfPosted(postOn),
      amount,
      lookupUrl: `${appUrl}/charge`,
      debtRecoveryFeePence: warnedFee,
      appealUntil: appealPeriodEnd({ noticeToDriverOn, keeperNoticeGivenOn: row.keeper_notice_given_on }),
      appeal: facts.appeal
        ? {
            status: facts.appeal.status,
            decidedAt: facts.appeal.decidedAt,
            withdrawnAt: facts.appeal.withdrawnAt,
            appealsServiceUntil: facts.appeal.appealsServiceUntil,
          }
        : null,
    };
    const letter: KeeperLetter =
      kind === 'REMINDER'
        ? reminderLetter({ ...common, letterBeforeClaimFrom: letterBeforeClaimDueFrom(postOn, terms.letterBeforeClaimAfterDays) })
        : letterBeforeClaim({ ...common, reminderSentOn: row.reminder_posted_on, replyBy: letterBeforeClaimReplyEndsOn(postOn) });
    prepared.push({
      row,
      facts,
      dueFrom,
      title: `${COLLECTION_LETTER_LABELS[kind]} ${reference}`,
      letter: {
        letter,
        keeperAddress: keeperAddressBlock(keeper),
        sender: { name: terms.creditorName, address: terms.creditorAddress },
        lookupUrl: `${appUrl}/charge?ref=${encodeURIComponent(reference)}`,
      },
    });
  }
  if (problems.size > 0) refuse(kind, problems, numbers);
  return { prepared, alreadyPosted, terms };
}

const FILE_NAMES: Record<CollectionLetterKind, string> = { REMINDER: 'reminders', LETTER_BEFORE_CLAIM: 'letters-before-claim' };

/**
 * POST /collection-letters/letters: letters dated `postOn` (default today, UK), each made as its
 * own PDF and kept with its charge as sent (decision 0025); the download is those same letters'
 * pages, one after another, to print in one go.
 */
export async function generateCollectionLetters(
  deps: { db: Db; evidence: EvidenceStore },
  input: { kind: CollectionLetterKind; pcnIds: readonly string[]; postOn?: string | undefined; appUrl: string; user: AuthUser },
  now: Date,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const today = ukDate(now);
  const postOn = input.postOn ?? today;
  // A letter is dated the day it goes: one dated for a day already gone did not go that day.
  if (postOn < today) {
    throw new AppError('VALIDATION_FAILED', 'The posting day cannot be in the past', {
      details: { postOn: 'The posting day cannot be in the past' },
    });
  }
  const { prepared } = await prepare(deps.db, { ...input, postOn, now }, { alreadyPostedIsFine: false });
  const letters: Uint8Array[] = [];
  for (const item of prepared) letters.push(await renderKeeperLetters([item.letter], now, item.title));
  await deps.db.transaction().execute(async (trx) => {
    for (const [index, item] of prepared.entries()) {
      await storeSentDocument(
        { db: trx, evidence: deps.evidence },
        {
          pcnId: item.row.id,
          kind: input.kind,
          bytes: letters[index]!,
          mimeType: 'application/pdf',
          postOn,
          reference: null,
          createdBy: authorOf(input.user),
          now,
        },
      );
    }
  });
  const title = input.kind === 'REMINDER' ? 'Reminders' : 'Letters before claim';
  return { bytes: await joinPdfs(letters, now, title), fileName: `${FILE_NAMES[input.kind]}-${postOn}.pdf` };
}

/**
 * The debt recovery charge a charge's newest kept letter warned of: the operator's, as in force
 * when that letter was made, capped by the sector's table. What was printed, not what the
 * settings say now.
 */
async function feeWarnedByLetter(db: Db, pcnId: string, kind: CollectionLetterKind): Promise<number> {
  const letter = await findNewestSentDocument(db, { pcnId, kind });
  if (!letter) return 0;
  const terms = await findOperatorTermsInForceAt(db, letter.created_at);
  return terms ? feeWarnedBy(terms) : 0;
}

/**
 * POST /collection-letters/posted: each charge moves to the letter's stage with the day posted;
 * a letter before claim that warned of a debt recovery charge records it on the charge (added to
 * what is owed only once the charge goes to debt recovery). The history and the audit say so.
 * A charge whose letter was already marked posted is reported as it stands and not touched again.
 */
export async function markCollectionLettersPosted(
  db: Db,
  input: {
    kind: CollectionLetterKind;
    pcnIds: readonly string[];
    postedOn: string;
    proofReference: string;
    user: AuthUser;
    now: Date;
    appUrl: string;
  },
): Promise<CollectionLetterPosting[]> {
  if (input.postedOn > ukDate(input.now)) {
    throw new AppError('VALIDATION_FAILED', 'The posting day cannot be in the future', {
      details: { postedOn: 'The posting day cannot be in the future' },
    });
  }
  const { kind } = input;
  const stages = COLLECTION_LETTER_STAGES[kind];
  const { prepared, alreadyPosted } = await prepare(db, { ...input, postOn: input.postedOn }, { alreadyPostedIsFine: true });
  await assertLettersDated(db, kind, prepared, input.postedOn);
  const fees = new Map<string, number>();
  if (kind === 'LETTER_BEFORE_CLAIM') {
    for (const { row } of prepared) fees.set(row.id, await feeWarnedByLetter(db, row.id, kind));
  }
  const now = input.now.toISOString();
  const givenOn = givenOnIfPosted(input.postedOn);
  const results: CollectionLetterPosting[] = alreadyPosted.map((row) => {
    const postedOn = postedOnOf(kind, row)!;
    return {
      pcnId: row.id,
      pcnNumber: row.pcn_number,
      outcome: 'ALREADY_POSTED',
      postedOn,
      givenOn: givenOnIfPosted(postedOn),
      collectionStage: row.collection_stage ?? stages.to,
    };
  });
  await db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    for (const { row } of prepared) {
      const fee = fees.get(row.id) ?? 0;
      const moved = await trx
        .updateTable('pcns')
        .set({
          collection_stage: stages.to,
          ...(kind === 'REMINDER' ? { reminder_posted_on: input.postedOn } : { letter_before_claim_posted_on: input.postedOn }),
          ...(kind === 'LETTER_BEFORE_CLAIM' ? { debt_recovery_fee_pence: fee > 0 ? fee : null } : {}),
          updated_at: now,
        })
        .where('id', '=', row.id)
        .where('collection_stage', '=', stages.from)
        .where('status', '=', 'ISSUED')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) {
        throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} changed while it was being marked posted: try again`);
      }
      const note = `${COLLECTION_LETTER_LABELS[kind]} posted on ${formatCalendarDate(input.postedOn)}, presumed given on ${formatCalendarDate(givenOn)}${
        input.proofReference ? ` (proof of posting ${input.proofReference})` : ''
      }`;
      // The status stays issued: the history keeps the step beside the status changes.
      await insertStatusChange(trx, { pcnId: row.id, from: 'ISSUED', to: 'ISSUED', note, changedBy: input.user.id, now });
      await insertAuditEntries(trx, [
        auditEntry(row.id, 'collection_stage_changed', input.user, null, now, {
          collectionStage: { from: stages.from, to: stages.to },
          [kind === 'REMINDER' ? 'reminderPostedOn' : 'letterBeforeClaimPostedOn']: { from: null, to: input.postedOn },
          ...(input.proofReference && { proofReference: { from: null, to: input.proofReference } }),
          ...(fee > 0 && { debtRecoveryFeePence: { from: null, to: fee } }),
        }),
      ]);
      results.push({
        pcnId: row.id,
        pcnNumber: row.pcn_number,
        outcome: 'POSTED',
        postedOn: input.postedOn,
        givenOn,
        collectionStage: stages.to,
      });
    }
  });
  return results;
}

/** Each charge's newest letter of `kind` must be dated `postedOn` (as assertLettersDated does for the notices to keeper). */
async function assertLettersDated(db: Db, kind: CollectionLetterKind, prepared: readonly Prepared[], postedOn: string): Promise<void> {
  const problems = await lettersNotToPost(
    db,
    prepared.map((item) => item.row.id),
    kind,
    postedOn,
  );
  if (problems.size === 0) return;
  const names = prepared.filter(({ row }) => problems.has(row.id)).map(({ row }) => pcnTitle(row.pcn_number));
  throw new AppError(
    'LETTER_DATE_MISMATCH',
    `${names.length === 1 ? 'A letter is' : `${names.length} letters are`} not the one to post on ${formatCalendarDate(postedOn)}: make them again for that day (${names.join(', ')})`,
    { details: Object.fromEntries(problems) },
  );
}
