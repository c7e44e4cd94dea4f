import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppealListResponse } from '@parkpatrol/shared';
import { APPEAL_LETTER_DOWNLOADS_PER_ADDRESS, APPEAL_LETTER_DOWNLOADS_PER_CHARGE } from '../src/workflows/appeal-letter.ts';
import { appealForm, chargeToken, sendAppeal } from './support/appeals.ts';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { purgeExpiredPendingAppeals } from '../src/services/purge-expired-evidence.ts';
import { createPcnViaApi, jpegUpload } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * The fourth outside attack, the motorist's side: one test (or more) per finding fixed; each
 * failed before its fix.
 */
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
// Noon on Wednesday 4 February 2026.
const NOW = Date.parse('2026-02-04T12:00:00.000Z');
const MINUTE = 60_000;

describe('the fourth outside attack, public side', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  let registrations = 0;

  beforeAll(async () => {
    // Behind a proxy, so a test can download from several addresses; without X-Forwarded-For every
    // request is the one address it always was.
    t = await createTestApp({ config: { trustProxy: true } });
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Ada', lastName: 'Appeals' });
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  /** A ticket fixed on 1 February 2026, appealable until 1 March. */
  const charge = () =>
    createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: `AB${String(10 + registrations++).padStart(2, '0')}CDE`,
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
  const appealIdOf = async (reference: string) => {
    const res = await t.request('GET', `/appeals?search=${reference}`, { token: admin.token });
    return (res.json.data as AppealListResponse).items[0]!.id;
  };
  /** Letters drawn by this app since it started, by its own metric. */
  const lettersDrawn = async () => (await t.deps.metrics.lettersDrawn.get()).values.reduce((sum, value) => sum + value.value, 0);
  const keptLetters = (pcnId: string) =>
    t.db.selectFrom('sent_documents').selectAll().where('pcn_id', '=', pcnId).where('kind', '=', 'DECISION_LETTER').execute();
  const publicLetter = async (pcnId: string, address?: string) => {
    const res = await t.app.request('/api/public/charges/current/appeal/letter', {
      headers: { authorization: `Bearer ${chargeToken(t, pcnId)}`, ...(address ? { 'x-forwarded-for': address } : {}) },
    });
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const adminLetter = async (appealId: string) => {
    const res = await t.app.request(`/api/appeals/${appealId}/letter`, { headers: { authorization: `Bearer ${admin.token}` } });
    return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  /** A charge with an appeal, rejected by the admin. */
  const decidedCharge = async () => {
    const pcn = await charge();
    const sent = await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm());
    expect(sent.status, sent.text).toBe(201);
    const appealId = await appealIdOf(sent.json.data.reference);
    const decided = await t.request('POST', `/appeals/${appealId}/decision`, {
      token: admin.token,
      json: { outcome: 'REJECTED', reasons: 'The permit shown was for another car park.' },
    });
    expect(decided.status, decided.text).toBe(200);
    return { pcn, appealId };
  };
  /** A fresh window for the download limits, which every test here counts against one address; moving the clock expires the sessions. */
  const nextWindow = async () => {
    t.clock.frozenAtMs = (t.clock.frozenAtMs ?? NOW) + 16 * MINUTE;
    officer = { ...officer, token: (await t.login(officer.email, officer.password ?? '')).token };
    admin = { ...admin, token: (await t.login(admin.email, admin.password ?? '')).token };
  };

  describe('N4: decision letters are drawn once, off the request thread, and downloads are limited', () => {
    it('draws the letter once when the appeal is decided and serves the kept bytes on every download', async () => {
      await nextWindow();
      const before = await lettersDrawn();
      const { pcn, appealId } = await decidedCharge();
      expect(await lettersDrawn()).toBe(before + 1);
      const [kept] = await keptLetters(pcn.id);
      expect(kept).toBeDefined();

      for (let i = 0; i < 3; i++) {
        const got = await publicLetter(pcn.id);
        expect(got.status).toBe(200);
        expect(sha256(got.bytes)).toBe(kept!.sha256);
      }
      const byAdmin = await adminLetter(appealId);
      expect(byAdmin.status).toBe(200);
      expect(sha256(byAdmin.bytes)).toBe(kept!.sha256);
      // Five downloads, no drawing, still one kept letter.
      expect(await lettersDrawn()).toBe(before + 1);
      expect(await keptLetters(pcn.id)).toHaveLength(1);
    });

    it('draws a letter decided before letters were kept once, on its first download, and serves it from the store after', async () => {
      await nextWindow();
      const { pcn, appealId } = await decidedCharge();
      // As a decision made before this change: no letter kept.
      await t.db.deleteFrom('sent_documents').where('pcn_id', '=', pcn.id).where('kind', '=', 'DECISION_LETTER').execute();
      const before = await lettersDrawn();

      // Downloads side by side wait for the one drawing.
      const first = await Promise.all([publicLetter(pcn.id), publicLetter(pcn.id), adminLetter(appealId)]);
      expect(first.map((got) => got.status)).toEqual([200, 200, 200]);
      const kept = await keptLetters(pcn.id);
      expect(kept).toHaveLength(1);
      for (const got of first) expect(sha256(got.bytes)).toBe(kept[0]!.sha256);
      expect(await lettersDrawn()).toBe(before + 1);

      const again = await publicLetter(pcn.id);
      expect(sha256(again.bytes)).toBe(kept[0]!.sha256);
      expect(await lettersDrawn()).toBe(before + 1);
      expect(await keptLetters(pcn.id)).toHaveLength(1);
    });

    it('keeps answering health checks while four clients loop on the letter downloads', async () => {
      await nextWindow();
      const { pcn, appealId } = await decidedCharge();
      await t.db.deleteFrom('sent_documents').where('pcn_id', '=', pcn.id).where('kind', '=', 'DECISION_LETTER').execute();
      // Admins are not limited: four loops for two seconds, as the attack ran them.
      const until = Date.now() + 2000;
      let looping = true;
      const loop = async () => {
        let count = 0;
        while (Date.now() < until) {
          expect((await adminLetter(appealId)).status).toBe(200);
          count++;
        }
        return count;
      };
      // Each probe waits 50 ms, then asks for health: whatever it waited beyond that, the request
      // thread was busy elsewhere.
      const lags: number[] = [];
      const probe = async () => {
        while (looping) {
          const started = performance.now();
          await new Promise((resolve) => setTimeout(resolve, 50));
          expect((await t.request('GET', '/health')).status).toBe(200);
          lags.push(performance.now() - started - 50);
        }
      };
      const probing = probe();
      const loops = await Promise.all([loop(), loop(), loop(), loop()]);
      looping = false;
      await probing;
      expect(loops.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(8);
      // A drawing on the request thread held it for each download; a kept letter is a file read.
      expect(lags.length).toBeGreaterThan(10);
      expect(Math.max(...lags)).toBeLessThan(500);
      expect(await keptLetters(pcn.id)).toHaveLength(1);
    });

    it("limits a charge's letter downloads and an address's, answering 429 with Retry-After", async () => {
      await nextWindow();
      const { pcn } = await decidedCharge();
      for (let i = 0; i < APPEAL_LETTER_DOWNLOADS_PER_CHARGE.limit; i++) expect((await publicLetter(pcn.id)).status).toBe(200);
      const limited = await publicLetter(pcn.id);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.parse(new TextDecoder().decode(limited.bytes)).code).toBe('RATE_LIMITED');

      // Every caller here is one address: other charges' downloads fill the address's window.
      await nextWindow();
      const others = await Promise.all([charge(), charge(), charge(), charge()]);
      let sent = 0;
      for (const other of others) {
        for (let i = 0; i < APPEAL_LETTER_DOWNLOADS_PER_CHARGE.limit && sent < APPEAL_LETTER_DOWNLOADS_PER_ADDRESS.limit; i++, sent++) {
          // No appeal on these charges: each download is still counted before anything is read.
          expect((await publicLetter(other.id)).status).toBe(404);
        }
      }
      const byAddress = await publicLetter(pcn.id);
      expect(byAddress.status).toBe(429);
      expect(Number(byAddress.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it("leaves the motorist's downloads to the motorist: strangers with the windscreen token count against their own addresses", async () => {
      await nextWindow();
      const { pcn } = await decidedCharge();
      // More strangers than a charge's downloads, each from their own address, all served.
      for (let i = 0; i <= APPEAL_LETTER_DOWNLOADS_PER_CHARGE.limit; i++) {
        expect((await publicLetter(pcn.id, `203.0.113.${i + 1}`)).status).toBe(200);
      }
      const motorist = await publicLetter(pcn.id, '198.51.100.7');
      expect(motorist.status).toBe(200);
      // One stranger looping from one address is still cut off.
      for (let i = 1; i < APPEAL_LETTER_DOWNLOADS_PER_CHARGE.limit; i++)
        expect((await publicLetter(pcn.id, '203.0.113.1')).status).toBe(200);
      expect((await publicLetter(pcn.id, '203.0.113.1')).status).toBe(429);
      expect((await publicLetter(pcn.id, '198.51.100.7')).status).toBe(200);
    });
  });

  describe('N5: an appeal filed from the windscreen notice alone can be set aside, and the motorist then appeals', () => {
    it('sets aside a squatted appeal with a reason, audited, and takes the real appeal in its place', async () => {
      await nextWindow();
      const pcn = await charge();
      // The windscreen notice carries the reference and the registration: enough for the lookup.
      const squatter = await t.fileAndConfirmAppeal(
        chargeToken(t, pcn.id),
        appealForm({ name: 'Sam Squatter', email: 'sam@example.net', text: 'Not me, but I got here first.' }),
      );
      expect(squatter.status, squatter.text).toBe(201);
      const real = () => t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm({ name: 'Dana Driver', email: 'dana@example.com' }));
      const refused = await real();
      expect(refused.status).toBe(409);
      const squatId = await appealIdOf(squatter.json.data.reference);

      const noReason = await t.request('POST', `/appeals/${squatId}/set-aside`, { token: admin.token, json: { reason: '  ' } });
      expect(noReason.status).toBe(400);
      expect(Object.keys(noReason.json.details)).toEqual(['reason']);
      const officerTry = await t.request('POST', `/appeals/${squatId}/set-aside`, { token: officer.token, json: { reason: 'Not theirs' } });
      expect(officerTry.status).toBe(403);

      const reason = 'The keeper wrote to us: they did not make this appeal.';
      const setAside = await t.request('POST', `/appeals/${squatId}/set-aside`, { token: admin.token, json: { reason } });
      expect(setAside.status, setAside.text).toBe(200);
      expect(setAside.json.data).toMatchObject({ reference: squatter.json.data.reference, pcnId: pcn.id, reason });
      expect((await t.request('GET', `/appeals/${squatId}`, { token: admin.token })).status).toBe(404);
      const kept = await t.db.selectFrom('set_aside_appeals').selectAll().where('pcn_id', '=', pcn.id).execute();
      expect(kept).toHaveLength(1);
      expect(JSON.parse(kept[0]!.appeal)).toMatchObject({ appellant_name: 'Sam Squatter', text: 'Not me, but I got here first.' });
      const audit = await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token });
      const entry = (
        audit.json.data.entries as Array<{ action: string; actorName: string; changes: Record<string, { from: unknown; to: unknown }> }>
      ).find((e) => e.action === 'appeal_set_aside');
      expect(entry?.actorName).toBe('Ada Appeals');
      expect(entry?.changes.reason?.to).toBe(reason);
      expect(entry?.changes.appeal?.from).toBe(squatter.json.data.reference);

      // The motorist's own appeal now takes the charge's one appeal, and holds the charge.
      const accepted = await real();
      expect(accepted.status, accepted.text).toBe(201);
      expect(accepted.json.data.appeal.status).toBe('OPEN');
      const current = await t.request('GET', '/public/charges/current', { headers: { authorization: `Bearer ${chargeToken(t, pcn.id)}` } });
      expect(current.json.data.onHold).toBe(true);
      const rows = await t.db.selectFrom('appeals').selectAll().where('pcn_id', '=', pcn.id).execute();
      expect(rows.map((row) => row.appellant_name)).toEqual(['Dana Driver']);
      // Still one appeal per charge.
      expect((await real()).status).toBe(409);
    });

    it('never sets aside a decided appeal', async () => {
      await nextWindow();
      const { appealId } = await decidedCharge();
      const refused = await t.request('POST', `/appeals/${appealId}/set-aside`, {
        token: admin.token,
        json: { reason: 'Too late for that' },
      });
      expect(refused.status).toBe(409);
      expect((await t.request('GET', `/appeals/${appealId}`, { token: admin.token })).status).toBe(200);
    });
  });

  describe('N6: an appeal from /charge counts only once confirmed from the email it gives', () => {
    /** The token of the newest confirmation link emailed to `email`. */
    const linkTokenFor = async (email: string) =>
      /confirm-appeal\?token=([A-Za-z0-9_-]+)/.exec(await t.latestMailText(email, 'appeal-confirmation'))?.[1] ?? '';
    const confirm = (token: string) => t.request('POST', '/public/appeals/confirm', { json: { token } });
    const appealsOf = (pcnId: string) => t.db.selectFrom('appeals').selectAll().where('pcn_id', '=', pcnId).execute();

    it("keeps a squatter's appeal pending, takes the motorist's confirmed one, and refuses the squatter's confirmation after it", async () => {
      await nextWindow();
      const pcn = await charge();
      const filedAt = t.deps.now().toISOString();
      // The windscreen notice carries the reference and the registration: enough for the lookup.
      const squatter = await sendAppeal(
        t,
        chargeToken(t, pcn.id),
        appealForm({ name: 'Sam Squatter', email: 'sam@example.net', text: 'Not me, but I got here first.' }),
      );
      expect(squatter.status, squatter.text).toBe(202);
      expect(squatter.json.data).toMatchObject({ status: 'AWAITING_CONFIRMATION', email: 's***@example.net' });
      // Unconfirmed, it is no appeal: no slot taken, no hold, nothing in the admins' queue.
      expect(await appealsOf(pcn.id)).toEqual([]);
      const current = () => t.request('GET', '/public/charges/current', { headers: { authorization: `Bearer ${chargeToken(t, pcn.id)}` } });
      expect((await current()).json.data).toMatchObject({ onHold: false, appeal: null });
      const queue = await t.request('GET', `/appeals?search=${encodeURIComponent(`APL-${pcn.pcnNumber}`)}`, { token: admin.token });
      expect((queue.json.data as AppealListResponse).total).toBe(0);

      // The motorist files and confirms from their own inbox, an hour later: taken, and received when filed.
      const motoristKey = randomUUID();
      const motoristFiled = await sendAppeal(
        t,
        chargeToken(t, pcn.id),
        appealForm({ email: 'dana@example.com' }, [jpegUpload(81)]),
        motoristKey,
      );
      expect(motoristFiled.status, motoristFiled.text).toBe(202);
      const motoristLink = await linkTokenFor('dana@example.com');
      t.clock.frozenAtMs! += 60 * MINUTE;
      const accepted = await confirm(motoristLink);
      expect(accepted.status, accepted.text).toBe(201);
      expect(accepted.json.data).toMatchObject({ reference: `APL-${pcn.pcnNumber}`, appeal: { status: 'OPEN' } });
      const rows = await appealsOf(pcn.id);
      expect(rows.map((row) => [row.appellant_name, row.received_at, row.idempotency_key])).toEqual([
        ['Dana Driver', filedAt, motoristKey],
      ]);
      expect((await current()).json.data.onHold).toBe(true);
      // The same link again (a second click) answers the same appeal; the same form key too.
      const again = await confirm(motoristLink);
      expect(again.status).toBe(200);
      expect(again.json.data.reference).toBe(`APL-${pcn.pcnNumber}`);
      const resent = await sendAppeal(t, chargeToken(t, pcn.id), appealForm({ email: 'dana@example.com' }), motoristKey);
      expect(resent.status).toBe(201);

      // The squatter's confirmation comes later: the charge has its appeal.
      const late = await confirm(await linkTokenFor('sam@example.net'));
      expect(late.status).toBe(409);
      expect(late.json.details).toEqual({ appeal: `APL-${pcn.pcnNumber}` });
      expect((await appealsOf(pcn.id)).map((row) => row.appellant_name)).toEqual(['Dana Driver']);
      // A new filing is refused at once.
      expect((await sendAppeal(t, chargeToken(t, pcn.id), appealForm({ email: 'sam@example.net' }))).status).toBe(409);
    });

    it('refuses a dead or expired link, and purges unconfirmed appeals and their files after expiry', async () => {
      await nextWindow();
      const pcn = await charge();
      const filed = await sendAppeal(t, chargeToken(t, pcn.id), appealForm({ email: 'nobody@example.org' }, [jpegUpload(82)]));
      expect(filed.status, filed.text).toBe(202);
      const token = await linkTokenFor('nobody@example.org');
      const pending = await t.db.selectFrom('pending_appeals').selectAll().where('pcn_id', '=', pcn.id).executeTakeFirstOrThrow();
      // Only the hash is kept.
      expect(pending.token_hash).not.toContain(token);
      const files = await t.db
        .selectFrom('pending_appeal_attachments')
        .select('file_name')
        .where('pending_appeal_id', '=', pending.id)
        .execute();
      expect(files).toHaveLength(1);
      expect(existsSync(join(t.config.uploadsDir, files[0]!.file_name))).toBe(true);

      const unknown = await confirm('x'.repeat(43));
      expect(unknown.status).toBe(400);
      expect(Object.keys(unknown.json.details)).toEqual(['token']);

      t.clock.frozenAtMs! += 25 * 60 * MINUTE;
      const expired = await confirm(token);
      expect(expired.status).toBe(400);
      expect(await appealsOf(pcn.id)).toEqual([]);

      expect(
        await purgeExpiredPendingAppeals({ db: t.db, evidence: t.deps.evidence, logger: t.deps.logger }, t.deps.now()),
      ).toBeGreaterThan(0);
      expect(await t.db.selectFrom('pending_appeals').selectAll().where('pcn_id', '=', pcn.id).execute()).toEqual([]);
      expect(existsSync(join(t.config.uploadsDir, files[0]!.file_name))).toBe(false);
      await nextWindow();
    });
  });
});
