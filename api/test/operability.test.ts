import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskEvidenceStore } from '../src/services/evidence-storage.ts';
import { CLIENT_ERRORS_PER_ADDRESS } from '../src/workflows/report-client-error.ts';
import { createPcnViaApi } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/** Running it: request ids, the access log, Prometheus metrics and the web app's error reports. */

const METRICS_TOKEN = 'metrics-token-that-is-long-enough-0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const logged = (t: TestApp) => t.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('request ids and the access log', () => {
  let t: TestApp;
  let officer: Session;
  let carParkId: string;
  beforeAll(async () => {
    t = await createTestApp();
    officer = await t.signedInUser('USER');
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
  });
  afterAll(() => t.close());

  it('gives every answer, refusals included, its own X-Request-Id, and ignores a client-chosen one', async () => {
    const first = await t.request('GET', '/health');
    const refused = await t.request('GET', '/pcns', { headers: { 'x-request-id': 'chosen-by-the-client' } });
    expect(refused.status).toBe(401);
    const ids = [first.headers.get('x-request-id'), refused.headers.get('x-request-id')];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('writes one access line per request: method, route pattern, status, duration, user id; never the path, query or token', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId);
    const answer = await t.request('GET', `/pcns/${pcn.id}?withHistory=true`, { token: officer.token });
    const id = answer.headers.get('x-request-id');
    const lines = logged(t).filter((line) => line.requestId === id);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        message: 'request',
        method: 'GET',
        route: '/api/pcns/:id',
        status: 200,
        userId: officer.id,
        durationMs: expect.any(Number),
      }),
    ]);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(pcn.id);
    expect(text).not.toContain(officer.token);
    expect(text).not.toContain('withHistory');
  });

  it('puts the request id on every line logged while the request is answered', async () => {
    const answer = await t.request('POST', '/client-errors', { json: { message: 'boom', page: '/dashboard', buildId: 'b1' } });
    const id = answer.headers.get('x-request-id');
    const lines = logged(t).filter((line) => line.requestId === id);
    expect(lines.map((line) => line.message)).toEqual(['client error', 'request']);
  });
});

describe('request ids behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { trustProxy: true } });
  });
  afterAll(() => t.close());

  it("repeats the proxy's request id, and makes one when the proxy's is not a sane id", async () => {
    expect((await t.request('GET', '/health', { headers: { 'x-request-id': 'edge-7f3a.42' } })).headers.get('x-request-id')).toBe(
      'edge-7f3a.42',
    );
    const odd = await t.request('GET', '/health', { headers: { 'x-request-id': 'a b\tc' } });
    expect(odd.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('/metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.request('/metrics')).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  describe('with METRICS_TOKEN', () => {
    let t: TestApp;
    let officer: Session;
    let carParkId: string;
    beforeAll(async () => {
      t = await createTestApp({ config: { metricsToken: METRICS_TOKEN } });
      officer = await t.signedInUser('USER');
      carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    });
    afterAll(() => t.close());

    const scrape = (token?: string) => t.app.request('/metrics', { headers: token ? { authorization: `Bearer ${token}` } : {} });

    it('answers only the bearer of the token', async () => {
      expect((await scrape()).status).toBe(401);
      expect((await scrape(`${METRICS_TOKEN}x`)).status).toBe(401);
      const answer = await scrape(METRICS_TOKEN);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/plain');
    });

    it('counts request durations by route, outbox uploads and sign-in limits', async () => {
      await t.request('GET', '/health');
      await createPcnViaApi(t, officer.token, carParkId);
      const user = await t.createUser({ password: 'right-password-1' });
      for (let attempt = 0; attempt < 6; attempt++)
        await t.request('POST', '/auth/login', { json: { email: user.email, password: `wrong-${attempt}` } });
      const text = await (await scrape(METRICS_TOKEN)).text();
      expect(text).toMatch(/parkpatrol_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} [1-9]/);
      expect(text).toMatch(/parkpatrol_outbox_uploads_total\{kind="notice",outcome="stored"\} 1/);
      expect(text).toMatch(/parkpatrol_sign_in_limited_total\{limit="address"\} [1-9]/);
    });
  });

  it('counts evidence store failures by operation', async () => {
    const t = await createTestApp({ config: { metricsToken: METRICS_TOKEN } });
    try {
      const disk = createDiskEvidenceStore(t.config.uploadsDir);
      // The store answers, then fails every placement: a full disk, a bucket gone away.
      const failing = Object.assign(Object.create(disk) as typeof disk, { place: () => Promise.reject(new Error('disk full')) });
      const broken = await createTestApp({ config: { metricsToken: METRICS_TOKEN }, evidence: failing });
      try {
        const officer = await broken.signedInUser('USER');
        const carPark = await broken.createCarPark({ assignTo: [officer.id] });
        await expect(createPcnViaApi(broken, officer.token, carPark.id)).rejects.toThrow(/500/);
        const text = await (await broken.app.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
        expect(text).toMatch(/parkpatrol_evidence_store_errors_total\{operation="place"\} 1/);
      } finally {
        await broken.close();
      }
    } finally {
      await t.close();
    }
  });
});

describe('POST /client-errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('logs the report with its build and page, refuses a page with a query, and limits each address', async () => {
    const report = { message: 'TypeError: cannot read x', stack: 'at Screen (screen.tsx:1:2)', page: '/pcn/new', buildId: 'abc123' };
    expect((await t.request('POST', '/client-errors', { json: report, headers: { 'user-agent': 'Phone/1.0' } })).status).toBe(202);
    const { message, ...where } = report;
    expect(logged(t)).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'client error', error: message, ...where, userAgent: 'Phone/1.0' }),
    );
    expect((await t.request('POST', '/client-errors', { json: { ...report, page: '/reset-password?token=secret' } })).status).toBe(400);
    const statuses: number[] = [];
    for (let n = 1; n < CLIENT_ERRORS_PER_ADDRESS.limit + 1; n++)
      statuses.push((await t.request('POST', '/client-errors', { json: report })).status);
    expect(statuses.slice(0, -1).every((status) => status === 202)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
