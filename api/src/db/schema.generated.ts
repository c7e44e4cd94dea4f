// Written by `npm run db:types` from a database the migrations made (scripts/db-types.ts): do not
// edit. A schema change is a migration; then run `npm run db:types`. `npm run typecheck` fails
// while this file and the migrations disagree. Times are ISO-8601 text in UTC, days
// 'YYYY-MM-DD', flags booleans, on both engines (api/src/db/database.ts converts).
import type {
  ActivityType,
  AppealChannel,
  AppealReason,
  AppealStatus,
  CancellationReason,
  CancellationRequestStatus,
  CharterCase,
  CollectionStage,
  DebtRecoveryHandoverState,
  DebtRecoveryOutcome,
  EvidencePackState,
  Jurisdiction,
  KeeperSource,
  KeeperType,
  LetterBatchState,
  NamedDriverSource,
  NoticeServedBy,
  ObservationStatus,
  OffenceType,
  OneTimeLinkPurpose,
  PaymentMethod,
  PcnAuditAction,
  PcnStatus,
  PermitKind,
  PermitSource,
  PhotoTakenAtSource,
  RefundMethod,
  RefundStatus,
  Role,
  SentDocumentKind,
} from '@parkpatrol/shared';
import type { Generated } from 'kysely';

export interface ActivitiesTable {
  id: string;
  user_id: string | null;
  activity_type: ActivityType;
  description: string | null;
  pcn_id: string | null;
  created_at: string;
}

/** A file the motorist attached to an appeal, stored under a name we made (evidence-storage.ts). */
export interface AppealAttachmentsTable {
  id: string;
  appeal_id: string;
  position: number;
  original_name: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  purged_at: string | null;
}

/** A motorist's appeal against a charge (one per charge) and its decision. */
export interface AppealsTable {
  id: string;
  pcn_id: string;
  reference: string;
  idempotency_key: string;
  received_at: string;
  respond_by: string;
  appellant_name: string;
  /** '' for an appeal by post that gave none. */
  appellant_email: string;
  appellant_address: string;
  was_driver: boolean;
  driver_name: string;
  driver_address: string;
  reason: AppealReason;
  text: string;
  status: AppealStatus;
  decision_reasons: string | null;
  reduced_charge_pence: number | null;
  verification_code: string | null;
  reduced_held_until: string | null;
  appeals_service_until: string | null;
  decided_at: string | null;
  decided_by: string | null;
  /** Made after the appeal period (decision 0023). */
  is_late: Generated<boolean>;
  /** A late appeal an admin agreed to consider: when, and who. */
  considered_at: string | null;
  considered_by: string | null;
  /** ONLINE, EMAIL, POST or PHONE (decision 0024). */
  channel: Generated<AppealChannel>;
  /** ACCEPTED_REDUCED: the last day the reduced amount may be paid. */
  reduced_payable_until: string | null;
  /** The Appeals Charter case the admin followed, if any. */
  charter_outcome: CharterCase | null;
  /** WITHDRAWN: when the motorist withdrew the appeal (decision 0044). */
  withdrawn_at: string | null;
}

/** A landowner's request that a charge be cancelled, with the reason, and the admin's decision with theirs. */
export interface CancellationRequestsTable {
  id: string;
  pcn_id: string;
  reason: string;
  status: CancellationRequestStatus;
  requested_by: string | null;
  requested_by_name: string;
  created_at: string;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: string | null;
  decision_reason: string | null;
}

export interface CarParkTermsTable {
  id: string;
  car_park_id: string;
  terms: string;
  changes: string;
  actor_id: string | null;
  actor_name: string;
  created_at: string;
}

export interface CarParkUsersTable {
  car_park_id: string;
  user_id: string;
  created_at: string;
}

export interface CarParksTable {
  id: string;
  name: string;
  site_code: string;
  address: Generated<string>;
  postcode: Generated<string>;
  is_active: Generated<boolean>;
  consideration_minutes: Generated<number>;
  grace_minutes: Generated<number>;
  created_at: string;
  updated_at: string;
  /** New PCNs here have a stay (consideration + grace) unless the officer says otherwise. */
  stay_applies_by_default: Generated<boolean>;
  /** Where the land is: Schedule 4's keeper liability applies in ENGLAND_AND_WALES only. */
  jurisdiction: Generated<Jurisdiction>;
  /** The charge and its reduced amount in pence, and the days the reduction lasts; null until set. */
  charge_pence: number | null;
  reduced_charge_pence: number | null;
  reduced_within_days: number | null;
  signage_terms: Generated<string>;
  /** Why consideration or grace is shorter than the Single Code's minimum; null when neither is. */
  minimums_override_reason: string | null;
  /** Schedule 4 paragraph 3's "relevant land"; false for byelaw land (no keeper liability). */
  relevant_land: Generated<boolean>;
  /** The code in the visitor page address /visit/{code}; null when the car park has no visitor page. */
  visitor_site_code: string | null;
  /** The code shown at reception that a visitor enters to register their car. */
  visitor_code: string | null;
  visitor_daily_limit: Generated<number>;
}

