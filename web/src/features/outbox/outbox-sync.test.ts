import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, SERVER_MESSAGES } from '@parkpatrol/shared';
import { findDraftPhotos, queueDraft } from '../../lib/local-db/drafts.ts';
import type { LocalDb } from '../../lib/local-db/records.ts';
import { saveSessionRow } from '../../lib/local-db/session-row.ts';
import { classifyPcnResponse, newNoticeBodyOf, createOutboxSync, type OutboxSyncDeps } from './outbox-sync.ts';
import { RETRY_REASONS } from './retry-reasons.ts';
import {
  addQueuedDraft,
  createdPcnAnswer,
  createExclusiveLocks,
  createMemoryTokenProvider,
  createTestDb,
  failureAnswer,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
} from './outbox-test-kit.ts';

// The engine against a scripted HTTP server on loopback: every failure class of design
// section 6, over real sockets. The suite against the real API is outbox-sync.api.test.ts.

const USER = 'user-1';
const session = { userId: USER, token: 'access-1', refreshToken: 'refresh-1' };
const fixedRandom = () => 0.5;

let db: LocalDb;
let server: ScriptedServer;

beforeEach(async () => {
  db = createTestDb();
  server = await startScriptedServer(() => ({ status: 500 }));
});

afterEach(async () => {
  await server.close();
  db.close();
});

function createEngine(overrides: Partial<OutboxSyncDeps> = {}) {
  const tokens = createMemoryTokenProvider(session);
  const engine = createOutboxSync({ db, baseUrl: server.baseUrl, tokens, locks: null, random: fixedRandom, ...overrides });
  return { engine, tokens };
}

async function readForm(request: RecordedRequest): Promise<FormData> {
  const body = new Uint8Array(request.body);
  return new Request('http://local/', {
    method: 'POST',
    headers: { 'content-type': String(request.headers['content-type']) },
    body,
  }).formData();
}

describe('sending a queued draft', () => {
  it('posts multipart with the draft id as Idempotency-Key and marks the draft sent', async () => {
    const draft = await addQueuedDraft(db, USER);
    server.setHandler(() => createdPcnAnswer(draft.id, '00000042'));
    const { engine } = createEngine();

    const result = await engine.run();

    expect(result).toMatchObject({ sent: 1, pending: 0, nextAttemptAt: null });
    const [post] = server.pcnPosts();
    expect(post?.headers['idempotency-key']).toBe(draft.id);
    expect(post?.headers.authorization).toBe('Bearer access-1');
    const form = await readForm(post!);
    expect(form.get('vehicleRegistration')).toBe('AB12CDE');
    expect(form.get('carParkId')).toBe('car-park-1');
    expect(form.get('offenceType')).toBe('PARKING_WITHOUT_PERMIT');
    expect(form.get('location')).toBe('Bay 12, level 2');
    expect(form.get('observedAt')).toBe(draft.observedAt);
    const images = form.getAll('images') as File[];
    expect(images.map((image) => image.name)).toEqual(['photo-1.jpg', 'photo-2.jpg', 'photo-3.jpg', 'photo-4.jpg']);
    expect(images.every((image) => image.type === 'image/jpeg' && image.size > 100)).toBe(true);
    expect(form.getAll('imageTakenAt')).toHaveLength(4);

    const stored = await db.drafts.get(draft.id);
    expect(stored).toMatchObject({ state: 'sent', serverPcnId: `pcn-for-${draft.id}`, serverPcnNumber: '00000042', lastError: null });
    expect(await findDraftPhotos(db, draft.id)).toEqual([]);
  });

  it('sends the queue oldest first', async () => {
    const later = await addQueuedDraft(db, USER, { queuedAt: 2_000 }, 1);
    const earlier = await addQueuedDraft(db, USER, { queuedAt: 1_000 }, 1);
    server.setHandler((request) => createdPcnAnswer(String(request.headers['idempotency-key'])));
    await createEngine().engine.run();
    expect(server.pcnPosts().map((post) => post.headers['idempotency-key'])).toEqual([earlier.id, later.id]);
  });

  it('leaves drafts alone while nobody is signed in', async () => {
    await addQueuedDraft(db, USER);
    const { engine, tokens } = createEngine();
    tokens.set(null);
    expect(await engine.run()).toMatchObject({ signedOut: true, sent: 0 });
    expect(server.requests).toHaveLength(0);
  });

  it('never sends another officer’s draft with the signed-in officer’s token', async () => {
    const theirs = await addQueuedDraft(db, 'someone-else', {}, 1);
    const { engine } = createEngine();
    await engine.run({ force: true });
    expect(server.requests).toHaveLength(0);
    expect((await db.drafts.get(theirs.id))?.state).toBe('queued');
  });
});

