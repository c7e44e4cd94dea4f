import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES, SUCCESS_MESSAGES, VALIDATION_MESSAGES } from '@parkpatrol/shared';
import { ACCESS_LINK_TTL_MS, issueOneTimeToken, PASSWORD_RESET_TTL_MS } from '../src/auth/one-time-tokens.ts';
import { SIGN_IN_POLICY } from '../src/auth/sign-in-limiter.ts';
import { loadConfig } from '../src/config.ts';
import { setPasswordHash } from '../src/repositories/users.ts';
import { hashToken } from '../src/services/crypto-tokens.ts';
import { startSmtpTestServer } from './smtp-test-server.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { freePort } from '../../scripts/test-support.ts';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

async function activityTypes(t: TestApp, userId: string): Promise<string[]> {
  const rows = await t.db.selectFrom('activities').select('activity_type').where('user_id', '=', userId).orderBy('created_at').execute();
  return rows.map((r) => r.activity_type);
}

/** Answers of these routes may hold tokens only in the fields meant for them, never a hash. */
function expectNoSecrets(text: string) {
  expect(text).not.toContain('password_hash');
  expect(text).not.toContain('passwordHash');
  expect(text).not.toContain('$argon2');
}

describe('POST /auth/login', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('signs in an active user and answers user, access token and refresh token', async () => {
    const carPark = await t.createCarPark({ name: 'Riverside' });
    const user = await t.createUser({ email: 'olivia@example.com', firstName: 'Olivia', lastName: 'Officer' });
    await t.db
      .insertInto('car_park_users')
      .values({ car_park_id: carPark.id, user_id: user.id, created_at: new Date().toISOString() })
      .execute();

    const res = await t.request('POST', '/auth/login', { json: { email: 'Olivia@Example.com ', password: 'password123' } });

    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data.user).toMatchObject({
      id: user.id,
      email: 'olivia@example.com',
      firstName: 'Olivia',
      lastName: 'Officer',
      role: 'USER',
      isActive: true,
      hasPassword: true,
      carParks: [{ id: carPark.id, name: 'Riverside' }],
    });
    expect(res.json.data.token).toEqual(expect.any(String));
    expect(res.json.data.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expectNoSecrets(res.text);
    expect(await activityTypes(t, user.id)).toEqual(['LOGIN']);

    const profile = await t.request('GET', '/users/profile', { token: res.json.data.token });
    expect(profile.status).toBe(200);
  });

  it('stores only the hash of the refresh token', async () => {
    const user = await t.signedInUser('USER');
    const rows = await t.db.selectFrom('refresh_tokens').select('token_hash').where('user_id', '=', user.id).execute();
    expect(rows).toEqual([{ token_hash: hashToken(user.refreshToken) }]);
  });

  it('refuses a wrong password and an unknown email with the same message', async () => {
    const user = await t.createUser();
    const wrong = await t.request('POST', '/auth/login', { json: { email: user.email, password: 'not-the-password' } });
    const unknown = await t.request('POST', '/auth/login', { json: { email: 'nobody@example.com', password: 'whatever1' } });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({
        success: false,
        code: 'UNAUTHENTICATED',
        message: SERVER_MESSAGES.invalidCredentials,
        error: SERVER_MESSAGES.invalidCredentials,
      });
    }
    expect(wrong.text).toBe(unknown.text);
  });

  it('refuses an inactive user with the same message as a wrong password', async () => {
    const user = await t.createUser({ isActive: false });
    const res = await t.request('POST', '/auth/login', { json: { email: user.email, password: user.password } });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe(SERVER_MESSAGES.invalidCredentials);
  });

  it('refuses a user who has no password yet', async () => {
    const user = await t.createUser({ password: null });
    const res = await t.request('POST', '/auth/login', { json: { email: user.email, password: 'anything1' } });
    expect(res.status).toBe(401);
  });

  it('answers bad input with 400 and field details, never 500', async () => {
    const missing = await t.request('POST', '/auth/login', { json: { email: 'not-an-email' } });
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe('VALIDATION_FAILED');
    expect(missing.json.details).toMatchObject({ email: VALIDATION_MESSAGES.emailInvalid, password: VALIDATION_MESSAGES.passwordRequired });

    const wrongTypes = await t.request('POST', '/auth/login', { json: { email: 42, password: ['x'] } });
    expect(wrongTypes.status).toBe(400);

    const malformed = await t.request('POST', '/auth/login', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ code: 'INVALID_JSON', message: SERVER_MESSAGES.invalidJson });

    const array = await t.request('POST', '/auth/login', { json: [] });
    expect(array.status).toBe(400);
  });

  it('never lets a rehash overwrite a password reset that landed during the sign-in check', async () => {
    const user = await t.createUser();
    const before = await t.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    // The reset's new hash is stored first; the rehash still names the hash it checked against.
    await setPasswordHash(t.db, user.id, { passwordHash: 'hash-of-the-reset-password', now: new Date() });
    await setPasswordHash(t.db, user.id, { passwordHash: 'rehash-of-the-old-password', now: new Date(), replacing: before.password_hash! });
    const after = await t.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after.password_hash).toBe('hash-of-the-reset-password');
  });
});

