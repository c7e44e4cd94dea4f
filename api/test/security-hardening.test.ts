import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from 'hono/jwt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES, VALIDATION_MESSAGES } from '@parkpatrol/shared';
import { issueOneTimeToken } from '../src/auth/one-time-tokens.ts';
import { SIGN_IN_POLICY } from '../src/auth/sign-in-limiter.ts';
import { DEFAULT_REFRESH_REUSE_SECONDS } from '../src/auth/refresh-tokens.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { describeEndpoint, ENDPOINTS } from './endpoint-table.ts';
import { createPcnViaApi } from './fixtures.ts';
import { listen, postFrom } from './support/loopback.ts';
import { ownerFor, sendPrepared } from './support/send.ts';
import { createWorld, uncappedUploads, type World } from './support/world.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * The findings of an attack on a fresh `npm start`, one test (or more) each. Where
 * timing matters (guesses sent side by side, several client addresses) the app listens on a
 * real loopback socket and is called over real connections.
 */

const LIMIT = SIGN_IN_POLICY.failuresPerAccountAddress;

let t: TestApp;
let w: World;
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  t = await createTestApp({ uploadGate: uncappedUploads() });
  w = await createWorld(t);
  server = await listen(t);
});
afterEach(() => {
  t.clock.offsetMs = 0;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

// ---------------------------------------------------------------------------------------------

describe('password guessing (findings 1, 3, 4)', () => {
  it(`40 guesses for one account sent at once get at most ${LIMIT} password checks; the rest 429 with Retry-After, the right password among them included`, async () => {
    const user = await t.createUser({ password: 'the-right-password' });
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 20 ? 'the-right-password' : `guess-${i}`));
    const replies = await Promise.all(guesses.map((password) => postFrom(server.baseUrl, '/auth/login', { email: user.email, password })));
    const checked = replies.filter((r) => r.status !== 429);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(LIMIT);
    expect(replies.filter((r) => r.status === 401).length).toBeLessThanOrEqual(LIMIT);
    for (const refused of replies.filter((r) => r.status === 429)) {
      expect(refused.json).toMatchObject({ success: false, code: 'RATE_LIMITED' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('19 wrong guesses and the right one sent together: the lot gets at most the limit of checks', async () => {
    const user = await t.createUser({ password: 'right-one-in-a-burst' });
    const passwords = [...Array.from({ length: 19 }, (_, i) => `wrong-${i}`), 'right-one-in-a-burst'];
    const replies = await Promise.all(
      passwords.map((password) => postFrom(server.baseUrl, '/auth/login', { email: user.email, password })),
    );
    expect(replies.filter((r) => r.status !== 429).length).toBeLessThanOrEqual(LIMIT);
    // Only a check that ran can sign in; the ones refused before the hash never do.
    const signedIn = replies.findIndex((r) => r.status === 200);
    if (signedIn >= 0) expect(passwords[signedIn]).toBe('right-one-in-a-burst');
  });

  it('the right password from another address signs in while the account is locked for the attacker', async () => {
    const user = await t.createUser({ password: 'victim-password' });
    for (let i = 0; i < LIMIT; i++) {
      t.clock.offsetMs += 60_000;
      expect(
        (await postFrom(server.baseUrl, '/auth/login', { email: user.email, password: `attack-${i}` }, { localAddress: '127.0.0.2' }))
          .status,
      ).toBe(401);
    }
    t.clock.offsetMs += 60_000;
    const attacker = await postFrom(
      server.baseUrl,
      '/auth/login',
      { email: user.email, password: 'victim-password' },
      { localAddress: '127.0.0.2' },
    );
    expect(attacker.status).toBe(429);
    const victim = await postFrom(
      server.baseUrl,
      '/auth/login',
      { email: user.email, password: 'victim-password' },
      { localAddress: '127.0.0.1' },
    );
    expect(victim.status).toBe(200);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is on: a made-up address per guess does not reset the count', async () => {
    const user = await t.createUser({ password: 'spoofed-away' });
    for (let i = 0; i < LIMIT; i++) {
      t.clock.offsetMs += 60_000;
      const res = await postFrom(
        server.baseUrl,
        '/auth/login',
        { email: user.email, password: `spoof-${i}` },
        { headers: { 'x-forwarded-for': `203.0.113.${i}` } },
      );
      expect(res.status).toBe(401);
    }
    t.clock.offsetMs += 60_000;
    const res = await postFrom(
      server.baseUrl,
      '/auth/login',
      { email: user.email, password: 'spoof-x' },
      { headers: { 'x-forwarded-for': '203.0.113.99' } },
    );
    expect(res.status).toBe(429);
  });

  it('with TRUST_PROXY on, the address the proxy appended names the client', async () => {
    const proxied = await createTestApp({ config: { trustProxy: true } });
    try {
      const user = await proxied.createUser({ password: 'behind-a-proxy' });
      const from = (address: string) => ({ 'x-forwarded-for': `10.9.9.9, ${address}` });
      for (let i = 0; i < LIMIT; i++) {
        proxied.clock.offsetMs += 60_000;
        expect(
          (await proxied.request('POST', '/auth/login', { json: { email: user.email, password: `x-${i}` }, headers: from('203.0.113.7') }))
            .status,
        ).toBe(401);
      }
      proxied.clock.offsetMs += 60_000;
      expect(
        (
          await proxied.request('POST', '/auth/login', {
            json: { email: user.email, password: 'behind-a-proxy' },
            headers: from('203.0.113.7'),
          })
        ).status,
      ).toBe(429);
      expect(
        (
          await proxied.request('POST', '/auth/login', {
            json: { email: user.email, password: 'behind-a-proxy' },
            headers: from('198.51.100.20'),
          })
        ).status,
      ).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('the profile current-password check is limited like sign-in: twelve wrong guesses get at most the limit of checks', async () => {
    // Both sign in before the clock moves: an access token from a moved clock looks issued in the future.
    const user = await t.signedInUser('USER', { password: 'profile-current-1' });
    const other = await t.signedInUser('USER', { password: 'profile-current-2' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      t.clock.offsetMs += 60_000;
      const res = await t.request('PUT', '/users/profile', {
        token: user.token,
        json: { currentPassword: `wrong-${i}`, newPassword: 'never-set-this' },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.json).toMatchObject({ code: 'RATE_LIMITED', message: SERVER_MESSAGES.tooManyPasswordAttempts });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses.filter((s) => s === 400)).toHaveLength(LIMIT);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
    // Side by side, too: at most the limit of checks, however many are sent.
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.request('PUT', '/users/profile', { token: other.token, json: { currentPassword: `burst-${i}`, newPassword: 'never-set-this' } }),
      ),
    );
    expect(burst.filter((r) => r.status !== 429).length).toBeLessThanOrEqual(LIMIT);
  });
});

// ---------------------------------------------------------------------------------------------

describe('sessions (findings 2, 5, 10, 12)', () => {
  it('a password change from S2 signs S1 out and keeps S2', async () => {
    const user = await t.createUser({ password: 'two-sessions-old' });
    const s1 = await t.login(user.email, 'two-sessions-old');
    const s2 = await t.login(user.email, 'two-sessions-old');
    const change = await t.request('PUT', '/users/profile', {
      token: s2.token,
      json: { currentPassword: 'two-sessions-old', newPassword: 'two-sessions-new' },
    });
    expect(change.status).toBe(200);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: s1.refreshToken } })).status).toBe(401);
    const kept = await t.request('POST', '/auth/refresh', { json: { refreshToken: s2.refreshToken } });
    expect(kept.status).toBe(200);
    // The new access token still names S2, so S2 can go on and sign itself out.
    expect((await t.request('GET', '/users/profile', { token: kept.json.data.token })).status).toBe(200);
  });

  it('logout with only the access token ends that session: its refresh token stops working', async () => {
    const user = await t.signedInUser('USER');
    expect((await t.request('POST', '/auth/logout', { token: user.token })).status).toBe(200);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } })).status).toBe(401);
  });

  it('a replay of the token rotated last gets only the pair its rotation gave, never a new token', async () => {
    const user = await t.signedInUser('USER');
    const { refreshToken, deviceToken } = user;
    const first = await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken } });
    expect(first.status).toBe(200);
    for (let replay = 0; replay < 3; replay++) {
      const again = await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken } });
      expect(again.json.data.refreshToken).toBe(first.json.data.refreshToken);
    }
    const rows = await t.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(2);
  });

  it('a replay within the reuse window of a token that is no longer the one rotated last revokes the family', async () => {
    const user = await t.signedInUser('USER');
    const first = await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } });
    const second = await t.request('POST', '/auth/refresh', { json: { refreshToken: first.json.data.refreshToken } });
    expect(second.status).toBe(200);
    t.clock.offsetMs = (DEFAULT_REFRESH_REUSE_SECONDS * 1000) / 2;
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } })).status).toBe(401);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: second.json.data.refreshToken } })).status).toBe(401);
  });

  it('refuses a token signed with the real key but without exp, or without a session id', async () => {
    const iat = Math.floor(Date.now() / 1000);
    const noExp = await sign({ sub: w.superAdmin.id, sid: 'some-session', role: 'SUPER_ADMIN', iat }, t.config.jwtSecret, 'HS256');
    const noSid = await sign({ sub: w.superAdmin.id, role: 'SUPER_ADMIN', iat, exp: iat + 600 }, t.config.jwtSecret, 'HS256');
    for (const token of [noExp, noSid]) {
      const res = await t.request('GET', '/users/profile', { token });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('accounts without a password (finding 11)', () => {
  it('an access-link session may read its profile and set its password, and nothing else until it has', async () => {
    const user = await t.createUser({ password: null });
    const session = await t.request('POST', '/auth/access-link', {
      json: { token: await issueOneTimeToken(t.db, { userId: user.id, purpose: 'access-link', ttlMs: 60_000, now: t.deps.now() }) },
    });
    expect(session.status).toBe(200);
    expect(session.json.data.mustSetPassword).toBe(true);
    const token = session.json.data.token as string;

    const signedInOnly = ENDPOINTS.filter((e) => e.expected.anonymous === 401);
    expect(signedInOnly.length).toBeGreaterThan(20);
    for (const endpoint of signedInOnly) {
      const prepared = await endpoint.prepare(w, await ownerFor(w, endpoint));
      const res = await sendPrepared(t, endpoint.method, prepared, token);
      const where = describeEndpoint(endpoint);
      if (endpoint.route === '/users/profile' && endpoint.method === 'GET') {
        expect(res.status, where).toBe(200);
      } else {
        // PUT /users/profile without newPassword included: a name change is not the password step.
        expect(res.status, where).toBe(403);
        expect(res.json, where).toMatchObject({ success: false, code: 'PASSWORD_REQUIRED', message: SERVER_MESSAGES.passwordRequired });
      }
    }

    const set = await t.request('PUT', '/users/profile', { token, json: { newPassword: 'first-password-1' } });
    expect(set.status).toBe(200);
    expect(set.json.data.hasPassword).toBe(true);
    expect((await t.request('GET', '/pcns', { token })).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------

describe('inputs and headers (findings 6, 7, 8, 12)', () => {
  it('a date that has the right shape but does not exist is a 400 naming the field', async () => {
    for (const [query, field] of [
      ['to=2026-13-45', 'to'],
      ['from=2026-02-30', 'from'],
    ] as const) {
      const res = await t.request('GET', `/pcns?scope=all&${query}`, { token: w.admin.token });
      expect(res.status, query).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
      expect(res.json.details).toHaveProperty(field);
    }
    expect((await t.request('GET', '/pcns?scope=all&from=2026-02-28&to=2028-02-29', { token: w.admin.token })).status).toBe(200);
  });

  it("every /api answer says Cache-Control: no-store, except an evidence image, which stays private, and the operator's public logo", async () => {
    await Promise.all(
      ENDPOINTS.map(async (endpoint) => {
        const prepared = await endpoint.prepare(w, await ownerFor(w, endpoint));
        for (const token of [w.superAdmin.token, undefined]) {
          const res = await sendPrepared(t, endpoint.method, prepared, token);
          const where = `${describeEndpoint(endpoint)} -> ${res.status}`;
          if (endpoint.route.startsWith('/uploads/:fileName') && res.status === 200) {
            expect(res.headers.get('cache-control'), where).toBe('private, no-store');
          } else if (endpoint.route === '/public/charges/operator/logo/:file' && res.status === 200) {
            // Named by its hash, so its bytes never change: anyone may keep it.
            expect(res.headers.get('cache-control'), where).toBe('public, max-age=31536000, immutable');
          } else {
            expect(res.headers.get('cache-control'), where).toBe('no-store');
          }
        }
      }),
    );
    for (const path of ['/no-such-route', '/uploads/not-a-file.jpg']) {
      expect((await t.request('GET', path)).headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('an unknown /api path is the JSON 404 even when the web app is served, never index.html', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'parkpatrol-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
    const withWeb = await createTestApp({ config: { webDistDir: dist } });
    try {
      for (const [method, path] of [
        ['GET', '/api/nothing-here'],
        ['GET', '/api/health/x/y'],
        ['POST', '/api/nope'],
      ] as const) {
        const res = await withWeb.app.request(path, { method });
        expect(res.status, path).toBe(404);
        expect(res.headers.get('content-type'), path).toContain('application/json');
        expect(await res.json(), path).toMatchObject({ success: false, code: 'NOT_FOUND' });
      }
      // Under a signed-in prefix the sign-in check answers first, still in JSON.
      const guarded = await withWeb.app.request('/api/pcns/x/y/z');
      expect(guarded.status).toBe(401);
      expect(guarded.headers.get('content-type')).toContain('application/json');
      // The web app's own routes still get the page.
      expect(await (await withWeb.app.request('/pcn/123')).text()).toContain('<title>app</title>');
    } finally {
      await withWeb.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('line breaks and other control characters in names and single-line fields are refused with a clear message', async () => {
    const me = await t.signedInUser('USER');
    for (const firstName of ['Eve\r\nBcc: x@y', 'Eve\nX', 'Eve\u0000', 'Eve\u001b[31m']) {
      const res = await t.request('PUT', '/users/profile', { token: me.token, json: { firstName } });
      expect(res.status, JSON.stringify(firstName)).toBe(400);
      expect(res.json.details.firstName).toBe(VALIDATION_MESSAGES.noControlCharacters);
    }
    const created = await t.request('POST', '/users', {
      token: w.admin.token,
      json: { firstName: 'A', lastName: 'B\r\nBcc: x@y', email: 'ctl@example.com' },
    });
    expect(created.status).toBe(400);
    expect(created.json.details.lastName).toBe(VALIDATION_MESSAGES.noControlCharacters);
    const carPark = await t.request('POST', '/car-parks', { token: w.admin.token, json: { name: 'Lot\r\nX', siteCode: 'CTL1' } });
    expect(carPark.status).toBe(400);
    expect(carPark.json.details.name).toBe(VALIDATION_MESSAGES.noControlCharacters);
    // Ordinary names with accents, apostrophes and hyphens still pass.
    expect((await t.request('PUT', '/users/profile', { token: me.token, json: { firstName: "Zoë O'Brien-Smith" } })).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------

describe('files on disk (finding 12)', () => {
  it('refuses a short or empty DATA_DIR/jwt-secret at start, naming the file', () => {
    for (const content of ['', '   \n', 'short-secret']) {
      const dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-secret-'));
      try {
        writeFileSync(join(dataDir, 'jwt-secret'), content);
        expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(join(dataDir, 'jwt-secret'));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });

  it('creates the secret, the database with its -wal and -shm, and the .eml outbox files for the owner only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-modes-'));
    rmSync(dataDir, { recursive: true });
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const mode = (path: string) => statSync(path).mode & 0o777;
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, 'jwt-secret'))).toBe(0o600);
      const { db, sqlite } = openDatabase(config.databaseFile);
      sqlite.exec('create table t (x); insert into t values (1);');
      for (const suffix of ['', '-wal', '-shm']) expect(mode(`${config.databaseFile}${suffix}`), suffix).toBe(0o600);
      await db.destroy();

      // A database made world-readable before this rule is tightened on open.
      const old = join(dataDir, 'old.sqlite');
      writeFileSync(old, '', { mode: 0o644 });
      const reopened = openDatabase(old);
      expect(mode(old)).toBe(0o600);
      await reopened.db.destroy();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }

    const mailing = await createTestApp();
    try {
      const user = await mailing.createUser({ password: 'outbox-owner-1' });
      expect((await mailing.request('POST', '/auth/forgot-password', { json: { email: user.email } })).status).toBe(200);
      const outbox = mailing.config.outboxDir;
      const deadline = Date.now() + 10_000;
      let files: string[] = [];
      while (files.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
        try {
          files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
        } catch {
          files = [];
        }
      }
      expect(files.length).toBe(1);
      expect(statSync(outbox).mode & 0o777).toBe(0o700);
      expect(statSync(join(outbox, files[0]!)).mode & 0o777).toBe(0o600);
    } finally {
      await mailing.close();
    }
  });

  it('keeps evidence files and the uploads folder for the owner only', async () => {
    const pcn = await createPcnViaApi(t, w.owner.token, w.ownerCarParkId);
    expect(statSync(t.config.uploadsDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(t.config.uploadsDir, pcn.images[0]!.fileName)).mode & 0o777).toBe(0o600);
  });
});