describe('failures that pass by themselves are retried with backoff', () => {
  it('keeps the draft queued with backoff when there is no connection', async () => {
    const draft = await addQueuedDraft(db, USER);
    server.setHandler(() => 'destroy');
    const now = 1_000_000;
    const { engine } = createEngine({ now: () => now, backoff: { baseMs: 10_000, capMs: 60_000, minMs: 500 } });

    const result = await engine.run();

    const stored = await db.drafts.get(draft.id);
    expect(stored).toMatchObject({ state: 'queued', attempts: 1, lastError: RETRY_REASONS.offline });
    // attempt 1: full jitter over 0..10 s; random() = 0.5 gives 5 s.
    expect(stored?.nextAttemptAt).toBe(now + 5_000);
    expect(result).toMatchObject({ retrying: 1, pending: 1, nextAttemptAt: now + 5_000 });
    expect((await findDraftPhotos(db, draft.id)).length).toBe(4);
  });

  it('gives up on a stalled upload after the timeout and retries later', async () => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    server.setHandler(() => 'hang');
    const { engine } = createEngine({ uploadTimeoutMs: 300 });
    await engine.run();
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'queued', lastError: RETRY_REASONS.timeout });
  });

  it('a refused notice holds back nothing: the one filed after it still goes in the same pass', async () => {
    const refused = await addQueuedDraft(db, USER, { queuedAt: 1_000 }, 1);
    const fine = await addQueuedDraft(db, USER, { queuedAt: 2_000 }, 1);
    server.setHandler((request) => {
      const key = String(request.headers['idempotency-key']);
      return key === refused.id ? failureAnswer(400, SERVER_MESSAGES.invalidInput, 'VALIDATION_FAILED') : createdPcnAnswer(key);
    });
    const result = await createEngine().engine.run();
    expect(result).toMatchObject({ sent: 1, failed: 1, pending: 0 });
    expect(await db.drafts.get(refused.id)).toMatchObject({ state: 'failed' });
    expect(await db.drafts.get(fine.id)).toMatchObject({ state: 'sent' });
  });

  it('keeps filing order: a stalled upload holds back the notices filed after it, which follow it once it has gone', async () => {
    const stalled = await addQueuedDraft(db, USER, { queuedAt: 1_000 }, 4);
    const second = await addQueuedDraft(db, USER, { queuedAt: 2_000 }, 1);
    const third = await addQueuedDraft(db, USER, { queuedAt: 3_000 }, 1);
    let numbers = 0;
    server.setHandler((request) => {
      const key = String(request.headers['idempotency-key']);
      return key === stalled.id ? 'hang' : createdPcnAnswer(key, String(++numbers).padStart(8, '0'));
    });
    const { engine } = createEngine({ uploadTimeoutMs: 300 });
    expect(await engine.run({ force: true })).toMatchObject({ sent: 0, retrying: 1, pending: 3 });
    expect(await db.drafts.get(stalled.id)).toMatchObject({ state: 'queued', lastError: RETRY_REASONS.timeout });
    expect(server.pcnPosts().map((post) => post.headers['idempotency-key'])).toEqual([stalled.id]);

    // The signal is back: the server numbers them in the order they were filed.
    server.setHandler((request) => createdPcnAnswer(String(request.headers['idempotency-key']), String(++numbers).padStart(8, '0')));
    expect(await engine.run({ force: true })).toMatchObject({ sent: 3, pending: 0 });
    const sent = await Promise.all([stalled, second, third].map((draft) => db.drafts.get(draft.id)));
    expect(sent.map((draft) => draft?.serverPcnNumber)).toEqual(['00000001', '00000002', '00000003']);
  });

  it('keeps filing order when a younger notice’s backoff runs out before the oldest one’s', async () => {
    const at = 1_000_000;
    const oldest = await addQueuedDraft(db, USER, { queuedAt: 1_000, attempts: 3, nextAttemptAt: at + 60_000 }, 1);
    const younger = await addQueuedDraft(db, USER, { queuedAt: 2_000, attempts: 1, nextAttemptAt: at - 1 }, 1);
    server.setHandler((request) => createdPcnAnswer(String(request.headers['idempotency-key'])));
    let now = at;
    const { engine } = createEngine({ now: () => now });
    expect(await engine.run()).toMatchObject({ sent: 0, pending: 2, nextAttemptAt: at + 60_000 });
    expect(server.pcnPosts()).toHaveLength(0);
    now = at + 60_000;
    await engine.run();
    expect(server.pcnPosts().map((post) => post.headers['idempotency-key'])).toEqual([oldest.id, younger.id]);
  });

  it.each([500, 502, 503, 504])('retries after a %i', async (status) => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    server.setHandler(() => failureAnswer(status, 'Internal error', 'INTERNAL'));
    await createEngine().engine.run();
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'queued', attempts: 1, lastError: RETRY_REASONS.serverUnavailable });
  });

  it('respects Retry-After on a 429', async () => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    server.setHandler(() => ({
      ...(failureAnswer(429, SERVER_MESSAGES.tooManyRequests, 'RATE_LIMITED') as object),
      status: 429,
      headers: { 'retry-after': '120' },
    }));
    const now = 5_000_000;
    await createEngine({ now: () => now }).engine.run();
    const stored = await db.drafts.get(draft.id);
    expect(stored?.state).toBe('queued');
    expect(stored?.nextAttemptAt).toBe(now + 120_000);
  });

  it('does not take a captive portal’s 200 page for a created PCN', async () => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    server.setHandler(() => ({ status: 200, text: '<html>Sign in to Station WiFi</html>', headers: { 'content-type': 'text/html' } }));
    await createEngine().engine.run();
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'queued', lastError: RETRY_REASONS.unexpectedAnswer, serverPcnId: null });
  });

  it('waits out the backoff unless forced, then sends with the same key', async () => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    let now = 1_000_000;
    const { engine } = createEngine({ now: () => now });
    server.setHandler(() => failureAnswer(503, 'Down', 'INTERNAL'));
    await engine.run();
    server.setHandler(() => createdPcnAnswer(draft.id));

    await engine.run();
    expect(server.pcnPosts()).toHaveLength(1);

    now += 10 * 60_000;
    await engine.run();
    expect(server.pcnPosts()).toHaveLength(2);
    expect(new Set(server.pcnPosts().map((post) => post.headers['idempotency-key']))).toEqual(new Set([draft.id]));
    expect((await db.drafts.get(draft.id))?.state).toBe('sent');
  });

  it('sends at once when forced (signal back, app start, Retry now)', async () => {
    const draft = await addQueuedDraft(db, USER, { nextAttemptAt: Date.now() + 3_600_000, attempts: 5 }, 1);
    server.setHandler(() => createdPcnAnswer(draft.id));
    await createEngine().engine.run({ force: true });
    expect((await db.drafts.get(draft.id))?.state).toBe('sent');
  });

  it('tries the oldest once per pass even when forced, so a dead server does not spin, and the others wait behind it', async () => {
    await addQueuedDraft(db, USER, { queuedAt: 1_000 }, 1);
    await addQueuedDraft(db, USER, { queuedAt: 2_000 }, 1);
    server.setHandler(() => 'destroy');
    const result = await createEngine().engine.run({ force: true });
    expect(result).toMatchObject({ retrying: 1, pending: 2 });
    expect(server.pcnPosts()).toHaveLength(1);
  });
});

