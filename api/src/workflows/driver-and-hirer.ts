import {
  formatCalendarDate,
  hireDocumentsDeadline,
  keeperAddressBlock,
  KEEPER_LIABILITY_GAP_TEXTS,
  keeperLiabilityGap,
  noticeToHirer,
  noticeToHirerWindow,
  noticeToNamedDriver,
  OFFENCE_TYPE_LABELS,
  PCN_STATUS_LABELS,
  pcnTitle,
  requestToNameDriver,
  SENT_DOCUMENT_KIND_LABELS,
  ukDate,
  windowPostingProblem,
  type DriverInput,
  type HirerInput,
  type KeeperLetter,
  type LetterFacts,
  type PcnLetterKind,
  type PcnLetterPosting,
  type PcnStatus,
  type PostalParty,
} from '@parkpatrol/shared';
import { englandAndWalesWorkingDays } from '@parkpatrol/shared/working-days';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { givenOnIfPosted, landOf } from '../domain/keeper-liability.ts';
import { AppError } from '../http/app-error.ts';
import { findAppealByPcnId } from '../repositories/appeals.ts';
import { findKeeper } from '../repositories/keepers.ts';
import {
  findHirer,
  findNamedDriver,
  recordLetterPosting,
  saveHirer,
  saveNamedDriver,
  type StoredHirer,
} from '../repositories/letter-parties.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById, periodStartOf, type PcnRow } from '../repositories/pcn-rows.ts';
import { insertStatusChange, updatePcnStatus } from '../repositories/pcn-status.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { findNoticeTerms } from '../repositories/terms.ts';
import type { EvidenceStore } from '../services/evidence-storage.ts';
import { renderKeeperLetters } from '../services/keeper-letters/render-keeper-letters.ts';
import { authorOf, storeSentDocument } from '../services/sent-documents.ts';
import { amountBeforePosting } from './look-up-charge.ts';
import { pcnNotFound } from './pcn-access.ts';
import { lettersNotToPost } from './sent-documents.ts';

/**
 * Letters to others than the registered keeper (decision 0027): the hirer a hire firm named
 * (Schedule 4, paragraphs 13 and 14), the driver a keeper or an appeal named, and the registered
 * keeper where Schedule 4 does not reach the land (paragraph 3, and England and Wales only). Each
 * letter is made for a posting day and kept as sent (decision 0025), then its posting recorded,
 * as a notice to keeper's is; a letter that cannot go is refused with why, and nothing changes.
 */

const workingDays = englandAndWalesWorkingDays();

/** Charges closed one way or another get no more letters. */
const CLOSED: readonly PcnStatus[] = ['PAID', 'CANCELLED', 'REJECTED'];

async function pcnRow(db: Db, pcnId: string): Promise<PcnRow> {
  const row = await findPcnRowById(db, pcnId);
  if (!row) throw pcnNotFound();
  return row;
}

function refuseWhereNoKeeperLiability(row: PcnRow, kind: PcnLetterKind): void {
  const gap = keeperLiabilityGap(landOf(row));
  if (gap)
    refuse(
      row,
      kind,
      KEEPER_LIABILITY_GAP_TEXTS[gap].replace(/^./, (first) => first.toLowerCase()),
    );
}

function refuse(row: PcnRow, kind: PcnLetterKind, reason: string): never {
  throw new AppError(
    'KEEPER_NOTICE_REFUSED',
    `${pcnTitle(row.pcn_number)} cannot have a ${SENT_DOCUMENT_KIND_LABELS[kind].toLowerCase()}: ${reason}`,
    { details: { [row.id]: reason } },
  );
}

function invalid(field: string, message: string): never {
  throw new AppError('VALIDATION_FAILED', message, { details: { [field]: message } });
}

const actorName = (user: AuthUser) => `${user.firstName} ${user.lastName}`.trim();

function partyOf(input: PostalParty): PostalParty {
  const { title, firstNames, lastName, companyName, addressLines, postcode } = input;
  return { title, firstNames, lastName, companyName, addressLines, postcode };
}

/** The notice to hirer's window (paragraph 14) for a hirer as stored. */
export function hirerWithWindow(hirer: StoredHirer) {
  const window = noticeToHirerWindow(hirer.documentsGivenOn, workingDays);
  return { ...hirer, window: { firstPostingDate: window.firstPostingDate, lastPostingDate: window.lastPostingDate } };
}

