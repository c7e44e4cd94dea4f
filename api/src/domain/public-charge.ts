import {
  addDays,
  appealHoldsFrom,
  appealPeriodEnd,
  type AppealStatus,
  type PublicAppeal,
  APPEALS_SERVICE_NAMES,
  ukDate,
  type ChargeState,
  type NoticeTerms,
  type PcnStatus,
  type PublicCharge,
} from '@parkpatrol/shared';

/** Whether the motorist may see a charge's photos: while it is owed or paid, not once cancelled or rejected. */
export function isPublicChargeStatus(status: PcnStatus): boolean {
  return chargeStateOf(status) !== 'CANCELLED';
}

export function chargeStateOf(status: PcnStatus): ChargeState {
  if (status === 'PAID') return 'PAID';
  if (status === 'CANCELLED' || status === 'REJECTED') return 'CANCELLED';
  return 'OUTSTANDING';
}

export type ChargeFacts = {
  reference: string;
  /** The ticket's draft reference, when a notice to driver was given under one. */
  draftReference: string | null;
  status: PcnStatus;
  vehicleRegistration: string;
  carPark: { name: string; address: string; postcode: string };
  observedAt: string | null;
  parkedUntil: string;
  contravention: string;
  /** When the notice to driver was given, if one was. */
  noticeToDriverAt: string | null;
  /** The day the notice to keeper is presumed given, once posted. */
  keeperNoticeGivenOn: string | null;
  terms: NoticeTerms;
  photos: PublicCharge['photos'];
  /** What has been paid so far. */
  paidPence: number;
  /** The motorist's appeal and its decision, if there is one. */
  appeal: AppealFacts | null;
};

export type AppealFacts = {
  reference: string;
  receivedAt: string;
  status: AppealStatus;
  isLate: boolean;
  consideredAt: string | null;
  decidedAt: string | null;
  reasons: string | null;
  reducedChargePence: number | null;
  verificationCode: string | null;
  reducedHeldUntil: string | null;
  appealsServiceUntil: string | null;
};

export function toPublicAppeal(appeal: AppealFacts): PublicAppeal {
  const decided = appeal.status !== 'OPEN';
  return {
    reference: appeal.reference,
    receivedAt: appeal.receivedAt,
    status: appeal.status,
    isLate: appeal.isLate,
    consideredAt: appeal.consideredAt,
    decidedAt: decided ? appeal.decidedAt : null,
    reasons: decided ? appeal.reasons : null,
    reducedChargePence: appeal.status === 'ACCEPTED_REDUCED' ? appeal.reducedChargePence : null,
    verificationCode: appeal.status === 'REJECTED' ? appeal.verificationCode : null,
    appealsServiceUntil: appeal.status === 'REJECTED' ? appeal.appealsServiceUntil : null,
  };
}

/**
 * The charge as the motorist sees it today. The reduced amount runs for its days from the first
 * notice the motorist was given: the notice to driver, or without one the notice to keeper;
 * before either, it applies with no end set yet. The appeal period runs from each notice given
 * (appealPeriodEnd).
 */
export function toPublicCharge(facts: ChargeFacts, asked: Date): PublicCharge {
  const state = chargeStateOf(facts.status);
  const carParkTerms = facts.terms.carPark;
  const operator = facts.terms.operator;
  const appeal = facts.appeal;
  // On hold while an appeal is open: amounts and deadlines as they stood the day it came (a late
  // appeal holds nothing until the operator agrees to consider it, then from that day).
  const holdsFrom = state === 'OUTSTANDING' && appeal ? appealHoldsFrom(appeal) : null;
  const onHold = holdsFrom !== null;
  const now = holdsFrom !== null ? new Date(holdsFrom) : asked;
  // An appeal accepted at a reduced amount replaces the charge, with no further discount.
  const settledPence = appeal?.status === 'ACCEPTED_REDUCED' ? appeal.reducedChargePence : null;
  const chargePence = settledPence ?? carParkTerms?.chargePence ?? null;
  // The first notice the motorist was given starts the discount; each notice its own appeal period.
  const noticeToDriverOn = facts.noticeToDriverAt ? ukDate(facts.noticeToDriverAt) : null;
  const firstNoticeOn = noticeToDriverOn ?? facts.keeperNoticeGivenOn;
  let reduced: PublicCharge['reduced'] = null;
  if (
    state === 'OUTSTANDING' &&
    settledPence === null &&
    carParkTerms?.reducedChargePence != null &&
    carParkTerms.reducedWithinDays != null
  ) {
    const discountUntil = firstNoticeOn ? addDays(firstNoticeOn, carParkTerms.reducedWithinDays) : null;
    // An appeal made within the discount period and rejected keeps the reduced rate 14 days more.
    const heldUntil = appeal?.status === 'REJECTED' ? appeal.reducedHeldUntil : null;
    const until = discountUntil !== null && heldUntil !== null && heldUntil > discountUntil ? heldUntil : discountUntil;
    if (until === null || ukDate(now) <= until) reduced = { amountPence: carParkTerms.reducedChargePence, until };
  }
  return {
    reference: facts.reference,
    draftReference: facts.draftReference,
    vehicleRegistration: facts.vehicleRegistration,
    carPark: facts.carPark,
    parkedFrom: facts.observedAt,
    parkedUntil: facts.parkedUntil,
    contravention: facts.contravention,
    photos: state === 'CANCELLED' ? [] : facts.photos,
    state,
    chargePence,
    amountDuePence: state === 'OUTSTANDING' ? Math.max(0, (reduced?.amountPence ?? chargePence ?? 0) - facts.paidPence) : 0,
    paidPence: facts.paidPence,
    reduced,
    appealUntil: state === 'OUTSTANDING' ? appealPeriodEnd({ noticeToDriverOn, keeperNoticeGivenOn: facts.keeperNoticeGivenOn }) : null,
    signageTerms: carParkTerms?.signageTerms ?? '',
    creditor: operator
      ? {
          name: operator.creditorName,
          address: operator.creditorAddress,
          phone: operator.creditorPhone,
          email: operator.creditorEmail,
          website: operator.creditorWebsite,
          howToPay: operator.howToPay,
        }
      : null,
    appealsService: operator
      ? { service: operator.appealsService, name: APPEALS_SERVICE_NAMES[operator.appealsService], contact: operator.appealsServiceContact }
      : null,
    appeal: appeal ? toPublicAppeal(appeal) : null,
    onHold,
  };
}