describe('sign-in rate limiting', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  /** A wrong guess made after the backoff of the one before has passed (a patient attacker). */
  async function patientGuess(email: string) {
    t.clock.offsetMs += 60_000;
    return t.request('POST', '/auth/login', { json: { email, password: 'wrong-password' } });
  }

  it('locks an account after 5 failed attempts with 429 and Retry-After, even for the right password', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 5; i++) expect((await patientGuess(user.email)).status).toBe(401);
    const locked = await t.request('POST', '/auth/login', { json: { email: user.email, password: user.password } });
    expect(locked.status).toBe(429);
    expect(locked.json).toMatchObject({ success: false, code: 'RATE_LIMITED', message: SERVER_MESSAGES.tooManyLoginAttempts });
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // Another account is not affected by this account's lock.
    const other = await t.createUser();
    expect((await t.request('POST', '/auth/login', { json: { email: other.email, password: other.password } })).status).toBe(200);
  });

  it('slows down before it locks: one typo costs nothing, then each failure doubles the wait before the next guess is heard', async () => {
    // A minute per step, so a slow argon2 run on a loaded machine cannot eat the wait.
    const slow = await createTestApp({ signInPolicy: { ...SIGN_IN_POLICY, backoffBaseMs: 60_000 } });
    try {
      const user = await slow.createUser();
      const attempt = (password: string) => slow.request('POST', '/auth/login', { json: { email: user.email, password } });
      expect((await attempt('wrong-1')).status).toBe(401);
      expect((await attempt('wrong-2')).status).toBe(401);
      const tooSoon = await attempt(user.password ?? '');
      expect(tooSoon.status).toBe(429);
      expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(50);
      expect(Number(tooSoon.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      slow.clock.offsetMs += 60_000;
      expect((await attempt('wrong-3')).status).toBe(401);
      slow.clock.offsetMs += 60_000;
      const third = await attempt(user.password ?? '');
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(50);
      slow.clock.offsetMs += 60_000;
      expect((await attempt(user.password ?? '')).status).toBe(200);
      // The success forgot the failures: the next typo costs nothing again.
      expect((await attempt('wrong-4')).status).toBe(401);
      expect((await attempt(user.password ?? '')).status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('lets the account in again once the window has passed', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 5; i++) await patientGuess(user.email);
    expect((await t.request('POST', '/auth/login', { json: { email: user.email, password: user.password } })).status).toBe(429);

    t.clock.offsetMs += FIFTEEN_MINUTES_MS + 1000;

    expect((await t.request('POST', '/auth/login', { json: { email: user.email, password: user.password } })).status).toBe(200);
  });

  it('never locks out a user who signs in successfully again and again', async () => {
    // A small address cap (the rule, not the number, is under test): argon2 runs once per sign-in.
    const small = await createTestApp({ signInPolicy: { ...SIGN_IN_POLICY, failuresPerAddress: 8 } });
    try {
      const user = await small.createUser();
      for (let i = 0; i < 8 + 2; i++) {
        const res = await small.request('POST', '/auth/login', { json: { email: user.email, password: user.password } });
        expect(res.status).toBe(200);
      }
    } finally {
      await small.close();
    }
  });

  it('forgets earlier failures of an account after a successful sign-in', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 4; i++) await patientGuess(user.email);
    t.clock.offsetMs += 60_000;
    await t.login(user.email, user.password ?? '');
    for (let i = 0; i < 4; i++) await patientGuess(user.email);
    t.clock.offsetMs += 60_000;
    expect((await t.request('POST', '/auth/login', { json: { email: user.email, password: user.password } })).status).toBe(200);
  });

  it('limits failures from one address across many accounts', async () => {
    const small = await createTestApp({ signInPolicy: { ...SIGN_IN_POLICY, failuresPerAddress: 8 } });
    try {
      const user = await small.createUser();
      // Failures spread over accounts that never reach their own limit, sent side by side.
      const sprayed = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          small.request('POST', '/auth/login', { json: { email: `spray-${i}@example.com`, password: 'Summer2026' } }),
        ),
      );
      expect(sprayed.every((r) => r.status === 401)).toBe(true);
      const res = await small.request('POST', '/auth/login', { json: { email: user.email, password: user.password } });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await small.close();
    }
  });
});