/**
 * PUT /pcns/{id}/hirer. The keeper must be a hire firm that was given a notice to keeper
 * (paragraph 13(1)(b)), and its three documents (13(2)) must have come within 28 days beginning
 * with the day after that notice was given: later, the firm stays liable as keeper and there is
 * no notice to hirer. The day they came starts the notice to hirer's 21 days (paragraph 14).
 */
export async function recordHirer(db: Db, input: { pcnId: string; hirer: HirerInput; user: AuthUser; now: Date }): Promise<void> {
  const row = await pcnRow(db, input.pcnId);
  const keeper = await findKeeper(db, row.id);
  if (keeper?.keeperType !== 'HIRE_COMPANY') {
    refuse(row, 'NOTICE_TO_HIRER', 'the keeper is not recorded as a hire or lease company');
  }
  // Paragraphs 13 and 14 pass on a keeper's liability; where Schedule 4 gives none (the request to
  // name the driver was posted instead), there is nothing to pass to a hirer.
  refuseWhereNoKeeperLiability(row, 'NOTICE_TO_HIRER');
  if (!row.keeper_notice_posted_on || !row.keeper_notice_given_on) {
    refuse(row, 'NOTICE_TO_HIRER', 'the hire firm has not been given a notice to keeper yet (paragraph 13(1)(b))');
  }
  const documentsOn = input.hirer.documentsGivenOn;
  if (documentsOn > ukDate(input.now)) invalid('documentsGivenOn', 'The day the documents were received cannot be in the future');
  if (documentsOn < row.keeper_notice_posted_on) {
    invalid(
      'documentsGivenOn',
      `The documents answer the notice to keeper posted on ${formatCalendarDate(row.keeper_notice_posted_on)}: give a day on or after it`,
    );
  }
  const deadline = hireDocumentsDeadline(row.keeper_notice_given_on);
  if (documentsOn > deadline) {
    invalid(
      'documentsGivenOn',
      `Documents received after ${formatCalendarDate(deadline)} (28 days from the day after the notice to keeper was given) do not pass liability to the hirer: the hire firm stays liable as keeper`,
    );
  }
  const now = input.now.toISOString();
  await db.transaction().execute(async (trx) => {
    const before = await findHirer(trx, row.id);
    await saveHirer(trx, {
      pcnId: row.id,
      hirer: { ...partyOf(input.hirer), documentsGivenOn: documentsOn, hireAgreementReference: input.hirer.hireAgreementReference },
      recordedBy: actorName(input.user),
      now,
    });
    // The audit names what changed, not the hirer's name or address (personal data, removed with the notice).
    await insertAuditEntries(trx, [
      auditEntry(row.id, 'hirer_recorded', input.user, null, now, {
        hirer: { from: before ? 'recorded' : null, to: 'recorded' },
        documentsGivenOn: { from: before?.documentsGivenOn ?? null, to: documentsOn },
      }),
    ]);
  });
}

/**
 * PUT /pcns/{id}/driver. The creditor now knows the driver's name and a current address for
 * service (paragraph 2), so the keeper (or the hirer) is no longer pursued: their letters are
 * refused from here on, and the notice to the named driver is the next letter.
 */
export async function recordNamedDriver(db: Db, input: { pcnId: string; driver: DriverInput; user: AuthUser; now: Date }): Promise<void> {
  const row = await pcnRow(db, input.pcnId);
  if (CLOSED.includes(row.status) || (row.status !== 'APPROVED' && row.status !== 'ISSUED')) {
    refuse(
      row,
      'NOTICE_TO_NAMED_DRIVER',
      `only an approved or issued notice names a driver; this one is ${PCN_STATUS_LABELS[row.status].toLowerCase()}`,
    );
  }
  if (input.driver.source === 'APPEAL' && !(await findAppealByPcnId(db, row.id))) {
    invalid('source', 'This notice has no appeal to have named the driver');
  }
  if (input.driver.source === 'KEEPER_REPLY' && !(await findKeeper(db, row.id))) {
    invalid('source', 'This notice has no keeper recorded to have replied');
  }
  const now = input.now.toISOString();
  await db.transaction().execute(async (trx) => {
    const before = await findNamedDriver(trx, row.id);
    await saveNamedDriver(trx, {
      pcnId: row.id,
      driver: { ...partyOf(input.driver), source: input.driver.source },
      recordedBy: actorName(input.user),
      now,
    });
    await insertAuditEntries(trx, [
      auditEntry(row.id, 'driver_named', input.user, null, now, {
        namedDriver: { from: before ? 'recorded' : null, to: 'recorded' },
        namedBy: { from: before?.source ?? null, to: input.driver.source },
      }),
    ]);
  });
}