describe('answers the officer must act on', () => {
  it('marks a 400 failed with the server’s message and field errors', async () => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    server.setHandler(() =>
      failureAnswer(400, SERVER_MESSAGES.invalidInput, 'VALIDATION_FAILED', { vehicleRegistration: 'Enter 2 to 10 letters and digits' }),
    );
    const result = await createEngine().engine.run();
    expect(result.failed).toBe(1);
    expect(await db.drafts.get(draft.id)).toMatchObject({
      state: 'failed',
      lastError: SERVER_MESSAGES.invalidInput,
      lastErrorFields: { vehicleRegistration: 'Enter 2 to 10 letters and digits' },
    });
    // The officer's photos stay for the corrected resend.
    expect((await findDraftPhotos(db, draft.id)).length).toBe(1);
  });

  it.each([
    [413, 'The request is too large', 'PAYLOAD_TOO_LARGE'],
    [415, 'Unsupported content type', 'UNSUPPORTED_MEDIA_TYPE'],
    [422, 'This idempotency key was used with different data', 'IDEMPOTENCY_MISMATCH'],
    [403, "You don't have permission to do that", 'FORBIDDEN'],
  ])('marks a %i failed with the server’s message', async (status, message, code) => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    server.setHandler(() => failureAnswer(status, message, code));
    await createEngine().engine.run();
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'failed', lastError: message });
  });

  it('falls back to the catalogue message when the server gives none', () => {
    expect(classifyPcnResponse(400, null, null, 0)).toMatchObject({ kind: 'rejected', message: ERROR_MESSAGES.createPcn });
  });

  it('resends a corrected failed draft with the same key', async () => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    server.setHandler(() => failureAnswer(400, SERVER_MESSAGES.invalidInput, 'VALIDATION_FAILED'));
    const { engine } = createEngine();
    await engine.run();
    await db.drafts.update(draft.id, { vehicleRegistration: 'XY99ZZZ' });
    await queueDraft(db, draft.id);
    server.setHandler(() => createdPcnAnswer(draft.id));
    await engine.run();
    const posts = server.pcnPosts();
    expect(posts.map((post) => post.headers['idempotency-key'])).toEqual([draft.id, draft.id]);
    expect((await readForm(posts[1]!)).get('vehicleRegistration')).toBe('XY99ZZZ');
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'sent', lastError: null, lastErrorFields: null });
  });
});