describe('POST /auth/refresh', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  // With the device token of the sign-in: only the device that rotated a token may replay it.
  const refresh = (refreshToken: string, deviceToken?: string) =>
    t.request('POST', '/auth/refresh', { json: { refreshToken, ...(deviceToken ? { deviceToken } : {}) } });

  it('rotates: answers a new access token and a new refresh token, and the new pair works', async () => {
    const user = await t.signedInUser('USER');
    const res = await refresh(user.refreshToken);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ token: expect.any(String), refreshToken: expect.any(String) });
    expect(res.json.data.refreshToken).not.toBe(user.refreshToken);
    expect((await t.request('GET', '/users/profile', { token: res.json.data.token })).status).toBe(200);
    expect((await refresh(res.json.data.refreshToken)).status).toBe(200);
  });

  it('lets an access token run out by the server clock that signed it, and the refresh token carry on', async () => {
    // The test app's clock stands still, so only the moves below count, however slowly the machine answers.
    const user = await t.signedInUser('USER');
    t.clock.offsetMs += FIFTEEN_MINUTES_MS - 1000;
    expect((await t.request('GET', '/users/profile', { token: user.token })).status).toBe(200);
    t.clock.offsetMs += 2000;
    const expired = await t.request('GET', '/users/profile', { token: user.token });
    expect(expired.status).toBe(401);
    expect(expired.json.message).toBe(SERVER_MESSAGES.sessionExpired);
    const res = await refresh(user.refreshToken);
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/users/profile', { token: res.json.data.token })).status).toBe(200);
  });

  it('answers a token rotated within the reuse window with the same pair, as often as it comes back', async () => {
    // The test app's clock stands still but for the move below: the access token is the same
    // bytes only when signed at the same second, which is the point.
    const user = await t.signedInUser('USER');
    const first = await refresh(user.refreshToken, user.deviceToken);
    t.clock.offsetMs += 20_000;
    // A refresh the page abandoned after the server rotated: the phone still holds the old token.
    const replay = await refresh(user.refreshToken, user.deviceToken);
    const again = await refresh(user.refreshToken, user.deviceToken);
    expect([replay.status, again.status]).toEqual([200, 200]);
    expect(replay.json.data).toEqual(first.json.data);
    expect(again.json.data).toEqual(first.json.data);
    // The pair keeps working, and it was never more than one session.
    expect((await refresh(first.json.data.refreshToken)).status).toBe(200);
    const families = await t.db.selectFrom('refresh_tokens').select('family_id').where('user_id', '=', user.id).distinct().execute();
    expect(families).toHaveLength(1);
  });

  it('gives two tabs refreshing with one token at the same moment one pair', async () => {
    const user = await t.signedInUser('USER');
    // Open connections first (on PostgreSQL the pool opens them lazily), so the two really overlap.
    await Promise.all(Array.from({ length: 4 }, () => sql`select 1`.execute(t.db)));
    const answers = await Promise.all([refresh(user.refreshToken, user.deviceToken), refresh(user.refreshToken, user.deviceToken)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers[0]!.json.data.refreshToken).toBe(answers[1]!.json.data.refreshToken);
    const rows = await t.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(2);
  });

  it('takes its reuse window from REFRESH_REUSE_SECONDS, and refuses a value over 60', async () => {
    expect(() => loadConfig({ DATA_DIR: t.config.dataDir, REFRESH_REUSE_SECONDS: '61' })).toThrow(/REFRESH_REUSE_SECONDS/);
    const short = await createTestApp({ config: { refreshReuseSeconds: 5 } });
    try {
      const user = await short.signedInUser('USER');
      await short.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } });
      short.clock.offsetMs += 6_000;
      expect((await short.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } })).status).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('revokes the whole family when a token rotated more than 30 seconds ago is reused', async () => {
    const user = await t.signedInUser('USER');
    const first = await refresh(user.refreshToken);
    t.clock.offsetMs += 31_000;

    const reuse = await refresh(user.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.json).toMatchObject({ code: 'UNAUTHENTICATED', message: SERVER_MESSAGES.invalidRefreshToken });

    // The legitimate holder of the newest token is signed out too: the family is burned.
    expect((await refresh(first.json.data.refreshToken)).status).toBe(401);
    expect(t.logLines.some((line) => line.includes('refresh token reuse detected'))).toBe(true);
    expect(t.logLines.join('\n')).not.toContain(user.refreshToken);
  });

  it('does not touch other sessions of the same user when one family is revoked', async () => {
    const user = await t.signedInUser('USER');
    const otherDevice = await t.login(user.email, user.password ?? '');
    await refresh(user.refreshToken);
    t.clock.offsetMs += 31_000;
    await refresh(user.refreshToken);
    expect((await refresh(otherDevice.refreshToken)).status).toBe(200);
  });

  it('refuses unknown and expired tokens with 401', async () => {
    expect((await refresh('not-a-real-token')).status).toBe(401);
    const user = await t.signedInUser('USER');
    t.clock.offsetMs += 30 * 24 * 60 * 60 * 1000 + 1000;
    const expired = await refresh(user.refreshToken);
    expect(expired.status).toBe(401);
    expect(expired.json.message).toBe(SERVER_MESSAGES.invalidRefreshToken);
  });

  it('refuses a user who has been deactivated', async () => {
    const user = await t.signedInUser('USER');
    await t.db.updateTable('users').set({ is_active: false }).where('id', '=', user.id).execute();
    expect((await refresh(user.refreshToken)).status).toBe(401);
  });

  it('refuses a missing token with 400', async () => {
    const res = await t.request('POST', '/auth/refresh', { json: {} });
    expect(res.status).toBe(400);
    expect(res.json.details).toHaveProperty('refreshToken');
  });
});

