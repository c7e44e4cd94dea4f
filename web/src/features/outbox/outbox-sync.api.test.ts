import 'fake-indexeddb/auto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../api/test/test-app.ts';
import { createLocalDb } from '../../lib/local-db/database.ts';
import { closeObservation } from '../../lib/local-db/observations.ts';
import type { LocalDb } from '../../lib/local-db/records.ts';
import { saveSessionRow } from '../../lib/local-db/session-row.ts';
import { createOutboxSync, type OutboxSyncDeps, type SessionTokens } from './outbox-sync.ts';
import { RETRY_REASONS } from './retry-reasons.ts';
import { addQueuedDraft, createExclusiveLocks, createMemoryTokenProvider, createTestDb } from './outbox-test-kit.ts';

// The engine against the real API (real Hono app, real SQLite file, real upload folder) over
// real sockets. Exactly once is the server's idempotency and the engine's discipline together,
// so it is only worth proving against the server that really stores the PCNs.

const probe = await createTestApp();
// The PCN routes are written in parallel with this suite; until POST /pcns exists (401 without a
// token rather than 404), these cases are skipped with this reason instead of failing.
const hasPcnRoutes = (await probe.request('POST', '/pcns')).status !== 404;
await probe.close();

describe.skipIf(!hasPcnRoutes)('outbox against the real API', () => {
  let api: TestApp;
  let httpServer: ServerType;
  let apiOrigin: string;
  let db: LocalDb;

  beforeAll(async () => {
    api = await createTestApp();
    httpServer = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => httpServer.once('listening', () => resolve()));
    apiOrigin = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    await api.close();
  });

  beforeEach(() => {
    db = createTestDb();
  });

  afterEach(() => {
    db.close();
  });

  async function createOfficer() {
    const officer = await api.signedInUser('USER');
    const carPark = await api.createCarPark({ assignTo: [officer.id] });
    const tokens: SessionTokens = { userId: officer.id, token: officer.token, refreshToken: officer.refreshToken };
    return { officer, carPark, tokens };
  }

  function createEngine(baseUrl: string, tokens: ReturnType<typeof createMemoryTokenProvider>, overrides: Partial<OutboxSyncDeps> = {}) {
    return createOutboxSync({ db, baseUrl, tokens, locks: null, ...overrides });
  }

  async function countServerPcns(userId: string): Promise<number> {
    const row = await api.db
      .selectFrom('pcns')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_by', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function countServerImages(pcnId: string): Promise<number> {
    const row = await api.db
      .selectFrom('pcn_images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pcn_id', '=', pcnId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('tells the server of an observation once, then that the vehicle had gone, and never files a notice for it', async () => {
    const { officer, carPark, tokens } = await createOfficer();
    const observedAt = new Date(Date.now() - 5 * 60_000).toISOString();
    const draft = await addQueuedDraft(
      db,
      officer.id,
      { carParkId: carPark.id, state: 'draft', queuedAt: null, observedAt, stayApplies: true, observationStatus: 'OPEN' },
      1,
    );
    const engine = createEngine(`${apiOrigin}/api`, createMemoryTokenProvider(tokens));
    await engine.run();
    await engine.run();
    const readRows = () => api.db.selectFrom('observations').selectAll().where('officer_id', '=', officer.id).execute();
    expect(await readRows()).toMatchObject([{ id: draft.id, status: 'OPEN', observed_at: observedAt }]);
    expect((await db.drafts.get(draft.id))?.observationSyncedStatus).toBe('OPEN');

    await closeObservation(db, draft.id);
    await engine.run();
    expect(await readRows()).toMatchObject([{ id: draft.id, status: 'GONE' }]);
    expect(await db.photos.where('draftId').equals(draft.id).count()).toBe(0);
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'closed', observationSyncedStatus: 'GONE' });
    expect(await countServerPcns(officer.id)).toBe(0);
  });

  it('shows a refusal for a permit holder on that notice only, and files it once when a reason is given', async () => {
    const { officer, carPark, tokens } = await createOfficer();
    const admin = await api.signedInUser('ADMIN');
    const added = await api.request('POST', `/car-parks/${carPark.id}/permits`, {
      token: admin.token,
      json: { vehicleRegistration: 'PH12 ABC', kind: 'STAFF', validUntil: '2099-12-31' },
    });
    expect(added.status).toBe(201);
    // The phone did not know the permit (its list was a day old): the server's check stops it.
    const holder = await addQueuedDraft(db, officer.id, { carParkId: carPark.id, vehicleRegistration: 'PH12ABC' });
    const other = await addQueuedDraft(db, officer.id, { carParkId: carPark.id, vehicleRegistration: 'OK12ABC' });
    const engine = createEngine(`${apiOrigin}/api`, createMemoryTokenProvider(tokens));
    await engine.run();

    expect(await db.drafts.get(other.id)).toMatchObject({ state: 'sent' });
    expect(await db.drafts.get(holder.id)).toMatchObject({
      state: 'failed',
      lastError: 'Staff permit, valid until 31 Dec 2099: do not issue',
      lastErrorFields: expect.objectContaining({ permitOverrideReason: 'Staff permit, valid until 31 Dec 2099: do not issue' }),
    });
    expect(await countServerPcns(officer.id)).toBe(1);

    // The officer gives the reason and submits again: the same draft, the same key.
    await db.drafts.update(holder.id, { permitOverrideReason: 'Parked outside the permitted bays', state: 'queued', nextAttemptAt: 0 });
    await engine.run();
    await engine.run();
    const sent = await db.drafts.get(holder.id);
    expect(sent?.state).toBe('sent');
    expect(await countServerPcns(officer.id)).toBe(2);
    const row = await api.db
      .selectFrom('pcns')
      .select('permit_override_reason')
      .where('id', '=', sent!.serverPcnId!)
      .executeTakeFirstOrThrow();
    expect(row.permit_override_reason).toBe('Parked outside the permitted bays');
  });

  it('sends a queued draft with its four photos and records the PCN number', async () => {
    const { officer, carPark, tokens } = await createOfficer();
    const draft = await addQueuedDraft(db, officer.id, { carParkId: carPark.id });
    await createEngine(`${apiOrigin}/api`, createMemoryTokenProvider(tokens)).run();

    const stored = await db.drafts.get(draft.id);
    expect(stored?.state).toBe('sent');
    expect(stored?.serverPcnNumber).toMatch(/^\d{8}$/);
    expect(await countServerImages(stored!.serverPcnId!)).toBe(4);
  });

  it('sends exactly once when the answer is lost after the server committed', async () => {
    const { officer, carPark, tokens } = await createOfficer();
    const draft = await addQueuedDraft(db, officer.id, { carParkId: carPark.id });
    const proxy = await startLossyProxy(apiOrigin, (n) => n === 1);
    const engine = createEngine(`${proxy.origin}/api`, createMemoryTokenProvider(tokens));

    await engine.run();
    expect(await db.drafts.get(draft.id)).toMatchObject({ state: 'queued', lastError: RETRY_REASONS.offline });
    expect(await countServerPcns(officer.id)).toBe(1);

    await engine.run({ force: true });
    const stored = await db.drafts.get(draft.id);
    expect(stored?.state).toBe('sent');
    expect(await countServerPcns(officer.id)).toBe(1);
    const pcn = await api.db.selectFrom('pcns').select(['id', 'pcn_number']).where('created_by', '=', officer.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ serverPcnId: pcn.id, serverPcnNumber: pcn.pcn_number });
    expect(await countServerImages(pcn.id)).toBe(4);
    expect(proxy.uploads).toBe(2);
    await proxy.close();
  });

  it('gives one PCN per draft when every other upload loses its answer', async () => {
    const { officer, carPark, tokens } = await createOfficer();
    const drafts = await Promise.all([1, 2, 3].map((n) => addQueuedDraft(db, officer.id, { carParkId: carPark.id, queuedAt: n })));
    const proxy = await startLossyProxy(apiOrigin, (n) => n % 2 === 1);
    const engine = createEngine(`${proxy.origin}/api`, createMemoryTokenProvider(tokens));

    for (let pass = 0; pass < 10; pass++) {
      const result = await engine.run({ force: true });
      if (result.pending === 0) break;
    }

    expect(await countServerPcns(officer.id)).toBe(3);
    for (const draft of drafts) {
      const stored = await db.drafts.get(draft.id);
      expect(stored?.state).toBe('sent');
      expect(await countServerImages(stored!.serverPcnId!)).toBe(4);
    }
    await proxy.close();
  });

  it('refreshes an expired access token, keeps the rotated pair and sends', async () => {
    const officer = await api.createUser({ role: 'USER' });
    const carPark = await api.createCarPark({ assignTo: [officer.id] });
    // Signed in 20 minutes ago: the 15-minute access token has expired, the refresh token has not.
    api.clock.offsetMs = -20 * 60_000;
    const session = await api.login(officer.email, officer.password!);
    api.clock.offsetMs = 0;
    const tokens = createMemoryTokenProvider({ userId: officer.id, token: session.token, refreshToken: session.refreshToken });
    const draft = await addQueuedDraft(db, officer.id, { carParkId: carPark.id });

    await createEngine(`${apiOrigin}/api`, tokens).run();

    expect((await db.drafts.get(draft.id))?.state).toBe('sent');
    expect(tokens.saved).toHaveLength(1);
    expect(tokens.saved[0]?.refreshToken).not.toBe(session.refreshToken);
  });

  it('keeps drafts as needs-sign-in when the session was revoked, and sends them after the next sign-in', async () => {
    const officer = await api.createUser({ role: 'USER' });
    const carPark = await api.createCarPark({ assignTo: [officer.id] });
    api.clock.offsetMs = -20 * 60_000;
    const session = await api.login(officer.email, officer.password!);
    api.clock.offsetMs = 0;
    const logout = await api.request('POST', '/auth/logout', { json: { refreshToken: session.refreshToken } });
    expect(logout.status).toBe(200);
    const tokens = createMemoryTokenProvider({ userId: officer.id, token: session.token, refreshToken: session.refreshToken });
    const drafts = await Promise.all([1, 2].map((n) => addQueuedDraft(db, officer.id, { carParkId: carPark.id, queuedAt: n })));
    const engine = createEngine(`${apiOrigin}/api`, tokens);

    await engine.run();
    for (const draft of drafts) expect((await db.drafts.get(draft.id))?.state).toBe('needs-sign-in');
    expect(await countServerPcns(officer.id)).toBe(0);

    const again = await api.login(officer.email, officer.password!);
    const fresh = { userId: officer.id, token: again.token, refreshToken: again.refreshToken };
    await saveSessionRow(db, fresh);
    tokens.set(fresh);
    await engine.run();

    for (const draft of drafts) expect((await db.drafts.get(draft.id))?.state).toBe('sent');
    expect(await countServerPcns(officer.id)).toBe(2);
  });

  it('marks a draft the server refuses as failed with its message and field errors', async () => {
    const { officer, carPark, tokens } = await createOfficer();
    const draft = await addQueuedDraft(db, officer.id, { carParkId: carPark.id, vehicleRegistration: 'A' });
    await createEngine(`${apiOrigin}/api`, createMemoryTokenProvider(tokens)).run();
    const stored = await db.drafts.get(draft.id);
    expect(stored?.state).toBe('failed');
    expect(stored?.lastError).toBeTruthy();
    expect(stored?.lastErrorFields).toHaveProperty('vehicleRegistration');
    expect(await countServerPcns(officer.id)).toBe(0);
  });

  it('makes one PCN per draft when two runners on two connections race', async () => {
    const { officer, carPark, tokens } = await createOfficer();
    const drafts = await Promise.all([1, 2, 3, 4].map((n) => addQueuedDraft(db, officer.id, { carParkId: carPark.id, queuedAt: n })));
    const proxy = await startLossyProxy(apiOrigin, () => false);
    const otherDb = createLocalDb(db.name);
    const provider = createMemoryTokenProvider(tokens);
    const locks = createExclusiveLocks();
    const a = createOutboxSync({ db, baseUrl: `${proxy.origin}/api`, tokens: provider, locks });
    const b = createOutboxSync({ db: otherDb, baseUrl: `${proxy.origin}/api`, tokens: provider, locks });

    await Promise.all([a.run({ force: true }), b.run({ force: true })]);

    expect(proxy.uploads).toBe(4);
    expect(await countServerPcns(officer.id)).toBe(4);
    for (const draft of drafts) expect((await db.drafts.get(draft.id))?.state).toBe('sent');
    otherDb.close();
    await proxy.close();
  });
});

/**
 * A loopback proxy in front of the API. For the uploads `dropAnswer` picks (1-based), it lets
 * the request reach the server and the server answer in full, then destroys the phone's socket
 * instead of passing the answer on: the PCN is committed, the phone never hears of it.
 */
async function startLossyProxy(target: string, dropAnswer: (uploadNumber: number) => boolean) {
  const targetUrl = new URL(target);
  let uploads = 0;
  const server: Server = createServer((req, res) => {
    const isUpload = req.method === 'POST' && req.url === '/api/pcns';
    const uploadNumber = isUpload ? ++uploads : 0;
    const upstream = httpRequest(
      { hostname: targetUrl.hostname, port: targetUrl.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        if (isUpload && dropAnswer(uploadNumber)) {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get uploads() {
      return uploads;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
