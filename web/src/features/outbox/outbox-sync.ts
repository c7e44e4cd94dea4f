import { apiPath, draftFirstSeenAt, ERROR_MESSAGES, IDEMPOTENCY_KEY_HEADER, SERVER_MESSAGES, type ApiBodyOf } from '@parkpatrol/shared';
import { buildPcnFormData, deviceTimeHeader } from '../../lib/evidence-multipart.ts';
import { createTokenRefresh } from '../../lib/token-refresh.ts';
import { findDraftPhotos } from '../../lib/local-db/drafts.ts';
import { findObservationsToSync, recordObservationSync } from '../../lib/local-db/observations.ts';
import type { DraftRecord, LocalDb, PhotoRecord } from '../../lib/local-db/records.ts';
import { computeNextAttemptAt, DEFAULT_BACKOFF, parseRetryAfter, type BackoffOptions } from './backoff.ts';
import { nextToSend, nextWakeAt } from './send-order.ts';
import { RETRY_REASONS } from './retry-reasons.ts';

/**
 * The one sync engine (decision 0009). It runs in the page and in the service worker, so it
 * touches no DOM and no React: everything it needs from its host is passed in.
 *
 * Exactly once rests on two things. The draft id is the Idempotency-Key, so whatever we resend
 * after a lost answer, the server makes one PCN. And a draft is claimed ('queued' -> 'sending')
 * in a Dexie transaction before it is sent, under a Web Lock held across tabs and the service
 * worker, so two runners never upload the same draft at the same time.
 */

export type SessionTokens = {
  userId: string;
  token: string;
  refreshToken: string;
  /** When the pair was stored (epoch ms), so a pair another context rotated since is told apart. */
  updatedAt?: number;
  /** The session's device token, sent with a refresh (lib/token-refresh.ts). */
  deviceToken?: string;
};

/** The pair every context reads (the Dexie `auth` row); refreshed only through lib/token-refresh.ts. */
export type TokenProvider = {
  /** The signed-in officer's tokens, or null when nobody is signed in. */
  getTokens(): Promise<SessionTokens | null>;
  /** Called by the refresh: refresh tokens rotate, so the new pair must replace the old everywhere. */
  saveTokens(tokens: SessionTokens): Promise<void>;
};

/** The part of the Web Locks API we use; `navigator.locks` satisfies it. */
export type OutboxLocks = {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
};

export type OutboxSyncDeps = {
  db: LocalDb;
  /** API base, e.g. '/api' in the app or 'http://127.0.0.1:1234/api' in a test. */
  baseUrl: string;
  tokens: TokenProvider;
  fetch?: typeof fetch;
  /** Defaults to navigator.locks; null means "none here", which selects the in-process mutex. */
  locks?: OutboxLocks | null;
  now?: () => number;
  random?: () => number;
  /** Four compressed photos over a weak 3G link can take a minute; two leaves room. */
  uploadTimeoutMs?: number;
  refreshTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** Sent drafts stay this long so the officer sees the PCN number, then go. */
  keepSentMs?: number;
};

export type OutboxRunOptions = {
  /** Ignore backoff: the signal just came back, the app just started, or 'Retry now'. */
  force?: boolean;
};

export type OutboxRunResult = {
  sent: number;
  failed: number;
  retrying: number;
  needsSignIn: number;
  /** Queued drafts of the signed-in officer still waiting after this run. */
  pending: number;
  /** Earliest time a waiting draft is due again (epoch ms), for the backoff timer; null if none. */
  nextAttemptAt: number | null;
  signedOut: boolean;
};

export type SendOutcome =
  | { kind: 'sent'; pcnId: string; pcnNumber: string }
  | { kind: 'retry'; reason: string; retryAfterMs: number | null }
  | { kind: 'unauthorized' }
  | { kind: 'rejected'; status: number; message: string; fields: Record<string, string> | null; code?: string | null };

type RefreshOutcome = { kind: 'refreshed'; tokens: SessionTokens } | { kind: 'refused' } | { kind: 'unreachable'; reason: string };

type DraftOutcome = SendOutcome | { kind: 'needs-sign-in' } | { kind: 'refresh-unreachable'; reason: string } | { kind: 'session-changed' };

