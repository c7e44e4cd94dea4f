import {
  formatCalendarDate,
  noticeToKeeper,
  OFFENCE_TYPE_LABELS,
  PCN_STATUS_LABELS,
  pcnTitle,
  postingProblem,
  ukDate,
  keeperAddressBlock,
  type KeeperNoticePosting,
  type NoticeToKeeperFacts,
  type OffenceType,
  type PcnStatus,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { givenOnIfPosted, postingWindowOf } from '../domain/keeper-liability.ts';
import { AppError } from '../http/app-error.ts';
import { findKeepers } from '../repositories/keepers.ts';
import {
  auditEntry,
  findPcnRowById,
  insertAuditEntries,
  insertStatusChange,
  lockPcnWrites,
  updatePcnStatus,
  type PcnRow,
} from '../repositories/pcns.ts';
import { findNoticeTerms } from '../repositories/terms.ts';
import { renderKeeperLetters, type KeeperLetterToRender } from '../services/keeper-letters/render-keeper-letters.ts';

/**
 * Notices to keeper (decision 0016, 0018): letters for approved notices inside their posting
 * window, with keeper details whose vehicle an admin confirmed; then, once posted, each notice
 * moves to ISSUED with the day it is presumed given. Every notice is checked before anything is
 * made or changed: one that cannot go is named with why, and the request changes nothing.
 */

type Prepared = { row: PcnRow; facts: NoticeToKeeperFacts; letter: KeeperLetterToRender };

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
      problems.set(
        id,
        `Only an approved notice gets a notice to keeper; this one is ${PCN_STATUS_LABELS[row.status as PcnStatus].toLowerCase()}`,
      );
      continue;
    }
    const window = postingWindowOf(row);
    const timing = postingProblem(window, postOn);
    if (timing === 'NOT_AVAILABLE') {
      problems.set(id, 'Keeper liability is not available: the land is not in England and Wales');
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
      observedAt: row.observed_at,
      parkingEndedAt: servedAt,
      noticeToDriver: servedBy === 'AFFIXED' || servedBy === 'HANDED' ? { servedAt, servedBy } : null,
      draftReference: row.draft_reference,
      contravention: OFFENCE_TYPE_LABELS[row.offence_type as OffenceType] ?? row.offence_type,
      description: row.description,
      carParkTerms: terms.carPark,
      operator: terms.operator,
      sentOn: postOn,
      givenOn: givenOnIfPosted(postOn),
      lookupUrl: `${appUrl}/charge`,
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

/** POST /keeper-notices/letters: one PDF, dated today (UK) for posting today. */
export async function generateKeeperLetters(
  db: Db,
  input: { pcnIds: readonly string[]; appUrl: string },
  now: Date,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const today = ukDate(now);
  const { prepared } = await prepare(db, input.pcnIds, today, { alreadyPostedIsFine: false, appUrl: input.appUrl });
  const bytes = await renderKeeperLetters(
    prepared.map((item) => item.letter),
    now,
  );
  return { bytes, fileName: `notices-to-keeper-${today}.pdf` };
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
