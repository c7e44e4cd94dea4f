import { timingSafeEqual } from 'node:crypto';
import {
  addDays,
  endOfUkDay,
  CHARGE_LOOKUP_LIMITED,
  CHARGE_NOT_FOUND,
  normaliseChargeReference,
  normaliseDraftReference,
  normaliseRegistration,
  LOOKUP_CHALLENGE_HEADER,
  OFFENCE_TYPE_LABELS,
  SERVER_MESSAGES,
  pcnTitle,
  type AmountDue,
  type CalendarDate,
  type ChargeLookupResponse,
  type PublicCharge,
} from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { signChargeToken } from '../auth/charge-token.ts';
import { issueLookupChallenge, LOOKUP_CHALLENGE_TTL_SECONDS, verifyLookupProof, type ChallengedPair } from '../auth/lookup-proof.ts';
import type { RateLimiter, RateLimitHit, RateLimitRule } from '../auth/rate-limit.ts';
import { amountDueOf, toPublicCharge, type AppealFacts, type ChargeFacts } from '../domain/public-charge.ts';
import { findNamedDriver } from '../repositories/letter-parties.ts';
import { findAppealByPcnId, type AppealRow } from '../repositories/appeals.ts';
import { addressKey } from '../http/address-key.ts';
import { AppError } from '../http/app-error.ts';
import { findPcnImages } from '../repositories/pcn-images.ts';
import { findPcnRowById, periodStartOf, type PcnRow } from '../repositories/pcn-rows.ts';
import { findPaymentDays } from '../repositories/payments.ts';
import type { Db } from '../db/database.ts';
import { findNoticeTerms } from '../repositories/terms.ts';
import { createChargePhotoUrl, thumbnailUrlOf } from '../services/upload-urls.ts';
import { tooManyAttempts } from './auth-limits.ts';
import { cardPaymentOf } from './card-payment-state.ts';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;
const ONE_HOUR_MS = 60 * 60 * 1000;
/**
 * Every lookup from one address, right or wrong: a family checking three tickets is fine, a script
 * is not. The one hard limit: only the address's own lookups can spend it.
 */
export const CHARGE_LOOKUPS_PER_ADDRESS: RateLimitRule = { scope: 'charge-lookups-per-address', limit: 30, windowMs: FIFTEEN_MINUTES_MS };
/**
 * Wrong lookups per address (an IPv6 /64), per reference and per registration. Past any of them a
 * lookup touching that key must show some work first; never is it refused: a lock on a reference
 * or a plate would be a lock others can put on the motorist. Per reference, so one reference is
 * not walked through registrations from many addresses; per registration, so one plate is not
 * walked through the sequential references. Each try is counted before its comparison and given
 * back when it was right, so guesses sent side by side cannot all pass on the one free try left.
 */
export const CHARGE_LOOKUP_FAILURES_PER_ADDRESS: RateLimitRule = {
  scope: 'charge-lookup-failures-per-address',
  limit: 5,
  windowMs: FIFTEEN_MINUTES_MS,
};
/** A PCN number and a draft reference ('D-1A2B3C4D') are each a reference of their own. */
export const CHARGE_LOOKUP_FAILURES_PER_REFERENCE: RateLimitRule = {
  scope: 'charge-lookup-failures-per-reference',
  limit: 10,
  windowMs: ONE_HOUR_MS,
};
export const CHARGE_LOOKUP_FAILURES_PER_REGISTRATION: RateLimitRule = {
  scope: 'charge-lookup-failures-per-registration',
  limit: 5,
  windowMs: ONE_HOUR_MS,
};
/** A check answered is spent: kept as long as a challenge runs. */
const SPENT_LOOKUP_CHECKS: RateLimitRule = { scope: 'charge-lookup-checks-spent', limit: 1, windowMs: LOOKUP_CHALLENGE_TTL_SECONDS * 1000 };
/**
 * The check's zero bits: 2^14 hashes is well under a second on a phone; one more bit (twice the
 * work) each time the tries on the busiest key double again, up to 2^18, a few seconds on a
 * phone, so the real motorist always gets through while a walk of many references pays for each.
 */
export const LOOKUP_CHECK_BITS = { first: 14, most: 18 } as const;

function notFound(): AppError {
  return new AppError('NOT_FOUND', CHARGE_NOT_FOUND);
}

/** Equal registrations, compared in constant time over a fixed width so the time says nothing either. */
function sameRegistration(given: string, stored: string): boolean {
  const width = 16;
  const a = Buffer.alloc(width);
  const b = Buffer.alloc(width);
  a.write(given.slice(0, width));
  b.write(stored.slice(0, width));
  return timingSafeEqual(a, b) && given.length === stored.length;
}