/** A Stripe Checkout Session made for a charge, for the amount due then: /charge reuses an open one and says a completed one is being confirmed. */
export interface CardCheckoutsTable {
  id: string;
  pcn_id: string;
  amount_pence: number;
  stripe_session_id: string;
  url: string;
  idempotency_key: string;
  created_at: string;
  expires_at: string;
  completed_at: string | null;
}

/** Charges handed to a debt recovery agency together: the ZIP (CSV, documents, manifest of SHA-256s) as it was made. */
export interface DebtRecoveryBatchesTable {
  id: string;
  reference: string;
  charge_count: number;
  file_name: string;
  size_bytes: number;
  sha256: string;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
}

/** A hand-over's charges in the order packed; a charge in one still being made is not offered for another. */
export interface DebtRecoveryHandoverItemsTable {
  handover_id: string;
  position: number;
  pcn_id: string;
}

/** A hand-over to the debt recovery agency packed by a job (migration 0043): where it stands, `made` of `total` charges packed, and the batch once READY. */
export interface DebtRecoveryHandoversTable {
  id: string;
  state: DebtRecoveryHandoverState;
  total: number;
  made: Generated<number>;
  error: string | null;
  batch_id: string | null;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
  finished_at: string | null;
}

/** One outcome a debt recovery agency reported for a charge it was handed, as imported. */
export interface DebtRecoveryUpdatesTable {
  id: string;
  pcn_id: string;
  batch_id: string;
  outcome: DebtRecoveryOutcome;
  paid_pence: number;
  agency_reference: string;
  imported_by: string | null;
  imported_by_name: string;
  imported_at: string;
}

export interface EmailsTable {
  id: string;
  to_address: string;
  subject: string;
  purpose: string;
  user_id: string | null;
  status: 'sent' | 'written' | 'failed';
  error: string | null;
  location: string | null;
  created_at: string;
  sent_at: string | null;
}

/** An evidence pack an admin asked for, made by a job (migration 0042): where it stands and its PDF once READY; removed a day later. */
export interface EvidencePacksTable {
  id: string;
  pcn_id: string;
  state: EvidencePackState;
  error: string | null;
  file_name: string | null;
  sha256: string | null;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
  finished_at: string | null;
}

/** A device that signed in before (migration 0012; auth/known-devices.ts). Only the token's hash is kept. */
export interface KnownDevicesTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  last_used_at: string;
}

/** A batch's notices in the order chosen, each with the sent document made for it (null until made). */
export interface LetterBatchItemsTable {
  batch_id: string;
  position: number;
  pcn_id: string;
  sent_document_id: string | null;
}

/** Notices to keeper made together by a job (migration 0040): where the batch stands, `made` of `total`, and the one PDF of them all once READY. */
export interface LetterBatchesTable {
  id: string;
  post_on: string;
  state: LetterBatchState;
  total: number;
  made: Generated<number>;
  error: string | null;
  file_name: string | null;
  sha256: string | null;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
  finished_at: string | null;
}

