import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LINK_TTL_MS, PASSWORD_RESET_TTL_MS } from '../src/auth/one-time-tokens.ts';
import { DEFAULT_REFRESH_REUSE_SECONDS } from '../src/auth/refresh-tokens.ts';
import { describeEndpoint, ENDPOINTS } from './endpoint-table.ts';
import { createPcnViaApi, makeJpeg } from './fixtures.ts';
import { ownerFor, sendPrepared, type Answer } from './support/send.ts';
import { createActor, createWorld, uncappedUploads, type World } from './support/world.ts';
import { startSmtpTestServer } from './smtp-test-server.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * Headers, brute force, token reuse and expiry, evidence
 * access, secrets in answers and logs, and HTML in emails. Every answer this file receives from
 * the main app is kept, and the last test scans all of them and every log line.
 */

let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
let t: TestApp;
let w: World;
const answers: Array<{ method: string; path: string; res: Answer }> = [];
/** Every password this file sends (the table's included): none may come back or reach a log. */
const passwordsUsed = new Set<string>(['correct horse battery', 'a-new-password-1']);

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ smtpUrl: smtp.url, mailbox: smtp, uploadGate: uncappedUploads() });
  const request = t.request;
  t.request = async (method, path, init) => {
    const res = await request(method, path, init);
    answers.push({ method, path, res });
    return res;
  };
  w = await createWorld(t);
});
afterEach(() => {
  t.clock.offsetMs = 0;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function waitForMail(to: string, count = 1): Promise<ParsedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = smtp.messages.filter((m) => JSON.stringify(m.to).toLowerCase().includes(to.toLowerCase()));
    if (found.length >= count) return found[count - 1]!;
    if (Date.now() > deadline) throw new Error(`no email #${count} to ${to}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function tokenIn(mail: ParsedMail, pattern: RegExp): string {
  const match = pattern.exec(mail.text ?? '');
  if (!match?.[1]) throw new Error(`no token in email: ${mail.text}`);
  return decodeURIComponent(match[1]);
}

async function signInWithPassword(app: TestApp, password: string, overrides: Parameters<TestApp['createUser']>[0] = {}) {
  passwordsUsed.add(password);
  const user = await app.createUser({ ...overrides, password });
  const res = await app.request('POST', '/auth/login', { json: { email: user.email, password } });
  expect(res.status).toBe(200);
  return {
    ...user,
    password,
    token: res.json.data.token as string,
    refreshToken: res.json.data.refreshToken as string,
    deviceToken: res.json.data.deviceToken as string,
  };
}

// ---------------------------------------------------------------------------------------------

function expectSecurityHeaders(headers: Headers, where: string): void {
  const csp = headers.get('content-security-policy') ?? '';
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
  expect(directives.get('default-src'), `${where}: ${csp}`).toBeDefined();
  const scriptSrc = directives.get('script-src') ?? directives.get('default-src')!;
  expect(scriptSrc, where).not.toContain("'unsafe-inline'");
  expect(scriptSrc, where).not.toContain("'unsafe-eval'");
  expect(directives.get('frame-ancestors'), where).toEqual(["'none'"]);
  expect(directives.get('object-src'), where).toEqual(["'none'"]);
  expect(headers.get('x-content-type-options'), where).toBe('nosniff');
  expect(headers.get('referrer-policy'), where).toMatch(/^(no-referrer|strict-origin-when-cross-origin|same-origin|strict-origin)$/);
}

describe('security headers', () => {
  it('are on every answer of every endpoint, refusals and not-founds included, with no HSTS over plain http', async () => {
    await Promise.all(
      ENDPOINTS.map(async (endpoint) => {
        const prepared = await endpoint.prepare(w, await ownerFor(w, endpoint));
        for (const token of [w.superAdmin.token, undefined]) {
          const res = await sendPrepared(t, endpoint.method, prepared, token);
          const where = `${describeEndpoint(endpoint)} -> ${res.status}`;
          expectSecurityHeaders(res.headers, where);
          expect(res.headers.get('strict-transport-security'), where).toBeNull();
        }
      }),
    );
    for (const path of ['/no-such-route', '/pcns/not-a-pcn', '/uploads/..%2Fjwt-secret']) {
      const res = await t.request('GET', path, { token: w.admin.token });
      expectSecurityHeaders(res.headers, path);
    }
  });

  it('include HSTS for a year when APP_URL is https', async () => {
    const secure = await createTestApp({ config: { appUrl: 'https://tickets.example.com' } });
    try {
      for (const path of ['/health', '/pcns', '/nowhere']) {
        const res = await secure.request('GET', path);
        expectSecurityHeaders(res.headers, path);
        expect(res.headers.get('strict-transport-security'), path).toMatch(/max-age=31536000/);
      }
    } finally {
      await secure.close();
    }
  });

  it('leave the web app runnable under its own policy: no inline handler, and an inline script only where the policy names its hash', async () => {
    const pages = ['../../web/index.html', '../../web/dist/index.html'].map((p) => resolve(import.meta.dirname, p)).filter(existsSync);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      // The page as the server sends it: the policy it sends with it must allow each inline script.
      const served = await createTestApp({ config: { webDistDir: dirname(page) } });
      try {
        const csp = (await served.app.request('/login')).headers.get('content-security-policy') ?? '';
        const scriptSrc =
          csp
            .split(';')
            .map((d) => d.trim())
            .find((d) => d.startsWith('script-src')) ?? '';
        expect(scriptSrc, page).not.toContain('unsafe-inline');
        for (const [, tag = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
          if (/\bsrc\s*=/.test(tag)) {
            expect(body.trim(), page).toBe('');
          } else {
            expect(scriptSrc, `${page}: inline script ${body.slice(0, 60)}`).toContain(
              `'sha256-${createHash('sha256').update(body).digest('base64')}'`,
            );
          }
        }
      } finally {
        await served.close();
      }
      expect(html, page).not.toMatch(/\son[a-z]+\s*=\s*["']/i);
      expect(html, page).not.toMatch(/javascript:/i);
    }
  });
});

// ---------------------------------------------------------------------------------------------

// Password guessing (per account and address, side by side, backoff, the profile's check):
// security-hardening.test.ts.

// ---------------------------------------------------------------------------------------------

describe('refresh tokens', () => {
  it('revoke the whole family when a rotated token is presented again after the reuse window', async () => {
    const user = await signInWithPassword(t, 'refresh-owner-password');
    const first = await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } });
    expect(first.status).toBe(200);
    const second = first.json.data.refreshToken as string;

    t.clock.offsetMs = DEFAULT_REFRESH_REUSE_SECONDS * 1000 + 5000;
    const replay = await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } });
    expect(replay.status).toBe(401);
    // The thief's copy is dead, and so is the one the real owner holds: both must sign in again.
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: second } })).status).toBe(401);
    const family = await t.db.selectFrom('refresh_tokens').select(['revoked_at']).where('user_id', '=', user.id).execute();
    expect(family.length).toBeGreaterThanOrEqual(2);
    expect(family.every((row) => row.revoked_at !== null)).toBe(true);
    expect(t.logLines.some((line) => line.includes('refresh token reuse detected'))).toBe(true);
  });

  it('give the same pair to a replay within the reuse window from the same device (two tabs, a lost answer)', async () => {
    const user = await signInWithPassword(t, 'grace-owner-password');
    const { refreshToken, deviceToken } = user;
    const first = await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken } });
    const replay = await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken } });
    expect(replay.status).toBe(200);
    expect(replay.json.data.refreshToken).toBe(first.json.data.refreshToken);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: replay.json.data.refreshToken, deviceToken } })).status).toBe(
      200,
    );
  });
});

// ---------------------------------------------------------------------------------------------

const RESET_TOKEN = /reset-password\?token=([^\s&]+)/;
const ACCESS_TOKEN_IN_LINK = /\/u\/([A-Za-z0-9_-]{20,})/;
const DEVICE_LINK_TOKEN = /device-link=([A-Za-z0-9_-]{20,})/;

describe('one-time tokens', () => {
  it('a password reset token works once, signs every session out, and is refused the second time', async () => {
    const user = await signInWithPassword(t, 'forgotten-password-1');
    expect((await t.request('POST', '/auth/forgot-password', { json: { email: user.email } })).status).toBe(200);
    const token = tokenIn(await waitForMail(user.email), RESET_TOKEN);
    passwordsUsed.add('brand-new-password-1');

    const reset = await t.request('POST', '/auth/reset-password', { json: { token, password: 'brand-new-password-1' } });
    expect(reset.status).toBe(200);
    const again = await t.request('POST', '/auth/reset-password', { json: { token, password: 'brand-new-password-2' } });
    expect(again.status).toBe(400);
    expect(again.json.code).toBe('INVALID_TOKEN');
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } })).status).toBe(401);
    expect((await t.request('POST', '/auth/login', { json: { email: user.email, password: 'brand-new-password-1' } })).status).toBe(200);
  });

  it('a password reset token is refused after its hour', async () => {
    const user = await t.createUser({ password: null });
    expect((await t.request('POST', '/auth/forgot-password', { json: { email: user.email } })).status).toBe(200);
    const token = tokenIn(await waitForMail(user.email), RESET_TOKEN);
    t.clock.offsetMs = PASSWORD_RESET_TTL_MS + 60_000;
    const late = await t.request('POST', '/auth/reset-password', { json: { token, password: 'too-late-password' } });
    expect(late.status).toBe(400);
    expect(late.json.code).toBe('INVALID_TOKEN');
  });

  it('an access link signs in once and is refused the second time', async () => {
    const user = await t.createUser({ password: null });
    expect((await t.request('POST', `/onboarding/send/${user.id}`, { token: w.admin.token, json: {} })).status).toBe(200);
    const token = tokenIn(await waitForMail(user.email), ACCESS_TOKEN_IN_LINK);
    const first = await t.request('POST', '/auth/access-link', { json: { token } });
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ mustSetPassword: true, user: { id: user.id } });
    const second = await t.request('POST', '/auth/access-link', { json: { token } });
    expect(second.status).toBe(400);
    expect(second.json.code).toBe('INVALID_TOKEN');
  });

  it('an access link is refused once it has expired', async () => {
    const user = await t.createUser({ password: null });
    expect((await t.request('POST', `/onboarding/send/${user.id}`, { token: w.admin.token, json: {} })).status).toBe(200);
    const token = tokenIn(await waitForMail(user.email), ACCESS_TOKEN_IN_LINK);
    t.clock.offsetMs = ACCESS_LINK_TTL_MS + 60_000;
    expect((await t.request('POST', '/auth/access-link', { json: { token } })).status).toBe(400);
  });
});

// ---------------------------------------------------------------------------------------------

describe('evidence files', () => {
  it('are served to the owner, admins and the signed URL, and to nobody else, whatever the path says', async () => {
    const pcn = await createPcnViaApi(t, w.owner.token, w.ownerCarParkId);
    const [image, otherImage] = pcn.images as [(typeof pcn.images)[0], (typeof pcn.images)[0]];
    const path = `/uploads/${image.fileName}`;
    const signed = image.url.replace(/^\/api/, '');
    const { exp, sid, sig } = Object.fromEntries(new URL(signed, 'http://x').searchParams) as { exp: string; sid: string; sig: string };
    const otherSig = new URL(otherImage.url, 'http://x').searchParams.get('sig')!;

    const allowed = await t.request('GET', path, { token: w.owner.token });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('x-content-type-options')).toBe('nosniff');
    expect(allowed.headers.get('content-type')).toBe('image/jpeg');
    expect((await t.request('GET', path, { token: w.admin.token })).status).toBe(200);
    expect((await t.request('GET', signed)).status).toBe(200);

    const tampered = sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A');
    const refused: Array<[string, string | undefined]> = [
      [path, undefined],
      [path, w.otherUser.token],
      [path, `${w.owner.token.slice(0, -2)}xx`],
      [`${path}?exp=${exp}&sid=${sid}&sig=${tampered}`, undefined],
      [`${path}?exp=${Number(exp) + 1}&sid=${sid}&sig=${sig}`, undefined],
      [`${path}?exp=${exp}&sid=${sid}&sig=${otherSig}`, undefined],
      [`${path}?exp=${exp}&sid=${sid}`, undefined],
      [`${path}?exp=${exp}&sig=${sig}`, undefined],
      // Signed for this session only: another session id does not carry the signature.
      [`${path}?exp=${exp}&sid=${randomUUID()}&sig=${sig}`, undefined],
      [`/uploads/${otherImage.fileName}?exp=${exp}&sid=${sid}&sig=${sig}`, undefined],
    ];
    for (const [url, token] of refused) {
      const res = await t.request('GET', url, { token });
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-type'), url).toContain('application/json');
    }

    // Names that point outside the folder, at a temp file or at the database never resolve,
    // not even for a SUPER_ADMIN.
    for (const traversal of [
      '/uploads/..%2Fparkpatrol.sqlite',
      '/uploads/..%2F..%2Fetc%2Fpasswd',
      '/uploads/%2e%2e%2fjwt-secret',
      '/uploads/..%5Cparkpatrol.sqlite',
      `/uploads/${image.fileName}%00.png`,
      `/uploads/${image.fileName.toUpperCase()}`,
      `/uploads/.tmp-${'0'.repeat(32)}`,
      '/uploads/%252e%252e%252fparkpatrol.sqlite',
      `/uploads/${encodeURIComponent(`../uploads/${image.fileName}`)}`,
    ]) {
      const res = await t.request('GET', traversal, { token: w.superAdmin.token });
      expect(res.status, traversal).toBe(404);
      expect(res.text, traversal).not.toContain('SQLite format');
    }

    t.clock.offsetMs = 19 * 60 * 60 * 1000;
    expect((await t.request('GET', signed)).status, 'an expired signed URL').toBe(404);
    t.clock.offsetMs = 0;
    expect((await t.request('DELETE', `/pcns/${pcn.id}`, { token: w.admin.token })).status).toBe(200);
    expect((await t.request('GET', signed)).status, 'a deleted PCN').toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------

describe('emails', () => {
  const html = {
    firstName: '<script>alert("first")</script>',
    lastName: '<img src=x onerror=alert(1)>',
    carParkName: '<b onmouseover=alert(2)>Lot</b>',
    address: '"><svg/onload=alert(3)>',
    adminFirstName: '<iframe src=javascript:alert(4)>',
    adminLastName: '<u>Admin</u>',
    notes: '</p><script>steal()</script> & "quoted" \'single\'',
  };
  const raw = ['<script', '<img src=x', '<b onmouseover', '<svg', '<iframe', '<u>Admin', '</p><script>'];

  it('escape every user-supplied text in the onboarding email: names, car parks, the sender and the admin notes', async () => {
    const user = await t.createUser({ password: null, firstName: html.firstName, lastName: html.lastName });
    const carPark = await t.createCarPark({ name: html.carParkName, assignTo: [user.id] });
    await t.db.updateTable('car_parks').set({ address: html.address }).where('id', '=', carPark.id).execute();
    const admin = await createActor(t, 'ADMIN', { firstName: html.adminFirstName, lastName: html.adminLastName });

    const res = await t.request('POST', `/onboarding/send/${user.id}`, { token: admin.token, json: { adminNotes: html.notes } });
    expect(res.status).toBe(200);
    const body = (await waitForMail(user.email)).html || '';
    for (const fragment of raw) expect(body).not.toContain(fragment);
    expect(body).toContain('&lt;script&gt;alert(&quot;first&quot;)&lt;/script&gt;');
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(body).toContain('&lt;b onmouseover=alert(2)&gt;Lot&lt;/b&gt;');
    expect(body).toContain('&quot;&gt;&lt;svg/onload=alert(3)&gt;');
    expect(body).toContain('&lt;iframe src=javascript:alert(4)&gt;');
    expect(body).toContain('&lt;/p&gt;&lt;script&gt;steal()&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39;');
  });

  it('escape the name in the password reset email', async () => {
    const user = await t.createUser({ password: null, firstName: html.firstName });
    expect((await t.request('POST', '/auth/forgot-password', { json: { email: user.email } })).status).toBe(200);
    const body = (await waitForMail(user.email)).html || '';
    expect(body).not.toContain('<script');
    expect(body).toContain('&lt;script&gt;');
  });
});

// ---------------------------------------------------------------------------------------------

describe('secrets', () => {
  // Every endpoint twice: the table grows with the product, so this test has more room than the default.
  it('no token, password, hash or secret appears in any answer of this file, or in any log line', async () => {
    // Round out the run: every endpoint as a SUPER_ADMIN and as nobody, a profile password
    // change, a user created with a password, an upload, and some plain errors.
    await Promise.all(
      ENDPOINTS.map(async (endpoint) => {
        await sendPrepared(t, endpoint.method, await endpoint.prepare(w, await ownerFor(w, endpoint)), w.superAdmin.token);
        await sendPrepared(t, endpoint.method, await endpoint.prepare(w, await ownerFor(w, endpoint)), undefined);
      }),
    );
    const changer = await signInWithPassword(t, 'profile-old-password');
    passwordsUsed.add('profile-new-password');
    expect(
      (
        await t.request('PUT', '/users/profile', {
          token: changer.token,
          json: { currentPassword: changer.password, newPassword: 'profile-new-password' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.request('PUT', '/users/profile', {
          token: changer.token,
          json: { currentPassword: 'wrong-password-here', newPassword: 'profile-newer-password' },
        })
      ).status,
    ).toBe(400);
    passwordsUsed.add('wrong-password-here');
    passwordsUsed.add('created-user-password');
    expect(
      (
        await t.request('POST', '/users', {
          token: w.admin.token,
          json: { firstName: 'P', lastName: 'W', email: 'with-password@example.com', password: 'created-user-password' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await t.request('POST', '/auth/login', { json: { email: 'with-password@example.com', password: 'wrong-password-here' } })).status,
    ).toBe(401);
    expect((await t.request('POST', '/auth/logout', { json: { refreshToken: changer.refreshToken } })).status).toBe(200);
    expect(
      (
        await t.request('POST', '/pcns', {
          token: w.owner.token,
          body: 'not multipart',
          headers: { 'content-type': 'text/plain', 'Idempotency-Key': 'junk' },
        })
      ).status,
    ).toBe(400);
    expect((await t.request('GET', `/uploads/${'f'.repeat(32)}.jpg`, { token: `${w.owner.token}x` })).status).toBe(404);
    await createPcnViaApi(t, w.owner.token, w.ownerCarParkId, { images: [{ bytes: makeJpeg(77), name: 'evidence.jpg' }] });

    const issuing = new Set(['/auth/login', '/auth/refresh', '/auth/access-link']);
    const refreshTokens = answers.flatMap((a) =>
      typeof a.res.json?.data?.refreshToken === 'string' ? [a.res.json.data.refreshToken as string] : [],
    );
    const accessTokens = answers.flatMap((a) =>
      typeof a.res.json?.data?.token === 'string' && issuing.has(a.path) ? [a.res.json.data.token as string] : [],
    );
    const oneTimeTokens = smtp.messages
      .flatMap((m) => [RESET_TOKEN, ACCESS_TOKEN_IN_LINK, DEVICE_LINK_TOKEN].map((pattern) => pattern.exec(m.text ?? '')?.[1]))
      .filter((x): x is string => !!x)
      .map(decodeURIComponent);
    const hashes = (await t.db.selectFrom('users').select('password_hash').where('password_hash', 'is not', null).execute()).map(
      (r) => r.password_hash!,
    );
    expect(refreshTokens.length).toBeGreaterThan(10);
    expect(oneTimeTokens.length).toBeGreaterThan(3);
    expect(hashes.length).toBeGreaterThan(3);

    const never = [t.config.jwtSecret, '$argon2', ...hashes, ...oneTimeTokens, ...passwordsUsed];
    for (const { method, path, res } of answers) {
      const where = `${method} ${path}`;
      for (const secret of never) expect(res.text.includes(secret), `${where} carries ${secret.slice(0, 12)}…`).toBe(false);
      if (!issuing.has(path)) {
        for (const token of [...refreshTokens, ...accessTokens])
          expect(res.text.includes(token), `${where} carries a session token`).toBe(false);
      }
    }
    // Each refresh token is in the answer that issued it, and again only in a refresh answering a
    // replay of its predecessor within the reuse window (the same pair, by design).
    for (const token of refreshTokens) {
      const carrying = answers.filter((a) => a.res.text.includes(token));
      expect(carrying.slice(1).every((a) => a.path === '/auth/refresh')).toBe(true);
    }

    expect(t.logLines.length).toBeGreaterThan(0);
    const log = t.logLines.join('\n');
    for (const secret of [...never, ...refreshTokens, ...accessTokens])
      expect(log.includes(secret), `a log line carries ${secret.slice(0, 12)}…`).toBe(false);
    expect(log).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
  }, 120_000);
});
