import type { AppealStatus } from './appeals.ts';
import type { KeeperLiabilityGap, KeeperNoticeRoute, NoticeServedBy } from './keeper-liability.ts';
import type { OffenceType } from './offence-types.ts';
import type { PcnStatus, PcnStatusCounts } from './pcn-status.ts';
import type { Role } from './roles.ts';
import type { Pagination } from './envelope.ts';
import type { PhotoShotType } from './photo-checklist.ts';
import type { CarParkTerms, NoticeTerms } from './operator-terms.ts';
import type { Hirer, Keeper, KeeperState, NamedDriver } from './keeper.ts';
import type { PaymentSummary } from './payments.ts';
import type { PcnCollection } from './collection.ts';
import type { CancellationReason } from './permits.ts';
import type { CancellationRequest } from './landowners.ts';

/** The API shapes (camelCase) of every entity. Never carries a hash or a token. */
export type User = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  isActive: boolean;
  hasPassword: boolean;
  createdAt: string;
  updatedAt: string;
  carParks?: CarParkSummary[];
};

export type CarParkSummary = { id: string; name: string };

/**
 * GET /onboarding/users: who may need onboarding: every user but the admin asking,
 * with when they were last sent an onboarding email and last signed in (null: never).
 */
export type OnboardingCandidate = User & { lastOnboardingEmailAt: string | null; lastSignInAt: string | null };
export type OnboardingCandidatesResponse = {
  users: OnboardingCandidate[];
  /** The base of the links the emails carry (APP_URL), and whether a phone could never open it. */
  appUrl: string;
  isAppUrlLocal: boolean;
};

export type CarPark = CarParkTerms & {
  id: string;
  name: string;
  siteCode: string;
  address: string;
  postcode: string;
  isActive: boolean;
  considerationMinutes: number;
  graceMinutes: number;
  /** Whether a stay (consideration + grace before issuing) applies unless the officer says otherwise. */
  stayAppliesByDefault: boolean;
  /** Why consideration or grace is shorter than the Single Code's minimum; null when neither is. */
  minimumsOverrideReason: string | null;
  /** Schedule 4 paragraph 3's "relevant land"; false for byelaw land, where no keeper liability arises. */
  relevantLand: boolean;
  createdAt: string;
  updatedAt: string;
  assignedUsers?: Array<Pick<User, 'id' | 'firstName' | 'lastName' | 'email' | 'role'>>;
};

export type PcnImage = {
  id: string;
  fileName: string;
  /** A signed, expiring URL of the photo; null once the file was removed under the retention policy. */
  url: string | null;
  /** The same photo about 320 px wide (WebP), for grids and lists; the original opens from `url`. */
  thumbnailUrl?: string | null;
  mimeType: string;
  size: number;
  /** SHA-256 of the bytes as the server received them. */
  sha256: string;
  /** SHA-256 the device computed when the photo was stored; equal to sha256 when sent (a mismatch is refused). */
  clientSha256?: string | null;
  takenAt: string | null;
  /** 'camera': takenAt came from the photo's EXIF; 'added': when it was added to the form. */
  takenAtSource?: PhotoTakenAtSource | null;
  /** Device position when the photo was taken, if the officer allowed location (WGS84 degrees, metres). */
  latitude?: number | null;
  longitude?: number | null;
  accuracyM?: number | null;
  /** Checklist shots this photo shows (OFFENCE_PHOTO_CHECKLIST ids). */
  shots?: PhotoShotType[];
  createdAt: string;
  /** When the file was removed under the retention policy; its hashes and capture facts stay. */
  purgedAt?: string | null;
};

export type PhotoTakenAtSource = 'camera' | 'added';

export type PcnStatusChange = {
  id: string;
  fromStatus: PcnStatus | null;
  toStatus: PcnStatus;
  note: string | null;
  changedBy: { id: string; firstName: string; lastName: string } | null;
  createdAt: string;
};