describe('expired sessions', () => {
  it('refreshes once on a 401, saves the rotated tokens and sends', async () => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    server.setHandler((request) => {
      if (request.path === '/api/auth/refresh')
        return { status: 200, json: { success: true, data: { token: 'access-2', refreshToken: 'refresh-2' } } };
      return request.headers.authorization === 'Bearer access-2'
        ? createdPcnAnswer(draft.id)
        : failureAnswer(401, SERVER_MESSAGES.sessionExpired, 'UNAUTHENTICATED');
    });
    const { engine, tokens } = createEngine();

    await engine.run();

    expect(server.refreshPosts()).toHaveLength(1);
    expect(JSON.parse(server.refreshPosts()[0]!.body.toString())).toEqual({ refreshToken: 'refresh-1' });
    expect(tokens.saved).toEqual([{ userId: USER, token: 'access-2', refreshToken: 'refresh-2', updatedAt: expect.any(Number) }]);
    expect(server.pcnPosts().map((post) => post.headers['idempotency-key'])).toEqual([draft.id, draft.id]);
    expect((await db.drafts.get(draft.id))?.state).toBe('sent');
  });

  it('uses a token the page refreshed meanwhile instead of rotating again', async () => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    const { engine, tokens } = createEngine();
    server.setHandler((request) => {
      if (request.headers.authorization === 'Bearer access-1') {
        tokens.set({ userId: USER, token: 'access-from-page', refreshToken: 'refresh-from-page' });
        return failureAnswer(401, SERVER_MESSAGES.sessionExpired, 'UNAUTHENTICATED');
      }
      return createdPcnAnswer(draft.id);
    });
    await engine.run();
    expect(server.refreshPosts()).toHaveLength(0);
    expect(server.pcnPosts()[1]?.headers.authorization).toBe('Bearer access-from-page');
    expect((await db.drafts.get(draft.id))?.state).toBe('sent');
  });

  it('parks every draft as needs-sign-in when the refresh is refused, and sends them after the next sign-in', async () => {
    const first = await addQueuedDraft(db, USER, { queuedAt: 1 }, 1);
    const second = await addQueuedDraft(db, USER, { queuedAt: 2 }, 1);
    server.setHandler((request) =>
      request.path === '/api/auth/refresh'
        ? failureAnswer(401, SERVER_MESSAGES.sessionExpired, 'UNAUTHENTICATED')
        : request.headers.authorization === 'Bearer access-new'
          ? createdPcnAnswer(String(request.headers['idempotency-key']))
          : failureAnswer(401, SERVER_MESSAGES.sessionExpired, 'UNAUTHENTICATED'),
    );
    const { engine, tokens } = createEngine();

    const result = await engine.run();

    expect(result).toMatchObject({ needsSignIn: 1, pending: 0 });
    expect(server.pcnPosts()).toHaveLength(1);
    expect((await db.drafts.get(first.id))?.state).toBe('needs-sign-in');
    expect((await db.drafts.get(second.id))?.state).toBe('needs-sign-in');
    expect(tokens.saved).toEqual([]);

    // The officer signs in again: the session store mirrors the new tokens, which requeues.
    const fresh = { userId: USER, token: 'access-new', refreshToken: 'refresh-new' };
    await saveSessionRow(db, fresh);
    tokens.set(fresh);
    expect((await db.drafts.get(first.id))?.state).toBe('queued');

    await engine.run();
    expect((await db.drafts.get(first.id))?.state).toBe('sent');
    expect((await db.drafts.get(second.id))?.state).toBe('sent');
  });

  it('keeps the session and retries later when the refresh cannot reach the server', async () => {
    const draft = await addQueuedDraft(db, USER, {}, 1);
    server.setHandler((request) =>
      request.path === '/api/auth/refresh' ? 'destroy' : failureAnswer(401, SERVER_MESSAGES.sessionExpired, 'UNAUTHENTICATED'),
    );
    const { engine, tokens } = createEngine();
    await engine.run();
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'queued', lastError: RETRY_REASONS.offline });
    expect(tokens.saved).toEqual([]);
    expect(await tokens.getTokens()).toEqual(session);
  });
});