export const OUTBOX_LOCK_NAME = 'parkpatrol-outbox';
/** The server hashed a photo differently from the phone: the bytes were damaged on the way. */
export const EVIDENCE_CHECKSUM_MISMATCH = 'EVIDENCE_CHECKSUM_MISMATCH';
export const DEFAULT_UPLOAD_TIMEOUT_MS = 2 * 60_000;
const DEFAULT_REFRESH_TIMEOUT_MS = 30_000;
const DEFAULT_KEEP_SENT_MS = 7 * 24 * 60 * 60_000;

export function createOutboxSync(deps: OutboxSyncDeps) {
  const { db, tokens: tokenProvider } = deps;
  const fetchFn = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const locks = deps.locks === undefined ? readNavigatorLocks() : deps.locks;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const uploadTimeoutMs = deps.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const refreshTimeoutMs = deps.refreshTimeoutMs ?? DEFAULT_REFRESH_TIMEOUT_MS;
  const backoff = deps.backoff ?? DEFAULT_BACKOFF;
  const keepSentMs = deps.keepSentMs ?? DEFAULT_KEEP_SENT_MS;
  // A claim covers an upload, a refresh and the upload again; past that its runner is gone.
  const claimLeaseMs = 2 * uploadTimeoutMs + refreshTimeoutMs + 30_000;
  const baseUrl = deps.baseUrl.replace(/\/+$/, '');
  const tokenRefresh = createTokenRefresh({
    baseUrl,
    fetch: fetchFn,
    locks,
    timeoutMs: refreshTimeoutMs,
    store: {
      async read() {
        const current = await tokenProvider.getTokens();
        return current ? { ...current, updatedAt: current.updatedAt ?? 0 } : null;
      },
      async write(pair) {
        const current = await tokenProvider.getTokens();
        if (current) await tokenProvider.saveTokens({ ...current, ...pair, updatedAt: now() });
      },
    },
  });

  let activeRun: Promise<OutboxRunResult> | null = null;
  let rerun: OutboxRunOptions | null = null;

  /**
   * Runs the outbox until nothing is due. Calls that arrive while a run is going are folded
   * into one more pass after it, so a draft queued a moment after the runner looked is never
   * left behind, and a burst of triggers costs one pass, not ten.
   */
  function run(options: OutboxRunOptions = {}): Promise<OutboxRunResult> {
    if (activeRun) {
      rerun = { force: Boolean(rerun?.force || options.force) };
      return activeRun;
    }
    activeRun = (async () => {
      let next: OutboxRunOptions | null = options;
      let result: OutboxRunResult | undefined;
      while (next) {
        rerun = null;
        const passOptions: OutboxRunOptions = next;
        result = await withOutboxLock(() => runPass(passOptions));
        next = rerun;
      }
      return result as OutboxRunResult;
    })().finally(() => {
      activeRun = null;
    });
    return activeRun;
  }

  function withOutboxLock<T>(task: () => Promise<T>): Promise<T> {
    if (locks) return locks.request(OUTBOX_LOCK_NAME, task);
    return withInProcessMutex(OUTBOX_LOCK_NAME, task);
  }

  async function runPass(options: OutboxRunOptions): Promise<OutboxRunResult> {
    const result: OutboxRunResult = { sent: 0, failed: 0, retrying: 0, needsSignIn: 0, pending: 0, nextAttemptAt: null, signedOut: false };
    await recoverAbandonedClaims();
    await deleteOldSentDrafts();
    let session = await tokenProvider.getTokens();
    if (!session) return { ...result, signedOut: true };

    const attempted = new Set<string>();
    for (;;) {
      const draft = await claimNextDueDraft(session.userId, Boolean(options.force), attempted);
      if (!draft) break;
      attempted.add(draft.id);
      const { outcome, tokens } = await sendClaimedDraft(draft, session);
      session = tokens;
      await recordOutcome(draft, outcome);
      if (outcome.kind === 'sent') result.sent++;
      else if (outcome.kind === 'rejected') result.failed++;
      else if (outcome.kind === 'needs-sign-in') result.needsSignIn++;
      else result.retrying++;
      // Without a usable session every other draft would meet the same wall; stop here.
      if (outcome.kind === 'needs-sign-in' || outcome.kind === 'refresh-unreachable' || outcome.kind === 'session-changed') {
        return { ...result, ...(await summarisePending(session.userId)) };
      }
    }
    // Observations unconfirmed for want of signal go with the next run (signal back, app start).
    await syncObservations(session);
    return { ...result, ...(await summarisePending(session.userId)) };
  }

  /**
   * Tells the server each observation's status (docs/decisions/0012): PUT with the draft id, so
   * a replay after a lost answer changes nothing. A refusal is kept and not retried; no answer
   * is tried again on the next run.
   */
  async function syncObservations(session: SessionTokens): Promise<void> {
    let tokens = session;
    for (const draft of await findObservationsToSync(db, session.userId)) {
      const status = draft.observationStatus!;
      // An observation starts with its time; a row without one has nothing the server could keep.
      if (!draft.observedAt) continue;
      const observation: ApiBodyOf<'PUT /observations/:id'> = {
        vehicleRegistration: draft.vehicleRegistration,
        carParkId: draft.carParkId,
        observedAt: draft.observedAt,
        status,
        closedAt: draft.observationClosedAt ?? null,
      };
      const body = JSON.stringify(observation);
      const put = (token: string) =>
        fetchWithTimeout(
          baseUrl + apiPath('PUT /observations/:id', { id: draft.id }),
          {
            method: 'PUT',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
            body,
            cache: 'no-store',
          },
          refreshTimeoutMs,
        );
      let answer = await put(tokens.token);
      if (answer.kind === 'answer' && answer.status === 401) {
        const refreshed = await refreshSession(tokens);
        if (refreshed.kind !== 'refreshed') return;
        tokens = refreshed.tokens;
        answer = await put(tokens.token);
      }
      if (answer.kind === 'answer' && answer.status >= 200 && answer.status < 300) {
        await recordObservationSync(db, draft.id, { status });
      } else if (
        answer.kind === 'answer' &&
        answer.status >= 400 &&
        answer.status < 500 &&
        ![401, 404, 408, 425, 429].includes(answer.status)
      ) {
        await recordObservationSync(db, draft.id, { error: readMessage(answer.json) ?? 'The server refused this observation' });
      }
    }
  }

  /**
   * A draft left in 'sending' means its runner died mid-upload (app killed, tab closed). Under a
   * Web Lock nobody else can be sending now, so every such claim is abandoned; without one (very
   * old browsers) only claims past their lease are, and the idempotency key covers the rest.
   */
  async function recoverAbandonedClaims(): Promise<void> {
    const at = now();
    await db.transaction('rw', db.drafts, async () => {
      await db.drafts
        .where('state')
        .equals('sending')
        .filter((draft) => locks !== null || draft.nextAttemptAt <= at)
        .modify({ state: 'queued', nextAttemptAt: 0, updatedAt: at });
    });
  }

  async function deleteOldSentDrafts(): Promise<void> {
    const cutoff = now() - keepSentMs;
    await db.transaction('rw', db.drafts, db.photos, async () => {
      const old = await db.drafts
        .where('state')
        .equals('sent')
        .filter((draft) => (draft.sentAt ?? draft.updatedAt) < cutoff)
        .primaryKeys();
      if (old.length === 0) return;
      await db.photos.where('draftId').anyOf(old).delete();
      await db.drafts.bulkDelete(old);
    });
  }

  /**
   * Claims the head of the officer's queue (send-order.ts): the oldest filed, if due. A head
   * already tried in this pass went back to the queue for want of a connection (or a server
   * able to take it): the pass ends there, and the notices filed after it wait for it.
   */
  async function claimNextDueDraft(userId: string, force: boolean, attempted: Set<string>): Promise<DraftRecord | null> {
    return db.transaction('rw', db.drafts, async () => {
      const at = now();
      const queued = await db.drafts.where('[userId+state]').equals([userId, 'queued']).toArray();
      const draft = nextToSend(queued, { at, force, attempted });
      if (!draft) return null;
      const claim = { state: 'sending' as const, attempts: draft.attempts + 1, nextAttemptAt: at + claimLeaseMs, updatedAt: at };
      await db.drafts.update(draft.id, claim);
      return { ...draft, ...claim };
    });
  }

  async function sendClaimedDraft(draft: DraftRecord, session: SessionTokens): Promise<{ outcome: DraftOutcome; tokens: SessionTokens }> {
    const sent = await sendWithSession(draft, session);
    if (sent.outcome.kind !== 'rejected' || sent.outcome.code !== EVIDENCE_CHECKSUM_MISMATCH) return sent;
    // A photo changed between the phone and the server (a flaky proxy, a bad read): read the
    // stored bytes again and try once more; a second mismatch is shown to the officer.
    return sendWithSession(draft, sent.tokens);
  }

  async function sendWithSession(draft: DraftRecord, session: SessionTokens): Promise<{ outcome: DraftOutcome; tokens: SessionTokens }> {
    const photos = await findDraftPhotos(db, draft.id);
    const first = await postPcn(draft, photos, session.token);
    if (first.kind !== 'unauthorized') return { outcome: first, tokens: session };

    // The page may have refreshed while we uploaded: use its new token rather than rotating again.
    const latest = (await tokenProvider.getTokens()) ?? session;
    if (latest.userId !== draft.userId) return { outcome: { kind: 'session-changed' }, tokens: latest };
    let tokens = latest;
    if (latest.token === session.token) {
      const refreshed = await refreshSession(latest);
      if (refreshed.kind === 'refused') return { outcome: { kind: 'needs-sign-in' }, tokens: latest };
      if (refreshed.kind === 'unreachable') return { outcome: { kind: 'refresh-unreachable', reason: refreshed.reason }, tokens: latest };
      tokens = refreshed.tokens;
    }
    const second = await postPcn(draft, photos, tokens.token);
    // A token minted a moment ago and still refused: the account is gone or disabled.
    if (second.kind === 'unauthorized') return { outcome: { kind: 'needs-sign-in' }, tokens };
    return { outcome: second, tokens };
  }

  async function postPcn(draft: DraftRecord, photos: PhotoRecord[], token: string): Promise<SendOutcome> {
    const body = newNoticeBodyOf(draft, photos);
    const answer = await fetchWithTimeout(
      baseUrl + apiPath('POST /pcns', {}),
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          [IDEMPOTENCY_KEY_HEADER]: draft.id,
          // The phone's clock at sending, so the server can record how far off it was.
          ...deviceTimeHeader(now()),
          accept: 'application/json',
        },
        body,
        cache: 'no-store',
      },
      uploadTimeoutMs,
    );
    if (answer.kind === 'no-answer') return { kind: 'retry', reason: answer.reason, retryAfterMs: null };
    return classifyPcnResponse(answer.status, answer.json, answer.retryAfter, now());
  }

  /** Through lib/token-refresh.ts, the app's one refresh: it also stores the new pair. */
  async function refreshSession(session: SessionTokens): Promise<RefreshOutcome> {
    const outcome = await tokenRefresh.refresh({
      token: session.token,
      refreshToken: session.refreshToken,
      deviceToken: session.deviceToken ?? null,
    });
    if (outcome.kind === 'refreshed') return { kind: 'refreshed', tokens: { userId: session.userId, ...outcome.tokens } };
    // Only an explicit refusal ends the session (decision 0002: a network failure is never a sign-out).
    if (outcome.kind === 'refused') return { kind: 'refused' };
    if (outcome.status === null) return { kind: 'unreachable', reason: outcome.timedOut ? RETRY_REASONS.timeout : RETRY_REASONS.offline };
    return { kind: 'unreachable', reason: outcome.status === 429 ? RETRY_REASONS.rateLimited : RETRY_REASONS.serverUnavailable };
  }

  type Answer = { kind: 'answer'; status: number; json: unknown; retryAfter: string | null } | { kind: 'no-answer'; reason: string };

  /** Plain fetch with our own timeout, which says whether it timed out: the outbox's backoff decides every retry. */
  async function fetchWithTimeout(url: string, init: RequestInit, timeoutMs: number): Promise<Answer> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await fetchFn(url, { ...init, signal: controller.signal });
      // The body is read under the same timeout: a stalled answer is as lost as no answer.
      const text = await response.text();
      return { kind: 'answer', status: response.status, json: parseJson(text), retryAfter: response.headers.get('retry-after') };
    } catch {
      return { kind: 'no-answer', reason: timedOut ? RETRY_REASONS.timeout : RETRY_REASONS.offline };
    } finally {
      clearTimeout(timer);
    }
  }

  async function recordOutcome(draft: DraftRecord, outcome: DraftOutcome): Promise<void> {
    const at = now();
    await db.transaction('rw', db.drafts, db.photos, async () => {
      const current = await db.drafts.get(draft.id);
      // Only the claim's owner writes the result; anything else means the claim was taken over.
      if (!current || current.state !== 'sending') return;
      switch (outcome.kind) {
        case 'sent':
          await db.drafts.update(draft.id, {
            state: 'sent',
            serverPcnId: outcome.pcnId,
            serverPcnNumber: outcome.pcnNumber,
            sentAt: at,
            nextAttemptAt: 0,
            lastError: null,
            lastErrorFields: null,
            updatedAt: at,
          });
          // The server has the photos; keeping a second copy would only fill the phone.
          await db.photos.where('draftId').equals(draft.id).delete();
          return;
        case 'rejected':
          await db.drafts.update(draft.id, {
            state: 'failed',
            lastError: outcome.message,
            lastErrorFields: outcome.fields,
            nextAttemptAt: 0,
            updatedAt: at,
          });
          return;
        case 'needs-sign-in':
          await db.drafts.update(draft.id, {
            state: 'needs-sign-in',
            nextAttemptAt: 0,
            lastError: SERVER_MESSAGES.sessionExpired,
            updatedAt: at,
          });
          // The same refused session would fail every other draft of this officer too.
          await db.drafts
            .where('[userId+state]')
            .equals([draft.userId, 'queued'])
            .modify({ state: 'needs-sign-in', lastError: SERVER_MESSAGES.sessionExpired, updatedAt: at });
          return;
        case 'session-changed':
          await db.drafts.update(draft.id, { state: 'queued', nextAttemptAt: 0, lastError: RETRY_REASONS.sessionChanged, updatedAt: at });
          return;
        case 'retry':
        case 'refresh-unreachable':
        case 'unauthorized': {
          const retryAfterMs = outcome.kind === 'retry' ? outcome.retryAfterMs : null;
          const reason = outcome.kind === 'unauthorized' ? SERVER_MESSAGES.sessionExpired : outcome.reason;
          await db.drafts.update(draft.id, {
            state: 'queued',
            nextAttemptAt: computeNextAttemptAt(current.attempts, at, random, retryAfterMs, backoff),
            lastError: reason,
            updatedAt: at,
          });
          return;
        }
      }
    });
  }

  async function summarisePending(userId: string): Promise<Pick<OutboxRunResult, 'pending' | 'nextAttemptAt'>> {
    const waiting = await db.drafts
      .where('[userId+state]')
      .anyOf([
        [userId, 'queued'],
        [userId, 'sending'],
      ])
      .toArray();
    const queued = waiting.filter((draft) => draft.state === 'queued');
    // The head's backoff, or a claim held by a runner that may be dead, when its lease runs out.
    return { pending: queued.length, nextAttemptAt: nextWakeAt(waiting) };
  }

  return { run };
}

