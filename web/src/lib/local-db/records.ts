import type { Dexie, EntityTable } from 'dexie';
import type { NoticeServedBy, OffenceType } from '@parkpatrol/shared';

/** What the device's database holds (decision 0009): one type per store, and the database's own type. */

export const LOCAL_DB_NAME = 'parkpatrol';

/** 'closed': an observation whose vehicle had gone at the second visit; no notice (docs/decisions/0012). */
export const DRAFT_STATES = ['draft', 'queued', 'sending', 'failed', 'needs-sign-in', 'sent', 'closed'] as const;
export type DraftState = (typeof DRAFT_STATES)[number];

/** Drafts the officer still has to see in the outbox: submitted, not yet confirmed by the server. */
export const UNSENT_STATES: readonly DraftState[] = ['queued', 'sending', 'failed', 'needs-sign-in'];

export type DraftFields = {
  vehicleRegistration: string;
  carParkId: string;
  offenceType: OffenceType | '';
  description: string;
  location: string;
  /** When the officer saw the offence (ISO); the server records it as observed_at. */
  observedAt: string | null;
  /**
   * Evidence fields; optional because rows stored before them have none. stayApplies null follows
   * the car park's setting while the form is open; Submit stores the effective value, so a later
   * change of the car park's setting cannot turn an allowed notice into a refused one.
   */
  stayApplies?: boolean | null;
  duplicateReason?: string;
  /** Why the officer issued although the registration holds a permit here (decision 0041). */
  permitOverrideReason?: string;
  /** OTHER only: the officer ticked "Continue without" for shots the checklist cannot know. */
  checklistWaived?: boolean;
  /** When Submit was pressed (ISO): the notice is issued then, however late it is sent. */
  issuedAt?: string | null;
  /**
   * A stay's observation (docs/decisions/0012): when the second visit is due (ISO), while a stay
   * applies and the first sighting is recorded; null otherwise.
   */
  observationDueAt?: string | null;
  /** 'OPEN' once the observation has a registration, a car park and a photo; 'GONE' when closed. */
  observationStatus?: ObservationSyncStatus | null;
  /** When the officer found the vehicle gone (ISO). */
  observationClosedAt?: string | null;
  /** How the notice to driver was served and when (Review & Submit), sent with the notice. */
  noticeServedBy?: NoticeServedBy | null;
  noticeServedAt?: string | null;
  /** The start of the period of parking as the officer corrected it on Review & Submit; null follows the default (draftFirstSeenAt). */
  firstSeenAt?: string | null;
};

export type ObservationSyncStatus = 'OPEN' | 'GONE';

/** An image already on the server, kept by an edit draft unless the officer removes it. */
export type ExistingImageRecord = { id: string; fileName: string; url: string; shots?: string[] };

export type DraftRecord = DraftFields & {
  /** UUID, also the Idempotency-Key: a retry after a lost answer can never make a second PCN. */
  id: string;
  userId: string;
  /** Wizard step the officer was on, so a reload resumes where they were. */
  step: number;
  state: DraftState;
  /** Send attempts since the draft was last queued; drives the backoff. */
  attempts: number;
  /**
   * Epoch ms. For `queued`: not before this time (backoff). For `sending`: the claim's lease,
   * after which a runner may treat the claim as abandoned when there is no Web Lock to tell.
   */
  nextAttemptAt: number;
  /** The observation status the server has confirmed (the outbox sends the draft's when they differ). */
  observationSyncedStatus?: ObservationSyncStatus | null;
  /** The server's refusal of the observation, which resending cannot change; shown on the list. */
  observationSyncError?: string | null;
  lastError: string | null;
  /** Per-field messages from a 400, keyed by form field, so the form shows them in place. */
  lastErrorFields: Record<string, string> | null;
  serverPcnId: string | null;
  serverPcnNumber: string | null;
  /** Epoch ms when Submit was pressed; orders the queue first-in first-out. */
  queuedAt: number | null;
  /** Epoch ms when the server confirmed the PCN. */
  sentAt: number | null;
  createdAt: number;
  updatedAt: number;
  /**
   * Set when the draft edits a PCN already on the server. Edits are sent online (PUT) by the
   * form and never queued; the draft keeps what the officer changed across a reload.
   */
  pcnId?: string | null;
  pcnNumber?: string | null;
  existingImages?: ExistingImageRecord[];
  removeImageIds?: string[];
};

export type PhotoRecord = {
  id: string;
  draftId: string;
  /**
   * Raw bytes, not a Blob: Safari has lost or failed to read Blobs stored in IndexedDB for years
   * (WebKit bugs 156347, 188438); an ArrayBuffer survives everywhere.
   */
  bytes: ArrayBuffer;
  type: string;
  name: string;
  size: number;
  /** Capture time (EXIF DateTimeOriginal, else when the photo was added), ISO. */
  takenAt: string | null;
  /** Where takenAt came from: the camera's EXIF, or the moment it was added to the form. */
  takenAtSource?: 'camera' | 'added';
  /** Hex SHA-256 of `bytes`, compared with the server's after upload. */
  sha256: string;
  /** Where the device was when the photo was added; null when location is off or too vague. */
  latitude?: number | null;
  longitude?: number | null;
  accuracyM?: number | null;
  /** Checklist shots the officer marked on this photo (PHOTO_SHOT_TYPES ids). */
  shots?: string[];
  /** Order in which the officer added the photo. */
  position: number;
  createdAt: number;
};

export type CacheRecord<T = unknown> = {
  key: string;
  value: T;
  storedAt: number;
};

/**
 * Only one row: the session's token pair, its one home (lib/session-tokens.ts). The page, its
 * other tabs and the service worker all read and rotate this row, and nothing else.
 */
export const AUTH_ROW_ID = 'session';
export type AuthRecord = {
  id: typeof AUTH_ROW_ID;
  userId: string;
  token: string;
  refreshToken: string;
  /** When the pair was written (epoch ms); kept for the record, never used to choose a pair. */
  updatedAt: number;
  /** The session's device token, sent with every refresh (lib/token-refresh.ts). */
  deviceToken?: string;
};

export type LocalDb = Dexie & {
  drafts: EntityTable<DraftRecord, 'id'>;
  photos: EntityTable<PhotoRecord, 'id'>;
  cache: EntityTable<CacheRecord, 'key'>;
  auth: EntityTable<AuthRecord, 'id'>;
};
