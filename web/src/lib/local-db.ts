import { Dexie, type EntityTable } from 'dexie';
import type { NoticeServedBy, OffenceType } from '@parkpatrol/shared';
import { abortTransactionsWhenCached } from './page-cache-guard.ts';
import type { SharedTokenStore } from './token-refresh.ts';

/**
 * The device's own database (design section 6). Everything an officer types or photographs
 * lands here first, so a killed app, a dead battery or a week without signal loses nothing.
 * Page and service worker open the same database; the service worker sends with the tokens
 * mirrored into `auth`.
 */

export const LOCAL_DB_NAME = 'parkpatrol';

/**
 * Cache Storage name of evidence images; the service worker fills it and the page clears it on
 * logout, because evidence is personal data that must not outlive the session on a shared phone.
 */
export const EVIDENCE_CACHE_NAME = 'evidence-images';

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

/** Only one row: the signed-in officer's tokens, mirrored for the service worker. */
export const AUTH_ROW_ID = 'session';
export type AuthRecord = {
  id: typeof AUTH_ROW_ID;
  userId: string;
  token: string;
  refreshToken: string;
  updatedAt: number;
  /** The session's device token, sent with the worker's refresh (lib/token-refresh.ts). */
  deviceToken?: string;
};

export type LocalDb = Dexie & {
  drafts: EntityTable<DraftRecord, 'id'>;
  photos: EntityTable<PhotoRecord, 'id'>;
  cache: EntityTable<CacheRecord, 'key'>;
  auth: EntityTable<AuthRecord, 'id'>;
};

export function createLocalDb(name: string = LOCAL_DB_NAME): LocalDb {
  const db = new Dexie(name) as LocalDb;
  db.version(1).stores({
    // [userId+state]: the outbox list and unsent count of one officer; [state+nextAttemptAt]:
    // the engine's "what is due" query; [userId+updatedAt]: the form's "resume my drafts" list.
    drafts: 'id, state, [userId+state], [state+nextAttemptAt], [userId+updatedAt]',
    photos: 'id, draftId, [draftId+position]',
    cache: 'key, storedAt',
    auth: 'id',
  });
  return db;
}

let sharedDb: LocalDb | null = null;

/** The app's one database connection (page or service worker). */
export function getLocalDb(): LocalDb {
  if (!sharedDb) {
    sharedDb = createLocalDb();
    if (typeof window !== 'undefined') abortTransactionsWhenCached(sharedDb, window);
  }
  return sharedDb;
}

// ---- drafts ----