export type OutboxSync = ReturnType<typeof createOutboxSync>;

/**
 * Turns the answer to POST /pcns into what the outbox does next (decision 0009): retry on
 * anything that may pass by itself, refresh on 401, and stop with the server's message on
 * anything the officer must change.
 */
export function classifyPcnResponse(status: number, json: unknown, retryAfter: string | null, now: number): SendOutcome {
  if (status >= 200 && status < 300) {
    const data = readEnvelopeData(json);
    if (typeof data?.id === 'string' && typeof data.pcnNumber === 'string')
      return { kind: 'sent', pcnId: data.id, pcnNumber: data.pcnNumber };
    // A hotel or station Wi-Fi login page answers 200 with HTML: the PCN is not on our server.
    return { kind: 'retry', reason: RETRY_REASONS.unexpectedAnswer, retryAfterMs: null };
  }
  if (status === 401) return { kind: 'unauthorized' };
  if (status === 429)
    return { kind: 'retry', reason: readMessage(json) ?? RETRY_REASONS.rateLimited, retryAfterMs: parseRetryAfter(retryAfter, now) };
  // 408/425 are timing, 404 is a route missing behind a proxy or mid-deploy: none is the notice's fault.
  if (status >= 500 || status === 408 || status === 425 || status === 404 || status < 200) {
    return { kind: 'retry', reason: RETRY_REASONS.serverUnavailable, retryAfterMs: parseRetryAfter(retryAfter, now) };
  }
  // 400, 403, 409, 413, 415, 422 and the rest: resending the same thing cannot succeed.
  return {
    kind: 'rejected',
    status,
    message: readMessage(json) ?? ERROR_MESSAGES.createPcn,
    fields: readDetails(json),
    code: readCode(json),
  };
}