describe('one runner at a time', () => {
  async function raceTwoEngines(locks: ReturnType<typeof createExclusiveLocks> | null) {
    const drafts = await Promise.all([1, 2, 3, 4, 5].map((n) => addQueuedDraft(db, USER, { queuedAt: n }, 1)));
    server.setHandler((request) => ({
      ...(createdPcnAnswer(String(request.headers['idempotency-key'])) as object),
      status: 201,
      delayMs: 30,
    }));
    // Two engines on two connections to the same database: two tabs, or a tab and the worker.
    const otherDb = (await import('../../lib/local-db/database.ts')).createLocalDb(db.name);
    const tokens = createMemoryTokenProvider(session);
    const a = createOutboxSync({ db, baseUrl: server.baseUrl, tokens, locks, random: fixedRandom });
    const b = createOutboxSync({ db: otherDb, baseUrl: server.baseUrl, tokens, locks, random: fixedRandom });
    const results = await Promise.all([a.run({ force: true }), b.run({ force: true }), a.run(), b.run()]);
    otherDb.close();
    return { drafts, results };
  }

  it('never uploads a draft twice when two runners race under a Web Lock', async () => {
    const locks = createExclusiveLocks();
    const { drafts } = await raceTwoEngines(locks);
    const keys = server.pcnPosts().map((post) => String(post.headers['idempotency-key']));
    expect(keys.sort()).toEqual(drafts.map((draft) => draft.id).sort());
    expect(locks.maxHolders).toBe(1);
    for (const draft of drafts) expect((await db.drafts.get(draft.id))?.state).toBe('sent');
  });

  it('never uploads a draft twice when two runners race without Web Locks', async () => {
    const { drafts } = await raceTwoEngines(null);
    const keys = server.pcnPosts().map((post) => String(post.headers['idempotency-key']));
    expect(keys.sort()).toEqual(drafts.map((draft) => draft.id).sort());
  });
});

