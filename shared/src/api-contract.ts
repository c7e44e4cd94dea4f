import type { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import type {
  AccessLinkResponse,
  AnalyticsSummary,
  AuthTokens,
  BulkOnboardingResponse,
  BulkResponse,
  CarPark,
  CarParkListResponse,
  HealthResponse,
  LoginResponse,
  OnboardingCandidatesResponse,
  OnboardingResult,
  Pcn,
  PcnAuditResponse,
  PcnDuplicatesResponse,
  PcnListResponse,
  PcnNeighbours,
  PcnSelectionResponse,
  PcnStats,
  User,
  UserListResponse,
  UserSelectionResponse,
  UserWithStats,
} from './entities.ts';
import type {
  accessLinkInputSchema,
  assignUserInputSchema,
  bulkPcnStatusInputSchema,
  bulkPcnStatusUndoInputSchema,
  bulkUserActiveInputSchema,
  carParkListQuerySchema,
  changePcnStatusInputSchema,
  clientErrorReportSchema,
  createCarParkInputSchema,
  createUserInputSchema,
  heartbeatInputSchema,
  loginInputSchema,
  logoutInputSchema,
  Observation,
  ObservationListResponse,
  observationListQuerySchema,
  onboardingListQuerySchema,
  pcnDuplicatesQuerySchema,
  pcnListQuerySchema,
  pcnStatsQuerySchema,
  refreshInputSchema,
  resetPasswordInputSchema,
  resetTokenCheckInputSchema,
  saveObservationInputSchema,
  sendBulkOnboardingInputSchema,
  sendOnboardingInputSchema,
  updateCarParkInputSchema,
  updateProfileInputSchema,
  updateUserInputSchema,
  userListQuerySchema,
  operatorTermsInputSchema,
  keeperInputSchema,
  hirerInputSchema,
  driverInputSchema,
  pcnLetterInputSchema,
  pcnLetterPostedInputSchema,
  keeperLettersInputSchema,
  keeperLetterBatchInputSchema,
  keeperNoticesPostedInputSchema,
  collectionLettersQuerySchema,
  collectionLettersInputSchema,
  collectionLettersPostedInputSchema,
  keeperRepliesInputSchema,
  debtRecoveryExportInputSchema,
  debtRecoveryUpdatesInputSchema,
  chargeLookupInputSchema,
  paymentInputSchema,
  appealDecisionInputSchema,
  appealListQuerySchema,
  setAsideAppealInputSchema,
  confirmAppealInputSchema,
  withdrawAppealInputSchema,
} from './schemas.ts';
import type { forgotPasswordInputSchema } from './patrol-schemas.ts';
import type { Appeal, AppealFiled, AppealListResponse, AppealSetAside, AppealSubmitted, AppealWithdrawal } from './appeals.ts';
import type { AppealDecisionPreview } from './appeal-decision-letter.ts';
import type { ChargeLookupResponse, PublicCharge, PublicOperator } from './public-charge.ts';
import type { OperatorLogoResponse } from './operator-logo.ts';
import type { CardCheckout } from './card-payments.ts';
import type { moneyAnalyticsQuerySchema, paymentsExportQuerySchema, refundInputSchema } from './schemas.ts';
import type { MoneyAnalytics } from './money.ts';
import type { KeeperNoticesPostedResponse, KeeperReplyImport, LetterBatch, LetterBatchListResponse, PcnLetterPosting } from './keeper.ts';
import type { CollectionLetterQueue, CollectionLettersPostedResponse } from './collection.ts';
import type { SentDocumentListResponse } from './sent-documents.ts';
import type { EvidencePack } from './evidence-pack.ts';
import type {
  DebtRecoveryBatchListResponse,
  DebtRecoveryEligibleResponse,
  DebtRecoveryHandover,
  DebtRecoveryHandoverListResponse,
  DebtRecoveryUpdateImport,
} from './debt-recovery.ts';
import type { CarParkTermsHistory, OperatorSettingsResponse, OperatorTerms } from './operator-terms.ts';
import type {
  permitImportInputSchema,
  permitInputSchema,
  permitListQuerySchema,
  permitSyncQuerySchema,
  updatePermitInputSchema,
} from './schemas.ts';
import type { Permit, PermitImport, PermitListResponse, PermitSyncResponse } from './permit-check.ts';
import type { visitorPageSettingsInputSchema, visitorRegistrationInputSchema } from './schemas.ts';
import type { VisitorPageInfo, VisitorPageSettings, VisitorPermitGranted } from './visitor-page.ts';
import type {
  cancellationDecisionInputSchema,
  cancellationRequestInputSchema,
  carParkChargesQuerySchema,
  monthlyReportQuerySchema,
} from './schemas.ts';
import type { CancellationRequest, LandownerChargeListResponse, MonthlyReport } from './landowners.ts';

/**
 * THE contract between the web app and the API: every route under /api, keyed by method and
 * the path template exactly as Hono registers it, with what it takes and what its envelope's
 * `data` holds. The web client accepts only these keys and types its answer by them; the API's
 * `ok(c, route, data)` is typed by the same entry and checks at run time that it answers the
 * route it names. Bodies and queries are typed by the zod schema the server parses them with,
 * so a field renamed on one side fails the compiler on the other.
 */

/** What the server parses; a list the caller only reads may be a readonly one. */
type Body<S extends $ZodType> = { [K in keyof z.input<S>]: z.input<S>[K] extends Array<infer E> ? readonly E[] : z.input<S>[K] };
/** Query strings carry text: the names are checked, the values are whatever prints as one. */
type Query<S extends $ZodType> = { [K in keyof z.output<S>]?: string | number | boolean | null };

/** A route answering a file (CSV, PDF, photo), not the JSON envelope. */
export type FileAnswer = Blob;

export type ApiContract = {
  'GET /health': { response: HealthResponse };

  'POST /auth/login': { body: Body<typeof loginInputSchema>; response: LoginResponse };
  'POST /auth/refresh': { body: Body<typeof refreshInputSchema>; response: AuthTokens };
  'POST /auth/logout': { body: Body<typeof logoutInputSchema>; response: null };
  'POST /auth/forgot-password': { body: Body<typeof forgotPasswordInputSchema>; response: null };
  'POST /auth/device-link': { body: Body<typeof forgotPasswordInputSchema>; response: null };
  'POST /auth/reset-password': { body: Body<typeof resetPasswordInputSchema>; response: null };
  'POST /auth/reset-password/check': { body: Body<typeof resetTokenCheckInputSchema>; response: { isValid: true } };
  'POST /auth/access-link': { body: Body<typeof accessLinkInputSchema>; response: AccessLinkResponse };

  'GET /users/profile': { response: User };
  'PUT /users/profile': { body: Body<typeof updateProfileInputSchema>; response: User };
  'GET /users/export.csv': { query: Query<typeof userListQuerySchema>; response: FileAnswer };
  'GET /users/selection': { query: Query<typeof userListQuerySchema>; response: UserSelectionResponse };
  'GET /users': { query: Query<typeof userListQuerySchema>; response: UserListResponse };
  'POST /users/bulk-active': { body: Body<typeof bulkUserActiveInputSchema>; response: BulkResponse };
  'POST /users': { body: Body<typeof createUserInputSchema>; response: User };
  'PUT /users/:id': { body: Body<typeof updateUserInputSchema>; response: User };
  'DELETE /users/:id': { response: { id: string } };

  'GET /car-parks': { response: CarPark[] };
  'GET /car-parks/all': { query: Query<typeof carParkListQuerySchema>; response: CarParkListResponse };
  'POST /car-parks': { body: Body<typeof createCarParkInputSchema>; response: CarPark };
  'PUT /car-parks/:id': { body: Body<typeof updateCarParkInputSchema>; response: CarPark };
  'DELETE /car-parks/:id': { response: { id: string } };
  'POST /car-parks/:id/assign-user': { body: Body<typeof assignUserInputSchema>; response: CarPark };
  'DELETE /car-parks/:id/unassign-user': { body: Body<typeof assignUserInputSchema>; response: CarPark };
  /** A car park's permits (decision 0041): admins for every car park, a landowner for their own; 404 alike for another's. */
  'GET /car-parks/:id/permits': { query: Query<typeof permitListQuerySchema>; response: PermitListResponse };
  'POST /car-parks/:id/permits': { body: Body<typeof permitInputSchema>; response: Permit };
  /** A CSV of permits: every row answered (added, unchanged, or invalid with why). */
  'POST /car-parks/:id/permits/import': { body: Body<typeof permitImportInputSchema>; response: PermitImport };
  /** 409 for an ended permit. */
  'PUT /car-parks/:id/permits/:permitId': { body: Body<typeof updatePermitInputSchema>; response: Permit };
  /** Ends the permit now; the row and its history stay. */
  'DELETE /car-parks/:id/permits/:permitId': { response: Permit };
  /** What an officer's phone keeps: the whole list in force, or the changes since its last sync. */
  'GET /permits/sync': { query: Query<typeof permitSyncQuerySchema>; response: PermitSyncResponse };
  /** The car park's visitor page: its address, code and places a day (409 when the address is another car park's). */
  'GET /car-parks/:id/visitor': { response: VisitorPageSettings };
  'PUT /car-parks/:id/visitor': { body: Body<typeof visitorPageSettingsInputSchema>; response: VisitorPageSettings };
  /** No sign-in: 404 for a page that is not open. */
  'GET /public/visit/:siteCode': { response: VisitorPageInfo };
  /** 201 a VISITOR permit to the end of the day (200 when this registration has one today); 400 wrong code; 409 no places left; 429 limited. */
  'POST /public/visit/:siteCode': { body: Body<typeof visitorRegistrationInputSchema>; response: VisitorPermitGranted };
  /** Decision 0042: a car park's charges for its landowners and admins, without the motorist's personal data. */
  'GET /car-parks/:id/charges': { query: Query<typeof carParkChargesQuerySchema>; response: LandownerChargeListResponse };
  /** The monthly report of one car park (UK calendar month), as figures, a CSV and a PDF of the same figures. */
  'GET /car-parks/:id/reports/monthly': { query: Query<typeof monthlyReportQuerySchema>; response: MonthlyReport };
  'GET /car-parks/:id/reports/monthly.csv': { query: Query<typeof monthlyReportQuerySchema>; response: FileAnswer };
  'GET /car-parks/:id/reports/monthly.pdf': { query: Query<typeof monthlyReportQuerySchema>; response: FileAnswer };
  /** Who changed the car park's terms, what and when, newest first (decision 0017): admins and its landowners. */
  'GET /car-parks/:id/terms-history': { response: CarParkTermsHistory };
  'GET /settings/operator': { response: OperatorSettingsResponse };
  'PUT /settings/operator': { body: Body<typeof operatorTermsInputSchema>; response: OperatorSettingsResponse };
  'PUT /settings/operator/logo': { form: true; response: OperatorLogoResponse };
  'DELETE /settings/operator/logo': { response: OperatorLogoResponse };
  /** What a notice to driver prints about the operator: any signed-in user (officers print offline from it). */
  'GET /settings/notice-terms': { response: OperatorTerms | null };
  'PUT /pcns/:id/keeper': { body: Body<typeof keeperInputSchema>; response: Pcn };
  /** The hirer a hire firm named, with its documents (Schedule 4, paragraph 13); 422 KEEPER_NOTICE_REFUSED when the keeper is no hire firm or had no notice to keeper. */
  'PUT /pcns/:id/hirer': { body: Body<typeof hirerInputSchema>; response: Pcn };
  /** The driver named with an address for service: the keeper and hirer are no longer pursued. */
  'PUT /pcns/:id/driver': { body: Body<typeof driverInputSchema>; response: Pcn };
  /** One letter (notice to hirer, to the named driver, or request to name the driver) dated `postOn`, stored as sent; 422 KEEPER_NOTICE_REFUSED with the reason. */
  'POST /pcns/:id/letters': { body: Body<typeof pcnLetterInputSchema>; response: FileAnswer };
  /** 409 LETTER_DATE_MISMATCH when `postedOn` is not the day its letter prints. */
  'POST /pcns/:id/letters/posted': { body: Body<typeof pcnLetterPostedInputSchema>; response: PcnLetterPosting };
  'POST /keeper-replies': { body: Body<typeof keeperRepliesInputSchema>; response: KeeperReplyImport };
  /** One PDF, a letter per notice dated `postOn` (default today), each also stored with its notice; 422 with `details` naming each refused notice's reason. */
  'POST /keeper-notices/letters': { body: Body<typeof keeperLettersInputSchema>; response: FileAnswer };
  /** The same letters made as a job (202): checked now, 422 as above; each kept with its notice as it is made. */
  'POST /keeper-notices/batches': { body: Body<typeof keeperLetterBatchInputSchema>; response: LetterBatch };
  /** The newest batches first, so a batch still being made is found again after a reload. */
  'GET /keeper-notices/batches': { response: LetterBatchListResponse };
  'GET /keeper-notices/batches/:id': { response: LetterBatch };
  /** The batch's one PDF, once READY; 409 CONFLICT before. */
  'GET /keeper-notices/batches/:id/file': { response: FileAnswer };
  /** No sign-in: the operator's name, for the top of the lookup. */
  'GET /public/charges/operator': { response: PublicOperator };
  'GET /public/charges/operator/logo/:file': { response: FileAnswer };
  /** The motorist's way in: no sign-in; 404 alike for either half wrong; 429 when limited. */
  'POST /public/charges/lookup': { body: Body<typeof chargeLookupInputSchema>; response: ChargeLookupResponse };
  /** With the lookup's access token as the bearer: that one charge. */
  'GET /public/charges/current': { response: PublicCharge };
  /**
   * Multipart (APPEAL_MULTIPART_FIELDS) with an Idempotency-Key: 202 awaiting confirmation from the
   * email it gives (decision 0032); the same key after it was confirmed is 201 with the appeal;
   * 409 when the charge has one.
   */
  'POST /public/charges/current/appeal': { form: true; response: AppealFiled };
  /** The emailed link's token: 201 the appeal as filed (after the appeal period, marked late); 200 for a token already used; 409 when the charge has one; 400 for a dead link. */
  'POST /public/appeals/confirm': { body: Body<typeof confirmAppealInputSchema>; response: AppealSubmitted };
  /** The decision letter of the charge's decided appeal (PDF). */
  'GET /public/charges/current/appeal/letter': { response: FileAnswer };
  /** The motorist withdraws the charge's open appeal (decision 0044): 404 with no appeal; 409 once decided or already withdrawn. */
  'POST /public/charges/current/appeal/withdraw': { body: Body<typeof withdrawAppealInputSchema>; response: AppealWithdrawal };
  /**
   * A card payment of what is due now (the server's amount, never the page's): 201 with the
   * checkout's address; 409 while an appeal holds the charge, or once paid, cancelled or with
   * nothing due; 404 CARD_PAYMENTS_OFF without the operator's card processor keys.
   */
  'POST /public/charges/current/checkout': { response: CardCheckout };
  /** The card processor's signed events (Stripe-Signature over the raw body): 200 once verified, 400 otherwise. */
  'POST /payments/stripe/webhook': { response: { received: true } };
  /** The hand-over to a debt recovery agency (admins): the charges that may go today, the batches made, one batch's ZIP as made. */
  'GET /debt-recovery/eligible': { response: DebtRecoveryEligibleResponse };
  'GET /debt-recovery/exports': { response: DebtRecoveryBatchListResponse };
  /**
   * All or none: 409 DEBT_RECOVERY_REFUSED names each charge that cannot go (details, by id) with
   * why; else 202 with the hand-over, stored for a job to pack (decision 0049).
   */
  'POST /debt-recovery/exports': { body: Body<typeof debtRecoveryExportInputSchema>; response: DebtRecoveryHandover };
  'GET /debt-recovery/handovers': { response: DebtRecoveryHandoverListResponse };
  'GET /debt-recovery/handovers/:id': { response: DebtRecoveryHandover };
  'GET /debt-recovery/exports/:id': { response: FileAnswer };
  /** The agency's CSV of outcomes: matching rows applied (or, with preview, tried and undone), the rest listed with why. */
  'POST /debt-recovery/updates': { body: Body<typeof debtRecoveryUpdatesInputSchema>; response: DebtRecoveryUpdateImport };
  'GET /appeals': { query: Query<typeof appealListQuerySchema>; response: AppealListResponse };
  'GET /appeals/export.csv': { query: Query<typeof appealListQuerySchema>; response: FileAnswer };
  /**
   * An appeal by email, post or phone, entered by an admin: multipart (ENTERED_APPEAL_MULTIPART_FIELDS)
   * with an Idempotency-Key; 201 with the appeal; 409 naming the charge's appeal when it has one.
   */
  'POST /appeals': { form: true; response: Appeal };
  'GET /appeals/:id': { response: Appeal };
  'POST /appeals/:id/decision': { body: Body<typeof appealDecisionInputSchema>; response: Appeal };
  /** The same decision tried and undone: its outcome and the letter it would send, with the same checks; nothing is recorded. */
  'POST /appeals/:id/decision-preview': { body: Body<typeof appealDecisionInputSchema>; response: AppealDecisionPreview };
  /** A late appeal the admin agrees to consider: it then holds the charge and runs like any appeal. */
  'POST /appeals/:id/consider': { response: Appeal };
  'POST /appeals/:id/set-aside': { body: Body<typeof setAsideAppealInputSchema>; response: AppealSetAside };
  'GET /appeals/:id/letter': { response: FileAnswer };
  'GET /appeals/:id/attachments/:attachmentId': { response: FileAnswer };
  /** Records a payment; the charge becomes PAID once payments meet what is due. */
  'POST /pcns/:id/payments': { body: Body<typeof paymentInputSchema>; response: Pcn };
  /**
   * Refunds one payment (Idempotency-Key per attempt): a card payment taken online through the card
   * processor, any other recorded as refunded by hand; the charge's balance follows.
   */
  'POST /pcns/:id/refunds': { body: Body<typeof refundInputSchema>; response: Pcn };
  /** 409 LETTER_DATE_MISMATCH, `details` naming each notice, when `postedOn` is not the day its letter prints. */
  'POST /keeper-notices/posted': { body: Body<typeof keeperNoticesPostedInputSchema>; response: KeeperNoticesPostedResponse };
  'GET /collection-letters': { query: Query<typeof collectionLettersQuerySchema>; response: CollectionLetterQueue };
  'POST /collection-letters/letters': { body: Body<typeof collectionLettersInputSchema>; response: FileAnswer };
  'POST /collection-letters/posted': { body: Body<typeof collectionLettersPostedInputSchema>; response: CollectionLettersPostedResponse };

  'GET /pcns': { query: Query<typeof pcnListQuerySchema>; response: PcnListResponse };
  'GET /pcns/stats': { query: Query<typeof pcnStatsQuerySchema>; response: PcnStats };
  'GET /pcns/export.csv': { query: Query<typeof pcnListQuerySchema>; response: FileAnswer };
  'GET /pcns/selection': { query: Query<typeof pcnListQuerySchema>; response: PcnSelectionResponse };
  'GET /pcns/duplicates': { query: Query<typeof pcnDuplicatesQuerySchema>; response: PcnDuplicatesResponse };
  'POST /pcns/bulk-status': { body: Body<typeof bulkPcnStatusInputSchema>; response: BulkResponse };
  /** Undo of a bulk change: each PCN back to the status it had; one changed since, or moved to a final status, is reported and left. */
  'POST /pcns/bulk-status/undo': { body: Body<typeof bulkPcnStatusUndoInputSchema>; response: BulkResponse };
  'GET /pcns/:id': { response: Pcn };
  'GET /pcns/:id/neighbours': { query: Query<typeof pcnListQuerySchema>; response: PcnNeighbours };
  'GET /pcns/:id/audit': { response: PcnAuditResponse };
  /** An evidence pack asked for: 202, WAITING for the job; one already being made for the notice is answered instead of a second. */
  'POST /pcns/:id/evidence-packs': { response: EvidencePack };
  'GET /pcns/:id/evidence-packs/:packId': { response: EvidencePack };
  /** The pack's PDF, once READY; 409 CONFLICT before, 404 once removed. */
  'GET /pcns/:id/evidence-packs/:packId/file': { response: FileAnswer };
  /** What was sent for this charge, as stored (admins). */
  'GET /pcns/:id/documents': { response: SentDocumentListResponse };
  /** One stored document: the same bytes as when it was made (its SHA-256 is in the list). */
  'GET /pcns/:id/documents/:documentId': { response: FileAnswer };
  /** Multipart: the fields of PCN_MULTIPART_FIELDS, built by the web app's buildPcnFormData. */
  'POST /pcns': { form: true; response: Pcn };
  'PUT /pcns/:id': { form: true; response: Pcn };
  'DELETE /pcns/:id': { response: { id: string } };
  'POST /pcns/:id/submit': { response: Pcn };
  'PATCH /pcns/:id/status': { body: Body<typeof changePcnStatusInputSchema>; response: Pcn };
  /** A landowner asks that a charge at their car park be cancelled; an admin approves or declines it from the review. */
  'POST /pcns/:id/cancellation-requests': { body: Body<typeof cancellationRequestInputSchema>; response: CancellationRequest };
  'POST /pcns/:id/cancellation-requests/:requestId/decision': { body: Body<typeof cancellationDecisionInputSchema>; response: Pcn };

  'GET /observations': { query: Query<typeof observationListQuerySchema>; response: ObservationListResponse };
  'PUT /observations/:id': { body: Body<typeof saveObservationInputSchema>; response: Observation };

  'GET /onboarding/users': { query: Query<typeof onboardingListQuerySchema>; response: OnboardingCandidatesResponse };
  'POST /onboarding/send/:userId': { body: Body<typeof sendOnboardingInputSchema>; response: OnboardingResult };
  'POST /onboarding/send-bulk': { body: Body<typeof sendBulkOnboardingInputSchema>; response: BulkOnboardingResponse };

  'POST /tracking/heartbeat': { body: Body<typeof heartbeatInputSchema>; response: { ok: true } };
  'GET /tracking/admin/analytics': { response: AnalyticsSummary };
  /** The Admin Dashboard's money: received by UK week, outstanding by age; the CSV holds the same figures. */
  'GET /analytics/money': { query: Query<typeof moneyAnalyticsQuerySchema>; response: MoneyAnalytics };
  'GET /analytics/money.csv': { query: Query<typeof moneyAnalyticsQuerySchema>; response: FileAnswer };
  /** Every payment in the days asked (by the day paid), with its refunds, for reconciliation: a CSV. */
  'GET /payments/export': { query: Query<typeof paymentsExportQuerySchema>; response: FileAnswer };
  'GET /tracking/admin/users': { response: UserWithStats[] };

  'POST /client-errors': { body: Body<typeof clientErrorReportSchema>; response: null };

  'GET /uploads/:fileName': { response: FileAnswer };
  'GET /uploads/:fileName/thumbnail': { response: FileAnswer };
};

export type ApiRoute = keyof ApiContract;
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ApiResponseOf<R extends ApiRoute> = ApiContract[R]['response'];
export type ApiBodyOf<R extends ApiRoute> = ApiContract[R] extends { body: infer B } ? B : never;
export type ApiQueryOf<R extends ApiRoute> = ApiContract[R] extends { query: infer Q } ? Q : never;

/** The routes answering JSON, and those answering a file. */
export type JsonRoute = { [R in ApiRoute]: ApiResponseOf<R> extends FileAnswer ? never : R }[ApiRoute];
export type FileRoute = Exclude<ApiRoute, JsonRoute>;

/** '/pcns/:id/audit' -> { id: string }; a path without parameters -> {}. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>;

type PathOf<R extends string> = R extends `${string} ${infer P}` ? P : never;
export type ApiParamsOf<R extends ApiRoute> = PathParams<PathOf<R>>;

/** 'PUT /pcns/:id' -> { method: 'PUT', path: '/pcns/:id' }. */
export function splitRoute(route: ApiRoute): { method: ApiMethod; path: string } {
  const space = route.indexOf(' ');
  return { method: route.slice(0, space) as ApiMethod, path: route.slice(space + 1) };
}

/** The path under /api of one route with its parameters filled in, for callers that use fetch itself (the outbox, the error reporter). */
export function apiPath<R extends ApiRoute>(route: R, params: ApiParamsOf<R>): string {
  return fillPath(splitRoute(route).path, params as Record<string, string>);
}

/** The path of a route with its parameters filled in, each URI-encoded: ('GET /pcns/:id', {id: 'a b'}) -> '/pcns/a%20b'. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(value);
  });
}
