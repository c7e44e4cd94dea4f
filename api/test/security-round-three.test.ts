import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, SERVER_MESSAGES, VALIDATION_MESSAGES } from '@parkpatrol/shared';
import { neutraliseIndentedFormula } from '../src/services/csv-export.ts';
import { CROSS_SITE_MESSAGE } from '../src/http/cross-site.ts';
import { ACCESS_LINK_TTL_MS, issueOneTimeToken, PASSWORD_RESET_TTL_MS } from '../src/auth/one-time-tokens.ts';
import { jpegUpload, makeJpeg, pcnForm, validPcnFields } from './fixtures.ts';
import { jpegWithExif } from './support/exif-jpeg.ts';
import { readPdfText } from './support/pdf.ts';
import { loadConfig } from '../src/config.ts';
import { limitHttpServer } from '../src/http/body-deadline.ts';
import { SIGN_IN_POLICY } from '../src/auth/sign-in-limiter.ts';
import { listen, postFrom } from './support/loopback.ts';
import { stillPng } from './support/png.ts';
import { freePort, waitUntil } from '../../scripts/test-support.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { fetchEvidencePack, viaApp, viaFetch } from './support/evidence-pack.ts';

/**
 * The third outside attack, one test (or more) per finding fixed; each failed before its fix.
 */