describe('recovering a draft stuck in sending', () => {
  it('requeues and sends it on start when the Web Lock says nobody is sending', async () => {
    const draft = await addQueuedDraft(db, USER, { state: 'sending', attempts: 1, nextAttemptAt: Date.now() + 600_000 }, 1);
    server.setHandler(() => createdPcnAnswer(draft.id));
    await createEngine({ locks: createExclusiveLocks() }).engine.run();
    expect(server.pcnPosts()).toHaveLength(1);
    expect((await db.drafts.get(draft.id))?.state).toBe('sent');
  });

  it('without Web Locks, waits for the claim’s lease to run out before taking it over', async () => {
    let now = 1_000_000;
    const draft = await addQueuedDraft(db, USER, { state: 'sending', attempts: 1, nextAttemptAt: now + 60_000 }, 1);
    server.setHandler(() => createdPcnAnswer(draft.id));
    const { engine } = createEngine({ now: () => now });

    const early = await engine.run();
    expect(server.pcnPosts()).toHaveLength(0);
    expect(early.nextAttemptAt).toBe(now + 60_000);

    now += 60_001;
    await engine.run();
    expect((await db.drafts.get(draft.id))?.state).toBe('sent');
  });
});

describe('housekeeping', () => {
  it('removes sent drafts once they are old enough that the server list has them', async () => {
    const now = 10_000_000_000;
    const old = await addQueuedDraft(db, USER, { state: 'sent', sentAt: now - 8 * 86_400_000 }, 1);
    const recent = await addQueuedDraft(db, USER, { state: 'sent', sentAt: now - 60_000 }, 0);
    await createEngine({ now: () => now }).engine.run();
    expect(await db.drafts.get(old.id)).toBeUndefined();
    expect(await findDraftPhotos(db, old.id)).toEqual([]);
    expect(await db.drafts.get(recent.id)).toBeDefined();
  });
});