export interface ObservationsTable {
  officer_id: string;
  /** The phone's draft id, also the notice's Idempotency-Key. */
  id: string;
  car_park_id: string;
  vehicle_registration: string;
  observed_at: string;
  due_at: string;
  status: ObservationStatus;
  closed_at: string | null;
  pcn_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface OneTimeTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  purpose: OneTimeLinkPurpose;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A history: each upload (the small PNG and its SHA-256) or removal (neither) of the operator's logo is a row, with who. */
export interface OperatorLogosTable {
  id: string;
  image: Buffer | null;
  sha256: string | null;
  actor_id: string | null;
  actor_name: string;
  created_at: string;
}

/** A history: each change to the terms is a row (JSON terms as they then stood, JSON changes, who). */
export interface OperatorTermsTable {
  id: string;
  terms: string;
  changes: string;
  actor_id: string | null;
  actor_name: string;
  created_at: string;
}

/** Append-only (triggers refuse UPDATE and DELETE); no foreign keys, so it outlives the PCN. */
export interface PcnAuditTable {
  id: string;
  pcn_id: string;
  actor_id: string | null;
  actor_name: Generated<string>;
  action: PcnAuditAction;
  /** JSON: { field: { from, to } }. */
  changes: string;
  clock_offset_ms: number | null;
  created_at: string;
}

/** Kept by triggers (migration 0005): PCNs per owner ('' once the owner is deleted) and status. */
export interface PcnCountsTable {
  owner_id: string;
  status: PcnStatus;
  n: number;
}

export interface PcnDuplicatesTable {
  pcn_id: string;
  duplicate_of_pcn_id: string;
  created_at: string;
}

/** The hirer a hire firm named (Schedule 4, paragraph 13), and the day its documents were given (personal data: admins only, removed with the notice). */
export interface PcnHirersTable {
  pcn_id: string;
  title: string;
  first_names: string;
  last_name: string;
  company_name: string;
  /** JSON array of address lines. */
  address_lines: string;
  postcode: string;
  hire_agreement_reference: string;
  documents_given_on: string;
  /** The letter's posting: posted on, presumed given on (YYYY-MM-DD), the proof-of-posting reference. */
  notice_posted_on: string | null;
  notice_given_on: string | null;
  notice_proof: string | null;
  recorded_by: string;
  created_at: string;
  updated_at: string;
}

export interface PcnImagesTable {
  id: string;
  pcn_id: string;
  file_name: string;
  original_name: Generated<string>;
  mime_type: string;
  size: number;
  sha256: string;
  taken_at: string | null;
  created_at: string;
  client_sha256: string | null;
  taken_at_source: PhotoTakenAtSource | null;
  latitude: number | null;
  longitude: number | null;
  accuracy_m: number | null;
  /** Comma-separated PHOTO_SHOT_TYPES ids; '' for none. */
  shots: Generated<string>;
  /** When the file was removed under the retention policy (migration 0008); null while kept. */
  purged_at: string | null;
}

/** The registered keeper of a notice's vehicle (personal data: admins only, removed by retention). */
export interface PcnKeepersTable {
  pcn_id: string;
  title: string;
  first_names: string;
  last_name: string;
  company_name: string;
  /** JSON array of address lines. */
  address_lines: string;
  postcode: string;
  /** The vehicle as the DVLA holds it. */
  make: string;
  model: string;
  colour: string;
  source: KeeperSource;
  vehicle_confirmed_at: string | null;
  vehicle_confirmed_by: string | null;
  created_at: string;
  updated_at: string;
  /** REGISTERED_KEEPER or HIRE_COMPANY (a hire or lease firm, which names the hirer). */
  keeper_type: Generated<KeeperType>;
  vehicle_mismatch_at: string | null;
  vehicle_mismatch_by: string | null;
}

/** The driver named with an address for service, and where the name came from, KEEPER_REPLY or APPEAL (personal data: admins only, removed with the notice). */
export interface PcnNamedDriversTable {
  pcn_id: string;
  title: string;
  first_names: string;
  last_name: string;
  company_name: string;
  /** JSON array of address lines. */
  address_lines: string;
  postcode: string;
  source: NamedDriverSource;
  /** The letter's posting: posted on, presumed given on (YYYY-MM-DD), the proof-of-posting reference. */
  notice_posted_on: string | null;
  notice_given_on: string | null;
  notice_proof: string | null;
  recorded_by: string;
  created_at: string;
  updated_at: string;
}

/** A payment an admin recorded against a charge. */
export interface PcnPaymentsTable {
  id: string;
  pcn_id: string;
  amount_pence: number;
  paid_on: string;
  method: PaymentMethod;
  reference: string;
  recorded_by: string | null;
  created_at: string;
  /** The admin's attempt (Idempotency-Key): a replay finds this payment. Null before keys were kept. */
  idempotency_key: string | null;
  /** How much more than was due this payment was, when recorded (0: none, or not known). */
  overpaid_pence: Generated<number>;
  /** The Stripe payment intent a card payment on /charge was taken by; null for payments recorded by staff. */
  stripe_payment_intent: string | null;
}

/** Money given back against one payment: through Stripe for a card payment (its refund id), else recorded by hand. */
export interface PcnRefundsTable {
  id: string;
  pcn_id: string;
  payment_id: string;
  amount_pence: number;
  reason: string;
  method: RefundMethod;
  status: RefundStatus;
  stripe_refund_id: string | null;
  idempotency_key: string | null;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
}

export interface PcnStatusHistoryTable {
  id: string;
  pcn_id: string;
  from_status: PcnStatus | null;
  to_status: PcnStatus;
  note: string | null;
  changed_by: string | null;
  created_at: string;
}

export interface PcnsTable {
  id: string;
  sequence: number;
  pcn_number: string;
  vehicle_registration: string;
  car_park_id: string;
  offence_type: OffenceType;
  description: Generated<string>;
  location: Generated<string>;
  status: PcnStatus;
  admin_notes: string | null;
  observed_at: string | null;
  created_by: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  created_at: string;
  updated_at: string;
  issued_at: string | null;
  stay_applies: Generated<boolean>;
  clock_offset_ms: number | null;
  duplicate_reason: string | null;
  /** AFFIXED, HANDED or DRIVE_OFF; null on notices filed before service was recorded. */
  notice_served_by: NoticeServedBy | null;
  notice_served_at: string | null;
  /** The last day the notice to keeper may be posted (YYYY-MM-DD); null where keeper liability is not available. */
  keeper_post_by: string | null;
  /** The terms in force when the notice was issued (rows of operator_terms, car_park_terms); null where none were set. */
  operator_terms_id: string | null;
  car_park_terms_id: string | null;
  /** The notice to keeper: posted on, presumed given on (YYYY-MM-DD), and the proof-of-posting reference. */
  keeper_notice_posted_on: string | null;
  keeper_notice_given_on: string | null;
  keeper_notice_proof: string | null;
  /** The reference its notice to driver printed before it was sent ('D-1A2B3C4D', from the Idempotency-Key); null when the key was no draft id. */
  draft_reference: string | null;
  /** The start of the period of parking every document states: the first sighting, else when the officer began the notice. */
  first_seen_at: string | null;
  /** Where an unpaid charge stands after its notice to keeper; null before one was posted. */
  collection_stage: CollectionStage | null;
  reminder_posted_on: string | null;
  letter_before_claim_posted_on: string | null;
  /** The debt recovery fee the letter before claim warned of (within the sector cap); null where none was. */
  debt_recovery_fee_pence: number | null;
  debt_recovery_batch_id: string | null;
  /** Why a CANCELLED charge was cancelled; cancellation_note says more (required for OTHER). */
  cancellation_reason: CancellationReason | null;
  cancellation_note: string | null;
  /** The officer's reason for a notice to a registration holding a valid permit. */
  permit_override_reason: string | null;
  /** JSON: the permit check the notice was filed with (when, against which list, the permit found), or null before checks were kept. */
  permit_check: string | null;
  /** A summary of the notice's photo rows, kept with them (migration 0044): how many, the first one's file while kept, and when they were removed. */
  photo_count: Generated<number>;
  first_photo_file_name: string | null;
  photos_purged_at: string | null;
}

/** A file attached to a pending appeal, already in the evidence store; the appeal takes it over when confirmed. */
export interface PendingAppealAttachmentsTable {
  pending_appeal_id: string;
  position: number;
  original_name: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
}

/** An appeal filed from /charge, waiting to be confirmed from the email address it gives (decision 0032). */
export interface PendingAppealsTable {
  id: string;
  pcn_id: string;
  idempotency_key: string;
  /** The SHA-256 of the confirmation link's token; the token itself is only in the email. */
  token_hash: string;
  /** JSON: the appeal's fields as the motorist filed them. */
  appeal: string;
  /** When it was filed: the appeal's received time once confirmed. */
  filed_at: string;
  expires_at: string;
  confirmed_at: string | null;
}

/** A history: each change to a permit (JSON { field: { from, to } }) and who made it. */
export interface PermitChangesTable {
  id: string;
  permit_id: string;
  actor_id: string | null;
  actor_name: string;
  changes: string;
  created_at: string;
}

/** A registration allowed to park at a car park from valid_from until valid_until (open-ended when null); ended_at ends it early and keeps the row. */
export interface PermitsTable {
  id: string;
  car_park_id: string;
  vehicle_registration: string;
  kind: PermitKind;
  valid_from: string;
  valid_until: string | null;
  note: Generated<string>;
  source: PermitSource;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  ended_by_name: string | null;
}

/** One counted event of a named limit (migration 0009; auth/rate-limit.ts). `at` is epoch milliseconds. */
export interface RateLimitEventsTable {
  id: string;
  scope: string;
  key: string;
  at: number;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  family_id: string;
  expires_at: string;
  rotated_at: string | null;
  replaced_by_id: string | null;
  revoked_at: string | null;
  created_at: string;
  /** When this token's one grace replay was spent (migration 0007; no longer written). */
  grace_used_at: string | null;
  /** The token this one was rotated into, sealed (auth/sealed-text.ts): a replay in the reuse window gets it again. */
  successor_sealed: string | null;
  /** The hash of the device token the rotation was sent with (migration 0029): only that device may replay it. */
  rotated_device_hash: string | null;
}

/** A document as it was sent (decision 0025): its file in the evidence store, its SHA-256, who made it. */
export interface SentDocumentsTable {
  id: string;
  pcn_id: string;
  kind: SentDocumentKind;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  /** The posting day a letter prints as its date sent; null for a document not posted. */
  post_on: string | null;
  reference: string | null;
  created_at: string;
  created_by: string | null;
  created_by_name: string;
  /** Set when the retention policy removed the file; the row and its hash stay. */
  purged_at: string | null;
}

/** An appeal an admin set aside (decision 0032): out of `appeals`, so the charge's one appeal is free again, kept as filed. */
export interface SetAsideAppealsTable {
  /** The appeal's own id. */
  id: string;
  pcn_id: string;
  reference: string;
  /** JSON: the appeal's row and its attachments (names and SHA-256s) as they were. */
  appeal: string;
  reason: string;
  set_aside_at: string;
  set_aside_by: string;
}

/** One counted password guess (migration 0009; auth/sign-in-limiter.ts). Times are epoch milliseconds. `account` is null once the account's failures at the address were forgotten: the guess then counts for the address cap only. */
export interface SignInAttemptsTable {
  id: string;
  account: string | null;
  address: string;
  /** When the guess was counted: the address cap runs from here. */
  reserved_at: number;
  /** When the account's lock and backoff run from: the reservation, or a wrong guess's answer. */
  counted_at: number;
  is_failure: Generated<boolean>;
}

export interface SiteVisitsTable {
  id: string;
  user_id: string;
  started_at: string;
  last_seen_at: string;
}

/** Each Stripe webhook event received, by its id: a replay finds it and changes nothing. */
export interface StripeEventsTable {
  id: string;
  type: string;
  pcn_id: string | null;
  outcome: string;
  received_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  password_hash: string | null;
  is_active: Generated<boolean>;
  created_at: string;
  updated_at: string;
}

export interface Database {
  activities: ActivitiesTable;
  appeal_attachments: AppealAttachmentsTable;
  appeals: AppealsTable;
  cancellation_requests: CancellationRequestsTable;
  car_park_terms: CarParkTermsTable;
  car_park_users: CarParkUsersTable;
  car_parks: CarParksTable;
  card_checkouts: CardCheckoutsTable;
  debt_recovery_batches: DebtRecoveryBatchesTable;
  debt_recovery_handover_items: DebtRecoveryHandoverItemsTable;
  debt_recovery_handovers: DebtRecoveryHandoversTable;
  debt_recovery_updates: DebtRecoveryUpdatesTable;
  emails: EmailsTable;
  evidence_packs: EvidencePacksTable;
  known_devices: KnownDevicesTable;
  letter_batch_items: LetterBatchItemsTable;
  letter_batches: LetterBatchesTable;
  observations: ObservationsTable;
  one_time_tokens: OneTimeTokensTable;
  operator_logos: OperatorLogosTable;
  operator_terms: OperatorTermsTable;
  pcn_audit: PcnAuditTable;
  pcn_counts: PcnCountsTable;
  pcn_duplicates: PcnDuplicatesTable;
  pcn_hirers: PcnHirersTable;
  pcn_images: PcnImagesTable;
  pcn_keepers: PcnKeepersTable;
  pcn_named_drivers: PcnNamedDriversTable;
  pcn_payments: PcnPaymentsTable;
  pcn_refunds: PcnRefundsTable;
  pcn_status_history: PcnStatusHistoryTable;
  pcns: PcnsTable;
  pending_appeal_attachments: PendingAppealAttachmentsTable;
  pending_appeals: PendingAppealsTable;
  permit_changes: PermitChangesTable;
  permits: PermitsTable;
  rate_limit_events: RateLimitEventsTable;
  refresh_tokens: RefreshTokensTable;
  sent_documents: SentDocumentsTable;
  set_aside_appeals: SetAsideAppealsTable;
  sign_in_attempts: SignInAttemptsTable;
  site_visits: SiteVisitsTable;
  stripe_events: StripeEventsTable;
  users: UsersTable;
}

/** The flags (boolean columns), by table: SQLite stores them as 0/1 and the connection reads them back as booleans. */
export const FLAG_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  appeals: ['was_driver', 'is_late'],
  car_parks: ['is_active', 'stay_applies_by_default', 'relevant_land'],
  pcns: ['stay_applies'],
  sign_in_attempts: ['is_failure'],
  users: ['is_active'],
};