export type Pcn = {
  id: string;
  pcnNumber: string;
  vehicleRegistration: string;
  carParkId: string;
  carPark: CarParkSummary | null;
  offenceType: OffenceType;
  description: string;
  location: string;
  status: PcnStatus;
  adminNotes: string | null;
  /** When the vehicle was first seen (device time). */
  observedAt: string | null;
  /** The start of the period of parking every document states: the first sighting, else when the officer began the notice; never after the service. */
  firstSeenAt?: string;
  /** When the notice was issued (device time; the server's receipt time when the device sent none). */
  issuedAt?: string | null;
  /** Whether a stay applies, so consideration + grace had to pass between observedAt and issuedAt. */
  stayApplies?: boolean;
  /** Server receipt time minus the device's clock when the PCN was first sent (X-Device-Time); null when not sent. */
  clockOffsetMs?: number | null;
  /** The device clock was more than two minutes off (CLOCK_SKEW_WARNING_MS). */
  clockSkewWarning?: boolean;
  /**
   * The end (UK time) of keeperNotice.lastPostingDate, for the time left; absent where keeper
   * liability is not available.
   */
  keeperNoticeDueAt?: string;
  /** KEEPER_NOTICE_WARNING_WORKING_DAYS or fewer working days before the last posting day (or past it) while the notice can still go out. */
  deadlineWarning?: boolean;
  /** The officer's reason for continuing although the same parking event already had a PCN. Owner and admins. */
  duplicateReason?: string | null;
  /** Why the officer issued although the registration held a permit there (decision 0041). */
  permitOverrideReason?: string | null;
  /** Other PCNs for the same parking event, flagged to admins. Admins only (absent for a USER). */
  possibleDuplicates?: PcnReference[];
  /** How and when the notice to driver was served; null on notices filed before it was recorded. */
  noticeToDriver: NoticeToDriver | null;
  /** The route to keeper liability and its posting window (decision 0016). */
  keeperNotice: KeeperNotice;
  /** The terms in force when the notice was issued (decision 0017). In the detail (GET /pcns/{id}) only. */
  terms?: NoticeTerms;
  /** The registered keeper (personal data): in the detail, for admins only. */
  keeper?: Keeper | null;
  /** Admins: whether the keeper is recorded and the vehicle confirmed (in the list too). */
  keeperState?: KeeperState;
  /** Admins, in the detail: the hirer a hire firm named (Schedule 4, paragraph 13), and the notice to hirer. */
  hirer?: Hirer | null;
  /** Admins, in the detail: the driver named with an address for service, and the notice to them. */
  namedDriver?: NamedDriver | null;
  /** Admins, in the detail: payments recorded against the charge and their total. */
  payments?: PaymentSummary;
  /** Admins, in the detail: the motorist's appeal against the charge, if there is one (decision 0019). */
  appeal?: {
    id: string;
    reference: string;
    status: AppealStatus;
    respondBy: string;
    /** When it came (an appeal by email, post or phone: the day it came). */
    receivedAt: string;
    /** When it was decided; null while open. */
    decidedAt: string | null;
  } | null;
  /** Admins: where the chase after the notice to keeper stands (decision 0039); null before a notice to keeper was posted. */
  collection?: PcnCollection | null;
  /** Why a CANCELLED charge was cancelled, and the note (required for OTHER); null otherwise (decision 0042). */
  cancellationReason?: CancellationReason | null;
  cancellationNote?: string | null;
  /** Admins, in the detail: the landowners' requests to cancel it, newest first (decision 0042). */
  cancellationRequests?: CancellationRequest[];
  createdBy: { id: string; firstName: string; lastName: string } | null;
  images: PcnImage[];
  /** When the photos' files were removed under the retention policy; null while kept. */
  photosPurgedAt?: string | null;
  statusHistory?: PcnStatusChange[];
  createdAt: string;
  updatedAt: string;
};

export type PcnReference = { id: string; pcnNumber: string };

export type NoticeToDriver = { servedBy: NoticeServedBy; servedAt: string };

/** Dates are 'YYYY-MM-DD' in UK local time; null where they do not apply (yet). */
export type KeeperNotice = {
  route: KeeperNoticeRoute;
  /** Why Schedule 4 does not reach the land (route NOT_AVAILABLE); null where it does. */
  gap: KeeperLiabilityGap | null;
  firstPostingDate: string | null;
  lastPostingDate: string | null;
  postedOn: string | null;
  deemedGivenOn: string | null;
};

/** GET /pcns/duplicates: what an officer may see of another officer's PCN for the same parking event. */
export type PcnDuplicateMatch = { id: string; pcnNumber: string; status: PcnStatus; createdAt: string };
export type PcnDuplicatesResponse = { duplicates: PcnDuplicateMatch[] };

