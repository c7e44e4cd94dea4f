export const PCN_STATUSES = ['SUBMITTED', 'UNDER_REVIEW', 'APPROVED', 'REJECTED', 'ISSUED', 'PAID', 'CANCELLED'] as const;
export type PcnStatus = (typeof PCN_STATUSES)[number];

export const PCN_STATUS_LABELS: Record<PcnStatus, string> = {
  SUBMITTED: 'Submitted',
  UNDER_REVIEW: 'Under Review',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  ISSUED: 'Issued',
  PAID: 'Paid',
  CANCELLED: 'Cancelled',
};

export type StatusColourGroup = 'warning' | 'success' | 'error';

/** Colour groups of the status chips (docs/product.md, My PCNs). */
export const PCN_STATUS_GROUPS: Record<PcnStatus, StatusColourGroup> = {
  SUBMITTED: 'warning',
  UNDER_REVIEW: 'warning',
  APPROVED: 'success',
  ISSUED: 'success',
  PAID: 'success',
  REJECTED: 'error',
  CANCELLED: 'error',
};

/** Dashboard counters (docs/product.md, Dashboard: Approved, Pending, Rejected) group statuses the same way. */
export const DASHBOARD_COUNTER_STATUSES = {
  approved: ['APPROVED', 'ISSUED', 'PAID'],
  pending: ['SUBMITTED', 'UNDER_REVIEW'],
  rejected: ['REJECTED', 'CANCELLED'],
} as const satisfies Record<string, readonly PcnStatus[]>;

/** The only status changes an admin may make (docs/product.md, Statuses and transitions). */
export const PCN_STATUS_TRANSITIONS: Record<PcnStatus, readonly PcnStatus[]> = {
  SUBMITTED: ['UNDER_REVIEW', 'REJECTED', 'CANCELLED'],
  UNDER_REVIEW: ['APPROVED', 'REJECTED', 'CANCELLED'],
  APPROVED: ['ISSUED', 'CANCELLED'],
  ISSUED: ['PAID', 'CANCELLED'],
  REJECTED: [],
  PAID: [],
  CANCELLED: [],
};

export function allowedTransitions(from: PcnStatus): readonly PcnStatus[] {
  return PCN_STATUS_TRANSITIONS[from];
}

/**
 * The moves a bulk change makes in one action, each an allowed transition and each in the
 * history: approving a notice still Submitted puts it Under Review first, as a review would.
 */
const BULK_PATHS: Partial<Record<PcnStatus, Partial<Record<PcnStatus, readonly PcnStatus[]>>>> = {
  SUBMITTED: { APPROVED: ['UNDER_REVIEW', 'APPROVED'] },
};

/** The most moves one bulk change makes to one PCN: how far back its history is read to undo it. */
export const MAX_BULK_PATH_STEPS = Math.max(
  1,
  ...Object.values(BULK_PATHS).flatMap((paths) => Object.values(paths).map((path) => path.length)),
);

/** The statuses a bulk change moves a PCN through to reach `to` (ending with it), or null when it cannot. */
export function bulkStatusPath(from: PcnStatus, to: PcnStatus): readonly PcnStatus[] | null {
  if (canTransition(from, to)) return [to];
  return BULK_PATHS[from]?.[to] ?? null;
}

/**
 * The statuses every one of these PCNs may be moved to in one bulk action, in the statuses' own
 * order: what a bulk change can offer without failing for any of them.
 */
export function transitionsForAll(statuses: Iterable<PcnStatus>): PcnStatus[] {
  const from = [...new Set(statuses)];
  if (from.length === 0) return [];
  return PCN_STATUSES.filter((to) => from.every((status) => bulkStatusPath(status, to) !== null));
}

export function canTransition(from: PcnStatus, to: PcnStatus): boolean {
  return PCN_STATUS_TRANSITIONS[from].includes(to);
}

/** A status the table gives no move from (Rejected, Paid, Cancelled): it cannot be left. */
export function isFinalStatus(status: PcnStatus): boolean {
  return PCN_STATUS_TRANSITIONS[status].length === 0;
}

/**
 * Undoing a bulk change, while its results are on screen: each PCN goes back along the moves the
 * change made, newest first (Approved, Under Review, Submitted), so its history reads both ways.
 * A final status cannot be left, so a change to one is never undone: null, as for a move no bulk
 * change makes.
 */
export function undoStatusPath(from: PcnStatus, to: PcnStatus): readonly PcnStatus[] | null {
  if (isFinalStatus(to)) return null;
  const forward = bulkStatusPath(from, to);
  return forward ? [...forward.slice(0, -1).reverse(), from] : null;
}

/** The words of a bulk change's undo: the note in each PCN's history and audit trail, and why a PCN is left as it is. */
export const STATUS_UNDO_TEXTS = {
  note: 'Undo of a bulk status change',
  finalStatus: (status: PcnStatus) => `${PCN_STATUS_LABELS[status]} is a final status: it cannot be undone`,
  changedSince: (status: PcnStatus) => `Changed again since (now ${PCN_STATUS_LABELS[status]}): left as it is`,
} as const;

/** The owner may cancel their own notice while it is still SUBMITTED; nothing else. */
export function canOwnerTransition(from: PcnStatus, to: PcnStatus): boolean {
  return from === 'SUBMITTED' && to === 'CANCELLED';
}

/** Only SUBMITTED notices can be edited by their owner (docs/product.md, Who may see what). */
export function isEditableStatus(status: PcnStatus): boolean {
  return status === 'SUBMITTED';
}

export type PcnStatusCounts = Record<PcnStatus, number>;

export function emptyStatusCounts(): PcnStatusCounts {
  return Object.fromEntries(PCN_STATUSES.map((s) => [s, 0])) as PcnStatusCounts;
}

export function sumStatuses(counts: PcnStatusCounts, statuses: readonly PcnStatus[]): number {
  return statuses.reduce((total, status) => total + (counts[status] ?? 0), 0);
}