describe('security, round three', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;

  beforeAll(async () => {
    t = await createTestApp();
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
  });
  afterAll(() => t.close());

  it('finding 1: an evidence pack of a notice whose description is one 2,000-character word is built', async () => {
    const description = 'W'.repeat(2000);
    const res = await t.request('POST', '/pcns', {
      token: officer.token,
      body: pcnForm({ ...validPcnFields(carParkId), description, images: [jpegUpload(1)] }),
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(res.status).toBe(201);
    // Over a real socket, with /api/health asked every 20 ms while the pack is made.
    const server = await listen(t);
    const base = `${server.baseUrl}/api`;
    try {
      const healthTimes: number[] = [];
      let isBuilding = true;
      const probing = (async () => {
        while (isBuilding) {
          const asked = performance.now();
          await fetch(`${base}/health`).then((answer) => answer.arrayBuffer());
          healthTimes.push(performance.now() - asked);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const pack = await fetchEvidencePack(viaFetch(base), admin.token, res.json.data.id);
      const bytes = await pack.arrayBuffer();
      isBuilding = false;
      await probing;
      expect(pack.status).toBe(200);
      expect(bytes.byteLength).toBeGreaterThan(1000);
      // With the API frozen, health waited 6-11 s. The bound is far above what a loaded machine
      // adds (a few ms here, tens with three suites on two cores), so only a frozen API fails it;
      // that the layout is linear is counted, not timed, in pdf-layout.test.ts.
      expect(Math.max(...healthTimes)).toBeLessThan(2000);
    } finally {
      await server.close();
    }
  });

  it('finding 2: a PNG declaring 6000 x 6000 pixels is refused at upload, naming the limit', async () => {
    const bomb = { bytes: stillPng(6000, 6000), type: 'image/png', name: 'bomb.png' };
    const res = await t.request('POST', '/pcns', {
      token: officer.token,
      body: pcnForm({ ...validPcnFields(carParkId), images: [bomb] }),
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(VALIDATION_MESSAGES.imageTooManyPixels);
    expect(res.json.details).toEqual({ images: VALIDATION_MESSAGES.imageTooManyPixels });
    // Within the limit, the same shape is taken.
    const fine = { bytes: stillPng(4000, 4000), type: 'image/png', name: 'fine.png' };
    const ok = await t.request('POST', '/pcns', {
      token: officer.token,
      body: pcnForm({ ...validPcnFields(carParkId), images: [fine] }),
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(ok.status).toBe(201);
  });

  it("finding 3: 'text/plain; application/json' is not JSON (415); +json is", async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' });
    const plain = await t.request('POST', '/auth/login', { body, headers: { 'content-type': 'text/plain; application/json' } });
    expect(plain.status).toBe(415);
    const essence = await t.request('POST', '/auth/login', { body, headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    expect(essence.status).toBe(401);
    const suffix = await t.request('POST', '/auth/login', { body, headers: { 'content-type': 'application/vnd.parkpatrol+json' } });
    expect(suffix.status).toBe(401);
  });

  it('finding 3: a state-changing request a browser sends from another site is refused before it is read', async () => {
    const json = { email: 'nobody@example.com', password: 'wrong-password' };
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ] as Array<Record<string, string>>) {
      const res = await t.request('POST', '/auth/login', { json, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.json.message).toBe(CROSS_SITE_MESSAGE);
    }
    const form = await t.request('POST', '/pcns', {
      token: officer.token,
      body: pcnForm({ ...validPcnFields(carParkId), images: [jpegUpload(2)] }),
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID(), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(form.status).toBe(403);
    // The app's own pages, the configured APP_URL, and clients that are not browsers pass.
    for (const [index, headers] of (
      [
        { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:5173' },
        { origin: 'http://localhost' },
        { origin: 'http://localhost:5173' },
        {},
        { 'sec-fetch-site': 'none' },
      ] as Array<Record<string, string>>
    ).entries()) {
      const res = await t.request('POST', '/auth/login', { json: { ...json, email: `nobody${index}@example.com` }, headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
    }
    // Reading stays open to links from anywhere (a GET changes nothing).
    expect((await t.request('GET', '/health', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  it('finding 14: line and paragraph separators and bidirectional overrides are refused in one-line fields', async () => {
    // (A separator at either end is trimmed away like any space; inside a name it is refused.)
    for (const sneaky of ['Ann\u2028Other', 'Ann\u2029Other', 'Ann\u202Eevil', 'Ann\u2066x\u2069y']) {
      const res = await t.request('PUT', '/users/profile', { token: officer.token, json: { firstName: sneaky } });
      expect(res.status, JSON.stringify(sneaky)).toBe(400);
      expect(res.json.details.firstName).toBe(VALIDATION_MESSAGES.noControlCharacters);
    }
  });

  it('finding 14: a CSV cell that starts with spaces or tabs and then a formula character is neutralised too', () => {
    for (const cell of [' =HYPERLINK("x")', '\t=1+1', '  +SUM(A1)', ' -2+3', '\u00a0@x'])
      expect(neutraliseIndentedFormula(cell)).toBe(`'${cell}`);
    for (const cell of ['Row C, bay 14', ' plain', 'a=b']) expect(neutraliseIndentedFormula(cell)).toBe(cell);
  });

  async function packTextOf(
    photos: Array<{ bytes: Uint8Array; takenAt: string; source: string; latitude?: string; longitude?: string }>,
  ): Promise<string> {
    const form = pcnForm({ ...validPcnFields(carParkId) });
    for (const [index, photo] of photos.entries())
      form.append('images', new Blob([photo.bytes], { type: 'image/jpeg' }), `photo-${index}.jpg`);
    for (const photo of photos) form.append('imageTakenAt', photo.takenAt);
    for (const photo of photos) form.append('imageTakenAtSource', photo.source);
    for (const photo of photos) form.append('imageLatitude', photo.latitude ?? '');
    for (const photo of photos) form.append('imageLongitude', photo.longitude ?? '');
    const created = await t.request('POST', '/pcns', {
      token: officer.token,
      body: form,
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(created.status, created.text).toBe(201);
    const pack = await fetchEvidencePack(viaApp(t), admin.token, created.json.data.id);
    return (await readPdfText(new Uint8Array(await pack.arrayBuffer()))).flat;
  }

  it("finding 7: times and positions the device typed are labelled as the device's; the photo's own EXIF is read by the server and a disagreement flagged", async () => {
    // Photo 1: no EXIF at all, though the device says the time came from the camera.
    // Photo 2: EXIF written 2 hours before the device's claim, and 1 km away.
    const claimed = '2026-03-14T11:26:05.000Z';
    const text = await packTextOf([
      { bytes: makeJpeg(71), takenAt: claimed, source: 'camera', latitude: '51.50135', longitude: '-0.14189' },
      {
        bytes: jpegWithExif(makeJpeg(72), { dateTimeOriginal: '2026:03:14 09:26:05', latitude: 51.51035, longitude: -0.14189 }),
        takenAt: claimed,
        source: 'camera',
        latitude: '51.50135',
        longitude: '-0.14189',
      },
    ]);
    expect(text).toContain(
      "Taken (reported by the device): 14 Mar 2026, 11:26:05 GMT (the device says from the camera's EXIF; the server found no capture time in the file)",
    );
    expect(text).toContain("Taken (the photo's own EXIF, read by the server): 14 Mar 2026, 09:26:05 GMT (DISAGREES with the device by 2 h");
    expect(text).toContain('GPS position (reported by the device): 51.50135, -0.14189');
    expect(text).toMatch(
      /GPS position \(the photo's own EXIF, read by the server\): 51\.51035, -0\.14189 \(DISAGREES with the device by 10\d\d m\)/,
    );
    expect(text).not.toContain("from the photo's EXIF)");
  });

  /** An unused access link and reset token for `userId`, and whether each still works. */
  async function unusedLinks(userId: string) {
    const now = t.deps.now();
    const access = await issueOneTimeToken(t.db, { userId, purpose: 'access-link', ttlMs: ACCESS_LINK_TTL_MS, now });
    const reset = await issueOneTimeToken(t.db, { userId, purpose: 'password-reset', ttlMs: PASSWORD_RESET_TTL_MS, now });
    return {
      reset,
      async accessWorks() {
        return (await t.request('POST', '/auth/access-link', { json: { token: access } })).status === 200;
      },
      async resetWorks() {
        return (await t.request('POST', '/auth/reset-password/check', { json: { token: reset } })).status === 200;
      },
    };
  }

  it('finding 4: a password change, a reset, a deactivation and an email change end unused access links and reset tokens', async () => {
    const changer = await t.signedInUser('USER');
    const byProfile = await unusedLinks(changer.id);
    expect(
      (
        await t.request('PUT', '/users/profile', {
          token: changer.token,
          json: { currentPassword: changer.password, newPassword: 'a-new-password-1' },
        })
      ).status,
    ).toBe(200);
    expect(await byProfile.accessWorks()).toBe(false);
    expect(await byProfile.resetWorks()).toBe(false);

    const resetter = await t.createUser({});
    const links = await unusedLinks(resetter.id);
    const reset = await issueOneTimeToken(t.db, {
      userId: resetter.id,
      purpose: 'password-reset',
      ttlMs: PASSWORD_RESET_TTL_MS,
      now: t.deps.now(),
    });
    const access = await issueOneTimeToken(t.db, {
      userId: resetter.id,
      purpose: 'access-link',
      ttlMs: ACCESS_LINK_TTL_MS,
      now: t.deps.now(),
    });
    expect((await t.request('POST', '/auth/reset-password', { json: { token: reset, password: 'reset-password-1' } })).status).toBe(200);
    expect((await t.request('POST', '/auth/access-link', { json: { token: access } })).status).not.toBe(200);
    expect(await links.accessWorks()).toBe(false);

    for (const change of [{ isActive: false }, { email: `moved-${randomUUID().slice(0, 8)}@example.com` }]) {
      const user = await t.createUser({});
      const userLinks = await unusedLinks(user.id);
      expect((await t.request('PUT', `/users/${user.id}`, { token: admin.token, json: change })).status).toBe(200);
      if (change.isActive === false) await t.request('PUT', `/users/${user.id}`, { token: admin.token, json: { isActive: true } });
      expect(await userLinks.accessWorks(), JSON.stringify(change)).toBe(false);
      expect(await userLinks.resetWorks(), JSON.stringify(change)).toBe(false);
    }
    // A change that touches no credential (a name) leaves them alone.
    const renamed = await t.createUser({});
    const kept = await unusedLinks(renamed.id);
    expect((await t.request('PUT', `/users/${renamed.id}`, { token: admin.token, json: { firstName: 'Renamed' } })).status).toBe(200);
    expect(await kept.resetWorks()).toBe(true);
    expect(await kept.accessWorks()).toBe(true);
  });

  it("finding 5: a super admin's own password or email changes through PUT /users/{id} only with the current password", async () => {
    const boss = await t.signedInUser('SUPER_ADMIN');
    for (const change of [{ password: 'stolen-token-pw1' }, { email: `taken-over-${randomUUID().slice(0, 8)}@example.com` }]) {
      const missing = await t.request('PUT', `/users/${boss.id}`, { token: boss.token, json: change });
      expect(missing.status, JSON.stringify(change)).toBe(400);
      expect(missing.json.details.currentPassword).toBe(VALIDATION_MESSAGES.currentPasswordRequired);
    }
    // One wrong guess (more would meet the sign-in limiter's backoff, as guesses should).
    const wrong = await t.request('PUT', `/users/${boss.id}`, {
      token: boss.token,
      json: { password: 'stolen-token-pw1', currentPassword: 'not-it' },
    });
    expect(wrong.json.details.currentPassword).toBe(SERVER_MESSAGES.wrongCurrentPassword);
    const renamed = await t.request('PUT', `/users/${boss.id}`, { token: boss.token, json: { firstName: 'Boss' } });
    expect(renamed.status).toBe(200);
    const email = `boss-${randomUUID().slice(0, 8)}@example.com`;
    const moved = await t.request('PUT', `/users/${boss.id}`, { token: boss.token, json: { email, currentPassword: boss.password } });
    expect(moved.status).toBe(200);
    expect(moved.json.data.email).toBe(email);
    // The session that made the change goes on.
    expect((await t.request('GET', '/users/profile', { token: boss.token })).status).toBe(200);
  });

  it('finding 11: an email change is audited and the old address is told', async () => {
    const user = await t.createUser({ firstName: 'Olga' });
    const email = `new-${randomUUID().slice(0, 8)}@example.com`;
    expect((await t.request('PUT', `/users/${user.id}`, { token: admin.token, json: { email } })).status).toBe(200);
    const activity = await t.db
      .selectFrom('activities')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('activity_type', '=', 'EMAIL_CHANGED')
      .executeTakeFirst();
    expect(activity?.description).toBe(`Email changed from ${user.email} to ${email} by Test User`);
    const notice = await t.db
      .selectFrom('emails')
      .selectAll()
      .where('to_address', '=', user.email)
      .where('purpose', '=', 'email-changed')
      .executeTakeFirst();
    expect(notice?.subject).toBe('Your ParkPatrol Self Ticketing email address was changed');
  });

  it('finding 11: a mail server that refuses the notice to the old address keeps the change, and the notice is tried again', async () => {
    // Nothing listens there: the mailer's connection is refused at once.
    const offline = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${await freePort()}` });
    try {
      const user = await offline.createUser({ firstName: 'Olga' });
      const boss = await offline.signedInUser('ADMIN');
      const email = `new-${randomUUID().slice(0, 8)}@example.com`;
      expect((await offline.request('PUT', `/users/${user.id}`, { token: boss.token, json: { email } })).status).toBe(200);
      expect(await offline.db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirst()).toEqual({ email });
      const tries = () =>
        offline.db
          .selectFrom('emails')
          .select('status')
          .where('purpose', '=', 'email-changed')
          .where('to_address', '=', user.email)
          .execute();
      expect((await tries()).map((row) => row.status)).toEqual(['failed']);
      // The queue's backoff: a second try about two seconds on.
      await expect.poll(async () => (await tries()).length, { timeout: 10_000, interval: 250 }).toBe(2);
    } finally {
      await offline.close();
    }
  });
});

describe('security, round three: dead reset tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('finding 13: dead tokens sent to POST /auth/reset-password count towards the same limit as /check and access links', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push(
        (
          await t.request('POST', '/auth/reset-password', {
            json: { token: `dead-${attempt}-${randomUUID()}`, password: 'whatever-pass-1' },
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    // The limit is shared: the check route is spent too.
    expect((await t.request('POST', '/auth/reset-password/check', { json: { token: 'another-dead-one' } })).status).toBe(429);
  });
});

describe('security, round three: guesses spread over many addresses', () => {
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

  // Each guess is an argon2 hash: with other suites on the same two cores, 150 of them take a while.
  const SLOW_UNDER_LOAD = 120_000;
  const login = (body: Record<string, string>, localAddress: string) => postFrom(server.baseUrl, '/auth/login', body, { localAddress });

  it(
    'finding 6: 150 guesses from 30 addresses are not all checked, and the owner still signs in from a device that signed in before',
    async () => {
      const owner = await t.createUser({ password: 'owner-password-1' });
      const first = await login({ email: owner.email, password: 'owner-password-1' }, '127.0.0.1');
      expect(first.status).toBe(200);
      const deviceToken: string = first.json.data.deviceToken;
      expect(deviceToken).toMatch(/^[\w-]{43}$/);

      // Five rounds of one guess from each of 30 addresses, each address below its own lock of
      // five, and time moved on between rounds past every backoff. Before the fix all 150 got a 401,
      // every one checked by argon2; a 429 is answered before the hash runs.
      const statuses: number[] = [];
      for (let round = 0; round < 5; round++) {
        for (let n = 0; n < 30; n++) {
          const answer = await login({ email: owner.email, password: `guess-${round}-${n}` }, `127.0.0.${10 + n}`);
          statuses.push(answer.status);
          if (answer.status === 429) expect(answer.json.message).toBe(SERVER_MESSAGES.signInNeedsKnownDevice);
        }
        t.clock.offsetMs += 20_000;
      }
      expect(statuses.filter((status) => status === 401)).toHaveLength(SIGN_IN_POLICY.failuresPerAccount);
      expect(statuses.filter((status) => status === 429)).toHaveLength(150 - SIGN_IN_POLICY.failuresPerAccount);

      // The right password from a device that never signed in is not heard either...
      expect((await login({ email: owner.email, password: 'owner-password-1' }, '127.0.0.50')).status).toBe(429);
      expect(
        (await login({ email: owner.email, password: 'owner-password-1', deviceToken: 'made-up-device-token' }, '127.0.0.50')).status,
      ).toBe(429);
      // ...but the owner's phone is, even from an address the stranger used, and keeps its token.
      const fromPhone = await login({ email: owner.email, password: 'owner-password-1', deviceToken }, '127.0.0.10');
      expect(fromPhone.status).toBe(200);
      expect(fromPhone.json.data.deviceToken).toBe(deviceToken);
      // A device token of one account is no key to another's.
      const other = await t.createUser({ password: 'other-password-1' });
      for (let n = 0; n < SIGN_IN_POLICY.failuresPerAccount; n++) {
        await login({ email: other.email, password: `guess-${n}` }, `127.0.1.${n % 4}`);
        if (n % 4 === 3) t.clock.offsetMs += 20_000;
      }
      expect((await login({ email: other.email, password: 'other-password-1', deviceToken }, '127.0.0.1')).status).toBe(429);
    },
    SLOW_UNDER_LOAD,
  );

  it(
    "finding 6: the stranger's guesses do not stop the signed-in owner changing their password, and the emailed reset lifts the cap",
    async () => {
      const owner = await t.createUser({ password: 'owner-password-2' });
      const session = await login({ email: owner.email, password: 'owner-password-2' }, '127.0.0.1');
      const oldDevice: string = session.json.data.deviceToken;
      for (let n = 0; n < SIGN_IN_POLICY.failuresPerAccount; n++) {
        await login({ email: owner.email, password: `guess-${n}` }, `127.0.2.${n % 4}`);
        if (n % 4 === 3) t.clock.offsetMs += 20_000;
      }
      expect((await login({ email: owner.email, password: 'owner-password-2' }, '127.0.0.60')).status).toBe(429);

      const change = await t.request('PUT', '/users/profile', {
        token: session.json.data.token,
        json: { currentPassword: 'owner-password-2', newPassword: 'owner-password-3' },
      });
      expect(change.status).toBe(200);

      const token = await issueOneTimeToken(t.db, {
        userId: owner.id,
        purpose: 'password-reset',
        now: t.deps.now(),
        ttlMs: PASSWORD_RESET_TTL_MS,
      });
      expect((await t.request('POST', '/auth/reset-password', { json: { token, password: 'owner-password-4' } })).status).toBe(200);
      const afterReset = await login({ email: owner.email, password: 'owner-password-4' }, '127.0.0.60');
      expect(afterReset.status).toBe(200);
      // The reset forgot every device: whoever knew the old password may have held one.
      const withOldDevice = await login({ email: owner.email, password: 'owner-password-4', deviceToken: oldDevice }, '127.0.0.1');
      expect(withOldDevice.json.data.deviceToken).not.toBe(oldDevice);
    },
    SLOW_UNDER_LOAD,
  );
});

describe('security, round three: PRODUCT_NAME', () => {
  it('finding 10: a PRODUCT_NAME holding markup stops the server at start, naming the variable; plain names pass', () => {
    const env = { DATA_DIR: '/tmp/unused', JWT_SECRET: 'x'.repeat(40) };
    for (const name of ['</title><script>alert(1)</script>', 'A & B', 'Quote"d', 'Line\u2028break']) {
      expect(() => loadConfig({ ...env, PRODUCT_NAME: name }), name).toThrow(/PRODUCT_NAME/);
    }
    expect(loadConfig({ ...env, PRODUCT_NAME: 'Zoë Parking Co.' }).productName).toBe('Zoë Parking Co.');
  });
});

describe('security, round three: slow requests', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let port: number;
  let officer: Session;
  const LIMITS = { shortMs: 600, longMs: 4000 };

  beforeAll(async () => {
    t = await createTestApp({ bodyDeadlines: LIMITS });
    officer = await t.signedInUser('USER');
    server = await listen(t);
    limitHttpServer(server.server, { longMs: LIMITS.longMs, maxConnections: 20 });
    port = server.port;
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  /** Sends headers and a trickle of body, then waits: resolves with whether the server closed the socket by `afterMs`. */
  async function isCutAfter(path: string, headers: Record<string, string>, afterMs: number): Promise<boolean> {
    const { connect } = await import('node:net');
    const socket = connect(port, '127.0.0.1');
    let closed = false;
    // The server ending its side (a FIN) is as good as a close: it will read no more.
    for (const event of ['end', 'close', 'error']) socket.on(event, () => (closed = true));
    socket.resume();
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const lines = [
      `POST ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Length: 100000',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n{"a":`);
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    const wasClosed = closed;
    socket.destroy();
    return wasClosed;
  }

  it("finding 9: a stranger's slow request is cut after the short deadline; a signed-in upload keeps the long one", async () => {
    expect(await isCutAfter('/api/auth/login', { 'Content-Type': 'application/json' }, LIMITS.shortMs + 700)).toBe(true);
    const upload = {
      'Content-Type': 'multipart/form-data; boundary=x',
      Authorization: `Bearer ${officer.token}`,
      [IDEMPOTENCY_KEY_HEADER]: randomUUID(),
    };
    expect(await isCutAfter('/api/pcns', upload, LIMITS.shortMs + 700)).toBe(false);
    // A made-up token is a stranger's.
    expect(await isCutAfter('/api/pcns', { ...upload, Authorization: 'Bearer not-a-token' }, LIMITS.shortMs + 700)).toBe(true);
  });

  it('finding 9: the server holds a capped number of connections; the rest are dropped at once', async () => {
    const { connect } = await import('node:net');
    const sockets = Array.from({ length: 30 }, () => connect(port, '127.0.0.1'));
    const closed = new Set<number>();
    sockets.forEach((socket, index) => {
      socket.on('close', () => closed.add(index));
      socket.on('error', () => closed.add(index));
    });
    // At once: within 400 ms, before even the short deadline (600 ms) could cut one it holds.
    await waitUntil('10 of the 30 connections to be dropped', () => closed.size >= 10, { timeoutMs: 400, intervalMs: 10 });
    expect(closed.size).toBeGreaterThanOrEqual(10);
    for (const socket of sockets) socket.destroy();
  });
});

describe('security, round three: photo URLs end with the session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('finding 12: logout and deactivation end the photo URLs handed to that session; they are never kept in the HTTP cache', async () => {
    const admin = await t.signedInUser('ADMIN');
    for (const end of ['logout', 'deactivation'] as const) {
      const officer = await t.signedInUser('USER');
      const carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
      const created = await t.request('POST', '/pcns', {
        token: officer.token,
        body: pcnForm({ ...validPcnFields(carParkId), images: [jpegUpload(81)] }),
        headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      });
      const url = (created.json.data.images[0].url as string).replace(/^\/api/, '');
      const before = await t.request('GET', url);
      expect(before.status).toBe(200);
      expect(before.headers.get('cache-control')).toBe('private, no-store');
      if (end === 'logout') await t.request('POST', '/auth/logout', { token: officer.token, json: { refreshToken: officer.refreshToken } });
      else await t.request('PUT', `/users/${officer.id}`, { token: admin.token, json: { isActive: false } });
      expect((await t.request('GET', url)).status, end).toBe(404);
    }
  });
});
