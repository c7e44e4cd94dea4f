import {
  formatCalendarDate,
  keeperLettersFileName,
  KEEPER_LIABILITY_GAP_TEXTS,
  keeperLiabilityGap,
  noticeToKeeper,
  OFFENCE_TYPE_LABELS,
  PCN_STATUS_LABELS,
  pcnTitle,
  postingProblem,
  ukDate,
  keeperAddressBlock,
  VEHICLE_MISMATCH_REASON,
  type KeeperNoticePosting,
  type NoticeToKeeperFacts,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { givenOnIfPosted, landOf, postingWindowOf } from '../domain/keeper-liability.ts';
import { AppError } from '../http/app-error.ts';
import { findKeepers } from '../repositories/keepers.ts';
import { pcnIdsWithNamedDriver } from '../repositories/letter-parties.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById, periodStartOf, type PcnRow } from '../repositories/pcn-rows.ts';
import { insertStatusChange, updatePcnStatus } from '../repositories/pcn-status.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { findNoticeTerms } from '../repositories/terms.ts';
import { amountBeforePosting } from './look-up-charge.ts';
import { lettersNotToPost } from './sent-documents.ts';
import type { EvidenceStore } from '../services/evidence-storage.ts';
import { joinPdfs, renderKeeperLetters, type KeeperLetterToRender } from '../services/keeper-letters/render-keeper-letters.ts';
import { authorOf, storeSentDocument, type SentDocumentToStore } from '../services/sent-documents.ts';

/**
 * Notices to keeper (decision 0016, 0018): letters for approved notices inside their posting
 * window, with keeper details whose vehicle an admin confirmed; then, once posted, each notice
 * moves to ISSUED with the day it is presumed given. Every notice is checked before anything is
 * made or changed: one that cannot go is named with why, and the request changes nothing.
 */

export type Prepared = { row: PcnRow; facts: NoticeToKeeperFacts; letter: KeeperLetterToRender };

function refuse(problems: Map<string, string>, numbers: Map<string, string | null>): never {
  const details = Object.fromEntries(problems);
  const names = [...problems.keys()].map((id) => {
    const number = numbers.get(id);
    return number ? pcnTitle(number) : id;
  });
  throw new AppError(
    'KEEPER_NOTICE_REFUSED',
    `${problems.size === 1 ? 'A notice cannot' : `${problems.size} notices cannot`} have a notice to keeper: ${names.join(', ')}`,
    { details },
  );
}

async function prepare(
  db: Db,
  pcnIds: readonly string[],
  postOn: string,
  options: { alreadyPostedIsFine: boolean; appUrl: string },
): Promise<{ prepared: Prepared[]; alreadyPosted: PcnRow[] }> {
  const ids = [...new Set(pcnIds)];
  const rows = new Map<string, PcnRow>();
  for (const id of ids) {
    const row = await findPcnRowById(db, id);
    if (row) rows.set(id, row);
  }
  const keepers = await findKeepers(db, [...rows.keys()]);
  // A named driver ends the keeper's pursuit (decision 0027): their notice goes to the driver.
  const driverNamed = await pcnIdsWithNamedDriver(db, [...rows.keys()]);
  const problems = new Map<string, string>();
  const numbers = new Map<string, string | null>(ids.map((id) => [id, rows.get(id)?.pcn_number ?? null]));
  const prepared: Prepared[] = [];
  const alreadyPosted: PcnRow[] = [];
  const appUrl = options.appUrl.replace(/\/+$/, '');
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) {
      problems.set(id, 'No such notice');
      continue;
    }
    if (options.alreadyPostedIsFine && row.status === 'ISSUED' && row.keeper_notice_posted_on) {
      alreadyPosted.push(row);
      continue;
    }
    if (row.status !== 'APPROVED') {
      problems.set(id, `Only an approved notice gets a notice to keeper; this one is ${PCN_STATUS_LABELS[row.status].toLowerCase()}`);
      continue;
    }
    const window = postingWindowOf(row);
    const timing = postingProblem(window, postOn);
    if (timing === 'NOT_AVAILABLE') {
      // Schedule 4 does not reach the land (paragraph 3, or outside England and Wales): the queue's
      // letter for it is the request to name the driver, which claims no keeper liability.
      const gap = keeperLiabilityGap(landOf(row)) ?? 'OUTSIDE_ENGLAND_AND_WALES';
      problems.set(id, `${KEEPER_LIABILITY_GAP_TEXTS[gap]}. Send a request to name the driver instead`);
      continue;
    }
    if (driverNamed.has(id)) {
      problems.set(id, 'The driver is named: send the notice to the named driver instead');
      continue;
    }
    if (timing === 'TOO_EARLY') {
      problems.set(
        id,
        `Too early: a letter posted on ${formatCalendarDate(postOn)} could be given before the law allows. Post from ${formatCalendarDate(window.firstPostingDate!)}`,
      );
      continue;
    }
    if (timing === 'TOO_LATE') {
      problems.set(id, `Too late: the last day to post was ${formatCalendarDate(window.lastPostingDate!)}`);
      continue;
    }
    const keeper = keepers.get(id);
    if (!keeper) {
      problems.set(id, 'No keeper details: enter them or import a keeper reply');
      continue;
    }
    if (keeper.vehicleMismatchAt) {
      problems.set(id, VEHICLE_MISMATCH_REASON);
      continue;
    }
    if (!keeper.vehicleConfirmedAt) {
      problems.set(id, "The DVLA's vehicle has not been confirmed against the photos");
      continue;
    }
    const terms = await findNoticeTerms(db, { operatorTermsId: row.operator_terms_id, carParkTermsId: row.car_park_terms_id });
    if (!terms.operator || !terms.carPark || terms.carPark.chargePence === null) {
      problems.set(id, 'The terms in force when it was issued were not recorded (the operator settings or the car park’s charge)');
      continue;
    }
    const carPark = await db.selectFrom('car_parks').select(['address', 'postcode']).where('id', '=', row.car_park_id).executeTakeFirst();
    const servedBy = row.notice_served_by;
    const servedAt = row.notice_served_at ?? row.issued_at ?? row.created_at;
    const facts: NoticeToKeeperFacts = {
      route: window.route === 'PARAGRAPH_8' ? 'PARAGRAPH_8' : 'PARAGRAPH_9',
      reference: pcnTitle(row.pcn_number),
      vehicleRegistration: row.vehicle_registration,
      vehicleDescription: [keeper.colour, keeper.make, keeper.model].filter(Boolean).join(' '),
      carPark: { name: row.car_park_name ?? '', address: carPark?.address ?? '', postcode: carPark?.postcode ?? '' },
      firstSeenAt: periodStartOf(row),
      parkingEndedAt: servedAt,
      noticeToDriver: servedBy === 'AFFIXED' || servedBy === 'HANDED' ? { servedAt, servedBy } : null,
      draftReference: row.draft_reference,
      contravention: OFFENCE_TYPE_LABELS[row.offence_type] ?? row.offence_type,
      description: row.description,
      carParkTerms: terms.carPark,
      operator: terms.operator,
      sentOn: postOn,
      givenOn: givenOnIfPosted(postOn),
      lookupUrl: `${appUrl}/charge`,
      amount: await amountBeforePosting(db, row, postOn),
      keeperIsHireFirm: keeper.keeperType === 'HIRE_COMPANY',
    };
    prepared.push({
      row,
      facts,
      letter: {
        letter: noticeToKeeper(facts),
        keeperAddress: keeperAddressBlock(keeper),
        sender: { name: terms.operator.creditorName, address: terms.operator.creditorAddress },
        lookupUrl: `${appUrl}/charge?ref=${encodeURIComponent(pcnTitle(row.pcn_number))}`,
      },
    });
  }
  if (problems.size > 0) refuse(problems, numbers);
  return { prepared, alreadyPosted };
}

