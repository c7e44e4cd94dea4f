import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@parkpatrol/shared';
import { hashToken } from '../src/services/crypto-tokens.ts';
import { ACCESS_QR_CID } from '../src/services/onboarding-email.ts';
import { startSmtpTestServer } from './smtp-test-server.ts';
import { freePort } from '../../scripts/test-support.ts';
import { createTestApp, type TestApp } from './test-app.ts';

const APP_URL = 'http://localhost:5173';
const ACCESS_URL = new RegExp(`${APP_URL.replace(/[.:/]/g, '\\$&')}/u/([A-Za-z0-9_-]{20,})`, 'g');

let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** A user signed in through POST /auth/login on the given app. */
async function signIn(app: TestApp, role: Role, overrides: Parameters<TestApp['createUser']>[0] = {}) {
  return app.signedInUser(role, overrides);
}

function accessUrlsIn(text: string): string[] {
  return [...new Set([...text.matchAll(ACCESS_URL)].map((m) => m[0]))];
}

function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

function messagesTo(address: string): ParsedMail[] {
  return smtp.messages.filter((m) => JSON.stringify(m.to).toLowerCase().includes(address.toLowerCase()));
}

async function waitForMessages(address: string, count: number): Promise<ParsedMail[]> {
  const deadline = Date.now() + 10_000;
  while (messagesTo(address).length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} emails to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return messagesTo(address);
}

async function accessTokenRows(userId: string) {
  return t.db
    .selectFrom('one_time_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', 'access-link')
    .orderBy('created_at')
    .execute();
}

describe('who may send onboarding emails', () => {
  it('POST /onboarding/send/{id}: anonymous 401, USER 403, ADMIN and SUPER_ADMIN 200', async () => {
    const target = await t.createUser();
    expect((await t.request('POST', `/onboarding/send/${target.id}`, { json: {} })).status).toBe(401);
    const officer = await signIn(t, 'USER');
    const denied = await t.request('POST', `/onboarding/send/${target.id}`, { token: officer.token, json: {} });
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
    for (const role of ['ADMIN', 'SUPER_ADMIN'] as const) {
      const admin = await signIn(t, role);
      const res = await t.request('POST', `/onboarding/send/${target.id}`, { token: admin.token, json: {} });
      expect(res.status).toBe(200);
    }
    expect(await waitForMessages(target.email, 2)).toHaveLength(2);
  });

  it('POST /onboarding/send-bulk: anonymous 401, USER 403, ADMIN and SUPER_ADMIN 200', async () => {
    const target = await t.createUser();
    const body = { userIds: [target.id] };
    expect((await t.request('POST', '/onboarding/send-bulk', { json: body })).status).toBe(401);
    const officer = await signIn(t, 'USER');
    expect((await t.request('POST', '/onboarding/send-bulk', { token: officer.token, json: body })).status).toBe(403);
    for (const role of ['ADMIN', 'SUPER_ADMIN'] as const) {
      const admin = await signIn(t, role);
      const res = await t.request('POST', '/onboarding/send-bulk', { token: admin.token, json: body });
      expect(res.status).toBe(200);
      expect(res.json.data.results).toEqual([{ userId: target.id, success: true }]);
    }
  });

  it('lets only a super admin onboard an admin account, since the link signs in as that account', async () => {
    const target = await t.createUser({ role: 'ADMIN' });
    const admin = await signIn(t, 'ADMIN');
    const denied = await t.request('POST', `/onboarding/send/${target.id}`, { token: admin.token, json: {} });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('Only a super admin can manage admin accounts');
    const superAdmin = await signIn(t, 'SUPER_ADMIN');
    expect((await t.request('POST', `/onboarding/send/${target.id}`, { token: superAdmin.token, json: {} })).status).toBe(200);
  });
});

