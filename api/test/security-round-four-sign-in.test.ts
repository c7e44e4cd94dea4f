import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES, SUCCESS_MESSAGES } from '@parkpatrol/shared';
import { SIGN_IN_POLICY } from '../src/auth/sign-in-limiter.ts';
import { listen, postFrom } from './support/loopback.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * The fourth outside attack, sign-in: one test per finding, each failed before its fix.
 */

// Each guess is an argon2 hash: with other suites on the same two cores, they take a while.
const SLOW_UNDER_LOAD = 120_000;

/** The link of the newest sign-in link emailed to the account, read from the .eml the mailer wrote. */
async function emailedDeviceLink(t: TestApp, userId: string): Promise<string> {
  let location: string | null = null;
  // The email is sent after the answer: wait for it to be written.
  for (let tries = 0; tries < 200 && !location; tries++) {
    const row = await t.db
      .selectFrom('emails')
      .select(['location', 'status'])
      .where('user_id', '=', userId)
      .where('purpose', '=', 'device-link')
      .where('status', '=', 'written')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    location = row?.location ?? null;
    if (!location) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(location).not.toBeNull();
  // Quoted-printable: undo the soft line breaks and the escaped '='.
  const text = readFileSync(location!, 'utf8')
    .replace(/=\r?\n/g, '')
    .replace(/=3D/gi, '=');
  const token = /\/login\?device-link=([\w-]+)/.exec(text)?.[1];
  expect(token).toBeDefined();
  return token!;
}

describe('security, round four: a replayed refresh', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('finding 1: a refresh replayed inside the reuse window from another device is refused and ends the session; the same device still gets the same pair', async () => {
    const owner = await t.createUser({ password: 'owner-password-1' });
    const signedIn = await t.request('POST', '/auth/login', { json: { email: owner.email, password: 'owner-password-1' } });
    const { refreshToken, deviceToken } = signedIn.json.data as { refreshToken: string; deviceToken: string };
    // The owner's laptop: the same account, another device token.
    const laptop = await t.request('POST', '/auth/login', { json: { email: owner.email, password: 'owner-password-1' } });
    const laptopDevice: string = laptop.json.data.deviceToken;
    expect(laptopDevice).not.toBe(deviceToken);

    const first = await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken } });
    expect(first.status).toBe(200);
    // The phone's other tab, or its retry after a cut-off answer: the very same pair.
    const again = await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken } });
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(first.json.data);

    // A copy of the refresh token, replayed from elsewhere inside the window: before the fix it
    // got the same pair. Without a device token, or with another device's, it is a copy.
    const copied = await t.request('POST', '/auth/refresh', { json: { refreshToken } });
    expect(copied.status).toBe(401);
    expect(copied.json.message).toBe(SERVER_MESSAGES.invalidRefreshToken);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken: laptopDevice } })).status).toBe(401);
    // Reuse detection ends the session family, the pair the phone was given included.
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: first.json.data.refreshToken, deviceToken } })).status).toBe(
      401,
    );
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken, deviceToken } })).status).toBe(401);
    expect(t.logLines.some((line) => line.includes('refresh token reuse detected'))).toBe(true);
    // The laptop's own session is another family, and lives on.
    expect(
      (await t.request('POST', '/auth/refresh', { json: { refreshToken: laptop.json.data.refreshToken, deviceToken: laptopDevice } }))
        .status,
    ).toBe(200);
  });
});

