import { addDays, deemedGivenOn, formatCalendarDate, type CalendarDate, type WorkingDays } from './keeper-liability.ts';
import { formatPence } from './operator-terms.ts';
import { onFirstUse } from './on-first-use.ts';
import { englandAndWalesWorkingDays } from './working-days.ts';

/**
 * Where an unpaid charge stands after the notice to keeper: the notice itself, then a reminder,
 * then a letter before claim under the Pre-Action Protocol for Debt Claims, then a hand-over to
 * a debt recovery agency. A charge enters the first stage when its notice to keeper is posted;
 * each later stage is reached by posting its letter (or, for the last, by the agency batch).
 */
export const COLLECTION_STAGES = ['NOTICE_TO_KEEPER', 'REMINDER', 'LETTER_BEFORE_CLAIM', 'DEBT_RECOVERY'] as const;
export type CollectionStage = (typeof COLLECTION_STAGES)[number];

export const COLLECTION_STAGE_LABELS: Record<CollectionStage, string> = {
  NOTICE_TO_KEEPER: 'Notice to keeper',
  REMINDER: 'Reminder',
  LETTER_BEFORE_CLAIM: 'Letter before claim',
  DEBT_RECOVERY: 'Debt recovery',
};

/** What a debt recovery agency said of a charge it was handed, as its CSV of outcomes says it. */
export const DEBT_RECOVERY_OUTCOMES = ['PAID', 'PART_PAID', 'CLOSED', 'RETURNED'] as const;
export type DebtRecoveryOutcome = (typeof DEBT_RECOVERY_OUTCOMES)[number];

/** How a refund was made: through the card processor, or by the operator's own means and recorded by hand. */
export const REFUND_METHODS = ['CARD', 'BY_HAND'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

/** Where a card refund stands at the card processor; one recorded by hand is SUCCEEDED when recorded. */
export const REFUND_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * The debtor's time to answer a letter before claim: the Pre-Action Protocol for Debt Claims
 * gives 30 days to reply (its paragraph 4, the reply to the letter). Counted as the notice to
 * keeper's periods are, from the day the letter is presumed given (the second working day after
 * posting, Schedule 4 paragraph 9(6) read across), the 30 days beginning with the day after: the
 * debtor has the whole of the 30th day, so the charge is past the letter only from the day after.
 */
export const LETTER_BEFORE_CLAIM_REPLY_DAYS = 30;

/**
 * Built on first use: date-holidays parses its rules on construction, and they never change.
 * Marked pure so a bundle that never asks for it (the web app) drops date-holidays with it.
 */
const englandAndWalesCalendar = /* @__PURE__ */ onFirstUse(englandAndWalesWorkingDays);

/** The last day the debtor may answer a letter before claim posted on `postedOn`. */
export function letterBeforeClaimReplyEndsOn(postedOn: CalendarDate, calendar: WorkingDays = englandAndWalesCalendar()): CalendarDate {
  return addDays(deemedGivenOn(postedOn, calendar), LETTER_BEFORE_CLAIM_REPLY_DAYS);
}

/**
 * Whether a charge whose letter before claim was posted on `letterBeforeClaimPostedOn` is past
 * it on `today`: the 30 days to reply have ended, so it may be handed to a debt recovery agency.
 */
export function pastLetterBeforeClaim(
  letterBeforeClaimPostedOn: CalendarDate,
  today: CalendarDate,
  calendar: WorkingDays = englandAndWalesCalendar(),
): boolean {
  return today > letterBeforeClaimReplyEndsOn(letterBeforeClaimPostedOn, calendar);
}

/** The two letters of the chase, each a sent document kind of the same name. */
export const COLLECTION_LETTER_KINDS = ['REMINDER', 'LETTER_BEFORE_CLAIM'] as const;
export type CollectionLetterKind = (typeof COLLECTION_LETTER_KINDS)[number];

export const COLLECTION_LETTER_LABELS: Record<CollectionLetterKind, string> = {
  REMINDER: 'Reminder',
  LETTER_BEFORE_CLAIM: 'Letter before claim',
};

/** The stage a charge must stand at for a letter, and the stage posting it moves the charge to. */
export const COLLECTION_LETTER_STAGES: Record<CollectionLetterKind, { from: CollectionStage; to: CollectionStage }> = {
  REMINDER: { from: 'NOTICE_TO_KEEPER', to: 'REMINDER' },
  LETTER_BEFORE_CLAIM: { from: 'REMINDER', to: 'LETTER_BEFORE_CLAIM' },
};

/**
 * The reminder is due from `reminderAfterDays` (the operator's setting, 28 unless changed) after
 * the day the notice to keeper was presumed given: by then the keeper has had the notice's own 28
 * days to pay or name the driver (Schedule 4, paragraphs 8(2)(f) and 9(2)(f)).
 */
export function reminderDueFrom(keeperNoticeGivenOn: CalendarDate, reminderAfterDays: number): CalendarDate {
  return addDays(keeperNoticeGivenOn, reminderAfterDays);
}

/**
 * The letter before claim is due from `letterBeforeClaimAfterDays` after the reminder was
 * presumed given (the second working day after it was posted, as for the notice to keeper): the
 * reminder tells the keeper this day, so the letter never comes before the time it gave.
 */
