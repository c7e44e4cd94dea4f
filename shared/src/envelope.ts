/** The one envelope of every JSON answer (docs/architecture.md, A request through the API). */
export type ApiSuccess<T> = { success: true; data: T; message?: string };
export type ApiFailure = {
  success: false;
  message: string;
  error: string;
  code: ErrorCode;
  details?: Record<string, string>;
};
export type ApiResponse<T> = ApiSuccess<T> | ApiFailure;

export const ERROR_CODES = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  // A photo's bytes differ from the SHA-256 the device computed: damaged in transit, send it again.
  EVIDENCE_CHECKSUM_MISMATCH: 400,
  INVALID_JSON: 400,
  INVALID_TOKEN: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  // An account opened by an access link must choose its password before anything else.
  PASSWORD_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  // The registration holds a permit valid at the car park and the notice gave no reason to issue anyway (the message names the permit).
  PERMIT_HOLDER: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_MISMATCH: 422,
  // A stay notice with no photo taken after consideration and grace: the second visit is missing.
  SECOND_VISIT_REQUIRED: 422,
  // A service or sighting time after the notice reached the server, beyond the phone's measured clock offset (details name each).
  TIME_AFTER_RECEIPT: 422,
  // A notice to keeper cannot go for a notice: outside its window, no keeper, not approved (details name each).
  KEEPER_NOTICE_REFUSED: 422,
  // Marked posted on a day other than the one its letter prints as sent: make the letters again (details name each).
  LETTER_DATE_MISMATCH: 409,
  // A reminder or letter before claim cannot go for a charge: not due yet, paid, cancelled, held by an appeal (details name each).
  COLLECTION_LETTER_REFUSED: 422,
  // An appeal outside its period, or against a charge that is no longer owed.
  APPEAL_REFUSED: 422,
  // A charge chosen for the debt recovery agency cannot go: not past its letter before claim, nothing due, held by an appeal (details name each).
  DEBT_RECOVERY_REFUSED: 409,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  // Too many uploads in flight on the server: try again shortly (Retry-After says when).
  SERVICE_BUSY: 503,
  // The mail relay refused or could not be reached: the request was fine, the upstream was not.
  EMAIL_DELIVERY_FAILED: 502,
  // An evidence pack that needed more memory or time than one pack may use: its worker was stopped and replaced.
  EVIDENCE_PACK_FAILED: 500,
  // The operator takes no card payments online (no Stripe keys set): pay as the charge's text says.
  CARD_PAYMENTS_OFF: 404,
  // The card processor (Stripe) could not be reached or refused the request: nothing was taken.
  CARD_PROCESSOR_FAILED: 502,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * `totalCapped`: a search or filter that matches more rows than the server counts (PCN_COUNT_CAP,
 * or the rows up to the page asked for when that is further): `total` is then a lower bound, shown
 * as '1,000+', and `pages` reaches one page beyond the one asked for.
 */
export type Pagination = { page: number; limit: number; total: number; pages: number; totalCapped?: boolean };

/** How far a filtered list is counted: counting every match of a LIKE costs more than the page. */
export const PCN_COUNT_CAP = 1000;
