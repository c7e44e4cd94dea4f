import { timingSafeEqual } from 'node:crypto';
import {
  addDays,
  endOfUkDay,
  CHARGE_LOOKUP_LIMITED,
  CHARGE_NOT_FOUND,
  normaliseChargeReference,
  normaliseDraftReference,
  normaliseRegistration,
  OFFENCE_TYPE_LABELS,
  pcnTitle,
  type AmountDue,
  type AppealStatus,
  type CalendarDate,
  type ChargeLookupResponse,
  type OffenceType,
  type PcnStatus,
  type PublicCharge,
} from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { signChargeToken } from '../auth/charge-token.ts';
import type { RateLimiter, RateLimitRule } from '../auth/rate-limit.ts';
import { amountDueOf, toPublicCharge, type AppealFacts, type ChargeFacts } from '../domain/public-charge.ts';
import { findNamedDriver } from '../repositories/letter-parties.ts';
import { findAppealByPcnId, type AppealRow } from '../repositories/appeals.ts';
import { AppError } from '../http/app-error.ts';
import { findPcnImages, findPcnRowById, periodStartOf, type PcnRow } from '../repositories/pcns.ts';
import { findPaymentDays } from '../repositories/payments.ts';
import type { Db } from '../db/database.ts';
import { findNoticeTerms } from '../repositories/terms.ts';
import { createChargePhotoUrl, thumbnailUrlOf } from '../services/upload-urls.ts';
import { tooManyAttempts } from './auth-limits.ts';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;
const ONE_HOUR_MS = 60 * 60 * 1000;
/** Every lookup from one address, right or wrong: a family checking three tickets is fine, a script is not. */
export const CHARGE_LOOKUPS_PER_ADDRESS: RateLimitRule = { scope: 'charge-lookups-per-address', limit: 30, windowMs: FIFTEEN_MINUTES_MS };
/**
 * Wrong registrations against one reference, from anywhere: a reference cannot be walked by many
 * addresses. A PCN number and a draft reference ('D-1A2B3C4D') are each a reference of their own.
 */
export const CHARGE_LOOKUP_FAILURES_PER_REFERENCE: RateLimitRule = {
  scope: 'charge-lookup-failures-per-reference',
  limit: 10,
  windowMs: ONE_HOUR_MS,
};

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
  deps: Pick<AppDeps, 'db' | 'config' | 'now'>,
  limits: RateLimiter,
  input: { reference: string; registration: string; address: string },
): Promise<ChargeLookupResponse> {
  const number = normaliseChargeReference(input.reference);
  const draft = number === null ? normaliseDraftReference(input.reference) : null;
  const referenceKey = number ?? draft ?? input.reference.replace(/\s+/g, '').toUpperCase().slice(0, 20);
  const byAddress = await limits.take([{ rule: CHARGE_LOOKUPS_PER_ADDRESS, key: input.address }]);
  if (byAddress.isLimited) throw tooManyAttempts(byAddress, CHARGE_LOOKUP_LIMITED);
  const byReference = await limits.check(CHARGE_LOOKUP_FAILURES_PER_REFERENCE, referenceKey);
  if (byReference.isLimited) throw tooManyAttempts(byReference, CHARGE_LOOKUP_LIMITED);

  const candidates = await findChargesByReference(deps.db, { number, draft });
  const registration = normaliseRegistration(input.registration);
  // Every candidate is compared, and at least one comparison is made, so the time says nothing
  // of how many notices the reference names or which matched; two notices sharing a draft
  // reference are told apart by their registration.
  const compared: Array<{ id: string | null; vehicle_registration: string }> = candidates.length > 0 ? candidates : [NO_CHARGE];
  const found = compared.filter((candidate) => sameRegistration(registration, candidate.vehicle_registration))[0]?.id ?? null;
  if (found === null) {
    await limits.hit(CHARGE_LOOKUP_FAILURES_PER_REFERENCE, referenceKey);
    throw notFound();
  }
  const now = deps.now();
  const charge = await readPublicCharge(deps, found, now);
  if (!charge) throw notFound();
  return { charge, accessToken: signChargeToken(deps.config.jwtSecret, found, now).token };
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
export async function readPublicCharge(deps: Pick<AppDeps, 'db' | 'config'>, pcnId: string, now: Date): Promise<PublicCharge | null> {
  const row = await findPcnRowById(deps.db, pcnId);
  if (!row) return null;
  const facts = await chargeFactsOf(deps.db, row, (fileName) => createChargePhotoUrl(deps.config.jwtSecret, fileName, now, row.id));
  return toPublicCharge(facts, now);
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
    status: row.status as PcnStatus,
    vehicleRegistration: row.vehicle_registration,
    carPark: { name: carPark?.name ?? '', address: carPark?.address ?? '', postcode: carPark?.postcode ?? '' },
    parkedFrom: periodStartOf(row),
    parkedUntil: row.notice_served_at ?? row.issued_at ?? row.created_at,
    contravention: OFFENCE_TYPE_LABELS[row.offence_type as OffenceType] ?? row.offence_type,
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
    status: appeal.status as AppealStatus,
    isLate: appeal.is_late === 1,
    consideredAt: appeal.considered_at,
    decidedAt: appeal.decided_at,
    reasons: appeal.decision_reasons,
    reducedChargePence: appeal.reduced_charge_pence,
    verificationCode: appeal.verification_code,
    reducedHeldUntil: appeal.reduced_held_until,
    reducedPayableUntil: appeal.reduced_payable_until,
    appealsServiceUntil: appeal.appeals_service_until,
  };
}
