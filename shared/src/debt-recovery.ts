import type { CalendarDate } from './keeper-liability.ts';
import type { DebtRecoveryOutcome } from './collection.ts';

/**
 * The hand-over of unpaid charges to a debt recovery agency (decision 0040): a batch of charges
 * past their letter before claim, as one ZIP (a CSV of the charges, each charge's documents as
 * sent and its evidence pack, a manifest of SHA-256s), and the agency's CSV of outcomes back.
 */

/** A charge that may be handed over today (GET /debt-recovery/eligible). */
export type DebtRecoveryEligibleCharge = {
  pcnId: string;
  pcnNumber: string;
  vehicleRegistration: string;
  carParkName: string;
  issuedOn: CalendarDate;
  letterBeforeClaimPostedOn: CalendarDate;
  /** The last day the debtor had to answer the letter before claim. */
  replyEndedOn: CalendarDate;
  amountDuePence: number;
  debtRecoveryFeePence: number | null;
  paidPence: number;
};

export type DebtRecoveryEligibleResponse = { items: DebtRecoveryEligibleCharge[] };

/** A batch handed to the agency: the ZIP as made, downloaded again byte for byte from GET /debt-recovery/exports/{id}. */
export type DebtRecoveryBatch = {
  id: string;
  reference: string;
  chargeCount: number;
  /** The download's name. */
  fileName: string;
  sizeBytes: number;
  sha256: string;
  createdAt: string;
  createdBy: string;
};

export type DebtRecoveryBatchListResponse = { items: DebtRecoveryBatch[] };

export const DEBT_RECOVERY_HANDOVER_STATES = ['WAITING', 'MAKING', 'READY', 'FAILED'] as const;
export type DebtRecoveryHandoverState = (typeof DEBT_RECOVERY_HANDOVER_STATES)[number];

/**
 * A hand-over asked for (POST /debt-recovery/exports) and made by a job: its charges are checked
 * when asked, then packed (documents as sent and an evidence pack each) off the request path. The
 * charges move to the agency only once the batch is made: READY names the batch; FAILED says why,
 * and nothing was handed over.
 */
export type DebtRecoveryHandover = {
  id: string;
  state: DebtRecoveryHandoverState;
  /** Charges in it, and how many are packed so far. */
  total: number;
  made: number;
  /** Why it failed, when FAILED: said to the admin as it stands. */
  error: string | null;
  batch: DebtRecoveryBatch | null;
  createdAt: string;
  createdBy: string;
  finishedAt: string | null;
};

/** The hand-overs still being made and those that failed in the last day, newest first. */
export type DebtRecoveryHandoverListResponse = { items: DebtRecoveryHandover[] };

/** The columns of the agency's CSV of outcomes; reference, vrm and outcome are needed, the amount for a payment. */
export const DEBT_RECOVERY_UPDATE_COLUMNS = ['reference', 'vrm', 'outcome', 'paid_pence', 'amount', 'paid_on', 'agency_reference'] as const;

/** What became of one row of the agency's CSV. */
export const DEBT_RECOVERY_UPDATE_RESULTS = ['APPLIED', 'ALREADY_IMPORTED', 'NOT_IN_BATCH', 'MISMATCH', 'NOT_FOUND', 'INVALID'] as const;
export type DebtRecoveryUpdateResultKind = (typeof DEBT_RECOVERY_UPDATE_RESULTS)[number];

export const DEBT_RECOVERY_UPDATE_RESULT_LABELS: Record<DebtRecoveryUpdateResultKind, string> = {
  APPLIED: 'Applied',
  ALREADY_IMPORTED: 'Already imported',
  NOT_IN_BATCH: 'Not with the agency',
  MISMATCH: 'Does not match the charge',
  NOT_FOUND: 'No such charge',
  INVALID: 'Cannot be read',
};

export const DEBT_RECOVERY_OUTCOME_LABELS: Record<DebtRecoveryOutcome, string> = {
  PAID: 'Paid',
  PART_PAID: 'Part paid',
  CLOSED: 'Closed by the agency',
  RETURNED: 'Returned by the agency',
};

export type DebtRecoveryUpdateResult = {
  row: number;
  reference: string;
  vrm: string;
  outcome: DebtRecoveryOutcome | null;
  paidPence: number | null;
  agencyReference: string;
  result: DebtRecoveryUpdateResultKind;
  message: string;
  pcnId: string | null;
};

/** `preview`: nothing was changed; APPLIED then means 'would be applied'. */
export type DebtRecoveryUpdateImport = {
  preview: boolean;
  results: DebtRecoveryUpdateResult[];
  counts: Record<DebtRecoveryUpdateResultKind, number>;
};

/** The columns of charges.csv in the batch, in order: what the agency needs to pursue each charge. */
export const DEBT_RECOVERY_CHARGE_COLUMNS = [
  'reference',
  'vrm',
  'issued_on',
  'car_park',
  'car_park_address',
  'keeper_name',
  'keeper_company',
  'keeper_address',
  'keeper_postcode',
  'charge_pence',
  'paid_pence',
  'amount_due_pence',
  'debt_recovery_fee_pence',
  'letter_before_claim_posted_on',
  'folder',
] as const;

/** The download's name of a batch. */
export function debtRecoveryBatchFileName(reference: string): string {
  return `debt-recovery-${reference}.zip`;
}

/** A batch's reference: the day it was made and its number that day ('DR-2026-11-29-1'). */
export function debtRecoveryBatchReference(day: CalendarDate, numberThatDay: number): string {
  return `DR-${day}-${numberThatDay}`;
}
