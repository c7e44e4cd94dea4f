import type { PcnStatus } from './pcn-status.ts';
import { addDays, type CalendarDate } from './keeper-liability.ts';
import { formatPence, type AppealsService } from './operator-terms.ts';

/**
 * Appeals against a charge: one per charge, made on the motorist's page, decided by an admin with
 * reasons (the BPA/IPC Single Code of Practice; decisions 0019 and 0023). An appeal after the
 * appeal period is still taken, marked late: it holds nothing until an admin considers it, or is
 * declined as out of time with a letter that says so.
 */
export const APPEAL_REASONS = ['VALID_PERMIT', 'BLUE_BADGE', 'KEYING_ERROR', 'SIGNS_UNCLEAR', 'MITIGATING', 'STOLEN', 'OTHER'] as const;
export type AppealReason = (typeof APPEAL_REASONS)[number];

export const APPEAL_REASON_LABELS: Record<AppealReason, string> = {
  VALID_PERMIT: 'I had a valid ticket or permit',
  BLUE_BADGE: 'I had a Blue Badge on display',
  KEYING_ERROR: 'I paid but keyed in the registration wrongly',
  SIGNS_UNCLEAR: 'The signs were not clear',
  MITIGATING: 'Mitigating circumstances',
  STOLEN: 'The vehicle was stolen',
  OTHER: 'Something else',
};

/**
 * How the appeal reached the operator: on the motorist's page (ONLINE), or by email, post or
 * phone and entered by an admin (decision 0024). Every route is one appeal under the same rules.
 */
export const APPEAL_CHANNELS = ['ONLINE', 'EMAIL', 'POST', 'PHONE'] as const;
export type AppealChannel = (typeof APPEAL_CHANNELS)[number];
/** The channels an admin enters an appeal for. */
export const ENTERED_APPEAL_CHANNELS = ['EMAIL', 'POST', 'PHONE'] as const satisfies readonly AppealChannel[];
export type EnteredAppealChannel = (typeof ENTERED_APPEAL_CHANNELS)[number];

export const APPEAL_CHANNEL_LABELS: Record<AppealChannel, string> = {
  ONLINE: 'Online',
  EMAIL: 'Email',
  POST: 'Post',
  PHONE: 'Phone',
};