/** The most notices one draft reference is compared against: eight hex characters rarely repeat. */
const MAX_SHARING_A_DRAFT_REFERENCE = 5;
/** What a reference naming no notice is compared against, so it takes as long as one that names one. */
const NO_CHARGE = { id: null, vehicle_registration: '' } as const;

/**
 * POST /public/charges/lookup: the charge for a reference and registration, and a token for it.
 * The reference is the PCN number, or the draft reference a ticket printed before its notice
 * was sent. A wrong reference and a wrong registration take the same path and get the same answer.
 */
export async function lookUpCharge(
  deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'cardProcessor' | 'logger'>,
  limits: RateLimiter,
  input: { reference: string; registration: string; address: string; proof?: string | undefined },
): Promise<ChargeLookupResponse> {
  const number = normaliseChargeReference(input.reference);
  const draft = number === null ? normaliseDraftReference(input.reference) : null;
  const referenceKey = number ?? draft ?? input.reference.replace(/\s+/g, '').toUpperCase().slice(0, 20);
  const registration = normaliseRegistration(input.registration);
  const address = addressKey(input.address);
  const byAddress = await limits.take([{ rule: CHARGE_LOOKUPS_PER_ADDRESS, key: address }]);
  if (byAddress.isLimited) throw tooManyAttempts(byAddress, CHARGE_LOOKUP_LIMITED);

  const watched: RateLimitHit[] = [
    { rule: CHARGE_LOOKUP_FAILURES_PER_ADDRESS, key: address },
    { rule: CHARGE_LOOKUP_FAILURES_PER_REFERENCE, key: referenceKey },
    { rule: CHARGE_LOOKUP_FAILURES_PER_REGISTRATION, key: registration },
  ];
  // A free try is taken (checked and counted as wrong at once) or, past the free ones, a check is spent.
  const isFree = !(await limits.take(watched)).isLimited;
  if (!isFree) await spendCheck(deps, limits, watched, input.proof, { reference: referenceKey, registration });

  const candidates = await findChargesByReference(deps.db, { number, draft });
  // Every candidate is compared, and at least one comparison is made, so the time says nothing
  // of how many notices the reference names or which matched; two notices sharing a draft
  // reference are told apart by their registration.
  const compared: Array<{ id: string | null; vehicle_registration: string }> = candidates.length > 0 ? candidates : [NO_CHARGE];
  const found = compared.filter((candidate) => sameRegistration(registration, candidate.vehicle_registration))[0]?.id ?? null;
  if (found === null) {
    // A wrong one made with a check counts too, so the next check asks for more work.
    if (!isFree) for (const { rule, key } of watched) await limits.hit(rule, key);
    throw notFound();
  }
  if (isFree) await limits.refund(watched);
  const now = deps.now();
  const charge = await readPublicCharge(deps, found, now);
  if (!charge) throw notFound();
  return { charge, accessToken: signChargeToken(deps.config.jwtSecret, found, now).token };
}

/** The check a lookup past its free tries must show, spent; or the 429 with a new challenge for it. */
async function spendCheck(
  deps: Pick<AppDeps, 'config' | 'now'>,
  limits: RateLimiter,
  watched: readonly RateLimitHit[],
  proof: string | undefined,
  pair: ChallengedPair,
): Promise<void> {
  const bits = await checkBitsFor(limits, watched);
  const now = deps.now();
  const id = proof ? verifyLookupProof(deps.config.jwtSecret, proof, pair, bits, now) : null;
  if (id !== null && !(await limits.take([{ rule: SPENT_LOOKUP_CHECKS, key: id }])).isLimited) return;
  throw new AppError('RATE_LIMITED', SERVER_MESSAGES.chargeLookupCheckNeeded, {
    headers: { 'Retry-After': '1', [LOOKUP_CHALLENGE_HEADER]: issueLookupChallenge(deps.config.jwtSecret, pair, bits, now) },
  });
}

/** The zero bits the busiest of the keys calls for: one more each time its wrong tries double past the free ones. */
async function checkBitsFor(limits: RateLimiter, watched: readonly RateLimitHit[]): Promise<number> {
  let bits: number = LOOKUP_CHECK_BITS.first;
  for (const { rule, key } of watched) {
    let keyBits: number = LOOKUP_CHECK_BITS.first;
    for (let times = 2; keyBits < LOOKUP_CHECK_BITS.most; times *= 2) {
      if (!(await limits.check({ ...rule, limit: rule.limit * times }, key)).isLimited) break;
      keyBits++;
    }
    bits = Math.max(bits, keyBits);
  }
  return bits;
}

/**
 * The notices a typed reference names: one by its number, or those filed under a draft reference.
 * Anything else is looked up as a number no notice has, so it takes the same path.
 */