describe('evidence facts sent with each notice', () => {
  it('sends the phone clock, each photo’s SHA-256 and where its time came from', async () => {
    const draft = await addQueuedDraft(db, USER);
    server.setHandler(() => createdPcnAnswer(draft.id));
    const { engine } = createEngine({ now: () => Date.parse('2025-06-01T10:00:00.000Z') });

    await engine.run();

    const [post] = server.pcnPosts();
    expect(post?.headers['x-device-time']).toBe('2025-06-01T10:00:00.000Z');
    const form = await readForm(post!);
    const photos = await findDraftPhotos(db, draft.id);
    expect(photos).toHaveLength(0);
    expect(form.getAll('imageSha256')).toHaveLength(4);
    expect((form.getAll('imageSha256') as string[]).every((sha) => /^[0-9a-f]{64}$/.test(sha))).toBe(true);
    expect(form.getAll('imageTakenAtSource')).toHaveLength(4);
  });

  it('reads the photos again and resends once after a checksum mismatch, then fails with the server’s message', async () => {
    const draft = await addQueuedDraft(db, USER);
    server.setHandler(() =>
      failureAnswer(400, 'Photo 2 arrived damaged', 'EVIDENCE_CHECKSUM_MISMATCH', { images: 'Photo 2 arrived damaged' }),
    );
    const { engine } = createEngine();

    const result = await engine.run();

    expect(server.pcnPosts()).toHaveLength(2);
    expect(server.pcnPosts().map((post) => post.headers['idempotency-key'])).toEqual([draft.id, draft.id]);
    expect(result).toMatchObject({ failed: 1, sent: 0 });
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'failed', lastError: 'Photo 2 arrived damaged' });
  });

  it('sends after one checksum mismatch when the second upload arrives whole', async () => {
    const draft = await addQueuedDraft(db, USER);
    let posts = 0;
    server.setHandler(() =>
      ++posts === 1 ? failureAnswer(400, 'Photo 1 arrived damaged', 'EVIDENCE_CHECKSUM_MISMATCH') : createdPcnAnswer(draft.id, '00000007'),
    );
    const { engine } = createEngine();

    expect(await engine.run()).toMatchObject({ sent: 1 });
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'sent', serverPcnNumber: '00000007' });
  });
});

describe('newNoticeBodyOf', () => {
  it("sends the officer's first sighting, issuedAt, stayApplies, reason and each photo's facts in photo order", async () => {
    const observedAt = '2026-06-01T09:00:00.000Z';
    const issuedAt = '2026-06-01T09:15:30.000Z';
    const draft = await addQueuedDraft(
      db,
      USER,
      { observedAt, issuedAt, stayApplies: true, duplicateReason: ' Came back later ', noticeServedBy: 'HANDED', noticeServedAt: issuedAt },
      2,
    );
    const photos = await findDraftPhotos(db, draft.id);
    await db.photos.update(photos[0]!.id, { latitude: 51.501364, longitude: -0.14189, accuracyM: 12, shots: ['number-plate', 'signage'] });
    const form = newNoticeBodyOf(draft, await findDraftPhotos(db, draft.id));

    expect(form.get('observedAt')).toBe(observedAt);
    expect(form.get('issuedAt')).toBe(issuedAt);
    expect(form.get('stayApplies')).toBe('true');
    expect(form.get('duplicateReason')).toBe('Came back later');
    expect(form.get('noticeServedBy')).toBe('HANDED');
    expect(form.get('noticeServedAt')).toBe(issuedAt);
    expect(form.getAll('images')).toHaveLength(2);
    expect(form.getAll('imageSha256')).toEqual(photos.map((photo) => photo.sha256));
    expect(form.getAll('imageLatitude')).toEqual(['51.501364', '']);
    expect(form.getAll('imageLongitude')).toEqual(['-0.14189', '']);
    expect(form.getAll('imageAccuracy')).toEqual(['12', '']);
    expect(form.getAll('imageShots')).toEqual(['number-plate,signage', '']);
  });

  it('leaves out what a draft from before the evidence fields does not know, so the server applies the car park setting', async () => {
    const draft = await addQueuedDraft(
      db,
      USER,
      { observedAt: null, issuedAt: undefined, stayApplies: undefined, duplicateReason: undefined },
      1,
    );
    const form = newNoticeBodyOf(draft, await findDraftPhotos(db, draft.id));
    for (const field of ['observedAt', 'issuedAt', 'stayApplies', 'duplicateReason']) expect(form.has(field)).toBe(false);
    expect(form.getAll('imageTakenAt')).toHaveLength(1);
  });
});