describe('POST /auth/logout', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('revokes the refresh token, records LOGOUT and answers 200 again when repeated', async () => {
    const user = await t.signedInUser('USER');
    const res = await t.request('POST', '/auth/logout', { token: user.token, json: { refreshToken: user.refreshToken } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, data: null, message: SUCCESS_MESSAGES.signedOut });
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } })).status).toBe(401);

    const again = await t.request('POST', '/auth/logout', { token: user.token, json: { refreshToken: user.refreshToken } });
    expect(again.status).toBe(200);
    expect(await activityTypes(t, user.id)).toEqual(['LOGIN', 'LOGOUT']);
  });

  it('works with the refresh token alone, when the access token has expired', async () => {
    const user = await t.signedInUser('USER');
    const res = await t.request('POST', '/auth/logout', { json: { refreshToken: user.refreshToken } });
    expect(res.status).toBe(200);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } })).status).toBe(401);
  });

  it('ends the sibling handed out in the grace window too', async () => {
    const user = await t.signedInUser('USER');
    const { refreshToken, deviceToken } = user;
    const first = await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken } });
    const replay = await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken } });
    expect(replay.status).toBe(200);
    await t.request('POST', '/auth/logout', { json: { refreshToken: first.json.data.refreshToken } });
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: replay.json.data.refreshToken } })).status).toBe(401);
  });

  it('with the access token alone, ends its session: the refresh token of that sign-in stops working, another sign-in keeps going', async () => {
    const user = await t.signedInUser('USER');
    const elsewhere = await t.login(user.email, user.password ?? '');
    const res = await t.request('POST', '/auth/logout', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.json.message).toBe(SUCCESS_MESSAGES.signedOut);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } })).status).toBe(401);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: elsewhere.refreshToken } })).status).toBe(200);
    expect(await activityTypes(t, user.id)).toEqual(['LOGIN', 'LOGIN', 'LOGOUT']);
    // Signing out twice is not an error, and records one LOGOUT; nor is it for an account deleted since.
    expect((await t.request('POST', '/auth/logout', { token: user.token })).status).toBe(200);
    expect(await activityTypes(t, user.id)).toEqual(['LOGIN', 'LOGIN', 'LOGOUT']);
    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect((await t.request('POST', '/auth/logout', { token: user.token })).status).toBe(200);
  });

  it('refuses clearly when it is given neither a refresh token nor a valid access token', async () => {
    for (const token of [undefined, 'not-a-jwt']) {
      const res = await t.request('POST', '/auth/logout', { token, json: {} });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ success: false, code: 'UNAUTHENTICATED', message: SERVER_MESSAGES.logoutNeedsSession });
    }
  });

  it('answers 200 for an unknown token', async () => {
    const res = await t.request('POST', '/auth/logout', { json: { refreshToken: 'unknown' } });
    expect(res.status).toBe(200);
  });
});