/** The multipart body of POST /pcns for a stored draft and its photos (lib/evidence-multipart.ts). */
export function newNoticeBodyOf(draft: DraftRecord, photos: PhotoRecord[]): FormData {
  return buildPcnFormData({
    fields: draft,
    // One value of each fact per image, in the same order, so the server pairs them by position;
    // the server hashes what it received and refuses a photo that differs from what was taken.
    photos: photos.map((photo) => ({
      ...photo,
      file: new Blob([photo.bytes], { type: photo.type }),
      takenAt: photo.takenAt ?? new Date(photo.createdAt).toISOString(),
      takenAtSource: photo.takenAtSource ?? (photo.takenAt ? null : 'added'),
    })),
    evidence: {
      observedAt: draft.observedAt,
      issuedAt: draft.issuedAt,
      // Submit stores the effective value; a row queued before the evidence fields has none and
      // the server applies the car park's setting.
      stayApplies: draft.stayApplies,
      duplicateReason: draft.duplicateReason || null,
      permitOverrideReason: draft.permitOverrideReason || null,
      noticeServedBy: draft.noticeServedBy ?? null,
      noticeServedAt: draft.noticeServedAt ?? null,
      firstSeenAt: draftFirstSeenAt(draft),
    },
  });
}

function readCode(json: unknown): string | null {
  if (!json || typeof json !== 'object') return null;
  const { code } = json as { code?: unknown };
  return typeof code === 'string' ? code : null;
}