type PreparedLetter = { row: PcnRow; letter: KeeperLetter; address: string[]; sender: { name: string; address: string }; givenOn: string };

async function letterFacts(db: Db, row: PcnRow, kind: PcnLetterKind, postOn: string, appUrl: string, vehicleDescription: string) {
  const terms = await findNoticeTerms(db, { operatorTermsId: row.operator_terms_id, carParkTermsId: row.car_park_terms_id });
  if (!terms.operator || !terms.carPark || terms.carPark.chargePence === null) {
    refuse(row, kind, 'the terms in force when it was issued were not recorded (the operator settings or the car park’s charge)');
  }
  const carPark = await db.selectFrom('car_parks').select(['address', 'postcode']).where('id', '=', row.car_park_id).executeTakeFirst();
  const amount = await amountBeforePosting(db, row, postOn);
  const facts: LetterFacts = {
    reference: pcnTitle(row.pcn_number),
    vehicleRegistration: row.vehicle_registration,
    vehicleDescription,
    carPark: { name: row.car_park_name ?? '', address: carPark?.address ?? '', postcode: carPark?.postcode ?? '' },
    parkingStartedAt: periodStartOf(row),
    parkingEndedAt: row.notice_served_at ?? row.issued_at ?? row.created_at,
    contravention: OFFENCE_TYPE_LABELS[row.offence_type] ?? row.offence_type,
    description: row.description,
    carParkTerms: terms.carPark,
    operator: terms.operator,
    unpaidPence: amount.unpaidPence,
    sentOn: postOn,
    givenOn: givenOnIfPosted(postOn),
    lookupUrl: `${appUrl}/charge`,
  };
  return { facts, sender: { name: terms.operator.creditorName, address: terms.operator.creditorAddress } };
}