/**
 * The day letters are dated: `postOn` (default today, UK), the day they will be posted. Each
 * letter prints it as the date sent (Schedule 4, paragraphs 8(2)(i) and 9(2)(i)) and counts the
 * day it is presumed given from it, so each notice's window is checked against it. A letter dated
 * for a day already gone did not go that day.
 */
export function postingDayOf(postOn: string | undefined, now: Date): string {
  const today = ukDate(now);
  const day = postOn ?? today;
  if (day < today) {
    throw new AppError('VALIDATION_FAILED', 'The posting day cannot be in the past', {
      details: { postOn: 'The posting day cannot be in the past' },
    });
  }
  return day;
}

/** Every notice checked for its letter on `postOn`, in the order given: 422 naming each that cannot have one. */
export async function prepareKeeperLetters(db: Db, pcnIds: readonly string[], postOn: string, appUrl: string): Promise<Prepared[]> {
  return (await prepare(db, pcnIds, postOn, { alreadyPostedIsFine: false, appUrl })).prepared;
}

/** One notice's letter as its own PDF, the file kept with the notice as sent. */
export function renderKeeperLetter(item: Prepared, now: Date): Promise<Uint8Array> {
  return renderKeeperLetters([item.letter], now, `Notice to keeper ${item.facts.reference}`);
}

/** One notice's letter as the sent document it is kept as (decision 0025): its file, day and author. */
export function keeperLetterDocument(
  item: Prepared,
  bytes: Uint8Array,
  input: { postOn: string; author: { id: string | null; name: string }; now: Date },
): SentDocumentToStore {
  return {
    pcnId: item.row.id,
    kind: 'NOTICE_TO_KEEPER',
    bytes,
    mimeType: 'application/pdf',
    postOn: input.postOn,
    reference: item.row.draft_reference,
    createdBy: input.author,
    now: input.now,
  };
}

