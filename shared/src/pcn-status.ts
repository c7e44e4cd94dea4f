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
