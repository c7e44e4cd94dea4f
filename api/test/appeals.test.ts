import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { listUploadsFolder } from './support/upload-files.ts';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VERIFICATION_CODE_PREVIEW,
  type Appeal,
  type AppealDecisionPreview,
  type AppealListResponse,
  type AppealSubmitted,
  type Pcn,
  type PcnAuditResponse,
  type PcnStatus,
  type PublicCharge,
} from '@parkpatrol/shared';
import { purgeExpiredEvidence } from '../src/services/purge-expired-evidence.ts';
import { appealForm, chargeToken, enterAppeal, enteredAppealForm, pdfUpload } from './support/appeals.ts';
import { letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { takeFingerprint } from './support/db-fingerprint.ts';
import { readPdfText } from './support/pdf.ts';
import { createPcnViaApi, jpegUpload, type NewPcn } from './fixtures.ts';
import { startSmtpTestServer } from './smtp-test-server.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { fetchEvidencePack, viaApp } from './support/evidence-pack.ts';

/**
 * The motorist's appeal and the handler's decision: one appeal per charge, idempotent, in time,
 * its files checked by their bytes; the charge on hold while it is open; the decision's effect on
 * the charge; the letter read back; the emails as sent through a real SMTP server.
 */
describe('appeals', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  // Noon on Wednesday 4 February 2026.
  const NOW = Date.parse('2026-02-04T12:00:00.000Z');
  const DAY = 86_400_000;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    t = await createTestApp({ smtpUrl: smtp.url, mailbox: smtp });
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Ada', lastName: 'Appeals' });
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** A ticket fixed on 1 February 2026: £60 until 15 February, £100 after; appeals until 1 March. */
  const charge = (registration = 'AB12CDE') =>
    createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: registration,
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
  const seen = async (pcn: Pick<NewPcn, 'id'>) => {
    const res = await t.request('GET', '/public/charges/current', { headers: { authorization: `Bearer ${chargeToken(t, pcn.id)}` } });
    return res.json.data as PublicCharge;
  };
  const appealIdOf = async (reference: string) => {
    const res = await t.request('GET', `/appeals?search=${reference}`, { token: admin.token });
    return (res.json.data as AppealListResponse).items[0]!.id;
  };
  const decide = (id: string, json: object, token = admin.token) => t.request('POST', `/appeals/${id}/decision`, { token, json });
  const mailTo = (address: string) => smtp.messages.filter((m) => JSON.stringify(m.to).includes(address));

  it('takes one appeal per charge, answers a repeat of the same key with it, and refuses a second', async () => {
    const pcn = await charge();
    const token = chargeToken(t, pcn.id);
    const key = randomUUID();
    const form = () => appealForm({}, [jpegUpload(41), pdfUpload()]);
    const first = await t.fileAndConfirmAppeal(token, form(), key);
    expect(first.status, first.text).toBe(201);
    const submitted = first.json.data as AppealSubmitted;
    expect(submitted.reference).toBe(`APL-${pcn.pcnNumber}`);
    expect(submitted.appeal.status).toBe('OPEN');

    const again = await t.fileAndConfirmAppeal(token, form(), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data.reference).toBe(submitted.reference);
    const second = await t.fileAndConfirmAppeal(token, form());
    expect(second.status).toBe(409);
    expect(second.json.details).toEqual({ appeal: submitted.reference });

    const rows = await t.db.selectFrom('appeals').selectAll().where('pcn_id', '=', pcn.id).execute();
    expect(rows).toHaveLength(1);
    const attachments = await t.db.selectFrom('appeal_attachments').selectAll().where('appeal_id', '=', rows[0]!.id).execute();
    expect(attachments.map((a) => a.mime_type).sort()).toEqual(['application/pdf', 'image/jpeg']);
    // Respond by 28 days from receipt.
    expect(rows[0]!.respond_by).toBe('2026-03-04');

    // The motorist sees the appeal and the charge on hold; the acknowledgement went by email.
    const now = await seen(pcn);
    expect(now.onHold).toBe(true);
    expect(now.appeal).toMatchObject({ reference: submitted.reference, status: 'OPEN', reasons: null });
    const acks = mailTo('dana@example.com').find((m) => m.subject === `Appeal ${submitted.reference} received`)!;
    expect(acks.subject).toBe(`Appeal ${submitted.reference} received`);
    expect(acks.text).toContain('We will answer by 4 Mar 2026');

    // In the audit trail, with the attachments' hashes.
    const audit = await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token });
    const entry = (audit.json.data as PcnAuditResponse).entries.find((e) => e.action === 'appeal_received');
    expect(entry?.actorName).toBe('Dana Driver (appellant)');
    expect(entry?.changes.attachments?.to).toEqual(attachments.sort((a, b) => a.position - b.position).map((a) => a.sha256));

    // The files are never served back through the public photo route.
    for (const attachment of attachments) {
      expect((await t.app.request(`/api/uploads/${attachment.file_name}`)).status).toBe(404);
    }
  });

  it('checks every file by its bytes, bounds their number and size, and takes an appeal out of time marked late', async () => {
    const pcn = await charge('CD34EFG');
    const token = chargeToken(t, pcn.id);
    const fake = { bytes: new TextEncoder().encode('<html><script>alert(1)</script></html>'), name: 'permit.jpg', type: 'image/jpeg' };
    const wrongType = await t.fileAndConfirmAppeal(token, appealForm({}, [fake]));
    expect(wrongType.status).toBe(415);
    expect(wrongType.json.details.attachments).toContain('permit.jpg');
    const seven = await t.fileAndConfirmAppeal(
      token,
      appealForm(
        {},
        Array.from({ length: 7 }, (_, i) => jpegUpload(50 + i)),
      ),
    );
    expect(seven.status).toBe(413);
    const huge = { bytes: new Uint8Array(10 * 1024 * 1024 + 1).fill(0xff), name: 'big.jpg', type: 'image/jpeg' };
    const tooLarge = await t.fileAndConfirmAppeal(token, appealForm({}, [huge]));
    expect(tooLarge.status).toBe(413);
    const noText = await t.fileAndConfirmAppeal(token, appealForm({ text: '   ', reason: 'NOPE' }));
    expect(noText.status).toBe(400);
    expect(Object.keys(noText.json.details).sort()).toEqual(['reason', 'text']);
    const tooLong = await t.fileAndConfirmAppeal(token, appealForm({ text: 'x'.repeat(5001) }));
    expect(tooLong.status).toBe(400);
    expect(await t.db.selectFrom('appeals').select('id').where('pcn_id', '=', pcn.id).execute()).toEqual([]);

    // 1 March is the last day (28 days from the notice to driver on 1 February); 2 March is late:
    // taken, marked late, holding nothing.
    t.clock.frozenAtMs = Date.parse('2026-03-02T09:00:00.000Z');
    try {
      const late = await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm());
      expect(late.status, late.text).toBe(201);
      expect((late.json.data as AppealSubmitted).appeal).toMatchObject({ isLate: true, consideredAt: null, status: 'OPEN' });
      expect(await seen(pcn)).toMatchObject({ appealUntil: '2026-03-01', onHold: false });
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });

  it('holds the charge while open, and a rejection within the discount keeps the reduced rate 14 days with a POPLA code', async () => {
    const pcn = await charge('EF56GHJ');
    const sent = await t.fileAndConfirmAppeal(
      chargeToken(t, pcn.id),
      appealForm({ wasDriver: 'no', driverName: 'Sam Other', driverAddress: '1 High St' }),
    );
    const reference = (sent.json.data as AppealSubmitted).reference;
    const id = await appealIdOf(reference);

    // Three weeks on, the discount would have ended on 15 February; on hold, it still shows.
    t.clock.frozenAtMs = NOW + 21 * DAY;
    try {
      const handler = await t.signedInUser('ADMIN', { firstName: 'Hal', lastName: 'Handler' });
      const held = await seen(pcn);
      expect(held).toMatchObject({ onHold: true, amountDuePence: 6000, reduced: { amountPence: 6000, until: '2026-02-15' } });

      const noReasons = await decide(id, { outcome: 'REJECTED', reasons: '  ' }, handler.token);
      expect(noReasons.status).toBe(400);
      expect(noReasons.json.details.reasons).toBe('Give the reasons for rejecting the appeal');

      const rejected = await decide(
        id,
        {
          outcome: 'REJECTED',
          reasons: 'The permit in your photo expired on 31 January, the day before the charge. <b>Signs</b> at the entrance say so.',
        },
        handler.token,
      );
      expect(rejected.status, rejected.text).toBe(200);
      const appeal = rejected.json.data as Appeal;
      expect(appeal.driver).toEqual({ name: 'Sam Other', address: '1 High St' });
      // Decided on 25 February: the reduced rate held until 11 March, POPLA until 25 March.
      expect(appeal.decision).toMatchObject({
        outcome: 'REJECTED',
        decidedBy: 'Hal Handler',
        reducedHeldUntil: '2026-03-11',
        appealsServiceUntil: '2026-03-25',
      });
      const code = appeal.decision!.verificationCode!;
      expect(code).toMatch(/^\d{10}$/);
      // Searchable by its code.
      const found = await t.request('GET', `/appeals?search=${code}`, { token: handler.token });
      expect((found.json.data as AppealListResponse).items.map((item) => item.reference)).toEqual([reference]);

      const after = await seen(pcn);
      expect(after).toMatchObject({ onHold: false, state: 'OUTSTANDING', amountDuePence: 6000, reduced: { until: '2026-03-11' } });
      expect(after.appeal).toMatchObject({ status: 'REJECTED', verificationCode: code, appealsServiceUntil: '2026-03-25' });
      expect(after.appeal!.reasons).toContain('expired on 31 January');

      // The letter, read back, holds the reasons, the service, the code and the held rate.
      const letter = await t.app.request('/api/public/charges/current/appeal/letter', {
        headers: { authorization: `Bearer ${chargeToken(t, pcn.id)}` },
      });
      expect(letter.headers.get('content-type')).toBe('application/pdf');
      const { flat } = await readPdfText(new Uint8Array(await letter.arrayBuffer()));
      for (const words of [
        'Our decision: your appeal is rejected',
        'The permit in your photo expired on 31 January, the day before the charge. <b>Signs</b> at the entrance say so.',
        'POPLA (Parking on Private Land Appeals)',
        `verification code: ${code}`,
        'by 25 Mar 2026',
        'reduced amount of £60 until 11 Mar 2026',
        // The Single Code 8.1.2(d): the discount does not follow the motorist to the service.
        'If you then appeal to POPLA (Parking on Private Land Appeals), the reduced amount no longer applies',
        'Your reason for appealing: “I had a valid ticket or permit”.',
        `PCN-${pcn.pcnNumber}`,
      ]) {
        expect(flat).toContain(words);
      }
      // The email carries the decision and its letter.
      const mail = mailTo('dana@example.com').find((m) => m.subject === `Decision on your appeal ${reference}`);
      expect(mail?.text).toContain(code);
      expect(mail?.html).toContain('&lt;b&gt;Signs&lt;/b&gt;');
      expect(mail?.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);

      // The evidence pack carries the appeal, its files' hashes and the decision.
      const pack = await fetchEvidencePack(viaApp(t), handler.token, pcn.id);
      const packText = (await readPdfText(new Uint8Array(await pack.arrayBuffer()))).flat;
      const [attachment] = await t.db.selectFrom('appeal_attachments').select('sha256').where('appeal_id', '=', id).execute();
      for (const words of [reference, 'Sam Other', 'Rejected', code, attachment!.sha256.slice(0, 32)]) expect(packText).toContain(words);

      // Decided once.
      expect((await decide(id, { outcome: 'ACCEPTED', reasons: '' }, handler.token)).status).toBe(409);
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });

  it('previews a decision: the outcome and the letter it then sends, under the same checks, with nothing recorded, drawn or sent', async () => {
    const pcn = await charge('PR12VWE');
    const sent = await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm({}));
    const reference = (sent.json.data as AppealSubmitted).reference;
    const id = await appealIdOf(reference);
    const preview = (json: object, token = admin.token) => t.request('POST', `/appeals/${id}/decision-preview`, { token, json });
    const decision = { outcome: 'REJECTED', reasons: 'The permit in your photo expired on 31 January, the day before the charge.' };
    const mailsBefore = mailTo('dana@example.com').length;
    const before = await takeFingerprint(t.db, t.config.uploadsDir);

    // Refused as the decision is: a rejection needs its reasons, and only admins decide.
    const noReasons = await preview({ outcome: 'REJECTED', reasons: '  ' });
    expect(noReasons.status).toBe(400);
    expect(noReasons.json.details.reasons).toBe('Give the reasons for rejecting the appeal');
    expect((await preview(decision, officer.token)).status).toBe(403);

    const res = await preview(decision);
    expect(res.status, res.text).toBe(200);
    const answer = res.json.data as AppealDecisionPreview;
    expect(answer).toMatchObject({ outcome: 'REJECTED', emailTo: 'dana@example.com' });
    const lines = answer.letter!.sections.flatMap((section) => [section.heading ?? '', ...section.lines]).filter(Boolean);
    expect(lines).toContain('Our decision: your appeal is rejected');
    expect(lines).toContain(decision.reasons);
    expect(lines.join('\n')).toContain(`verification code: ${VERIFICATION_CODE_PREVIEW}`);
    // An accepted appeal would cancel the charge: previewed, it is not cancelled.
    const accepting = await preview({ outcome: 'ACCEPTED', reasons: '' });
    expect((accepting.json.data as AppealDecisionPreview).letter!.sections[1]!.heading).toBe('Our decision: your appeal is accepted');

    expect(await takeFingerprint(t.db, t.config.uploadsDir)).toEqual(before);
    expect(mailTo('dana@example.com')).toHaveLength(mailsBefore);
    expect((await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data.status).toBe(pcn.status);

    // Recorded: the letter sent says every line the preview showed, with the code made for it.
    const decided = await decide(id, decision);
    expect(decided.status, decided.text).toBe(200);
    const code = (decided.json.data as Appeal).decision!.verificationCode!;
    const letter = await t.app.request(`/api/appeals/${id}/letter`, { headers: { authorization: `Bearer ${admin.token}` } });
    const { flat } = await readPdfText(new Uint8Array(await letter.arrayBuffer()));
    for (const line of lines) expect(flat).toContain(line.replace(VERIFICATION_CODE_PREVIEW, code).replace(/\s+/g, ' '));
    // Decided: there is nothing left to preview.
    expect((await preview(decision)).status).toBe(409);
  });

  it('an accepted appeal cancels the charge; one accepted at a reduced amount makes that amount due', async () => {
    const accepted = await charge('GH78JKL');
    const a = await t.fileAndConfirmAppeal(chargeToken(t, accepted.id), appealForm({ reason: 'BLUE_BADGE' }));
    const acceptedId = await appealIdOf(a.json.data.reference as string);
    const res = await decide(acceptedId, { outcome: 'ACCEPTED', reasons: 'Your Blue Badge was on display.' });
    expect(res.status).toBe(200);
    const pcn = await t.request('GET', `/pcns/${accepted.id}`, { token: admin.token });
    expect(pcn.json.data.status).toBe('CANCELLED');
    expect(await seen(accepted)).toMatchObject({ state: 'CANCELLED', amountDuePence: 0, photos: [], appeal: { status: 'ACCEPTED' } });

    const reduced = await charge('JK90LMN');
    const r = await t.fileAndConfirmAppeal(chargeToken(t, reduced.id), appealForm({ reason: 'KEYING_ERROR' }));
    const reducedId = await appealIdOf(r.json.data.reference as string);
    expect((await decide(reducedId, { outcome: 'ACCEPTED_REDUCED', reasons: 'A keying error.' })).json.details).toEqual({
      reducedChargePence: 'Enter the reduced amount',
    });
    expect((await decide(reducedId, { outcome: 'ACCEPTED_REDUCED', reasons: 'A keying error.', reducedChargePence: 2000 })).status).toBe(
      200,
    );
    expect(await seen(reduced)).toMatchObject({
      state: 'OUTSTANDING',
      chargePence: 2000,
      amountDuePence: 2000,
      reduced: null,
      onHold: false,
    });
    // Paid at that amount, the charge is PAID.
    const paid = await t.request('POST', `/pcns/${reduced.id}/payments`, {
      token: admin.token,
      json: { amountPence: 2000, paidOn: '2026-02-04', method: 'CARD', reference: 'TXN-9' },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(paid.json.data.status).toBe('PAID');

    // The queue: open first by respond-by, filters, and the CSV export.
    const open = await t.request('GET', '/appeals?status=OPEN', { token: admin.token });
    expect((open.json.data as AppealListResponse).items.every((item) => item.status === 'OPEN')).toBe(true);
    const csv = await t.app.request('/api/appeals/export.csv?status=ACCEPTED', { headers: { authorization: `Bearer ${admin.token}` } });
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="appeals-accepted-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = new TextDecoder('utf-8', { ignoreBOM: true })
      .decode(await csv.arrayBuffer())
      .trimEnd()
      .split('\r\n');
    // A byte order mark first: Excel then reads the file as UTF-8.
    expect(lines[0]).toBe(
      '\uFEFFAppeal,Charge,Registration,Car park,Appellant,Channel,Reason,Received,Respond by,Status,Verification code',
    );
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([`APL-${accepted.pcnNumber}`]);
  });

  it('removes an appeal’s files with the photos once the charge has been closed past the retention period; the hashes stay', async () => {
    const pcn = await charge('LM12NOP');
    const sent = await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm({}, [jpegUpload(61), pdfUpload()]));
    const id = await appealIdOf(sent.json.data.reference as string);
    await decide(id, { outcome: 'ACCEPTED', reasons: '' });
    const files = await t.db.selectFrom('appeal_attachments').selectAll().where('appeal_id', '=', id).orderBy('position').execute();
    const result = await purgeExpiredEvidence({
      db: t.db,
      evidence: t.deps.evidence,
      retentionDays: 0,
      now: () => new Date(NOW + DAY),
      logger: t.deps.logger,
    });
    expect(result.pcns.map((closed) => closed.pcnId)).toContain(pcn.id);
    for (const file of files) expect(existsSync(join(t.config.uploadsDir, file.file_name))).toBe(false);
    const appeal = (await t.request('GET', `/appeals/${id}`, { token: admin.token })).json.data as Appeal;
    expect(appeal.attachments.map((file) => [file.sha256, file.purgedAt !== null])).toEqual(files.map((file) => [file.sha256, true]));
    expect((await t.request('GET', `/appeals/${id}/attachments/${files[0]!.id}`, { token: admin.token })).status).toBe(404);
    // The decision letter went with them (it names the appellant): a clear 404, not a failure.
    const letter = await t.request('GET', `/appeals/${id}/letter`, { token: admin.token });
    expect(letter.status).toBe(404);
    expect(letter.json.message).toContain('retention policy');
    const audit = (await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.find((entry) => entry.action === 'images_purged')?.changes.appealAttachments?.from).toEqual(
      files.map((file) => file.sha256),
    );
  });

  it('keeps no stored file without its row', async () => {
    const names = new Set(listUploadsFolder(t.config.uploadsDir).filter((name) => /^[0-9a-f]{32}\./.test(name)));
    const photos = await t.db.selectFrom('pcn_images').select('file_name').where('purged_at', 'is', null).execute();
    const attachments = await t.db.selectFrom('appeal_attachments').select('file_name').where('purged_at', 'is', null).execute();
    // The documents sent (notices to driver, decision letters) are kept beside them (decision 0025).
    const documents = await t.db.selectFrom('sent_documents').select('file_name').where('purged_at', 'is', null).execute();
    // And the evidence packs made for a day's downloads.
    const packs = await t.db.selectFrom('evidence_packs').select('file_name').execute();
    expect(names).toEqual(new Set([...photos, ...attachments, ...documents, ...packs].map((row) => row.file_name)));
  });

  it('follows the notice the keeper received: a paragraph 8 keeper appeals on day 40 in time and held, on day 70 late; late appeals are considered or declined with a letter', async () => {
    // Moving the clock weeks on: the sessions are signed in again at each step.
    let adminToken = admin.token;
    const at = async (iso: string) => {
      t.clock.frozenAtMs = Date.parse(iso);
      adminToken = (await t.login(admin.email, admin.password ?? '')).token;
    };
    const decideNow = (id: string, json: object) => decide(id, json, adminToken);
    const appealIdNow = async (reference: string) => {
      const res = await t.request('GET', `/appeals?search=${reference}`, { token: adminToken });
      return (res.json.data as AppealListResponse).items[0]!.id;
    };
    try {
      // Tuesday 10 March 2026: three tickets fixed on Sunday 1 February (37 days before), their
      // notices to keeper posted today, deemed given on Thursday 12 March (two working days).
      await at('2026-03-10T12:00:00.000Z');
      const officerToken = (await t.login(officer.email, officer.password ?? '')).token;
      const ready = () => letterReadyPcn(t, { officerToken, adminToken, carParkId, servedDaysAgo: 37 });
      const [inTime, declined, considered] = [await ready(), await ready(), await ready()] as [Pcn, Pcn, Pcn];
      const generated = await t.request('POST', '/keeper-notices/letters', {
        token: adminToken,
        json: { pcnIds: [inTime.id, declined.id, considered.id] },
      });
      expect(generated.status, generated.text).toBe(200);
      const posted = await t.request('POST', '/keeper-notices/posted', {
        token: adminToken,
        json: { pcnIds: [inTime.id, declined.id, considered.id], postedOn: '2026-03-10' },
      });
      expect(posted.status, posted.text).toBe(200);
      // 28 days from the notice to driver ended on 1 March; 28 days from the notice to keeper end on 9 April.
      expect((await seen(inTime)).appealUntil).toBe('2026-04-09');

      // Day 40 (13 March): in time, the charge on hold.
      await at('2026-03-13T12:00:00.000Z');
      const day40 = await t.fileAndConfirmAppeal(chargeToken(t, inTime.id), appealForm({ email: 'keeper40@example.com' }));
      expect(day40.status, day40.text).toBe(201);
      expect((day40.json.data as AppealSubmitted).appeal.isLate).toBe(false);
      expect(await seen(inTime)).toMatchObject({ onHold: true, appealUntil: '2026-04-09' });
      // An appeal made in time cannot be declined as out of time.
      const notLate = await decideNow(await appealIdNow(`APL-${inTime.pcnNumber}`), { outcome: 'DECLINED_LATE' });
      expect(notLate.status).toBe(409);

      // Day 70 (12 April): late, taken, holding nothing; the keeper is told so.
      await at('2026-04-12T12:00:00.000Z');
      for (const [pcn, email] of [
        [declined, 'keeper70@example.com'],
        [considered, 'keeper71@example.com'],
      ] as const) {
        const day70 = await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm({ email }));
        expect(day70.status, day70.text).toBe(201);
        expect((day70.json.data as AppealSubmitted).appeal).toMatchObject({ isLate: true, consideredAt: null });
        expect(await seen(pcn)).toMatchObject({ onHold: false, appeal: { isLate: true } });
      }
      expect(mailTo('keeper70@example.com').find((m) => m.subject?.endsWith(' received'))?.text).toContain('the charge is not on hold');
      const queue = await t.request('GET', `/appeals?search=APL-${declined.pcnNumber}`, { token: adminToken });
      expect((queue.json.data as AppealListResponse).items[0]).toMatchObject({ isLate: true, status: 'OPEN' });

      // Declined as out of time: the charge stands, and the letter says when the period ended.
      const declinedId = await appealIdNow(`APL-${declined.pcnNumber}`);
      const decline = await decideNow(declinedId, { outcome: 'DECLINED_LATE' });
      expect(decline.status, decline.text).toBe(200);
      expect((decline.json.data as Appeal).status).toBe('DECLINED_LATE');
      const stands = (await t.request('GET', `/pcns/${declined.id}`, { token: adminToken })).json.data as { status: PcnStatus };
      expect(stands.status).toBe('ISSUED');
      const letter = await t.app.request(`/api/appeals/${declinedId}/letter`, { headers: { authorization: `Bearer ${adminToken}` } });
      const text = (await readPdfText(new Uint8Array(await letter.arrayBuffer()))).flat;
      expect(text).toContain('Our decision: your appeal was made out of time');
      expect(text).toContain('The time to appeal this charge ended on 9 Apr 2026');
      expect(text).toContain('stands');
      expect(text).not.toContain('verification code');
      expect((await seen(declined)).appeal?.status).toBe('DECLINED_LATE');

      // Considered: from now on it holds the charge and runs like any appeal.
      const consideredId = await appealIdNow(`APL-${considered.pcnNumber}`);
      const consider = await t.request('POST', `/appeals/${consideredId}/consider`, { token: adminToken });
      expect(consider.status, consider.text).toBe(200);
      expect((consider.json.data as Appeal).consideredAt).toBe('2026-04-12T12:00:00.000Z');
      expect((await t.request('POST', `/appeals/${consideredId}/consider`, { token: adminToken })).status).toBe(409);
      expect(await seen(considered)).toMatchObject({ onHold: true, appeal: { isLate: true, consideredAt: '2026-04-12T12:00:00.000Z' } });
      expect((await decideNow(consideredId, { outcome: 'DECLINED_LATE' })).status).toBe(409);
      const rejected = await decideNow(consideredId, { outcome: 'REJECTED', reasons: 'The signs at the entrance state the terms.' });
      expect(rejected.status, rejected.text).toBe(200);
      const audit = await t.request('GET', `/pcns/${considered.id}/audit`, { token: adminToken });
      expect((audit.json.data as PcnAuditResponse).entries.map((e) => e.action)).toContain('appeal_considered');
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });
  it('takes an appeal by post without an email from an admin: receivedOn checked, held from that day, one per charge, its letter to download', async () => {
    const pcn = await charge('PO12STA');
    const form = (fields: Record<string, string> = {}) =>
      enteredAppealForm({ pcnId: pcn.id, receivedOn: '2026-02-03', email: '', name: 'Pat Post', ...fields });

    // The day it came: a real date, not in the future, not before the notice to driver (1 February).
    for (const [receivedOn, message] of [
      ['2026-02-05', 'The day it was received cannot be in the future'],
      ['2026-01-31', 'The day it was received cannot be before the first notice'],
      ['2026-02-30', 'Use a real date like 2026-01-31'],
    ] as const) {
      const refused = await enterAppeal(t, admin.token, form({ receivedOn }));
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json.details).toEqual({ receivedOn: message });
    }
    // Only an appeal by post may come without an email address.
    const byEmail = await enterAppeal(t, admin.token, form({ channel: 'EMAIL' }));
    expect(byEmail.status).toBe(400);
    expect(Object.keys(byEmail.json.details)).toEqual(['email']);
    expect(await t.db.selectFrom('appeals').select('id').where('pcn_id', '=', pcn.id).execute()).toEqual([]);

    const key = randomUUID();
    const entered = await enterAppeal(t, admin.token, form(), key);
    expect(entered.status, entered.text).toBe(201);
    const appeal = entered.json.data as Appeal;
    expect(appeal).toMatchObject({
      reference: `APL-${pcn.pcnNumber}`,
      channel: 'POST',
      appellant: { name: 'Pat Post', email: null },
      receivedAt: '2026-02-03T12:00:00.000Z',
      // 28 days from the day it came, not from the day it was entered.
      respondBy: '2026-03-03',
      isLate: false,
      status: 'OPEN',
    });
    expect(appeal.attachments.map((file) => file.mimeType)).toEqual(['application/pdf']);
    const replay = await enterAppeal(t, admin.token, form(), key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json.data.id).toBe(appeal.id);

    // One appeal per charge, however the second comes: 409 naming the first.
    for (const second of [
      await enterAppeal(t, admin.token, form({ channel: 'PHONE', email: 'pat@example.com' })),
      await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm()),
    ]) {
      expect(second.status).toBe(409);
      expect(second.json.details).toEqual({ appeal: appeal.reference });
    }

    // The queue shows the channel; the audit trail the admin who entered it and the day it came.
    const queue = await t.request('GET', `/appeals?search=${appeal.reference}`, { token: admin.token });
    expect((queue.json.data as AppealListResponse).items[0]).toMatchObject({ channel: 'POST', appellantName: 'Pat Post' });
    const audit = (await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    const received = audit.entries.find((entry) => entry.action === 'appeal_received');
    expect(received?.actorName).toBe('Ada Appeals');
    expect(received?.changes).toMatchObject({ channel: { to: 'POST' }, receivedOn: { to: '2026-02-03' } });

    // Three weeks on the discount (until 15 February) would be over; held from 3 February, it is not.
    t.clock.frozenAtMs = NOW + 21 * DAY;
    try {
      const adminToken = (await t.login(admin.email, admin.password ?? '')).token;
      expect(await seen(pcn)).toMatchObject({ onHold: true, amountDuePence: 6000, reduced: { amountPence: 6000, until: '2026-02-15' } });
      const rejected = await decide(appeal.id, { outcome: 'REJECTED', reasons: 'The signs at the entrance state the terms.' }, adminToken);
      expect(rejected.status, rejected.text).toBe(200);
      // No email to send it to: the letter is there to print and post.
      expect(smtp.messages.filter((m) => m.subject === `Decision on your appeal ${appeal.reference}`)).toEqual([]);
      const letter = await t.app.request(`/api/appeals/${appeal.id}/letter`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(letter.status).toBe(200);
      expect(letter.headers.get('content-disposition')).toBe(`attachment; filename="appeal-${appeal.reference}-decision.pdf"`);
      const { flat } = await readPdfText(new Uint8Array(await letter.arrayBuffer()));
      for (const words of ['Dear Pat Post', 'received on 3 Feb 2026', 'Our decision: your appeal is rejected', '4 Mill Lane']) {
        expect(flat).toContain(words);
      }
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });

  it('marks an appeal entered with a receivedOn after the appeal period late, as online', async () => {
    const pcn = await charge('LA12TEP');
    t.clock.frozenAtMs = Date.parse('2026-03-10T12:00:00.000Z');
    try {
      const adminToken = (await t.login(admin.email, admin.password ?? '')).token;
      // 1 March was the last day (28 days from the notice to driver on 1 February).
      const late = await enterAppeal(
        t,
        adminToken,
        enteredAppealForm({ pcnId: pcn.id, receivedOn: '2026-03-02', channel: 'PHONE', email: 'late@example.com' }),
      );
      expect(late.status, late.text).toBe(201);
      expect(late.json.data).toMatchObject({ channel: 'PHONE', isLate: true, consideredAt: null });
      expect(await seen(pcn)).toMatchObject({ onHold: false, appealUntil: '2026-03-01' });
      const ack = await smtp.waitForMessage('late@example.com');
      expect(ack.text).toContain('by phone on 2 Mar 2026');
      expect(ack.text).toContain('the charge is not on hold');
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });

  it("accepts at the Appeals Charter's £20 with the way to POPLA kept, records the Charter case, and grants it once per registration", async () => {
    const first = await charge('KE12YER');
    const entered = await enterAppeal(
      t,
      admin.token,
      enteredAppealForm({
        pcnId: first.id,
        receivedOn: '2026-02-04',
        channel: 'EMAIL',
        email: 'kim@example.com',
        name: 'Kim Keys',
        reason: 'KEYING_ERROR',
      }),
    );
    expect(entered.status, entered.text).toBe(201);
    const id = (entered.json.data as Appeal).id;
    expect((await smtp.waitForMessage('kim@example.com')).subject).toBe(`Appeal APL-${first.pcnNumber} received`);

    // The case must answer the appeal's reason and lead to the decision made.
    const notForReason = await decide(id, {
      outcome: 'ACCEPTED_REDUCED',
      reducedChargePence: 2000,
      reasons: '',
      charterOutcome: 'BLUE_BADGE_NOT_SHOWN',
    });
    expect(notForReason.status).toBe(400);
    expect(Object.keys(notForReason.json.details)).toEqual(['charterOutcome']);
    const differs = await decide(id, { outcome: 'ACCEPTED', reasons: '', charterOutcome: 'MAJOR_KEYING_ERROR' });
    expect(differs.status).toBe(400);
    expect(Object.keys(differs.json.details)).toEqual(['charterOutcome']);

    const reduced = await decide(id, {
      outcome: 'ACCEPTED_REDUCED',
      reducedChargePence: 2000,
      reasons: 'You paid for the day under another registration.',
      charterOutcome: 'MAJOR_KEYING_ERROR',
    });
    expect(reduced.status, reduced.text).toBe(200);
    // Decided 4 February: £20 until 18 February; POPLA until 4 March, with a verification code.
    const decision = (reduced.json.data as Appeal).decision!;
    expect(decision).toMatchObject({
      outcome: 'ACCEPTED_REDUCED',
      reducedChargePence: 2000,
      reducedPayableUntil: '2026-02-18',
      appealsServiceUntil: '2026-03-04',
      charterOutcome: 'MAJOR_KEYING_ERROR',
    });
    expect(decision.verificationCode).toMatch(/^\d{10}$/);
    expect(await seen(first)).toMatchObject({
      amountDuePence: 2000,
      appeal: { status: 'ACCEPTED_REDUCED', reducedPayableUntil: '2026-02-18', verificationCode: decision.verificationCode },
    });
    const audit = (await t.request('GET', `/pcns/${first.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.find((entry) => entry.action === 'appeal_decided')?.changes).toMatchObject({
      charterOutcome: { to: 'MAJOR_KEYING_ERROR' },
      reducedPayableUntil: { to: '2026-02-18' },
    });

    // Emailed with its letter, which keeps the way to POPLA.
    const mail = mailTo('kim@example.com').find((m) => m.subject === `Decision on your appeal APL-${first.pcnNumber}`);
    expect(mail?.text).toContain(decision.verificationCode!);
    expect(mail?.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
    const letter = await t.app.request(`/api/appeals/${id}/letter`, { headers: { authorization: `Bearer ${admin.token}` } });
    const { flat } = await readPdfText(new Uint8Array(await letter.arrayBuffer()));
    for (const words of [
      'Our decision: your appeal is accepted in part',
      'Appeals Charter',
      '£20 if it is paid by 18 Feb 2026',
      `verification code: ${decision.verificationCode}`,
      'by 4 Mar 2026',
    ]) {
      expect(flat).toContain(words);
    }

    // The evidence pack has how it came and the Charter case followed.
    const pack = await fetchEvidencePack(viaApp(t), admin.token, first.id);
    const packText = (await readPdfText(new Uint8Array(await pack.arrayBuffer()))).flat;
    for (const words of ['(email)', 'Appeals Charter case followed', 'Reduced amount payable until', '18 Feb 2026']) {
      expect(packText).toContain(words);
    }

    // A second charge of the registration: its earlier charge is listed, and the Charter's £20 is not granted again.
    const second = await charge('KE12YER');
    const again = await t.fileAndConfirmAppeal(chargeToken(t, second.id), appealForm({ reason: 'KEYING_ERROR', email: 'kim@example.com' }));
    const secondId = await appealIdOf(again.json.data.reference as string);
    const loaded = (await t.request('GET', `/appeals/${secondId}`, { token: admin.token })).json.data as Appeal;
    expect(loaded.channel).toBe('ONLINE');
    expect(loaded.earlierCharges).toEqual([
      expect.objectContaining({
        pcnId: first.id,
        pcnNumber: `PCN-${first.pcnNumber}`,
        carParkName: 'Riverside Retail Park',
        appeal: { reference: `APL-${first.pcnNumber}`, status: 'ACCEPTED_REDUCED', charterOutcome: 'MAJOR_KEYING_ERROR' },
      }),
    ]);
    const twice = await decide(secondId, {
      outcome: 'ACCEPTED_REDUCED',
      reducedChargePence: 2000,
      reasons: '',
      charterOutcome: 'MAJOR_KEYING_ERROR',
    });
    expect(twice.status).toBe(409);
    expect(twice.json.details).toEqual({ charterOutcome: expect.stringContaining('first time only'), charge: `PCN-${first.pcnNumber}` });

    // Unpaid after 18 February, the reduction lapses: the full charge is due.
    t.clock.frozenAtMs = Date.parse('2026-02-19T12:00:00.000Z');
    try {
      expect(await seen(first)).toMatchObject({ amountDuePence: 10000, reduced: null, appeal: { status: 'ACCEPTED_REDUCED' } });
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });
});

describe('an appeal on a notice issued before the operator set its terms', () => {
  it('is decided all the same; there is no letter to keep or download until terms exist', async () => {
    const t = await createTestApp();
    try {
      t.clock.frozenAtMs = Date.parse('2026-02-04T12:00:00.000Z');
      const officer = await t.signedInUser('USER');
      const admin = await t.signedInUser('ADMIN');
      const carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
      const pcn = await createPcnViaApi(t, officer.token, carParkId, {
        issuedAt: '2026-02-01T10:00:00.000Z',
        noticeServedAt: '2026-02-01T10:00:00.000Z',
      });
      const entered = await enterAppeal(
        t,
        admin.token,
        enteredAppealForm({ pcnId: pcn.id, receivedOn: '2026-02-03', email: 'early@example.com', name: 'Erin Early' }),
      );
      expect(entered.status, entered.text).toBe(201);
      const id = (entered.json.data as Appeal).id;
      const decided = await t.request('POST', `/appeals/${id}/decision`, {
        token: admin.token,
        json: { outcome: 'REJECTED', reasons: 'The signs at the entrance state the terms.' },
      });
      expect(decided.status, decided.text).toBe(200);
      expect((decided.json.data as Appeal).status).toBe('REJECTED');
      const letter = await t.request('GET', `/appeals/${id}/letter`, { token: admin.token });
      expect(letter.status).toBe(409);
      expect(
        await t.db.selectFrom('sent_documents').select('id').where('pcn_id', '=', pcn.id).where('kind', '=', 'DECISION_LETTER').execute(),
      ).toEqual([]);
      // The motorist is emailed the decision all the same, once, without a letter to attach.
      const mail = await t.latestMailText('early@example.com', 'appeal-decision');
      expect(mail).toContain('We have decided your appeal');
      expect(mail).toContain('The decision is also on your charge’s page.');
      expect(mail).not.toContain('The letter attached');
      const tries = await t.db.selectFrom('emails').select('status').where('purpose', '=', 'appeal-decision').execute();
      expect(tries.map((row) => row.status)).toEqual(['written']);
    } finally {
      await t.close();
    }
  });
});