describe('GET /onboarding/users: who needs onboarding', () => {
  it('lists everyone but the admin asking, with password set, last onboarding email and last sign-in', async () => {
    const admin = await signIn(t, 'ADMIN', { firstName: 'Asker', lastName: 'Admin' });
    const fresh = await t.createUser({ firstName: 'Nora', lastName: 'New', email: 'nora.new@example.com', password: null });
    const active = await t.signedInUser('USER', { firstName: 'Sid', lastName: 'Signed', email: 'sid.signed@example.com' });

    const before = await t.request('GET', '/onboarding/users', { token: admin.token });
    expect(before.status).toBe(200);
    type Row = { id: string; hasPassword: boolean; lastOnboardingEmailAt: string | null; lastSignInAt: string | null };
    const rows = (before.json.data as { users: Row[] }).users;
    expect(rows.map((row) => row.id)).not.toContain(admin.id);
    expect(rows.find((row) => row.id === fresh.id)).toMatchObject({ hasPassword: false, lastOnboardingEmailAt: null, lastSignInAt: null });
    const signedIn = rows.find((row) => row.id === active.id)!;
    expect(signedIn.hasPassword).toBe(true);
    expect(Date.parse(signedIn.lastSignInAt!)).not.toBeNaN();

    expect((await t.request('POST', `/onboarding/send/${fresh.id}`, { token: admin.token, json: {} })).status).toBe(200);
    await waitForMessages('nora.new@example.com', 1);
    const after = ((await t.request('GET', '/onboarding/users', { token: admin.token })).json.data as { users: Row[] }).users;
    const sent = after.find((row) => row.id === fresh.id)!;
    expect(Date.parse(sent.lastOnboardingEmailAt!)).not.toBeNaN();
    expect(sent.lastSignInAt).toBeNull();
  });

  it("says where the emails' links point, and that a phone cannot open a localhost one", async () => {
    const admin = await signIn(t, 'ADMIN');
    const res = await t.request('GET', '/onboarding/users', { token: admin.token });
    expect(res.json.data).toMatchObject({ appUrl: APP_URL, isAppUrlLocal: true });
  });
});