export function letterBeforeClaimDueFrom(
  reminderPostedOn: CalendarDate,
  letterBeforeClaimAfterDays: number,
  calendar: WorkingDays = englandAndWalesCalendar(),
): CalendarDate {
  return addDays(deemedGivenOn(reminderPostedOn, calendar), letterBeforeClaimAfterDays);
}

/** What makes a charge one to chase: issued, not held by an open appeal, and something still owed. */
export type ChaseFacts = {
  status: string;
  /** An open appeal holds the charge (decision 0023): nothing is chased while it is considered. */
  onHold: boolean;
  amountDuePence: number;
};

/** Why a charge is not one to chase, or null when it is unpaid and may be chased. */
export function chaseProblem(facts: ChaseFacts): 'NOT_ISSUED' | 'ON_HOLD' | 'NOTHING_DUE' | null {
  if (facts.status !== 'ISSUED') return 'NOT_ISSUED';
  if (facts.onHold) return 'ON_HOLD';
  if (facts.amountDuePence <= 0) return 'NOTHING_DUE';
  return null;
}

export function isChargeUnpaid(facts: ChaseFacts): boolean {
  return chaseProblem(facts) === null;
}

/**
 * The debt recovery charge a letter warns of: the operator's, never above the sector's cap
 * (SECTOR_LIMITS.maxDebtRecoveryFeePence; a cap of 0 bans it), and 0 when none is set. The cap is
 * passed in so this file needs nothing but dates.
 */
export function warnedDebtRecoveryFeePence(operatorFeePence: number, capPence: number): number {
  return Math.max(0, Math.min(operatorFeePence, capPence));
}

/**
 * The debt recovery charge a charge's amount due carries: only what a posted letter before claim
 * warned of (recorded on the charge then), and only once the charge is with a debt recovery
 * agency. Never where no letter warned of it.
 */
export function debtRecoveryFeeDue(facts: { collectionStage: CollectionStage | null; debtRecoveryFeePence: number | null }): number {
  return facts.collectionStage === 'DEBT_RECOVERY' ? Math.max(0, facts.debtRecoveryFeePence ?? 0) : 0;
}

/** One charge in a collection letters queue (GET /collection-letters). */
export type CollectionLetterQueueItem = {
  pcnId: string;
  pcnNumber: string;
  vehicleRegistration: string;
  carParkName: string | null;
  collectionStage: CollectionStage;
  keeperNoticeGivenOn: CalendarDate | null;
  reminderPostedOn: CalendarDate | null;
  /** The first day its letter may be posted. */
  dueFrom: CalendarDate;
  /** What is owed today. */
  amountDuePence: number;
};
export type CollectionLetterQueue = { kind: CollectionLetterKind; items: CollectionLetterQueueItem[] };

/** What marking a letter posted did to one charge (POST /collection-letters/posted). */
export type CollectionLetterPosting = {
  pcnId: string;
  pcnNumber: string;
  outcome: 'POSTED' | 'ALREADY_POSTED';
  postedOn: CalendarDate;
  givenOn: CalendarDate;
  collectionStage: CollectionStage;
};
export type CollectionLettersPostedResponse = { results: CollectionLetterPosting[] };

/** Admins: where the chase after the notice to keeper stands for a charge (on the review and the list). */
export type PcnCollection = {
  stage: CollectionStage;
  reminderPostedOn: CalendarDate | null;
  letterBeforeClaimPostedOn: CalendarDate | null;
  /** The debt recovery charge a posted letter before claim warned of; null where none did. */
  debtRecoveryFeePence: number | null;
};

/** What the motorist's page (/charge) says of where the chase stands. */
export const COLLECTION_STAGE_PUBLIC_TEXTS: Record<CollectionStage, string> = {
  NOTICE_TO_KEEPER: 'A notice to keeper has been sent to the registered keeper.',
  REMINDER: 'A notice to keeper and a reminder have been sent.',
  LETTER_BEFORE_CLAIM:
    'A letter before claim has been sent. Pay, or reply with the form enclosed with it, within the 30 days it gives, or a court claim may follow.',
  DEBT_RECOVERY: 'This charge has been passed to a debt recovery agency. You can still pay it here.',
};

/** What the review says of the chase: 'Reminder: reminder posted on 6 Mar 2026', with the letter before claim and its warned charge. */
export function describeCollection(collection: PcnCollection): string {
  const steps = [
    collection.reminderPostedOn ? `reminder posted on ${formatCalendarDate(collection.reminderPostedOn)}` : null,
    collection.letterBeforeClaimPostedOn
      ? `letter before claim posted on ${formatCalendarDate(collection.letterBeforeClaimPostedOn)}`
      : null,
    collection.debtRecoveryFeePence
      ? `it warned of a debt recovery charge of ${formatPence(collection.debtRecoveryFeePence)}${
          collection.stage === 'DEBT_RECOVERY' ? ', now owed' : ', owed only if it goes to debt recovery'
        }`
      : null,
  ].filter((step): step is string => step !== null);
  return steps.length > 0 ? `${COLLECTION_STAGE_LABELS[collection.stage]}: ${steps.join('; ')}` : COLLECTION_STAGE_LABELS[collection.stage];
}
