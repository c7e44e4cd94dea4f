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