/**
 * POST /keeper-notices/letters: a few letters made while the admin waits (a day's batch is a job:
 * keeper-letter-batches.ts). Each notice's letter is made as its own PDF and kept with the notice
 * as sent; the download is those same letters' pages, one after another, to print in one go.
 */
export async function generateKeeperLetters(
  deps: { db: Db; evidence: EvidenceStore },
  input: { pcnIds: readonly string[]; postOn?: string | undefined; appUrl: string; user: AuthUser },
  now: Date,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const postOn = postingDayOf(input.postOn, now);
  const prepared = await prepareKeeperLetters(deps.db, input.pcnIds, postOn, input.appUrl);
  const letters: Uint8Array[] = [];
  for (const item of prepared) letters.push(await renderKeeperLetter(item, now));
  const author = authorOf(input.user);
  await deps.db.transaction().execute(async (trx) => {
    for (const [index, item] of prepared.entries()) {
      await storeSentDocument({ db: trx, evidence: deps.evidence }, keeperLetterDocument(item, letters[index]!, { postOn, author, now }));
    }
  });
  return { bytes: await joinPdfs(letters, now, 'Notices to keeper'), fileName: keeperLettersFileName(postOn) };
}

/**
 * A letter marked posted on another day than it prints as sent would misstate when it was given:
 * each notice's newest letter must be dated `postedOn`, or it is named and nothing changes.
 */
async function assertLettersDated(db: Db, prepared: readonly Prepared[], postedOn: string): Promise<void> {
  const problems = await lettersNotToPost(
    db,
    prepared.map((item) => item.row.id),
    'NOTICE_TO_KEEPER',
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

/**
 * POST /keeper-notices/posted: each notice to ISSUED, with the day posted, the day it is presumed
 * given and the proof-of-posting reference in its history and audit. A notice already marked
 * posted is reported as it stands and not touched again.
 */
export async function markKeeperNoticesPosted(
  db: Db,
  input: { pcnIds: readonly string[]; postedOn: string; proofReference: string; user: AuthUser; now: Date; appUrl: string },
): Promise<KeeperNoticePosting[]> {
  if (input.postedOn > ukDate(input.now)) {
    throw new AppError('VALIDATION_FAILED', 'The posting day cannot be in the future', {
      details: { postedOn: 'The posting day cannot be in the future' },
    });
  }
  const { prepared, alreadyPosted } = await prepare(db, input.pcnIds, input.postedOn, { alreadyPostedIsFine: true, appUrl: input.appUrl });
  await assertLettersDated(db, prepared, input.postedOn);
  const now = input.now.toISOString();
  const results: KeeperNoticePosting[] = alreadyPosted.map((row) => ({
    pcnId: row.id,
    pcnNumber: row.pcn_number,
    outcome: 'ALREADY_POSTED',
    postedOn: row.keeper_notice_posted_on!,
    deemedGivenOn: row.keeper_notice_given_on!,
  }));
  await db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    for (const { row, facts } of prepared) {
      const moved = await updatePcnStatus(trx, { pcnId: row.id, from: 'APPROVED', to: 'ISSUED', now });
      if (!moved) throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} changed while it was being marked posted: try again`);
      await trx
        .updateTable('pcns')
        .set({
          keeper_notice_posted_on: input.postedOn,
          keeper_notice_given_on: facts.givenOn,
          keeper_notice_proof: input.proofReference || null,
          // The chase after the notice to keeper starts here (decision 0039).
          collection_stage: 'NOTICE_TO_KEEPER',
        })
        .where('id', '=', row.id)
        .execute();
      const note = `Notice to keeper posted on ${formatCalendarDate(input.postedOn)}, presumed given on ${formatCalendarDate(facts.givenOn)}${
        input.proofReference ? ` (proof of posting ${input.proofReference})` : ''
      }`;
      await insertStatusChange(trx, { pcnId: row.id, from: 'APPROVED', to: 'ISSUED', note, changedBy: input.user.id, now });
      await insertAuditEntries(trx, [
        auditEntry(row.id, 'status_changed', input.user, null, now, {
          status: { from: 'APPROVED', to: 'ISSUED' },
          note: { from: null, to: note },
        }),
        auditEntry(row.id, 'keeper_notice_posted', input.user, null, now, {
          keeperNoticePostedOn: { from: null, to: input.postedOn },
          keeperNoticeGivenOn: { from: null, to: facts.givenOn },
          ...(input.proofReference && { proofReference: { from: null, to: input.proofReference } }),
        }),
      ]);
      results.push({ pcnId: row.id, pcnNumber: row.pcn_number, outcome: 'POSTED', postedOn: input.postedOn, deemedGivenOn: facts.givenOn });
    }
  });
  return results;
}