function readEnvelopeData(json: unknown): Record<string, unknown> | null {
  if (!json || typeof json !== 'object') return null;
  const data = (json as { data?: unknown }).data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : null;
}

function readMessage(json: unknown): string | null {
  if (!json || typeof json !== 'object') return null;
  const { message, error } = json as { message?: unknown; error?: unknown };
  if (typeof message === 'string' && message) return message;
  if (typeof error === 'string' && error) return error;
  return null;
}

function readDetails(json: unknown): Record<string, string> | null {
  if (!json || typeof json !== 'object') return null;
  const details = (json as { details?: unknown }).details;
  if (!details || typeof details !== 'object') return null;
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(details)) if (typeof value === 'string') fields[key] = value;
  return Object.keys(fields).length > 0 ? fields : null;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function readNavigatorLocks(): OutboxLocks | null {
  const nav = (globalThis as { navigator?: { locks?: OutboxLocks } }).navigator;
  return nav?.locks ?? null;
}

const mutexTails = new Map<string, Promise<unknown>>();

/**
 * Serialises runners of one JavaScript context when the Web Locks API is missing (tests on
 * Node, Safari before 15.4). Every engine of this context shares it, as tabs share a Web Lock.
 */
function withInProcessMutex<T>(name: string, task: () => Promise<T>): Promise<T> {
  const previous = mutexTails.get(name) ?? Promise.resolve();
  const result = previous.then(task, task);
  const tail = result.catch(() => undefined);
  mutexTails.set(name, tail);
  void tail.then(() => {
    if (mutexTails.get(name) === tail) mutexTails.delete(name);
  });
  return result;
}
