import { appealHoldsFrom, type AppealStatus } from './appeals.ts';
import { debtRecoveryFeeDue, type CollectionStage } from './collection.ts';
import { addDays, ukDate, type CalendarDate } from './keeper-liability.ts';
import type { ChargeState } from './public-charge.ts';

/**
 * THE computation of what a charge asks for at a moment: the one source of the amounts on the
 * notices to keeper, the motorist's page (/charge), the appeal decision letter and the evidence
 * pack, so no two of them can disagree.
 *
 * - The charge is the car park's, or the amount an appeal was accepted at (it replaces the charge,
 *   with no further discount).
 * - The reduced amount runs for its days from the first notice the motorist was given (the notice
 *   to driver, else the notice to keeper's presumed day); before either it applies with no end
 *   set. An appeal made within it and rejected keeps it until the day the decision set (the
 *   Single Code: 14 days after the rejection).
 * - While an appeal holds the charge, prices are read on the day the hold began (decision 0023).
 *   Payments are counted as at the moment asked, hold or not: money received is never ignored.
 * - Payments count by the day they were made, so a letter's "as at 23:59 on the day before" leaves
 *   out a payment made on the posting day (Schedule 4, paragraphs 8(2)(d) and 9(2)(d)).
 * - A debt recovery charge is added only once the charge is with a debt recovery agency, and only
 *   the one a posted letter before claim warned of (debtRecoveryFeeDue, decision 0039).
 */
export type AmountDueFacts = {
  state: ChargeState;
  /** The charge and discount in the car park's terms recorded when the notice was issued (null: none recorded). */
  chargePence: number | null;
  reducedChargePence: number | null;
  reducedWithinDays: number | null;
  /** The day the first notice the motorist was given was given, or null before any. */
  firstNoticeOn: CalendarDate | null;
  payments: ReadonlyArray<{ amountPence: number; paidOn: CalendarDate }>;
  appeal: AmountAppeal | null;
  /** Where the chase after the notice to keeper stands, and the debt recovery charge a letter before claim warned of. */
  collectionStage?: CollectionStage | null;
  debtRecoveryFeePence?: number | null;
};

export type AmountAppeal = {
  status: AppealStatus;
  isLate: boolean;
  receivedAt: string;
  consideredAt: string | null;
  /** ACCEPTED_REDUCED: the amount that replaces the charge. */
  reducedChargePence: number | null;
  /** REJECTED or WITHDRAWN within the discount period: the reduced rate stands until this day. */
  reducedHeldUntil: CalendarDate | null;
  /**
   * ACCEPTED_REDUCED: the last day the reduced amount may be paid (the Appeals Charter's "£20 for
   * 14 days"); after it the reduction lapses and the car park's charge is due. Null or absent for a
   * decision made before this was kept: it stands.
   */
  reducedPayableUntil?: CalendarDate | null;
};

export type AmountDue = {
  /** The UK day payments are counted to. */
  asOn: CalendarDate;
  /** The charge: the car park's, or the amount an appeal was accepted at; null when no terms were recorded. */
  chargePence: number | null;
  /** True when an appeal accepted at a reduced amount set chargePence. */
  reducedByAppeal: boolean;
  /** The prompt-payment amount and its last day (null: no end set yet), while it applies. */
  reduced: { amountPence: number; until: CalendarDate | null } | null;
  /** Payments made on or before asOn. */
  paidPence: number;
  /** The parking charge less what has been paid: "the amount that remains unpaid" a notice to keeper states. */
  unpaidPence: number;
  /** What settles the charge now (the reduced amount while it applies), less what has been paid; 0 unless it is owed. */
  amountDuePence: number;
  /** The debt recovery charge included in amountDuePence (0 unless the charge is in debt recovery after a letter warned of it). */
  debtRecoveryFeePence: number;
  /** An appeal holds the charge: its prices read as on holdsFrom. */
  onHold: boolean;
  holdsFrom: string | null;
};

export function amountDue(facts: AmountDueFacts, asAt: Date | string): AmountDue {
  const asOn = ukDate(asAt);
  const { appeal } = facts;
  const outstanding = facts.state === 'OUTSTANDING';
  const holdsFrom = outstanding && appeal ? appealHoldsFrom(appeal) : null;
  const pricedOn = holdsFrom !== null ? ukDate(holdsFrom) : asOn;
  const acceptedReduced = appeal?.status === 'ACCEPTED_REDUCED';
  const paidBy = (day: CalendarDate) =>
    facts.payments.filter((payment) => payment.paidOn <= day).reduce((sum, payment) => sum + payment.amountPence, 0);
  // The reduction lapses only if it was not paid in full by its last day (a payment recorded later
  // but dated within it counts).
  const payableUntil = acceptedReduced ? (appeal.reducedPayableUntil ?? null) : null;
  const lapsed = payableUntil !== null && asOn > payableUntil && paidBy(payableUntil) < (appeal?.reducedChargePence ?? 0);
  const settledPence = acceptedReduced && !lapsed ? appeal.reducedChargePence : null;
  const chargePence = settledPence ?? facts.chargePence;

  let reduced: AmountDue['reduced'] = null;
  if (outstanding && !acceptedReduced && facts.reducedChargePence !== null && facts.reducedWithinDays !== null) {
    const discountUntil = facts.firstNoticeOn ? addDays(facts.firstNoticeOn, facts.reducedWithinDays) : null;
    const heldUntil = appeal?.status === 'REJECTED' || appeal?.status === 'WITHDRAWN' ? appeal.reducedHeldUntil : null;
    const until = discountUntil !== null && heldUntil !== null && heldUntil > discountUntil ? heldUntil : discountUntil;
    if (until === null || pricedOn <= until) reduced = { amountPence: facts.reducedChargePence, until };
  }

  const paidPence = paidBy(asOn);
  const feePence = outstanding
    ? debtRecoveryFeeDue({ collectionStage: facts.collectionStage ?? null, debtRecoveryFeePence: facts.debtRecoveryFeePence ?? null })
    : 0;
  return {
    asOn,
    chargePence,
    reducedByAppeal: settledPence !== null,
    reduced,
    paidPence,
    unpaidPence: outstanding ? Math.max(0, (chargePence ?? 0) - paidPence) : 0,
    amountDuePence: outstanding ? Math.max(0, (reduced?.amountPence ?? chargePence ?? 0) + feePence - paidPence) : 0,
    debtRecoveryFeePence: feePence,
    onHold: holdsFrom !== null,
    holdsFrom,
  };
}
