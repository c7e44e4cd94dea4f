import { appealDecisionLetter, pcnTitle, ukDate, type AppealOutcome } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import type { RateLimiter, RateLimitRule } from '../auth/rate-limit.ts';
import { amountDueOf, toPublicCharge } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import { findAppealByPcnId, type AppealRow } from '../repositories/appeals.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import type { KeeperLetterToRender } from '../services/keeper-letters/render-keeper-letters.ts';
import { renderKeeperLettersOffThread } from '../services/keeper-letters/render-off-thread.ts';
import { findSentDocumentBytes, storeSentDocument } from '../services/sent-documents.ts';
import { tooManyAttempts } from './auth-limits.ts';
import { chargeFactsOf } from './look-up-charge.ts';

/**
 * An appeal's decision letter is drawn once, in a worker thread, and kept as sent (decision 0025);
 * every download, the motorist's and an admin's, is the kept bytes (decision 0032). Drawing took
 * most of a second of CPU on the request thread, so a few clients looping on the download
 * stalled every other request.
 */
const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;
/**
 * A motorist downloads their letter a few times at most; a loop on one charge's token from one
 * address is cut off. Counted per charge and address, not per charge: the windscreen notice gives
 * anyone the charge's token, and a stranger's downloads must not use up the motorist's. The letter
 * is served from the store, so downloads spread over many addresses cost no drawing either.
 */
export const APPEAL_LETTER_DOWNLOADS_PER_CHARGE: RateLimitRule = {
  scope: 'appeal-letter-downloads-per-charge-and-address',
  limit: 10,
  windowMs: FIFTEEN_MINUTES_MS,
};
/** Every letter download from one address, whatever the charge: a family's few tickets fit, a script does not. */
export const APPEAL_LETTER_DOWNLOADS_PER_ADDRESS: RateLimitRule = {
  scope: 'appeal-letter-downloads-per-address',
  limit: 30,
  windowMs: FIFTEEN_MINUTES_MS,
};
const DOWNLOADS_LIMITED = 'Too many downloads of this letter: try again later';

type LetterDeps = Pick<AppDeps, 'db' | 'config' | 'evidence' | 'metrics'>;
export type AppealLetterFile = { bytes: Uint8Array; fileName: string };

function fileNameOf(appeal: Pick<AppealRow, 'reference'>): string {
  return `appeal-${appeal.reference}-decision.pdf`;
}

function assertDecided(appeal: AppealRow): asserts appeal is AppealRow & { status: AppealOutcome; decided_at: string } {
  if (appeal.status === 'OPEN' || appeal.decided_at === null) throw new AppError('NOT_FOUND', 'This appeal has no decision yet');
}

/**
 * The words and addresses of a decided appeal's letter, as the decision stands: cheap, so it is
 * read inside the decision's transaction and the letter says what was decided. Null when the
 * notice's operator terms were never set (there is no letterhead to put it on).
 */
export async function prepareAppealLetter(deps: Pick<AppDeps, 'db' | 'config'>, appeal: AppealRow): Promise<KeeperLetterToRender | null> {
  assertDecided(appeal);
  const row = await findPcnRowById(deps.db, appeal.pcn_id);
  if (!row) throw new AppError('NOT_FOUND', 'No such appeal');
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
    reason: appeal.reason,
    outcome: appeal.status,
    reasons: appeal.decision_reasons ?? '',
    reducedChargePence: appeal.reduced_charge_pence,
    reducedPayableUntil: appeal.reduced_payable_until,
    charterOutcome: appeal.charter_outcome,
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
  return {
    letter,
    keeperAddress: address,
    sender: { name: operator.creditorName, address: operator.creditorAddress },
    lookupUrl: `${deps.config.appUrl}/charge?ref=${encodeURIComponent(chargeReference)}`,
  };
}

/**
 * Draws the letter in the worker and keeps it. Under the notice writes' lock the kept letter is
 * looked for again, so two processes drawing the same letter at once keep one: the loser serves
 * the winner's bytes and its own drawing is dropped before anything is written.
 */
export async function drawAndKeepAppealLetter(
  deps: LetterDeps,
  appeal: AppealRow,
  letter: KeeperLetterToRender,
  createdBy: { id: string | null; name: string },
  now: Date,
): Promise<Uint8Array> {
  assertDecided(appeal);
  // Dated as decided, whenever drawn: a letter drawn on a first download says what it said then.
  const drawn = await renderKeeperLettersOffThread([letter], new Date(appeal.decided_at), `Decision on appeal ${appeal.reference}`);
  deps.metrics.lettersDrawn.inc({ kind: 'DECISION_LETTER' });
  return deps.db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const query = { pcnId: appeal.pcn_id, kind: 'DECISION_LETTER' as const, reference: appeal.reference };
    const kept = await findSentDocumentBytes({ db: trx, evidence: deps.evidence }, query);
    if (kept) return kept;
    await storeSentDocument(
      { db: trx, evidence: deps.evidence },
      { ...query, bytes: drawn, mimeType: 'application/pdf', postOn: null, createdBy, now },
    );
    return drawn;
  });
}

/** Letters being drawn for a first download in this process, by appeal: side-by-side downloads wait for the one drawing. */
const drawing = new Map<string, Promise<Uint8Array>>();

/**
 * The decision letter as the motorist was sent it: the kept bytes, checked against their SHA-256.
 * A decision made before letters were drawn with it has none kept: it is drawn once, here, kept,
 * and served from the store ever after.
 */
export async function keptAppealLetter(deps: LetterDeps, appeal: AppealRow, now: Date): Promise<AppealLetterFile> {
  assertDecided(appeal);
  const fileName = fileNameOf(appeal);
  const query = { pcnId: appeal.pcn_id, kind: 'DECISION_LETTER' as const, reference: appeal.reference };
  const kept = await findSentDocumentBytes(deps, query);
  if (kept) return { bytes: kept, fileName };
  let pending = drawing.get(appeal.id);
  if (!pending) {
    pending = (async () => {
      const letter = await prepareAppealLetter(deps, appeal);
      if (!letter) throw new AppError('CONFLICT', 'Set the operator’s terms before letters can be made');
      return drawAndKeepAppealLetter(deps, appeal, letter, { id: null, name: deps.config.productName }, now);
    })().finally(() => drawing.delete(appeal.id));
    drawing.set(appeal.id, pending);
  }
  return { bytes: await pending, fileName };
}

/**
 * GET /public/charges/current/appeal/letter: the charge's decision letter, counted against the
 * charge from this address and against the address before anything is read (429 with
 * Retry-After past either limit).
 */
export async function downloadAppealLetter(
  deps: LetterDeps,
  limits: RateLimiter,
  input: { pcnId: string; address: string; now: Date },
): Promise<AppealLetterFile> {
  const decision = await limits.take([
    { rule: APPEAL_LETTER_DOWNLOADS_PER_CHARGE, key: `${input.pcnId} ${input.address}` },
    { rule: APPEAL_LETTER_DOWNLOADS_PER_ADDRESS, key: input.address },
  ]);
  if (decision.isLimited) throw tooManyAttempts(decision, DOWNLOADS_LIMITED);
  const appeal = await findAppealByPcnId(deps.db, input.pcnId);
  if (!appeal) throw new AppError('NOT_FOUND', 'This charge has no appeal');
  return keptAppealLetter(deps, appeal, input.now);
}