export const APPEAL_OUTCOMES = ['ACCEPTED', 'ACCEPTED_REDUCED', 'REJECTED', 'DECLINED_LATE'] as const;
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number];
/** OPEN until decided (an outcome), or WITHDRAWN by the motorist before then (decision 0044). */
export const APPEAL_STATUSES = ['OPEN', ...APPEAL_OUTCOMES, 'WITHDRAWN'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

export const APPEAL_STATUS_LABELS: Record<AppealStatus, string> = {
  OPEN: 'Open',
  ACCEPTED: 'Accepted',
  ACCEPTED_REDUCED: 'Accepted at a reduced amount',
  REJECTED: 'Rejected',
  DECLINED_LATE: 'Declined: made out of time',
  WITHDRAWN: 'Withdrawn',
};

/** Days a motorist has to appeal, from each notice they were given (the BPA/IPC Single Code). */
export const APPEAL_PERIOD_DAYS = 28;

/**
 * The last day to appeal in time: 28 days from the notice to driver and 28 days from the day the
 * notice to keeper is deemed given, whichever ends later. A keeper's notice always comes after
 * the driver's has run out (day 29 at the earliest), and it invites an appeal within 28 days of
 * itself: that invitation must hold. Without a notice to driver (paragraph 9 of Schedule 4), the
 * notice to keeper alone; before any notice, none (null).
 */
export function appealPeriodEnd(notices: {
  noticeToDriverOn: CalendarDate | null;
  keeperNoticeGivenOn: CalendarDate | null;
}): CalendarDate | null {
  const ends = [notices.noticeToDriverOn, notices.keeperNoticeGivenOn]
    .filter((day): day is CalendarDate => day !== null)
    .map((day) => addDays(day, APPEAL_PERIOD_DAYS));
  return ends.length === 0 ? null : ends.reduce((later, end) => (end > later ? end : later));
}

/** The motorist's words: long enough for a real account, short enough to read in one sitting. */
export const APPEAL_TEXT_MAX = 5000;
export const MAX_APPEAL_ATTACHMENTS = 6;
export const MAX_APPEAL_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** Days the operator has to answer, from receipt (the Single Code); the API's APPEAL_RESPONSE_DAYS changes it. */
export const DEFAULT_APPEAL_RESPONSE_DAYS = 28;
/** A motorist who appealed within the discount period keeps the reduced rate this long after a rejection. */
export const REDUCED_RATE_HELD_DAYS = 14;
/**
 * An appeal accepted at a reduced amount: that amount may be paid for this many days from the
 * decision; after them the reduction lapses and the full charge is due (the Single Code's Appeals
 * Charter: "£20 for a period of 14 days").
 */
export const REDUCED_PAYABLE_DAYS = 14;

/** The Appeals Charter's reduced settlement. */
export const CHARTER_REDUCED_PENCE = 2000;

/**
 * THE Appeals Charter of the BPA/IPC Private Parking Sector Single Code of Practice (its annex on
 * appeals), as one table: the cases where the operator cancels the charge, and those where it
 * reduces it to £20 payable within 14 days, the first time for that vehicle. The decision panel
 * offers the cases under the appeal's reason; following one records it as `charterOutcome`.
 */
export const CHARTER_CASES = [
  'MINOR_KEYING_ERROR',
  'MACHINE_NOT_WORKING',
  'MAJOR_KEYING_ERROR',
  'PERMIT_NOT_SHOWN',
  'BLUE_BADGE_NOT_SHOWN',
  'TAKEN_ILL',
  'BROKEN_DOWN',
] as const;
export type CharterCase = (typeof CHARTER_CASES)[number];

export type CharterRule = {
  /** What the admin checks, in the Charter's terms. */
  label: string;
  /** The proof the motorist gives for it. */
  proof: string;
  /** The appeal reasons it answers. */
  reasons: readonly AppealReason[];
  /** CANCEL: the charge is cancelled (ACCEPTED). REDUCE: £20 payable within 14 days (ACCEPTED_REDUCED). */
  outcome: 'CANCEL' | 'REDUCE';
  /** Only the first time for the vehicle: a second charge of that registration does not qualify. */
  firstTimeOnly: boolean;
};

export const APPEALS_CHARTER: Record<CharterCase, CharterRule> = {
  MINOR_KEYING_ERROR: {
    label: 'Paid, with a minor keying error in the registration (one character wrong, missing or out of order, such as O for 0)',
    proof: 'Proof of payment for the stay',
    reasons: ['KEYING_ERROR'],
    outcome: 'CANCEL',
    firstTimeOnly: false,
  },
  MACHINE_NOT_WORKING: {
    label: 'The payment machine or app was not working and no other way to pay was offered',
    proof: 'The operator’s own fault records, or the motorist’s evidence of the fault',
    reasons: ['MITIGATING', 'OTHER'],
    outcome: 'CANCEL',
    firstTimeOnly: false,
  },
  MAJOR_KEYING_ERROR: {
    label: 'Paid, with a major keying error (a wrong or missing letter, or another registration entirely)',
    proof: 'Proof of payment for the stay',
    reasons: ['KEYING_ERROR'],
    outcome: 'REDUCE',
    firstTimeOnly: true,
  },
  PERMIT_NOT_SHOWN: {
    label: 'A valid ticket or permit was held but not displayed',
    proof: 'A copy of the ticket or permit, valid at the time',
    reasons: ['VALID_PERMIT'],
    outcome: 'REDUCE',
    firstTimeOnly: true,
  },
  BLUE_BADGE_NOT_SHOWN: {
    label: 'A valid Blue Badge was held but not displayed',
    proof: 'A copy of both sides of the Blue Badge, valid at the time',
    reasons: ['BLUE_BADGE'],
    outcome: 'REDUCE',
    firstTimeOnly: true,
  },
  TAKEN_ILL: {
    label: 'The driver was taken ill, or delayed by a medical appointment or childcare',
    proof: 'Evidence of the illness, appointment or arrangement',
    reasons: ['MITIGATING'],
    outcome: 'REDUCE',
    firstTimeOnly: true,
  },
  BROKEN_DOWN: {
    label: 'The vehicle broke down',
    proof: 'Evidence of the breakdown, such as a recovery service’s record',
    reasons: ['MITIGATING'],
    outcome: 'REDUCE',
    firstTimeOnly: true,
  },
};

/** The Charter's cases an appeal for this reason may fall under (none for, say, unclear signs). */
export function charterCasesFor(reason: AppealReason): CharterCase[] {
  return CHARTER_CASES.filter((id) => APPEALS_CHARTER[id].reasons.includes(reason));
}

/** The decision a Charter case leads to. */
export function charterDecision(id: CharterCase): { outcome: 'ACCEPTED' } | { outcome: 'ACCEPTED_REDUCED'; reducedChargePence: number } {
  return APPEALS_CHARTER[id].outcome === 'CANCEL'
    ? { outcome: 'ACCEPTED' }
    : { outcome: 'ACCEPTED_REDUCED', reducedChargePence: CHARTER_REDUCED_PENCE };
}
/**
 * Days the motorist has to take a rejected appeal to the independent service, from the rejection:
 * POPLA takes appeals within 28 days of the verification code's issue; the IAS within 21 days.
 */
export const APPEALS_SERVICE_DAYS: Record<AppealsService, number> = { POPLA: 28, IAS: 21 };
/** Only POPLA identifies an appeal by the operator's verification code. */
export function usesVerificationCode(service: AppealsService): boolean {
  return service === 'POPLA';
}

/** The multipart fields of POST /appeals: the motorist's, and the charge, how and when it came. */
export const ENTERED_APPEAL_MULTIPART_FIELDS = {
  pcnId: 'pcnId',
  channel: 'channel',
  receivedOn: 'receivedOn',
  name: 'name',
  email: 'email',
  address: 'address',
  wasDriver: 'wasDriver',
  driverName: 'driverName',
  driverAddress: 'driverAddress',
  reason: 'reason',
  text: 'text',
  attachments: 'attachments',
} as const;

/** The multipart fields of POST /public/charges/current/appeal. */
export const APPEAL_MULTIPART_FIELDS = {
  name: 'name',
  email: 'email',
  address: 'address',
  wasDriver: 'wasDriver',
  driverName: 'driverName',
  driverAddress: 'driverAddress',
  reason: 'reason',
  text: 'text',
  attachments: 'attachments',
} as const;

/** 'APL-00000123': one appeal per charge, so its reference is the charge's number. */
export function appealReference(pcnNumber: string): string {
  return `APL-${pcnNumber}`;
}

/** The last day to take a rejected appeal to the independent service. */
export function appealsServiceDeadline(service: AppealsService, rejectedOn: CalendarDate): CalendarDate {
  return addDays(rejectedOn, APPEALS_SERVICE_DAYS[service]);
}

/** The appeal as the motorist sees it on their page. */
export type PublicAppeal = {
  reference: string;
  receivedAt: string;
  status: AppealStatus;
  /** Made after the appeal period: it holds nothing unless the operator considers it. */
  isLate: boolean;
  /** A late appeal the operator has agreed to consider: it runs like any appeal from then. */
  consideredAt: string | null;
  /** The decision, once there is one. */
  decidedAt: string | null;
  /** WITHDRAWN: when the motorist withdrew it. */
  withdrawnAt: string | null;
  reasons: string | null;
  /** ACCEPTED_REDUCED: what is now due. */
  reducedChargePence: number | null;
  /** ACCEPTED_REDUCED: the last day the reduced amount may be paid. */
  reducedPayableUntil: string | null;
  /** REJECTED or ACCEPTED_REDUCED, where the service uses one. */
  verificationCode: string | null;
  /** REJECTED or ACCEPTED_REDUCED: the last day to go to the independent appeals service. */
  appealsServiceUntil: string | null;
};

export type AppealAttachment = {
  id: string;
  /** The motorist's own file name, for reading only: stored under a name we made. */
  originalName: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  /** When the retention policy removed the file (its hash stays), or null while it is kept. */
  purgedAt: string | null;
};

export type AppealDecision = {
  outcome: AppealOutcome;
  reasons: string;
  reducedChargePence: number | null;
  decidedAt: string;
  decidedBy: string | null;
  verificationCode: string | null;
  /** REJECTED within the discount period: the reduced rate stands until this day. */
  reducedHeldUntil: string | null;
  /** ACCEPTED_REDUCED: the reduced amount may be paid until this day (REDUCED_PAYABLE_DAYS). */
  reducedPayableUntil: string | null;
  appealsServiceUntil: string | null;
  /** The Appeals Charter case the admin followed, if they did. */
  charterOutcome: CharterCase | null;
};

/** Another charge of the same registration, for the Charter's "first time" (newest first). */
export type EarlierCharge = {
  pcnId: string;
  pcnNumber: string;
  issuedAt: string | null;
  carParkName: string;
  contravention: string;
  status: PcnStatus;
  appeal: { reference: string; status: AppealStatus; charterOutcome: CharterCase | null } | null;
};

/** GET /appeals/{id}: the appeal whole, for the appeals handler. */
export type Appeal = {
  id: string;
  reference: string;
  pcnId: string;
  pcnNumber: string;
  vehicleRegistration: string;
  carParkName: string;
  receivedAt: string;
  respondBy: string;
  status: AppealStatus;
  /** Made after the appeal period (see PublicAppeal). */
  isLate: boolean;
  consideredAt: string | null;
  /** WITHDRAWN: when the motorist withdrew it (no decision follows), and the day the reduced amount stays open to, if it does. */
  withdrawal: { withdrawnAt: string; reducedHeldUntil: string | null } | null;
  channel: AppealChannel;
  /** No email for an appeal by post that gave none: its letters go by post. */
  appellant: { name: string; email: string | null; address: string };
  wasDriver: boolean;
  /** A keeper who was not driving may name the driver. */
  driver: { name: string; address: string } | null;
  reason: AppealReason;
  text: string;
  attachments: AppealAttachment[];
  decision: AppealDecision | null;
  /** The registration's other charges issued before this one (the Charter's first time). */
  earlierCharges: EarlierCharge[];
  /** The charge in the car park's terms recorded with the notice (null: none recorded): a reduced amount must be less. */
  chargePence: number | null;
};

/** One row of the Appeals queue. */
export type AppealListItem = {
  id: string;
  reference: string;
  pcnId: string;
  pcnNumber: string;
  vehicleRegistration: string;
  carParkName: string;
  appellantName: string;
  reason: AppealReason;
  receivedAt: string;
  respondBy: string;
  status: AppealStatus;
  isLate: boolean;
  channel: AppealChannel;
  verificationCode: string | null;
};

export type AppealListResponse = { items: AppealListItem[]; total: number; page: number; limit: number };

export type AppealSubmitted = { reference: string; appeal: PublicAppeal };

/**
 * An appeal filed from /charge, not yet counted (decision 0032): it counts once confirmed from the
 * link emailed to `email` (shown masked). `expiresAt` is when that link dies.
 */
export type AppealAwaitingConfirmation = { status: 'AWAITING_CONFIRMATION'; email: string; expiresAt: string };

/** The motorist's appeal form's answer: awaiting confirmation, or (a key sent again after it was confirmed) the appeal. */
export type AppealFiled = AppealAwaitingConfirmation | AppealSubmitted;

/** POST /public/charges/current/appeal/withdraw: the appeal withdrawn, and when. */
export type AppealWithdrawal = { reference: string; withdrawnAt: string };

/** An appeal an admin set aside (decision 0032): the charge's one appeal is free again. */
export type AppealSetAside = { reference: string; pcnId: string; reason: string; setAsideAt: string };

export const APPEAL_MESSAGES = {
  alreadyAppealed: 'This charge already has an appeal. It is shown below.',
  lateAppeal:
    'The time to appeal this charge has passed. You can still send an appeal: it is marked late, the charge is not put on hold, and we will tell you whether we will consider it.',
  notLate: 'Only an appeal made after the appeal period can be declined as out of time',
  alreadyConsidered: 'This late appeal is already being considered',
  notOutstanding: 'This charge is not outstanding: there is nothing to appeal.',
  attachmentType: 'Attach photos (JPEG, PNG, WebP or HEIC) or PDF files only',
  attachmentTooLarge: 'Each file can be at most 10 MB',
  tooManyAttachments: `Attach at most ${MAX_APPEAL_ATTACHMENTS} files`,
  notOpen: 'This appeal has already been decided',
  receivedInFuture: 'The day it was received cannot be in the future',
  receivedBeforeNotice: 'The day it was received cannot be before the first notice',
  receivedBeforeCharge: 'The day it was received cannot be before the charge was issued',
  emailNeeded: 'Give the appellant’s email address: only an appeal by post may have none',
  charterNotForReason: 'This Appeals Charter case does not cover the appeal’s reason',
  charterOutcomeDiffers: 'The Appeals Charter case leads to another decision',
  charterNotFirstTime: 'This registration has had this Appeals Charter case before: it applies the first time only',
  reducedNoCharge: 'This charge has no amount on record to reduce: accept or reject the appeal instead',
  setAsideDecided: 'A decided appeal stands: only an open appeal can be set aside',
  confirmLinkDead: 'This link has expired or is not valid. Look the charge up and send your appeal again.',
  noAppealToWithdraw: 'This charge has no appeal to withdraw.',
  alreadyWithdrawn: 'This appeal has already been withdrawn.',
  withdrawDecided: 'This appeal has already been decided, so it can no longer be withdrawn.',
  withdrawWrongEmail: 'This is not the email address your appeal gave. Enter that one.',
  withdrawNoEmail: 'This appeal gave no email address, so it cannot be withdrawn here. Write to us, quoting its reference, to withdraw it.',
  withdrawLimited: 'Too many wrong email addresses for this appeal. Try again in an hour.',
} as const;

/**
 * A reduced amount replaces the charge and the decision letter says the charge was "reduced to"
 * it, so it must be more than nothing and less than the charge; an amount at or above the charge
 * is no reduction. The message names the charge so the handler sees what they were reducing.
 */
export function reducedAmountProblem(reducedChargePence: number, chargePence: number | null): string | null {
  if (chargePence === null) return APPEAL_MESSAGES.reducedNoCharge;
  if (reducedChargePence <= 0) return 'Enter the reduced amount';
  if (reducedChargePence >= chargePence) return `Must be less than the charge of ${formatPence(chargePence)}`;
  return null;
}

export const APPEAL_SORT_KEYS = ['respondBy', 'receivedAt', 'reference', 'vehicleRegistration', 'status'] as const;
export type AppealSortKey = (typeof APPEAL_SORT_KEYS)[number];

/**
 * Whether an open appeal holds the charge, and from when: an appeal in time from the day it came,
 * a late one only once the operator agreed to consider it (from that day), never otherwise.
 */
export function appealHoldsFrom(appeal: Pick<PublicAppeal, 'status' | 'isLate' | 'receivedAt' | 'consideredAt'>): string | null {
  if (appeal.status !== 'OPEN') return null;
  if (!appeal.isLate) return appeal.receivedAt;
  return appeal.consideredAt;
}