/** Checks a letter can go on `postOn` and words it; refuses with the reason when it cannot. */
async function prepareLetter(db: Db, row: PcnRow, kind: PcnLetterKind, postOn: string, appUrl: string): Promise<PreparedLetter> {
  if (CLOSED.includes(row.status)) {
    refuse(row, kind, `the charge is ${PCN_STATUS_LABELS[row.status].toLowerCase()}`);
  }
  const keeper = await findKeeper(db, row.id);
  const vehicle = keeper ? [keeper.colour, keeper.make, keeper.model].filter(Boolean).join(' ') : '';
  const namedDriver = await findNamedDriver(db, row.id);
  if (kind === 'NOTICE_TO_NAMED_DRIVER') {
    if (!namedDriver) refuse(row, kind, 'no driver is named: record the driver first');
    if (row.status !== 'APPROVED' && row.status !== 'ISSUED') refuse(row, kind, 'only an approved or issued notice has one');
    const { facts, sender } = await letterFacts(db, row, kind, postOn, appUrl, vehicle);
    const letter = noticeToNamedDriver({ ...facts, namedBy: namedDriver.source });
    return { row, letter, address: keeperAddressBlock(namedDriver), sender, givenOn: facts.givenOn };
  }
  // The driver is known: the keeper and the hirer are no longer pursued.
  if (namedDriver) refuse(row, kind, 'the driver is named: send the notice to the named driver instead');
  if (kind === 'NOTICE_TO_HIRER') {
    refuseWhereNoKeeperLiability(row, kind);
    const stored = await findHirer(db, row.id);
    if (!stored) refuse(row, kind, 'no hirer is recorded: record the hirer and the hire firm’s documents first');
    if (row.status !== 'ISSUED' || !row.keeper_notice_posted_on) refuse(row, kind, 'the notice to keeper has not been posted');
    const window = noticeToHirerWindow(stored.documentsGivenOn, workingDays);
    const timing = windowPostingProblem(window, postOn);
    if (timing === 'TOO_EARLY') {
      refuse(row, kind, `too early: post from ${formatCalendarDate(window.firstPostingDate)}, the day after the documents were received`);
    }
    if (timing === 'TOO_LATE') {
      refuse(
        row,
        kind,
        `too late: the last day to post was ${formatCalendarDate(window.lastPostingDate)} (21 days from the day after the documents were received on ${formatCalendarDate(stored.documentsGivenOn)}, paragraph 14)`,
      );
    }
    const { facts, sender } = await letterFacts(db, row, kind, postOn, appUrl, vehicle);
    const keeperNotice = await amountBeforePosting(db, row, row.keeper_notice_posted_on);
    const letter = noticeToHirer({
      ...facts,
      hireFirmName: keeper?.companyName || [keeper?.firstNames, keeper?.lastName].filter(Boolean).join(' '),
      documentsGivenOn: stored.documentsGivenOn,
      keeperNoticeSentOn: row.keeper_notice_posted_on,
      keeperNoticeUnpaidPence: keeperNotice.unpaidPence,
      hireAgreementReference: stored.hireAgreementReference,
    });
    return { row, letter, address: keeperAddressBlock(stored), sender, givenOn: facts.givenOn };
  }
  // REQUEST_TO_NAME_DRIVER: to the registered keeper, where Schedule 4 does not reach the land.
  const gap = keeperLiabilityGap(landOf(row));
  if (!gap) refuse(row, kind, 'keeper liability is available on this land: send a notice to keeper');
  if (row.status !== 'APPROVED') {
    refuse(row, kind, `only an approved notice gets one; this one is ${PCN_STATUS_LABELS[row.status].toLowerCase()}`);
  }
  if (!keeper) refuse(row, kind, 'no keeper details: enter them or import a keeper reply');
  if (!keeper.vehicleConfirmedAt) refuse(row, kind, "the DVLA's vehicle has not been confirmed against the photos");
  const { facts, sender } = await letterFacts(db, row, kind, postOn, appUrl, vehicle);
  return { row, letter: requestToNameDriver({ ...facts, gap }), address: keeperAddressBlock(keeper), sender, givenOn: facts.givenOn };
}

/** POST /pcns/{id}/letters: the letter dated `postOn` (default today, UK), kept as sent, as a PDF. */
export async function generatePcnLetter(
  deps: { db: Db; evidence: EvidenceStore },
  input: { pcnId: string; kind: PcnLetterKind; postOn?: string | undefined; appUrl: string; user: AuthUser },
  now: Date,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const today = ukDate(now);
  const postOn = input.postOn ?? today;
  if (postOn < today) invalid('postOn', 'The posting day cannot be in the past');
  const row = await pcnRow(deps.db, input.pcnId);
  const appUrl = input.appUrl.replace(/\/+$/, '');
  const prepared = await prepareLetter(deps.db, row, input.kind, postOn, appUrl);
  const bytes = await renderKeeperLetters(
    [
      {
        letter: prepared.letter,
        keeperAddress: prepared.address,
        sender: prepared.sender,
        lookupUrl: `${appUrl}/charge?ref=${encodeURIComponent(pcnTitle(row.pcn_number))}`,
      },
    ],
    now,
    `${SENT_DOCUMENT_KIND_LABELS[input.kind]} ${pcnTitle(row.pcn_number)}`,
  );
  const document = await storeSentDocument(deps, {
    pcnId: row.id,
    kind: input.kind,
    bytes,
    mimeType: 'application/pdf',
    postOn,
    reference: null,
    createdBy: authorOf(input.user),
    now,
  });
  return { bytes, fileName: document.fileName };
}

/**
 * POST /pcns/{id}/letters/posted: the letter's posting, checked as when it was made (its window
 * on the day posted) and against the kept letter's date. A notice to hirer or to the named driver
 * keeps its posting beside the hirer or driver; a request to name the driver is the keeper's
 * letter on land without keeper liability, so it is logged as a notice to keeper is, and moves
 * the notice to ISSUED. Marked twice, the second answer reports the first and changes nothing.
 */