export const PCN_AUDIT_ACTIONS = [
  'created',
  'updated',
  'image_added',
  'image_removed',
  'status_changed',
  'notes_changed',
  'deleted',
  'images_purged',
  'keeper_changed',
  'keeper_notice_posted',
  'hirer_recorded',
  'driver_named',
  'letter_posted',
  'payment_recorded',
  'appeal_received',
  'appeal_decided',
  'appeal_considered',
  'appeal_set_aside',
  'appeal_withdrawn',
  'refund_recorded',
  'collection_stage_changed',
  'debt_recovery_exported',
  'debt_recovery_outcome',
  'cancellation_requested',
  'cancellation_request_decided',
] as const;
export type PcnAuditAction = (typeof PCN_AUDIT_ACTIONS)[number];

/** One entry of a PCN's audit trail: who, when, and each changed field's old and new value. */
export type PcnAuditEntry = {
  id: string;
  pcnId: string;
  action: PcnAuditAction;
  /** The actor as they are now; null once their account is deleted, or for the retention job (no account). */
  actor: { id: string; firstName: string; lastName: string } | null;
  /** The actor's name as recorded with the change (kept after their account is gone). */
  actorName: string;
  changes: Record<string, { from: unknown; to: unknown }>;
  /** Device clock offset of the request that made the change, when it sent X-Device-Time. */
  clockOffsetMs: number | null;
  createdAt: string;
};
export type PcnAuditResponse = { pcnId: string; entries: PcnAuditEntry[] };

export type AuthTokens = { token: string; refreshToken: string };
/** `deviceToken` marks this device as one that signed in to the account: the app sends it at later sign-ins. */
export type LoginResponse = AuthTokens & { user: User; deviceToken: string };
export type AccessLinkResponse = LoginResponse & { mustSetPassword: boolean };

/**
 * A row of a PCN list: what list screens show. Photos are only counted, with the first one's
 * thumbnail; their hashes, capture facts and full-size URLs come with the PCN itself (GET /pcns/{id}).
 */
export type PcnListItem = Omit<Pcn, 'images'> & { photoCount: number; firstThumbnailUrl: string | null };
export type PcnListResponse = { pcns: PcnListItem[]; pagination: Pagination };
/** GET /pcns/stats: counts per status in the caller's scope (own PCNs for a USER, all for admins). */
export type PcnStats = { counts: PcnStatusCounts; total: number };
export type UserListResponse = { users: User[]; pagination: Pagination };
export type CarParkListResponse = { carParks: CarPark[]; pagination: Pagination };

export type Activity = {
  id: string;
  activityType: string;
  description: string | null;
  createdAt: string;
  user: { id: string; firstName: string; lastName: string } | null;
  /** The PCN it concerns, while that PCN exists. */
  pcn: { id: string; pcnNumber: string } | null;
};

export type AnalyticsSummary = {
  totalUsers: number;
  activeUsers: number;
  totalPCNs: number;
  totalActivities: number;
  recentActivities: Activity[];
  pcnsPerDay: Array<{ date: string; count: number }>;
  pcnsByStatus: Record<PcnStatus, number>;
};

export type UserWithStats = {
  user: Pick<User, 'id' | 'firstName' | 'lastName' | 'email' | 'role'>;
  stats: {
    totalLogins: number;
    totalPCNsSubmitted: number;
    totalPCNsViewed: number;
    totalTimeOnSite: number;
    lastActivityAt: string | null;
  };
};

export type OnboardingResult = { userId: string; success: boolean; error?: string };

/**
 * 'Select all matching' (GET /pcns/selection, GET /users/selection): every row the filters
 * select, at most MAX_BULK_ITEMS, with what the bulk actions need to know of each.
 */
export type PcnSelectionResponse = { items: Array<{ id: string; status: PcnStatus }>; total: number };
export type UserSelectionResponse = { items: Array<{ id: string; isActive: boolean }>; total: number };
/** One row's outcome in a bulk action: `label` names it (PCN-00000012, Ada Admin) so results need no lookup. */
export type BulkResult = { id: string; label: string; success: boolean; error?: string };
export type BulkResponse = { results: BulkResult[] };
/**
 * GET /pcns/:id/neighbours: the PCNs before and after this one in the list its query describes
 * (filters and sort), for the review's 'Previous' and 'Save & next'. position is 1-based, null
 * when this PCN no longer matches the filters (its neighbours are still where it would sort).
 */
/** `totalCapped`: as in Pagination, the list is counted only so far ('1,000+'). */
export type PcnNeighbours = {
  previousId: string | null;
  nextId: string | null;
  position: number | null;
  total: number;
  totalCapped?: boolean;
};
export type BulkOnboardingResponse = { results: OnboardingResult[] };

export type HealthResponse = { status: 'ok' | 'degraded'; db: 'ok' | 'error' };