export function createEmptyDraft(userId: string, id: string, now: number): DraftRecord {
  return {
    id,
    userId,
    vehicleRegistration: '',
    carParkId: '',
    offenceType: '',
    description: '',
    location: '',
    // The officer records the first sighting; the draft's creation time is not it.
    observedAt: null,
    stayApplies: null,
    duplicateReason: '',
    checklistWaived: false,
    issuedAt: null,
    step: 0,
    state: 'draft',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    lastErrorFields: null,
    serverPcnId: null,
    serverPcnNumber: null,
    queuedAt: null,
    sentAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Submit: the draft joins the outbox. A failed draft the officer corrected goes back the same
 * way, keeping its id, so a PCN the server did make (answer lost) is still never duplicated.
 */
/** A photo the form showed could not be read back from the phone's storage: the notice is not queued. */
export class PhotoReadBackError extends Error {
  readonly missing: number;
  constructor(missing: number) {
    super(`${missing} ${missing === 1 ? 'photo' : 'photos'} could not be read back from this phone's storage`);
    this.name = 'PhotoReadBackError';
    this.missing = missing;
  }
}

/**
 * Hands a draft to the outbox. With `photoIds` (what the form showed), each photo is read back
 * first, in the same transaction: a photo whose write was lost (storage evicted, a write that
 * never landed) stops the notice here, where the officer can take it again, instead of a notice
 * sent without it.
 */
export async function queueDraft(db: LocalDb, id: string, now = Date.now(), photoIds?: readonly string[]): Promise<void> {
  await db.transaction('rw', db.drafts, db.photos, async () => {
    const draft = await db.drafts.get(id);
    if (!draft) throw new Error(`Draft ${id} not found`);
    if (draft.state === 'sent' || draft.state === 'sending') return;
    if (photoIds) {
      const stored = await db.photos.bulkGet([...photoIds]);
      const missing = stored.filter(
        (photo) => !photo || photo.draftId !== id || !(photo.bytes?.byteLength > 0) || photo.bytes.byteLength !== photo.size,
      ).length;
      if (missing > 0) throw new PhotoReadBackError(missing);
    }
    await db.drafts.update(id, {
      state: 'queued',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      lastErrorFields: null,
      queuedAt: draft.queuedAt ?? now,
      updatedAt: now,
    });
  });
}

/** 'Retry now': forget the backoff of a waiting draft, or requeue a failed or signed-out one. */
export async function retryDraftNow(db: LocalDb, id: string, now = Date.now()): Promise<void> {
  await db.transaction('rw', db.drafts, async () => {
    const draft = await db.drafts.get(id);
    if (!draft || !['queued', 'failed', 'needs-sign-in'].includes(draft.state)) return;
    await db.drafts.update(id, { state: 'queued', nextAttemptAt: 0, updatedAt: now });
  });
}

/** 'Discard': the draft and its photos go together, never one without the other. */
export async function discardDraft(db: LocalDb, id: string): Promise<void> {
  await db.transaction('rw', db.drafts, db.photos, async () => {
    const draft = await db.drafts.get(id);
    // A notice in flight may already be on the server; discarding it now would hide a real PCN.
    if (draft?.state === 'sending') throw new Error('This notice is being sent and cannot be discarded now');
    await db.photos.where('draftId').equals(id).delete();
    await db.drafts.delete(id);
  });
}

/** Drafts still waiting for the server, oldest first: the outbox rows on My PCNs and the dashboard. */
export async function findUnsentDrafts(db: LocalDb, userId: string): Promise<DraftRecord[]> {
  const rows = await db.drafts
    .where('[userId+state]')
    .anyOf(UNSENT_STATES.map((state) => [userId, state]))
    .toArray();
  return rows.sort((a, b) => (a.queuedAt ?? a.createdAt) - (b.queuedAt ?? b.createdAt));
}

export async function countUnsentDrafts(db: LocalDb, userId: string): Promise<number> {
  return db.drafts
    .where('[userId+state]')
    .anyOf(UNSENT_STATES.map((state) => [userId, state]))
    .count();
}

/** Unfinished forms of one officer, newest first, so the form can offer to resume them. */
export async function findOpenDrafts(db: LocalDb, userId: string): Promise<DraftRecord[]> {
  const rows = await db.drafts.where('[userId+updatedAt]').between([userId, Dexie.minKey], [userId, Dexie.maxKey]).reverse().toArray();
  // An open observation is listed as one (findObservations), not as an unfinished draft.
  return rows.filter((draft) => draft.state === 'draft' && draft.observationStatus !== 'OPEN');
}

// ---- observations (the stay rule's two visits, docs/decisions/0012) ----

export type ObservationRow = DraftRecord & { photoCount: number };

/** One officer's open observations (due first) and closed ones (latest first). */
export async function findObservations(db: LocalDb, userId: string): Promise<{ open: ObservationRow[]; closed: ObservationRow[] }> {
  const rows = await db.drafts
    .where('[userId+state]')
    .anyOf([
      [userId, 'draft'],
      [userId, 'closed'],
    ])
    .toArray();
  const withPhotos = await Promise.all(
    rows
      .filter((draft) => draft.state === 'closed' || draft.observationStatus === 'OPEN')
      .map(async (draft) => ({ ...draft, photoCount: await db.photos.where('draftId').equals(draft.id).count() })),
  );
  const dueOf = (row: ObservationRow) => Date.parse(row.observationDueAt ?? '') || 0;
  return {
    open: withPhotos.filter((row) => row.state === 'draft').sort((a, b) => dueOf(a) - dueOf(b)),
    closed: withPhotos
      .filter((row) => row.state === 'closed')
      .sort((a, b) => (b.observationClosedAt ?? '').localeCompare(a.observationClosedAt ?? '')),
  };
}

/**
 * 'Vehicle has gone': the observation closes with no notice. Its photos go (no charge, so no
 * reason to keep pictures of the vehicle); the record stays, and the outbox tells the server.
 */
export async function closeObservation(db: LocalDb, id: string, now = Date.now()): Promise<void> {
  await db.transaction('rw', db.drafts, db.photos, async () => {
    const draft = await db.drafts.get(id);
    if (!draft || draft.state !== 'draft') throw new Error('This observation can no longer be closed: its notice has been submitted');
    await db.drafts.update(id, {
      state: 'closed',
      observationStatus: 'GONE',
      observationClosedAt: new Date(now).toISOString(),
      updatedAt: now,
    });
    await db.photos.where('draftId').equals(id).delete();
  });
}

/** Observations whose status the server has not confirmed yet (a notice completes its own). */
export async function findObservationsToSync(db: LocalDb, userId: string): Promise<DraftRecord[]> {
  const rows = await db.drafts
    .where('[userId+state]')
    .anyOf([
      [userId, 'draft'],
      [userId, 'closed'],
    ])
    .toArray();
  return rows.filter(
    (draft) => draft.observationStatus && draft.observationStatus !== draft.observationSyncedStatus && !draft.observationSyncError,
  );
}

export async function recordObservationSync(
  db: LocalDb,
  id: string,
  outcome: { status: ObservationSyncStatus } | { error: string },
): Promise<void> {
  await db.drafts.update(
    id,
    'error' in outcome ? { observationSyncError: outcome.error } : { observationSyncedStatus: outcome.status, observationSyncError: null },
  );
}

/** States in which the form may still change a draft: a queued or sent one belongs to the outbox. */
export const EDITABLE_DRAFT_STATES: readonly DraftState[] = ['draft', 'failed'];

/**
 * Saves what the form holds. A draft another tab has queued (or the outbox has sent) meanwhile
 * is left alone: the form's copy is out of date, and the server's copy wins.
 */
export async function saveDraft(db: LocalDb, draft: DraftRecord, now = Date.now()): Promise<boolean> {
  return db.transaction('rw', db.drafts, async () => {
    const stored = await db.drafts.get(draft.id);
    // Another officer's draft (a shared phone, an old ?draft= link) is never written over.
    if (stored && (stored.userId !== draft.userId || !EDITABLE_DRAFT_STATES.includes(stored.state))) return false;
    await db.drafts.put({ ...(stored ?? draft), ...pickDraftContent(draft), updatedAt: now });
    return true;
  });
}

/**
 * Makes sure the draft's row exists before a photo is stored for it (a reload must find the
 * draft of every photo), writing nothing when it does: the copy a photo's caller holds was taken
 * before the photo compressed, and the form may have saved newer fields meanwhile (the
 * observation turning OPEN once its first photo is in), which a full save would undo.
 */
export async function saveDraftIfNew(db: LocalDb, draft: DraftRecord, now = Date.now()): Promise<void> {
  await db.transaction('rw', db.drafts, async () => {
    if (!(await db.drafts.get(draft.id))) await db.drafts.put({ ...draft, updatedAt: now });
  });
}

function pickDraftContent(draft: DraftRecord): Partial<DraftRecord> {
  const {
    vehicleRegistration,
    carParkId,
    offenceType,
    description,
    location,
    observedAt,
    step,
    pcnId,
    pcnNumber,
    existingImages,
    removeImageIds,
    userId,
  } = draft;
  const {
    stayApplies,
    duplicateReason,
    checklistWaived,
    issuedAt,
    observationDueAt,
    observationStatus,
    noticeServedBy,
    noticeServedAt,
    firstSeenAt,
  } = draft;
  return {
    userId,
    vehicleRegistration,
    carParkId,
    offenceType,
    description,
    location,
    observedAt,
    stayApplies,
    duplicateReason,
    checklistWaived,
    issuedAt,
    observationDueAt,
    observationStatus,
    noticeServedBy,
    noticeServedAt,
    firstSeenAt,
    step,
    pcnId,
    pcnNumber,
    existingImages,
    removeImageIds,
  };
}

/** A notice in the outbox with how many photos it carries, for the row that shows it. */
export type OutboxRow = DraftRecord & { photoCount: number };

/**
 * The outbox of one officer: the notices the server has not confirmed, oldest first. A sent one
 * leaves it at once: the PCN list, reloaded when the outbox sends, shows it (once).
 */
export async function findOutboxRows(db: LocalDb, userId: string): Promise<OutboxRow[]> {
  const drafts = await findUnsentDrafts(db, userId);
  return Promise.all(drafts.map(async (draft) => ({ ...draft, photoCount: await db.photos.where('draftId').equals(draft.id).count() })));
}

/** Number of the officer's notices the server confirmed since `since`: lists reload when it grows. */
export async function countSentDraftsSince(db: LocalDb, userId: string, since: number): Promise<number> {
  return db.drafts
    .where('[userId+state]')
    .equals([userId, 'sent'])
    .filter((draft) => (draft.sentAt ?? 0) >= since)
    .count();
}

/**
 * The session ended without a sign-in to take over (logout, or the server refused the refresh):
 * the officer's waiting notices say 'Sign in to send' and go out after the next sign-in.
 */
export async function holdDraftsForSignIn(db: LocalDb, userId: string, now = Date.now()): Promise<number> {
  return db.drafts.where('[userId+state]').equals([userId, 'queued']).modify({ state: 'needs-sign-in', nextAttemptAt: 0, updatedAt: now });
}

export async function findDraftPhotos(db: LocalDb, draftId: string): Promise<PhotoRecord[]> {
  return db.photos.where('[draftId+position]').between([draftId, Dexie.minKey], [draftId, Dexie.maxKey]).toArray();
}

// ---- tokens mirrored for the service worker ----

/**
 * Mirrors the session for the service worker. A saved session is a working one, so the
 * officer's notices parked as 'needs-sign-in' go back to the queue in the same transaction:
 * signing in again is all it takes to send them.
 */
export async function saveMirroredTokens(
  db: LocalDb,
  session: { userId: string; token: string; refreshToken: string; deviceToken?: string },
  now = Date.now(),
): Promise<void> {
  await db.transaction('rw', db.auth, db.drafts, async () => {
    await db.auth.put({ id: AUTH_ROW_ID, ...session, updatedAt: now });
    await resumeDraftsAfterSignIn(db, session.userId, now);
  });
}

export async function resumeDraftsAfterSignIn(db: LocalDb, userId: string, now = Date.now()): Promise<number> {
  return db.drafts
    .where('[userId+state]')
    .equals([userId, 'needs-sign-in'])
    .modify({ state: 'queued', nextAttemptAt: 0, lastError: null, updatedAt: now });
}

export async function readMirroredTokens(db: LocalDb): Promise<AuthRecord | undefined> {
  return db.auth.get(AUTH_ROW_ID);
}

/** The `auth` row as lib/token-refresh.ts reads and rotates it: a refresh keeps the row's officer. */
export function sharedTokenStore(db: LocalDb = getLocalDb()): SharedTokenStore {
  return {
    async read() {
      const row = await readMirroredTokens(db);
      return row
        ? {
            userId: row.userId,
            token: row.token,
            refreshToken: row.refreshToken,
            updatedAt: row.updatedAt,
            deviceToken: row.deviceToken ?? null,
          }
        : null;
    },
    async write(tokens) {
      await db.transaction('rw', db.auth, async () => {
        const row = await readMirroredTokens(db);
        if (row) await db.auth.put({ ...row, ...tokens, updatedAt: Date.now() });
      });
    },
  };
}

export async function clearMirroredTokens(db: LocalDb): Promise<void> {
  await db.auth.delete(AUTH_ROW_ID);
}

// ---- read cache (car parks, PCN pages and details, profile) ----

export async function writeCache<T>(db: LocalDb, key: string, value: T, now = Date.now()): Promise<void> {
  await db.cache.put({ key, value, storedAt: now });
}

/** Logout: what was read from the server must not outlive the session on a shared phone. */
export async function clearCache(db: LocalDb): Promise<void> {
  await db.cache.clear();
}

export async function readCache<T>(db: LocalDb, key: string): Promise<CacheRecord<T> | undefined> {
  return (await db.cache.get(key)) as CacheRecord<T> | undefined;
}

// ---- storage ----

/** Whether the browser has agreed to keep our storage; false where it cannot say (it then keeps nothing for sure). */
export async function readStoragePersisted(): Promise<boolean> {
  try {
    return (await globalThis.navigator?.storage?.persisted?.()) ?? false;
  } catch {
    return false;
  }
}

/**
 * Asks the browser not to evict our database under storage pressure; without it Safari may
 * clear IndexedDB after seven days without a visit, taking unsent notices with it.
 */
export async function requestPersistentStorage(): Promise<boolean> {
  const storage = globalThis.navigator?.storage;
  if (!storage?.persist) return false;
  try {
    if (await storage.persisted()) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}