describe("security, round four: a stranger's guesses and the owner's new phone", () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });
  const post = (path: string, body: Record<string, string>, localAddress: string) => postFrom(server.baseUrl, path, body, { localAddress });

  it(
    "finding 2: after a stranger's 20 guesses the owner's new phone asks for an emailed sign-in link and signs in with it; the stranger cannot",
    async () => {
      const owner = await t.createUser({ password: 'owner-password-1' });
      for (let n = 0; n < SIGN_IN_POLICY.failuresPerAccount; n++) {
        await post('/auth/login', { email: owner.email, password: `guess-${n}` }, `127.0.3.${n % 4}`);
        if (n % 4 === 3) t.clock.offsetMs += 20_000;
      }
      const phone = '127.0.0.70';
      const refused = await post('/auth/login', { email: owner.email, password: 'owner-password-1' }, phone);
      expect(refused.status).toBe(429);
      expect(refused.json.message).toBe(SERVER_MESSAGES.signInNeedsKnownDevice);

      // The phone asks for a link; the answer is the same as for an email with no account.
      const asked = await post('/auth/device-link', { email: owner.email }, phone);
      expect(asked.status).toBe(200);
      expect(asked.json.message).toBe(SUCCESS_MESSAGES.deviceLinkEmailSent);
      const nobody = await post('/auth/device-link', { email: 'nobody-here@example.com' }, phone);
      expect([nobody.status, nobody.json.message]).toEqual([200, SUCCESS_MESSAGES.deviceLinkEmailSent]);
      const link = await emailedDeviceLink(t, owner.id);

      // The stranger, who does not read the owner's mail, gets nowhere with a made-up link...
      const madeUp = await post('/auth/login', { email: owner.email, password: 'guess-x', deviceLink: 'made-up-link' }, '127.0.3.0');
      expect([madeUp.status, madeUp.json.message]).toEqual([400, SERVER_MESSAGES.invalidDeviceLink]);
      // ...and the link signs nobody in without the password: a wrong one leaves it working.
      const typo = await post('/auth/login', { email: owner.email, password: 'owner-password-X', deviceLink: link }, phone);
      expect(typo.status).toBe(401);
      // A link of one account is no key to another's.
      const other = await t.createUser({ password: 'other-password-1' });
      const elsewhere = await post('/auth/login', { email: other.email, password: 'other-password-1', deviceLink: link }, phone);
      expect(elsewhere.status).toBe(400);

      const admitted = await post('/auth/login', { email: owner.email, password: 'owner-password-1', deviceLink: link }, phone);
      expect(admitted.status).toBe(200);
      const phoneDevice: string = admitted.json.data.deviceToken;
      expect(phoneDevice).toMatch(/^[\w-]{43}$/);
      // The link worked once; the phone is a known device from now on, the cap still holding.
      const twice = await post('/auth/login', { email: owner.email, password: 'owner-password-1', deviceLink: link }, phone);
      expect(twice.status).toBe(400);
      expect((await post('/auth/login', { email: owner.email, password: 'owner-password-1' }, phone)).status).toBe(429);
      const later = await post('/auth/login', { email: owner.email, password: 'owner-password-1', deviceToken: phoneDevice }, phone);
      expect(later.status).toBe(200);
    },
    SLOW_UNDER_LOAD,
  );

  it(
    "a stranger asking for more sign-in links leaves the owner's link working",
    async () => {
      const owner = await t.createUser({ password: 'owner-password-1' });
      const written = async (count: number) => {
        for (let tries = 0; tries < 200; tries++) {
          const rows = await t.db
            .selectFrom('emails')
            .select('id')
            .where('user_id', '=', owner.id)
            .where('purpose', '=', 'device-link')
            .where('status', '=', 'written')
            .execute();
          if (rows.length >= count) return;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        throw new Error(`fewer than ${count} sign-in links written`);
      };
      expect((await post('/auth/device-link', { email: owner.email }, '127.0.0.71')).status).toBe(200);
      await written(1);
      const ownersLink = await emailedDeviceLink(t, owner.id);
      // The stranger knows the email address and asks twice more, within the hour's limit.
      t.clock.offsetMs += 1_000;
      expect((await post('/auth/device-link', { email: owner.email }, '127.0.3.9')).status).toBe(200);
      t.clock.offsetMs += 1_000;
      expect((await post('/auth/device-link', { email: owner.email }, '127.0.3.9')).status).toBe(200);
      await written(3);
      const admitted = await post(
        '/auth/login',
        { email: owner.email, password: 'owner-password-1', deviceLink: ownersLink },
        '127.0.0.71',
      );
      expect(admitted.status, JSON.stringify(admitted.json)).toBe(200);
    },
    SLOW_UNDER_LOAD,
  );
});

describe('security, round four: an office behind one address', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  // The address cap made small, so the test reaches it with a few argon2 hashes instead of 100.
  const FAILURES_PER_ADDRESS = 4;
  beforeAll(async () => {
    t = await createTestApp({ signInPolicy: { ...SIGN_IN_POLICY, failuresPerAddress: FAILURES_PER_ADDRESS } });
    server = await listen(t);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });
  const post = (path: string, body: Record<string, string>, localAddress: string) => postFrom(server.baseUrl, path, body, { localAddress });

  it(
    "finding 3: a busy office address refuses neither a known device's guess nor a new device's with an emailed link",
    async () => {
      const office = '127.0.0.90';
      const owner = await t.createUser({ password: 'owner-password-1' });
      const knownPhone: string = (await post('/auth/login', { email: owner.email, password: 'owner-password-1' }, office)).json.data
        .deviceToken;

      // Someone behind the same office address guesses at other accounts until the address is spent.
      for (let n = 0; n < FAILURES_PER_ADDRESS; n++) {
        const victim = await t.createUser({ password: `victim-password-${n}` });
        expect((await post('/auth/login', { email: victim.email, password: 'wrong-password' }, office)).status).toBe(401);
      }
      const newLaptop = await post('/auth/login', { email: owner.email, password: 'owner-password-1' }, office);
      expect(newLaptop.status).toBe(429);
      expect(newLaptop.json.message).toBe(SERVER_MESSAGES.tooManyLoginAttempts);

      // The known phone in the same office is counted per device, not per address.
      const fromPhone = await post('/auth/login', { email: owner.email, password: 'owner-password-1', deviceToken: knownPhone }, office);
      expect(fromPhone.status).toBe(200);

      // The new laptop has the emailed way in, through the same busy address.
      expect((await post('/auth/device-link', { email: owner.email }, office)).status).toBe(200);
      const link = await emailedDeviceLink(t, owner.id);
      const admitted = await post('/auth/login', { email: owner.email, password: 'owner-password-1', deviceLink: link }, office);
      expect(admitted.status).toBe(200);
      expect(admitted.json.data.deviceToken).not.toBe(knownPhone);
      // The address is still spent for everyone else.
      expect((await post('/auth/login', { email: owner.email, password: 'owner-password-1' }, office)).status).toBe(429);
    },
    SLOW_UNDER_LOAD,
  );
});
