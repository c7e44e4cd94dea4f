import {
  addDays,
  amountDue,
  appealPeriodEnd,
  type AmountDue,
  type AppealStatus,
  type PublicAppeal,
  APPEALS_SERVICE_NAMES,
  ukDate,
  type ChargeState,
  type CollectionStage,
  type NoticeTerms,
  type PcnStatus,
  type PublicCharge,
  REDUCED_RATE_HELD_DAYS,
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
  /** The notice to the named driver, when the driver was named (decision 0027). */
  namedDriverNotice?: PublicCharge['namedDriverNotice'];
  /** The ticket's draft reference, when a notice to driver was given under one. */
  draftReference: string | null;
  status: PcnStatus;
  vehicleRegistration: string;
  carPark: { name: string; address: string; postcode: string };
  /** The start of the period of parking (first seen). */
  parkedFrom: string;
  parkedUntil: string;
  contravention: string;
  /** When the notice to driver was given, if one was. */
  noticeToDriverAt: string | null;
  /** The day the notice to keeper is presumed given, once posted. */
  keeperNoticeGivenOn: string | null;
  terms: NoticeTerms;
  photos: PublicCharge['photos'];
  /** The payments recorded, each on the day it was made. */
  payments: ReadonlyArray<{ amountPence: number; paidOn: string }>;
  /** The motorist's appeal and its decision, if there is one. */
  appeal: AppealFacts | null;
  /** Where the chase after the notice to keeper stands, and the debt recovery charge a posted letter before claim warned of. */
  collectionStage?: CollectionStage | null;
  debtRecoveryFeePence?: number | null;
};

export type AppealFacts = {
  reference: string;
  receivedAt: string;
  status: AppealStatus;
  isLate: boolean;
  consideredAt: string | null;
  decidedAt: string | null;
  /** WITHDRAWN: when the motorist withdrew it. */
  withdrawnAt: string | null;
  reasons: string | null;
  reducedChargePence: number | null;
  verificationCode: string | null;
  reducedHeldUntil: string | null;
  /** ACCEPTED_REDUCED: the reduced amount may be paid until this day; null for decisions made before it was kept. */
  reducedPayableUntil: string | null;
  appealsServiceUntil: string | null;
};

function keepsIndependentRoute(status: AppealStatus): boolean {
  return status === 'REJECTED' || status === 'ACCEPTED_REDUCED';
}

export function toPublicAppeal(appeal: AppealFacts): PublicAppeal {
  const decided = appeal.status !== 'OPEN' && appeal.status !== 'WITHDRAWN';
  return {
    reference: appeal.reference,
    receivedAt: appeal.receivedAt,
    status: appeal.status,
    isLate: appeal.isLate,
    consideredAt: appeal.consideredAt,
    decidedAt: decided ? appeal.decidedAt : null,
    withdrawnAt: appeal.status === 'WITHDRAWN' ? appeal.withdrawnAt : null,
    reasons: decided ? appeal.reasons : null,
    reducedChargePence: appeal.status === 'ACCEPTED_REDUCED' ? appeal.reducedChargePence : null,
    reducedPayableUntil: appeal.status === 'ACCEPTED_REDUCED' ? appeal.reducedPayableUntil : null,
    // An acceptance at a reduced amount keeps the way to the independent service, as a rejection does.
    verificationCode: keepsIndependentRoute(appeal.status) ? appeal.verificationCode : null,
    appealsServiceUntil: keepsIndependentRoute(appeal.status) ? appeal.appealsServiceUntil : null,
  };
}

/**
 * What the charge asks for at a moment (amountDue in shared/src/amount-due.ts, the one computation
 * every document uses): the first notice the motorist was given starts the discount, payments come
 * off, an appeal accepted at a reduced amount replaces the charge, an open appeal holds it.
 */
export function amountDueOf(facts: ChargeFacts, asAt: Date | string): AmountDue {
  const noticeToDriverOn = facts.noticeToDriverAt ? ukDate(facts.noticeToDriverAt) : null;
  const carParkTerms = facts.terms.carPark;
  return amountDue(
    {
      state: chargeStateOf(facts.status),
      chargePence: carParkTerms?.chargePence ?? null,
      reducedChargePence: carParkTerms?.reducedChargePence ?? null,
      reducedWithinDays: carParkTerms?.reducedWithinDays ?? null,
      firstNoticeOn: noticeToDriverOn ?? facts.keeperNoticeGivenOn,
      payments: facts.payments,
      appeal: facts.appeal,
      collectionStage: facts.collectionStage ?? null,
      debtRecoveryFeePence: facts.debtRecoveryFeePence ?? null,
    },
    asAt,
  );
}

/**
 * The appeal as withdrawing it at `at` leaves it (decision 0044): it holds nothing from then, and
 * the charge reads as it would have without the hold. As after a rejection (the Single Code's rule
 * our appeals follow, decision 0019), a motorist whose appeal held the charge while the reduced
 * amount still applied keeps that amount for REDUCED_RATE_HELD_DAYS from the withdrawal, and never
 * for less than the discount's own days. Null when there is no open appeal to withdraw.
 */
export function withdrawnAppealOf(facts: ChargeFacts, at: Date): AppealFacts | null {
  const appeal = facts.appeal;
  if (!appeal || appeal.status !== 'OPEN') return null;
  // On hold, the charge reads as on the day the hold began: was the discount still running then?
  const held = amountDueOf(facts, at);
  const keepsReduced = held.onHold && held.reduced !== null;
  return {
    ...appeal,
    status: 'WITHDRAWN',
    withdrawnAt: at.toISOString(),
    reducedHeldUntil: keepsReduced ? addDays(ukDate(at), REDUCED_RATE_HELD_DAYS) : null,
  };
}

/**
 * The charge as the motorist sees it today: its amounts from amountDueOf, and the appeal period
 * from each notice given (appealPeriodEnd).
 */
export function toPublicCharge(facts: ChargeFacts, asked: Date): PublicCharge {
  const state = chargeStateOf(facts.status);
  const carParkTerms = facts.terms.carPark;
  const operator = facts.terms.operator;
  const appeal = facts.appeal;
  const due = amountDueOf(facts, asked);
  const withdrawn = state === 'OUTSTANDING' ? withdrawnAppealOf(facts, asked) : null;
  const ifWithdrawn = withdrawn ? amountDueOf({ ...facts, appeal: withdrawn }, asked) : null;
  const noticeToDriverOn = facts.noticeToDriverAt ? ukDate(facts.noticeToDriverAt) : null;
  return {
    reference: facts.reference,
    draftReference: facts.draftReference,
    vehicleRegistration: facts.vehicleRegistration,
    carPark: facts.carPark,
    parkedFrom: facts.parkedFrom,
    parkedUntil: facts.parkedUntil,
    contravention: facts.contravention,
    photos: state === 'CANCELLED' ? [] : facts.photos,
    state,
    chargePence: due.chargePence,
    amountDuePence: due.amountDuePence,
    paidPence: due.paidPence,
    reduced: due.reduced,
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
    onHold: due.onHold,
    ifAppealWithdrawn: ifWithdrawn ? { amountDuePence: ifWithdrawn.amountDuePence, reduced: ifWithdrawn.reduced } : null,
    namedDriverNotice: facts.namedDriverNotice ?? null,
    collectionStage: facts.collectionStage ?? null,
    // readPublicCharge fills it in: it needs the card processor (workflows/card-payments.ts).
    card: null,
  };
}