async function findChargesByReference(
  db: Db,
  reference: { number: string | null; draft: string | null },
): Promise<Array<{ id: string; vehicle_registration: string }>> {
  const query = db.selectFrom('pcns').select(['id', 'vehicle_registration']);
  if (reference.draft !== null) {
    return query.where('draft_reference', '=', reference.draft).orderBy('sequence').limit(MAX_SHARING_A_DRAFT_REFERENCE).execute();
  }
  return query.where('pcn_number', '=', reference.number ?? '').execute();
}

/** The charge as the motorist sees it, or null when the notice is gone. */
export async function readPublicCharge(
  deps: Pick<AppDeps, 'db' | 'config' | 'cardProcessor' | 'logger'>,
  pcnId: string,
  now: Date,
): Promise<PublicCharge | null> {
  const row = await findPcnRowById(deps.db, pcnId);
  if (!row) return null;
  const facts = await chargeFactsOf(deps.db, row, (fileName) => createChargePhotoUrl(deps.config.jwtSecret, fileName, now, row.id));
  return { ...toPublicCharge(facts, now), card: await cardPaymentOf(deps, row.id, facts, now) };
}

/** What the charge's amounts and page are worked out from: the notice, its terms, its photos and its payments. */
export async function chargeFactsOf(db: Db, row: PcnRow, photoUrl: (fileName: string) => string): Promise<ChargeFacts> {
  const [images, terms, carPark, payments, appeal, namedDriver] = await Promise.all([
    findPcnImages(db, [row.id]),
    findNoticeTerms(db, { operatorTermsId: row.operator_terms_id, carParkTermsId: row.car_park_terms_id }),
    db.selectFrom('car_parks').select(['name', 'address', 'postcode']).where('id', '=', row.car_park_id).executeTakeFirst(),
    findPaymentDays(db, row.id),
    findAppealByPcnId(db, row.id),
    findNamedDriver(db, row.id),
  ]);
  const served = row.notice_served_by === 'AFFIXED' || row.notice_served_by === 'HANDED' ? (row.notice_served_at ?? row.issued_at) : null;
  return {
    reference: pcnTitle(row.pcn_number),
    // Only a notice to driver can have carried it: a drive-off's motorist never saw one.
    draftReference: served ? row.draft_reference : null,
    status: row.status,
    vehicleRegistration: row.vehicle_registration,
    carPark: { name: carPark?.name ?? '', address: carPark?.address ?? '', postcode: carPark?.postcode ?? '' },
    parkedFrom: periodStartOf(row),
    parkedUntil: row.notice_served_at ?? row.issued_at ?? row.created_at,
    contravention: OFFENCE_TYPE_LABELS[row.offence_type] ?? row.offence_type,
    noticeToDriverAt: served,
    keeperNoticeGivenOn: row.keeper_notice_given_on,
    terms,
    photos: (images.get(row.id) ?? [])
      .filter((image) => image.purged_at === null)
      .map((image) => {
        const url = photoUrl(image.file_name);
        return { url, thumbnailUrl: thumbnailUrlOf(url), takenAt: image.taken_at };
      }),
    payments,
    appeal: appeal ? appealFactsOf(appeal) : null,
    namedDriverNotice: namedDriver ? { postedOn: namedDriver.notice.postedOn, givenOn: namedDriver.notice.givenOn } : null,
    collectionStage: row.collection_stage,
    debtRecoveryFeePence: row.debt_recovery_fee_pence,
  };
}

/**
 * What a notice to keeper posted on `postOn` states as paid and unpaid: the amount as at 23:59 on
 * the day before (Schedule 4, paragraphs 8(2)(d) and 9(2)(d)), from the one computation.
 */
export async function amountBeforePosting(db: Db, row: PcnRow, postOn: CalendarDate): Promise<AmountDue> {
  return amountDueOf(await chargeFactsOf(db, row, () => ''), endOfUkDay(addDays(postOn, -1)));
}

export function appealFactsOf(appeal: AppealRow): AppealFacts {
  return {
    reference: appeal.reference,
    receivedAt: appeal.received_at,
    status: appeal.status,
    isLate: appeal.is_late,
    consideredAt: appeal.considered_at,
    decidedAt: appeal.decided_at,
    withdrawnAt: appeal.withdrawn_at,
    reasons: appeal.decision_reasons,
    reducedChargePence: appeal.reduced_charge_pence,
    verificationCode: appeal.verification_code,
    reducedHeldUntil: appeal.reduced_held_until,
    reducedPayableUntil: appeal.reduced_payable_until,
    appealsServiceUntil: appeal.appeals_service_until,
  };
}
