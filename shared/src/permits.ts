/**
 * Permits: a registration allowed to park at a car park, for a while. An officer's phone carries
 * its car parks' permits, so it can say a car holds one before a notice is begun, with or without
 * signal; the server checks again when the notice is filed.
 */
export const PERMIT_KINDS = ['STAFF', 'RESIDENT', 'VISITOR', 'CONTRACTOR', 'BLUE_BADGE', 'OTHER'] as const;
export type PermitKind = (typeof PERMIT_KINDS)[number];

export const PERMIT_KIND_LABELS: Record<PermitKind, string> = {
  STAFF: 'Staff',
  RESIDENT: 'Resident',
  VISITOR: 'Visitor',
  CONTRACTOR: 'Contractor',
  BLUE_BADGE: 'Blue Badge',
  OTHER: 'Other',
};

/** Where a permit came from: typed by an admin or a landowner, a CSV import, the visitor page. */
export const PERMIT_SOURCES = ['STAFF_ENTRY', 'IMPORT', 'VISITOR_PAGE'] as const;
export type PermitSource = (typeof PERMIT_SOURCES)[number];

/** Why a charge was cancelled: every cancellation carries one; OTHER needs a note. */
export const CANCELLATION_REASONS = [
  'OPERATOR_ERROR',
  'LANDOWNER_REQUEST',
  'APPEALS_CHARTER',
  'PERMIT_HOLDER',
  'DUPLICATE',
  'OTHER',
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

export const CANCELLATION_REASON_LABELS: Record<CancellationReason, string> = {
  OPERATOR_ERROR: 'Operator error',
  LANDOWNER_REQUEST: 'Landowner request',
  APPEALS_CHARTER: 'Appeals Charter',
  PERMIT_HOLDER: 'Permit holder',
  DUPLICATE: 'Duplicate',
  OTHER: 'Other',
};

/** A landowner's request that a charge be cancelled, and what an admin decided. */
export const CANCELLATION_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'DECLINED'] as const;
export type CancellationRequestStatus = (typeof CANCELLATION_REQUEST_STATUSES)[number];
