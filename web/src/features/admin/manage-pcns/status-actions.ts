import type { PcnStatus } from '@parkpatrol/shared';

/** What moving a PCN to each status is called on a button or an option. */
export const ACTION_LABELS: Record<PcnStatus, string> = {
  SUBMITTED: 'Back to Submitted',
  UNDER_REVIEW: 'Start review',
  APPROVED: 'Approve',
  REJECTED: 'Reject',
  ISSUED: 'Mark as issued',
  PAID: 'Mark as paid',
  CANCELLED: 'Cancel PCN',
};

/**
 * The review's keyboard shortcuts: one letter per decision, from its label;
 * no two transitions offered together share one, and J / K (next / previous) are left free.
 */
export const ACTION_SHORTCUTS: Record<PcnStatus, string> = {
  SUBMITTED: 'B',
  UNDER_REVIEW: 'S',
  APPROVED: 'A',
  REJECTED: 'R',
  ISSUED: 'M',
  PAID: 'P',
  CANCELLED: 'C',
};

/** The transition a key press picks, if any: letters only, case-insensitive. */
export function transitionForKey(key: string, offered: readonly PcnStatus[]): PcnStatus | null {
  const letter = key.toUpperCase();
  return offered.find((status) => ACTION_SHORTCUTS[status] === letter) ?? null;
}