export async function markPcnLetterPosted(
  db: Db,
  input: { pcnId: string; kind: PcnLetterKind; postedOn: string; proofReference: string; user: AuthUser; now: Date; appUrl: string },
): Promise<PcnLetterPosting> {
  if (input.postedOn > ukDate(input.now)) invalid('postedOn', 'The posting day cannot be in the future');
  const row = await pcnRow(db, input.pcnId);
  const already = await postedAlready(db, row, input.kind);
  if (already) return { pcnId: row.id, kind: input.kind, outcome: 'ALREADY_POSTED', ...already };
  const prepared = await prepareLetter(db, row, input.kind, input.postedOn, input.appUrl);
  const problem = (await lettersNotToPost(db, [row.id], input.kind, input.postedOn)).get(row.id);
  if (problem) throw new AppError('LETTER_DATE_MISMATCH', problem, { details: { [row.id]: problem } });
  const givenOn = prepared.givenOn;
  const proof = input.proofReference || null;
  const now = input.now.toISOString();
  const label = SENT_DOCUMENT_KIND_LABELS[input.kind];
  const note = `${label} posted on ${formatCalendarDate(input.postedOn)}, presumed given on ${formatCalendarDate(givenOn)}${proof ? ` (proof of posting ${proof})` : ''}`;
  const recorded = await db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    if (input.kind === 'REQUEST_TO_NAME_DRIVER') {
      await trx
        .updateTable('pcns')
        .set({ keeper_notice_posted_on: input.postedOn, keeper_notice_given_on: givenOn, keeper_notice_proof: proof })
        .where('id', '=', row.id)
        .execute();
    } else {
      const table = input.kind === 'NOTICE_TO_HIRER' ? 'pcn_hirers' : 'pcn_named_drivers';
      // A second mark of the same letter that got past postedAlready above (both read it unposted)
      // finds it recorded here: the first one's status change and audit entry stand alone.
      if (!(await recordLetterPosting(trx, { table, pcnId: row.id, postedOn: input.postedOn, givenOn, proof }))) return false;
    }
    const moved = row.status === 'APPROVED' && (await updatePcnStatus(trx, { pcnId: row.id, from: 'APPROVED', to: 'ISSUED', now }));
    if (row.status === 'APPROVED' && !moved) {
      throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} changed while it was being marked posted: try again`);
    }
    if (moved) await insertStatusChange(trx, { pcnId: row.id, from: 'APPROVED', to: 'ISSUED', note, changedBy: input.user.id, now });
    await insertAuditEntries(trx, [
      ...(moved ? [auditEntry(row.id, 'status_changed', input.user, null, now, { status: { from: 'APPROVED', to: 'ISSUED' } })] : []),
      auditEntry(row.id, 'letter_posted', input.user, null, now, {
        letter: { from: null, to: label },
        postedOn: { from: null, to: input.postedOn },
        givenOn: { from: null, to: givenOn },
        ...(proof && { proofReference: { from: null, to: proof } }),
      }),
    ]);
    return true;
  });
  if (!recorded) {
    const posted = await postedAlready(db, row, input.kind);
    if (!posted) throw new AppError('CONFLICT', `${pcnTitle(row.pcn_number)} changed while it was being marked posted: try again`);
    return { pcnId: row.id, kind: input.kind, outcome: 'ALREADY_POSTED', ...posted };
  }
  return { pcnId: row.id, kind: input.kind, outcome: 'POSTED', postedOn: input.postedOn, deemedGivenOn: givenOn };
}

async function postedAlready(db: Db, row: PcnRow, kind: PcnLetterKind): Promise<{ postedOn: string; deemedGivenOn: string } | null> {
  if (kind === 'REQUEST_TO_NAME_DRIVER') {
    return row.status === 'ISSUED' && row.keeper_notice_posted_on && row.keeper_notice_given_on
      ? { postedOn: row.keeper_notice_posted_on, deemedGivenOn: row.keeper_notice_given_on }
      : null;
  }
  const party = kind === 'NOTICE_TO_HIRER' ? await findHirer(db, row.id) : await findNamedDriver(db, row.id);
  return party?.notice.postedOn && party.notice.givenOn ? { postedOn: party.notice.postedOn, deemedGivenOn: party.notice.givenOn } : null;
}