describe('password reset by email', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
  });
  afterAll(() => smtp.close());
  beforeEach(async () => {
    smtp.clear();
    t = await createTestApp({ smtpUrl: smtp.url });
  });
  afterEach(() => t.close());

  async function requestResetLink(email: string): Promise<string> {
    const res = await t.request('POST', '/auth/forgot-password', { json: { email } });
    expect(res.status).toBe(200);
    const mail = await smtp.waitForMessage(email);
    const match = /http:\/\/localhost:5173\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    expect(match).not.toBeNull();
    return match?.[1] ?? '';
  }

  it('emails a single-use link with which the user sets a new password and is signed out elsewhere', async () => {
    const user = await t.signedInUser('USER', { firstName: 'Olivia' });

    const res = await t.request('POST', '/auth/forgot-password', { json: { email: user.email.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, data: null, message: SUCCESS_MESSAGES.passwordResetEmailSent });

    const mail = await smtp.waitForMessage(user.email);
    expect(mail.subject).toBe('Reset your ParkPatrol password');
    expect(mail.text).toContain('Hello Olivia,');
    const link = /(http:\/\/localhost:5173\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1] ?? '';
    expect(mail.html).toContain(`href="${link}"`);
    const token = new URL(link).searchParams.get('token') ?? '';

    const reset = await t.request('POST', '/auth/reset-password', { json: { token, password: 'brand-new-secret' } });
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual({ success: true, data: null, message: SUCCESS_MESSAGES.passwordResetSuccessful });

    expect((await t.request('POST', '/auth/login', { json: { email: user.email, password: user.password } })).status).toBe(401);
    t.clock.offsetMs += 60_000; // past the backoff after that wrong password
    expect((await t.request('POST', '/auth/login', { json: { email: user.email, password: 'brand-new-secret' } })).status).toBe(200);
    t.clock.offsetMs = 0;
    // The session that existed before the reset is gone.
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } })).status).toBe(401);

    const again = await t.request('POST', '/auth/reset-password', { json: { token, password: 'another-secret' } });
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ code: 'INVALID_TOKEN', message: SERVER_MESSAGES.invalidResetToken });

    const emails = await t.db.selectFrom('emails').select(['purpose', 'status', 'user_id']).execute();
    expect(emails).toEqual([{ purpose: 'password-reset', status: 'sent', user_id: user.id }]);
  });

  it('escapes the user name in the HTML email', async () => {
    const user = await t.createUser({ firstName: '<script>alert(1)</script>' });
    await t.request('POST', '/auth/forgot-password', { json: { email: user.email } });
    const mail = await smtp.waitForMessage(user.email);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });

  it('refuses a link older than one hour', async () => {
    const user = await t.createUser();
    const token = await requestResetLink(user.email);
    t.clock.offsetMs += PASSWORD_RESET_TTL_MS + 1000;
    const res = await t.request('POST', '/auth/reset-password', { json: { token, password: 'brand-new-secret' } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(SERVER_MESSAGES.invalidResetToken);
    expect((await t.request('POST', '/auth/login', { json: { email: user.email, password: user.password } })).status).toBe(200);
  });

  it('only honours the newest link when several were requested', async () => {
    const user = await t.createUser();
    const older = await requestResetLink(user.email);
    smtp.clear();
    const newer = await requestResetLink(user.email);
    expect((await t.request('POST', '/auth/reset-password', { json: { token: older, password: 'brand-new-secret' } })).status).toBe(400);
    expect((await t.request('POST', '/auth/reset-password', { json: { token: newer, password: 'brand-new-secret' } })).status).toBe(200);
  });

  it('answers the same for an unknown or inactive email and sends nothing to them', async () => {
    const inactive = await t.createUser({ isActive: false });
    const known = await t.createUser();
    const unknown = await t.request('POST', '/auth/forgot-password', { json: { email: 'nobody@example.com' } });
    const ofInactive = await t.request('POST', '/auth/forgot-password', { json: { email: inactive.email } });
    const ofKnown = await t.request('POST', '/auth/forgot-password', { json: { email: known.email } });
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe(ofKnown.text);
    expect(ofInactive.text).toBe(ofKnown.text);
    // Mail goes out in request order, so once the known user's message is here the others would be too.
    await smtp.waitForMessage(known.email);
    expect(smtp.messages).toHaveLength(1);
  });

  it('still answers 200 when the mail server is down, and tries the email again, each time with a link of its own', async () => {
    // Nothing listens there: the mailer's connection is refused at once.
    const offline = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${await freePort()}` });
    try {
      const user = await offline.createUser();
      const res = await offline.request('POST', '/auth/forgot-password', { json: { email: user.email } });
      expect(res.status).toBe(200);
      expect(res.json.message).toBe(SUCCESS_MESSAGES.passwordResetEmailSent);
      const tries = () =>
        offline.db
          .selectFrom('emails')
          .select('status')
          .where('purpose', '=', 'password-reset')
          .where('to_address', '=', user.email)
          .execute();
      // The answer went before the mail; the job's first try is refused and recorded.
      await expect.poll(async () => (await tries()).map((row) => row.status), { timeout: 5_000, interval: 50 }).toEqual(['failed']);
      // The queue's backoff: a second try about two seconds on, refused again, recorded again.
      await expect.poll(async () => (await tries()).length, { timeout: 10_000, interval: 250 }).toBe(2);
      // Each try minted its link as it was sent; only the newest works (a reset voids the earlier).
      const links = await offline.db
        .selectFrom('one_time_tokens')
        .select('used_at')
        .where('user_id', '=', user.id)
        .where('purpose', '=', 'password-reset')
        .execute();
      expect(links).toHaveLength(2);
      expect(links.filter((link) => link.used_at === null)).toHaveLength(1);
    } finally {
      await offline.close();
    }
  });

  it('limits reset requests per account with 429 and Retry-After', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 3; i++) {
      expect((await t.request('POST', '/auth/forgot-password', { json: { email: user.email } })).status).toBe(200);
    }
    const limited = await t.request('POST', '/auth/forgot-password', { json: { email: user.email } });
    expect(limited.status).toBe(429);
    expect(limited.json.message).toBe(SERVER_MESSAGES.tooManyRequests);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Wait for the three messages so none is still in flight when the app closes.
    const deadline = Date.now() + 10_000;
    while (smtp.messages.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(smtp.messages).toHaveLength(3);
  });

  it('refuses an unknown token and a too short password with 400', async () => {
    const unknown = await t.request('POST', '/auth/reset-password', { json: { token: 'nope', password: 'brand-new-secret' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe(SERVER_MESSAGES.invalidResetToken);
    const short = await t.request('POST', '/auth/reset-password', { json: { token: 'nope', password: '123' } });
    expect(short.status).toBe(400);
    expect(short.json.details).toEqual({ password: VALIDATION_MESSAGES.passwordTooShort });
  });
});

describe('POST /auth/access-link', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const issue = (userId: string) =>
    issueOneTimeToken(t.db, { userId, purpose: 'access-link', ttlMs: ACCESS_LINK_TTL_MS, now: t.deps.now() });

  it('exchanges a token for a session and says a user without a password must set one', async () => {
    const user = await t.createUser({ password: null });
    const token = await issue(user.id);

    const res = await t.request('POST', '/auth/access-link', { json: { token } });

    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      user: { id: user.id, hasPassword: false },
      token: expect.any(String),
      refreshToken: expect.any(String),
      mustSetPassword: true,
    });
    expect(await activityTypes(t, user.id)).toEqual(['LOGIN']);

    // The first password needs no current one; afterwards the user signs in normally.
    const set = await t.request('PUT', '/users/profile', { token: res.json.data.token, json: { newPassword: 'my-first-password' } });
    expect(set.status).toBe(200);
    expect(set.json.data.hasPassword).toBe(true);
    await t.login(user.email, 'my-first-password');
  });

  it('says a user who already has a password need not set one', async () => {
    const user = await t.createUser();
    const res = await t.request('POST', '/auth/access-link', { json: { token: await issue(user.id) } });
    expect(res.json.data.mustSetPassword).toBe(false);
  });

  it('refuses a used, expired, unknown or wrong-purpose token with 400', async () => {
    const user = await t.createUser({ password: null });
    const token = await issue(user.id);
    expect((await t.request('POST', '/auth/access-link', { json: { token } })).status).toBe(200);
    const used = await t.request('POST', '/auth/access-link', { json: { token } });
    expect(used.status).toBe(400);
    expect(used.json).toMatchObject({ code: 'INVALID_TOKEN', message: SERVER_MESSAGES.invalidAccessLink });

    const expiring = await issue(user.id);
    t.clock.offsetMs += ACCESS_LINK_TTL_MS + 1000;
    expect((await t.request('POST', '/auth/access-link', { json: { token: expiring } })).status).toBe(400);

    expect((await t.request('POST', '/auth/access-link', { json: { token: 'unknown' } })).status).toBe(400);

    const resetToken = await issueOneTimeToken(t.db, {
      userId: user.id,
      purpose: 'password-reset',
      ttlMs: PASSWORD_RESET_TTL_MS,
      now: t.deps.now(),
    });
    expect((await t.request('POST', '/auth/access-link', { json: { token: resetToken } })).status).toBe(400);
  });

  it('refuses an inactive user', async () => {
    const user = await t.createUser({ isActive: false });
    expect((await t.request('POST', '/auth/access-link', { json: { token: await issue(user.id) } })).status).toBe(400);
  });

  it('limits failed attempts per address with 429', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await t.request('POST', '/auth/access-link', { json: { token: `guess-${i}` } })).status).toBe(400);
    }
    const user = await t.createUser();
    const limited = await t.request('POST', '/auth/access-link', { json: { token: await issue(user.id) } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