describe('POST /onboarding/send/{userId}', () => {
  it('emails a welcome with account details, access link, QR code, features, car parks, notes and help', async () => {
    const admin = await signIn(t, 'ADMIN', { firstName: 'Ada', lastName: 'Admin' });
    const officer = await t.createUser({ firstName: 'Olive', lastName: "O'Brien <b>", email: 'olive.onboard@example.com', password: null });
    await t.createCarPark({ name: 'Smith & Sons <Yard>', siteCode: 'SSY1', assignTo: [officer.id] });
    await t.createCarPark({ name: 'Station Road', siteCode: 'STA1', assignTo: [officer.id] });
    await t.createCarPark({ name: 'Closed Depot', siteCode: 'CLO1', isActive: false, assignTo: [officer.id] });
    await t.createCarPark({ name: 'Somebody Elses', siteCode: 'SOM1' });

    const res = await t.request('POST', `/onboarding/send/${officer.id}`, {
      token: admin.token,
      json: { adminNotes: '  Bring your badge <script>alert("x")</script>\nPark at the back.  ' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      data: { userId: officer.id, success: true },
      message: 'Onboarding email sent successfully',
    });

    const mail = await smtp.waitForMessage(officer.email);
    expect(mail.subject).toBe('Welcome to ParkPatrol Self Ticketing');
    const html = typeof mail.html === 'string' ? mail.html : '';
    const text = mail.text ?? '';
    expect(html.length).toBeGreaterThan(0);
    expect(text.length).toBeGreaterThan(0);

    // One access URL, the same in both parts, in the configured app's /u/ path.
    const [url, ...others] = accessUrlsIn(text);
    expect(url).toBeDefined();
    expect(others).toEqual([]);
    expect(accessUrlsIn(html)).toEqual([url]);

    // The QR code is an inline attachment referenced by cid, decoding to exactly that URL.
    const qr = mail.attachments.find((a) => a.cid === ACCESS_QR_CID);
    expect(qr).toBeDefined();
    expect(qr!.contentType).toBe('image/png');
    expect(qr!.related).toBe(true);
    // mailparser swaps a cid: reference for the attachment's bytes, so finding them here proves
    // the HTML pointed at this inline image (the raw cid: markup is checked in onboarding-email.test.ts).
    expect(html).toContain(`src="data:image/png;base64,${qr!.content.toString('base64')}"`);
    expect(decodeQr(qr!.content)).toBe(url);

    // Welcome and account details.
    expect(text).toContain('Welcome to ParkPatrol Self Ticketing, Olive!');
    expect(text).toContain(`Olive O'Brien <b>`);
    expect(text).toContain('olive.onboard@example.com');
    expect(text).toContain('Role:  User');
    expect(html).toContain('O&#39;Brien &lt;b&gt;');
    expect(html).not.toContain('<b>');

    // Features, help, car parks (active, assigned only) and the notes, escaped in HTML.
    for (const part of [text, html]) {
      expect(part).toContain('What you can do');
      expect(part).toContain('Keep working without signal');
      expect(part).toContain('Help and support');
      expect(part).toContain('Your car parks');
      expect(part).toContain('Station Road');
      expect(part).not.toContain('Closed Depot');
      expect(part).not.toContain('Somebody Elses');
    }
    expect(text).toContain('Smith & Sons <Yard> (SSY1)');
    expect(html).toContain('Smith &amp; Sons &lt;Yard&gt; (SSY1)');
    expect(text).toContain('Bring your badge <script>alert("x")</script>');
    expect(text).toContain('A note from Ada Admin');
    expect(html).toContain('Bring your badge &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<br>Park at the back.');
    expect(html).not.toMatch(/<script/i);

    // The token is stored only as its hash, expires in 7 days and is not in any log line.
    const token = url!.split('/u/')[1]!;
    const rows = await accessTokenRows(officer.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashToken(token));
    expect(rows[0]!.used_at).toBeNull();
    const ttl = Date.parse(rows[0]!.expires_at) - Date.parse(rows[0]!.created_at);
    expect(ttl).toBe(7 * 24 * 60 * 60 * 1000);
    expect(t.logLines.join('\n')).not.toContain(token);

    // The send is recorded for the admin, naming the recipient.
    const activity = await t.db
      .selectFrom('activities')
      .selectAll()
      .where('user_id', '=', admin.id)
      .where('activity_type', '=', 'ONBOARDING_SENT')
      .executeTakeFirstOrThrow();
    expect(activity.description).toBe(`Onboarding email sent to Olive O'Brien <b> (olive.onboard@example.com)`);
    const email = await t.db.selectFrom('emails').selectAll().where('user_id', '=', officer.id).executeTakeFirstOrThrow();
    expect(email).toMatchObject({ purpose: 'onboarding', status: 'sent', error: null });
  });

  it('leaves out the car parks and notes sections when there are none', async () => {
    const admin = await signIn(t, 'ADMIN');
    const officer = await t.createUser({ email: 'no.parks@example.com' });
    const res = await t.request('POST', `/onboarding/send/${officer.id}`, { token: admin.token, json: { adminNotes: '   ' } });
    expect(res.status).toBe(200);
    const mail = await smtp.waitForMessage(officer.email);
    expect(mail.text).not.toContain('Your car parks');
    expect(mail.text).not.toContain('A note from');
    expect(mail.html).not.toContain('A note from');
    expect(mail.text).toContain('Help and support');
  });

  it('voids the first link when the email is sent again', async () => {
    const admin = await signIn(t, 'ADMIN');
    const officer = await t.createUser({ email: 'resend@example.com' });
    expect((await t.request('POST', `/onboarding/send/${officer.id}`, { token: admin.token, json: {} })).status).toBe(200);
    expect((await t.request('POST', `/onboarding/send/${officer.id}`, { token: admin.token })).status).toBe(200);
    const [first, second] = await waitForMessages(officer.email, 2);
    const firstUrl = accessUrlsIn(first!.text ?? '')[0]!;
    const secondUrl = accessUrlsIn(second!.text ?? '')[0]!;
    expect(secondUrl).not.toBe(firstUrl);
    const rows = await accessTokenRows(officer.id);
    expect(rows.map((r) => [r.token_hash, r.used_at !== null])).toEqual([
      [hashToken(firstUrl.split('/u/')[1]!), true],
      [hashToken(secondUrl.split('/u/')[1]!), false],
    ]);
  });

  it('answers 404 for an unknown user and 409 for an inactive one, sending nothing', async () => {
    const admin = await signIn(t, 'ADMIN');
    const unknown = await t.request('POST', '/onboarding/send/no-such-user', { token: admin.token, json: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ success: false, code: 'NOT_FOUND', message: 'User not found', error: 'User not found' });

    const inactive = await t.createUser({ isActive: false, email: 'inactive.single@example.com' });
    const res = await t.request('POST', `/onboarding/send/${inactive.id}`, { token: admin.token, json: {} });
    expect(res.status).toBe(409);
    expect(res.json.message).toBe('This user is inactive. Activate the account before sending an onboarding email.');
    expect(await accessTokenRows(inactive.id)).toEqual([]);
    expect(messagesTo(inactive.email)).toEqual([]);
  });

  it('refuses notes that are not text with 400', async () => {
    const admin = await signIn(t, 'ADMIN');
    const officer = await t.createUser();
    const res = await t.request('POST', `/onboarding/send/${officer.id}`, { token: admin.token, json: { adminNotes: 42 } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
  });

  it('answers 502 with a clear message when the mail server is unreachable, and voids the unsent link', async () => {
    // Nothing listens there: the mailer's connection is refused at once.
    const port = await freePort();
    const offline = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
    try {
      const admin = await signIn(offline, 'ADMIN');
      const officer = await offline.createUser();
      const res = await offline.request('POST', `/onboarding/send/${officer.id}`, { token: admin.token, json: {} });
      expect(res.status).toBe(502);
      expect(res.json).toMatchObject({
        success: false,
        code: 'EMAIL_DELIVERY_FAILED',
        message: 'Failed to send onboarding email: the mail server did not accept it. Please try again later.',
      });
      const rows = await offline.db.selectFrom('one_time_tokens').selectAll().where('user_id', '=', officer.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.used_at).not.toBeNull();
      const email = await offline.db.selectFrom('emails').selectAll().where('user_id', '=', officer.id).executeTakeFirstOrThrow();
      expect(email.status).toBe('failed');
      const sent = await offline.db.selectFrom('activities').selectAll().where('activity_type', '=', 'ONBOARDING_SENT').execute();
      expect(sent).toEqual([]);
    } finally {
      await offline.close();
    }
  });
});

describe('POST /onboarding/send-bulk', () => {
  it('sends to each user, reporting unknown and inactive users as per-user failures', async () => {
    const admin = await signIn(t, 'ADMIN', { firstName: 'Bulk', lastName: 'Sender' });
    const first = await t.createUser({ email: 'bulk.first@example.com' });
    const inactive = await t.createUser({ email: 'bulk.inactive@example.com', isActive: false });
    const second = await t.createUser({ email: 'bulk.second@example.com' });
    await t.createCarPark({ name: 'Bulk Yard', assignTo: [second.id] });

    const res = await t.request('POST', '/onboarding/send-bulk', {
      token: admin.token,
      json: { userIds: [first.id, 'missing-user', inactive.id, second.id, first.id], adminNotes: '  Welcome aboard & good luck  ' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      data: {
        results: [
          { userId: first.id, success: true },
          { userId: 'missing-user', success: false, error: 'User not found' },
          { userId: inactive.id, success: false, error: 'This user is inactive. Activate the account before sending an onboarding email.' },
          { userId: second.id, success: true },
        ],
      },
      message: 'Onboarding emails sent: 2 succeeded, 2 failed',
    });

    const [firstMail] = await waitForMessages(first.email, 1);
    const [secondMail] = await waitForMessages(second.email, 1);
    expect(messagesTo(first.email)).toHaveLength(1);
    expect(messagesTo(inactive.email)).toEqual([]);
    for (const mail of [firstMail!, secondMail!]) {
      const url = accessUrlsIn(mail.text ?? '')[0];
      expect(url).toBeDefined();
      expect(decodeQr(mail.attachments.find((a) => a.cid === ACCESS_QR_CID)!.content)).toBe(url);
      expect(mail.text).toContain('Welcome aboard & good luck');
      expect(mail.html).toContain('Welcome aboard &amp; good luck');
    }
    expect(secondMail!.text).toContain('Bulk Yard');
    expect(firstMail!.text).not.toContain('Your car parks');

    const sent = await t.db
      .selectFrom('activities')
      .select('description')
      .where('user_id', '=', admin.id)
      .where('activity_type', '=', 'ONBOARDING_SENT')
      .execute();
    expect(sent.map((a) => a.description).sort()).toEqual([
      `Onboarding email sent to Test User (${first.email})`,
      `Onboarding email sent to Test User (${second.email})`,
    ]);
  });

  it("refuses an empty selection with 'Please select at least one user'", async () => {
    const admin = await signIn(t, 'ADMIN');
    const res = await t.request('POST', '/onboarding/send-bulk', { token: admin.token, json: { userIds: [] } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      success: false,
      message: 'Please select at least one user',
      error: 'Please select at least one user',
    });
  });
});

describe('following the access link', () => {
  it('exchanges the emailed token for a session once, asking a user without a password to set one', async () => {
    const admin = await signIn(t, 'ADMIN');
    const officer = await t.createUser({ email: 'follow.link@example.com', password: null });
    expect((await t.request('POST', `/onboarding/send/${officer.id}`, { token: admin.token, json: {} })).status).toBe(200);
    const mail = await smtp.waitForMessage(officer.email);
    const qrUrl = decodeQr(mail.attachments.find((a) => a.cid === ACCESS_QR_CID)!.content)!;
    const token = new URL(qrUrl).pathname.replace(/^\/u\//, '');

    const res = await t.request('POST', '/auth/access-link', { json: { token } });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      token: expect.any(String),
      refreshToken: expect.any(String),
      mustSetPassword: true,
      user: { id: officer.id, email: officer.email },
    });
    const profile = await t.request('GET', '/users/profile', { token: res.json.data.token });
    expect(profile.status).toBe(200);

    const again = await t.request('POST', '/auth/access-link', { json: { token } });
    expect(again.status).toBe(400);
  });
});
