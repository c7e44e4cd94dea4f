import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  draftReference,
  type AppealListResponse,
  type AppealSubmitted,
  type KeeperNoticesPostedResponse,
  type NoticeDocument,
  type NoticeToDriverFacts,
  type Pcn,
  type PcnAuditResponse,
  type SentDocument,
  type SentDocumentListResponse,
} from '@parkpatrol/shared';
import { silentLogger } from '../src/services/logger.ts';
import { purgeExpiredEvidence } from '../src/services/purge-expired-evidence.ts';
import { readPdfText } from './support/pdf.ts';
import { appealForm, chargeToken } from './support/appeals.ts';
import { LETTER_KEEPER, letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { createPcnViaApi, jpegUpload, postPcn, validPcnFields } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { fetchEvidencePack, viaApp } from './support/evidence-pack.ts';

/**
 * What was sent is kept (decision 0025): letters for a posting day, each kept with its notice
 * as made and downloaded byte for byte; marking posted on another day refused; a later change
 * of template, terms or keeper never changing a kept document; the evidence pack listing the
 * documents with their hashes; the notice to driver kept as printed, with its draft reference.
 * The clock stands at noon on Wednesday 4 February 2026.
 */
const NOW = Date.parse('2026-02-04T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('documents sent, as kept', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER', { firstName: 'Olu', lastName: 'Officer' });
    admin = await t.signedInUser('ADMIN', { firstName: 'Kay', lastName: 'Admin' });
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  /** A ticket fixed on Friday 19 December 2025: letters posted from 19 January to 11 February 2026. */
  const paragraph8 = () =>
    letterReadyPcn(t, {
      officerToken: officer.token,
      adminToken: admin.token,
      carParkId,
      servedDaysAgo: (NOW - Date.parse('2025-12-19T12:00:00.000Z')) / DAY,
    });

  const letters = async (json: object, token = admin.token) => {
    const res = await t.app.request('/api/keeper-notices/letters', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const isJson = res.headers.get('content-type')?.includes('json');
    return { status: res.status, headers: res.headers, bytes, json: isJson ? JSON.parse(new TextDecoder().decode(bytes)) : null };
  };
  const documentsOf = async (pcnId: string, token = admin.token) => {
    const res = await t.request('GET', `/pcns/${pcnId}/documents`, { token });
    expect(res.status, res.text).toBe(200);
    return (res.json.data as SentDocumentListResponse).items;
  };
  const download = async (pcnId: string, documentId: string, token = admin.token) => {
    const res = await t.app.request(`/api/pcns/${pcnId}/documents/${documentId}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };

  it('makes letters for the posting day given, keeps each notice’s letter, and gives back the same bytes', async () => {
    const first = await paragraph8();
    const second = await paragraph8();
    // Friday 6 February: two days ahead, inside both windows.
    const res = await letters({ pcnIds: [first.id, second.id], postOn: '2026-02-06' });
    expect(res.status, new TextDecoder().decode(res.bytes).slice(0, 300)).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="notices-to-keeper-2026-02-06.pdf"');
    const batch = await readPdfText(res.bytes);
    expect(batch.flat).toContain(`PCN-${first.pcnNumber}`);
    expect(batch.flat).toContain(`PCN-${second.pcnNumber}`);

    for (const pcn of [first, second]) {
      const items = await documentsOf(pcn.id);
      expect(items).toHaveLength(2);
      const [ticket, letter] = items as [SentDocument, SentDocument];
      expect(ticket.kind).toBe('NOTICE_TO_DRIVER');
      expect(letter).toMatchObject({
        pcnId: pcn.id,
        kind: 'NOTICE_TO_KEEPER',
        postOn: '2026-02-06',
        mimeType: 'application/pdf',
        createdAt: new Date(NOW).toISOString(),
        createdBy: { id: admin.id, name: 'Kay Admin' },
        fileName: `notice-to-keeper-PCN-${pcn.pcnNumber}-2026-02-06.pdf`,
        purgedAt: null,
      });
      const got = await download(pcn.id, letter.id);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('application/pdf');
      expect(got.headers.get('content-disposition')).toBe(`attachment; filename="${letter.fileName}"`);
      expect(got.headers.get('cache-control')).toBe('no-store');
      expect(got.bytes.byteLength).toBe(letter.sizeBytes);
      expect(sha256(got.bytes)).toBe(letter.sha256);
      expect(got.headers.get('repr-digest')).toBe(`sha-256=:${Buffer.from(letter.sha256, 'hex').toString('base64')}:`);
      // Twice: the same bytes, not a fresh rendering.
      expect(sha256((await download(pcn.id, letter.id)).bytes)).toBe(letter.sha256);

      // Its own letter alone, dated the posting day (8(2)(i)), given two working days after (Tuesday 10th).
      const text = (await readPdfText(got.bytes)).flat;
      expect(text).toContain(`Reference: PCN-${pcn.pcnNumber}`);
      expect(text).not.toContain(`PCN-${(pcn === first ? second : first).pcnNumber}`);
      expect(text).toContain('Date sent: 6 Feb 2026');
      expect(text).toContain('This notice was sent by post on 6 Feb 2026.');
      expect(text).toContain('presumed to be given on 10 Feb 2026');
      expect(text).toContain('Ms Kira Keeper');
    }
  });

  it('dates letters today when no day is given, and refuses a posting day outside a window or in the past', async () => {
    const pcn = await paragraph8();
    const today = await letters({ pcnIds: [pcn.id] });
    expect(today.status).toBe(200);
    expect((await readPdfText(today.bytes)).flat).toContain('Date sent: 4 Feb 2026');
    expect((await documentsOf(pcn.id)).at(-1)!.postOn).toBe('2026-02-04');

    // Thursday 12 February is after this notice's last posting day (Wednesday 11th).
    const late = await letters({ pcnIds: [pcn.id], postOn: '2026-02-12' });
    expect(late.status).toBe(422);
    expect(late.json.code).toBe('KEEPER_NOTICE_REFUSED');
    expect(late.json.details).toEqual({ [pcn.id]: 'Too late: the last day to post was 11 Feb 2026' });

    // A ticket fixed today may go from Thursday 5 March (paragraph 8: not before day 29).
    const fresh = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, servedDaysAgo: 0 });
    const early = await letters({ pcnIds: [fresh.id], postOn: '2026-02-20' });
    expect(early.status).toBe(422);
    expect(early.json.details).toEqual({
      [fresh.id]: 'Too early: a letter posted on 20 Feb 2026 could be given before the law allows. Post from 5 Mar 2026',
    });
    // A letter is dated the day it goes: a day gone is refused, whatever the window.
    const past = await letters({ pcnIds: [pcn.id], postOn: '2026-02-03' });
    expect(past.status).toBe(400);
    expect(past.json.details).toEqual({ postOn: 'The posting day cannot be in the past' });

    const notADay = await letters({ pcnIds: [pcn.id], postOn: '2026-02-30' });
    expect(notADay.status).toBe(400);
    expect(notADay.json.details).toEqual({ postOn: 'Give a real date' });
    // Nothing was kept for the refused requests.
    expect((await documentsOf(pcn.id)).filter((item) => item.kind === 'NOTICE_TO_KEEPER')).toHaveLength(1);
    expect((await documentsOf(fresh.id)).map((item) => item.kind)).toEqual(['NOTICE_TO_DRIVER']);
    expect((await documentsOf(fresh.id)).map((item) => item.kind)).toEqual(['NOTICE_TO_DRIVER']);
  });

  it('refuses to mark letters posted on a day they are not dated, naming them, until they are made again', async () => {
    const dated = await paragraph8();
    const never = await paragraph8();
    expect((await letters({ pcnIds: [dated.id], postOn: '2026-02-06' })).status).toBe(200);

    // On the posting day, Friday 6 February, marked posted as if sent on Thursday the 5th.
    t.clock.frozenAtMs = NOW + 2 * DAY;
    try {
      const { token } = await t.login(admin.email, admin.password ?? '');
      const post = (pcnIds: string[], postedOn: string) =>
        t.request('POST', '/keeper-notices/posted', { token, json: { pcnIds, postedOn, proofReference: 'CP-1' } });
      const wrongDay = await post([dated.id, never.id], '2026-02-05');
      expect(wrongDay.status).toBe(409);
      expect(wrongDay.json.code).toBe('LETTER_DATE_MISMATCH');
      expect(wrongDay.json.message).toBe(
        `2 letters are not the one to post on 5 Feb 2026: make them again for that day (PCN-${dated.pcnNumber}, PCN-${never.pcnNumber})`,
      );
      expect(wrongDay.json.details).toEqual({
        [dated.id]: 'Its letter is dated 6 Feb 2026, not 5 Feb 2026: make its letter again for the day it is posted',
        [never.id]: 'No letter was made for it: make its letter for 5 Feb 2026',
      });
      // Nothing moved.
      const unchanged = (await t.request('GET', `/pcns/${dated.id}`, { token })).json.data as Pcn;
      expect(unchanged.status).toBe('APPROVED');

      // The notice with no letter still holds the batch back on the letter's own day.
      expect((await post([dated.id, never.id], '2026-02-06')).json.details).toEqual({
        [never.id]: 'No letter was made for it: make its letter for 6 Feb 2026',
      });
      expect((await letters({ pcnIds: [never.id] }, token)).status).toBe(200);
      // A cheque dated yesterday is entered now, after the letter was made: the letter's "remains
      // unpaid as at 23:59 on 5 Feb" is no longer true, so it is made again before it goes.
      const cheque = await t.request('POST', `/pcns/${dated.id}/payments`, {
        token,
        json: { amountPence: 2_000, paidOn: '2026-02-05', method: 'CHEQUE', reference: '' },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      });
      expect(cheque.status, cheque.text).toBe(200);
      expect((await post([dated.id, never.id], '2026-02-06')).json.details).toEqual({
        [dated.id]:
          '£20 paid before 6 Feb 2026 was recorded after its letter was made: make its letter again so it states what remains unpaid',
      });
      const remade = await letters({ pcnIds: [dated.id] }, token);
      expect(remade.status).toBe(200);
      expect((await readPdfText(remade.bytes)).flat).toContain('£20 has been paid');
      const posted = await post([dated.id, never.id], '2026-02-06');
      expect(posted.status, posted.text).toBe(200);
      expect((posted.json.data as KeeperNoticesPostedResponse).results.map((result) => [result.outcome, result.deemedGivenOn])).toEqual([
        ['POSTED', '2026-02-10'],
        ['POSTED', '2026-02-10'],
      ]);
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });

  it('never changes a kept letter when the keeper, the terms or the wording would now print differently', async () => {
    const pcn = await paragraph8();
    expect((await letters({ pcnIds: [pcn.id], postOn: '2026-02-05' })).status).toBe(200);
    const [letter] = (await documentsOf(pcn.id)).filter((item) => item.kind === 'NOTICE_TO_KEEPER') as [SentDocument];
    const before = (await download(pcn.id, letter.id)).bytes;
    expect(sha256(before)).toBe(letter.sha256);

    // A new address for the keeper, and the operator's name changed in the terms this notice points at
    // (as a change to the template's words would): a letter drawn now reads differently.
    const keeper = await t.request('PUT', `/pcns/${pcn.id}/keeper`, {
      token: admin.token,
      json: { ...LETTER_KEEPER, addressLines: ['99 New Street', 'Leeds'] },
    });
    expect(keeper.status, keeper.text).toBe(200);
    const { operator_terms_id: termsId } = await t.db
      .selectFrom('pcns')
      .select('operator_terms_id')
      .where('id', '=', pcn.id)
      .executeTakeFirstOrThrow();
    const { terms } = await t.db.selectFrom('operator_terms').select('terms').where('id', '=', termsId!).executeTakeFirstOrThrow();
    const oldName = JSON.parse(terms).creditorName as string;
    await t.db
      .updateTable('operator_terms')
      .set({ terms: JSON.stringify({ ...JSON.parse(terms), creditorName: 'Renamed Parking Ltd' }) })
      .where('id', '=', termsId!)
      .execute();
    try {
      const fresh = await letters({ pcnIds: [pcn.id], postOn: '2026-02-05' });
      const freshText = (await readPdfText(fresh.bytes)).flat;
      expect(freshText).toContain('99 New Street');
      expect(freshText).toContain('Renamed Parking Ltd');

      const again = (await download(pcn.id, letter.id)).bytes;
      expect(Buffer.from(again).equals(Buffer.from(before))).toBe(true);
      expect(sha256(again)).toBe(letter.sha256);
      const kept = (await readPdfText(again)).flat;
      expect(kept).toContain('12 Acacia Avenue');
      expect(kept).not.toContain('99 New Street');
      expect(kept).toContain(oldName);
      expect(kept).not.toContain('Renamed Parking Ltd');
      // Both letters are listed, each with its own hash.
      const kinds = (await documentsOf(pcn.id)).filter((item) => item.kind === 'NOTICE_TO_KEEPER');
      expect(kinds.map((item) => item.sha256)).toEqual([letter.sha256, expect.not.stringMatching(letter.sha256)]);
    } finally {
      await t.db.updateTable('operator_terms').set({ terms }).where('id', '=', termsId!).execute();
    }
  });

  it('keeps the notice to driver as printed, with its draft reference, and none for a drive-off', async () => {
    const pcn = await paragraph8();
    const [ticket] = await documentsOf(pcn.id);
    const { idempotency_key: key } = await t.db
      .selectFrom('pcns')
      .select('idempotency_key')
      .where('id', '=', pcn.id)
      .executeTakeFirstOrThrow();
    expect(ticket).toMatchObject({
      kind: 'NOTICE_TO_DRIVER',
      reference: draftReference(key!),
      postOn: null,
      mimeType: 'application/json',
      createdBy: { id: officer.id, name: 'Olu Officer' },
    });
    const got = await download(pcn.id, ticket!.id);
    expect(sha256(got.bytes)).toBe(ticket!.sha256);
    const kept = JSON.parse(new TextDecoder().decode(got.bytes)) as {
      draftReference: string;
      pcnNumber: string;
      facts: NoticeToDriverFacts;
      text: NoticeDocument;
    };
    expect(kept.draftReference).toBe(draftReference(key!));
    expect(kept.pcnNumber).toBe(`PCN-${pcn.pcnNumber}`);
    // Printed before it was sent, so with the draft reference, the terms in force and the time it was given.
    expect(kept.facts).toMatchObject({
      reference: draftReference(key!),
      vehicleRegistration: pcn.vehicleRegistration,
      servedBy: 'AFFIXED',
      servedAt: '2025-12-19T12:00:00.000Z',
      carParkTerms: { chargePence: 10000, reducedChargePence: 6000 },
    });
    expect(kept.text.title).toBe('Parking Charge Notice');
    expect(kept.text.reference).toBe(draftReference(key!));
    expect(JSON.stringify(kept.text.sections)).toContain(
      'This notice was given at 12:00 on Friday 19 December 2025 by fixing it to the vehicle.',
    );

    const driveOff = await createPcnViaApi(t, officer.token, carParkId, { noticeServedBy: 'DRIVE_OFF' });
    expect(await documentsOf(driveOff.id)).toEqual([]);
  });

  it('keeps the decision letter as decided: the motorist’s and the admin’s downloads are its bytes', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, {
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
    const motorist = chargeToken(t, pcn.id);
    const sent = await t.fileAndConfirmAppeal(motorist, appealForm(), randomUUID());
    expect(sent.status, sent.text).toBe(201);
    const reference = (sent.json.data as AppealSubmitted).reference;
    const id = ((await t.request('GET', `/appeals?search=${reference}`, { token: admin.token })).json.data as AppealListResponse).items[0]!
      .id;
    const decided = await t.request('POST', `/appeals/${id}/decision`, {
      token: admin.token,
      json: { outcome: 'REJECTED', reasons: 'The permit shown had expired the day before.' },
    });
    expect(decided.status, decided.text).toBe(200);

    const letter = (await documentsOf(pcn.id)).find((item) => item.kind === 'DECISION_LETTER')!;
    expect(letter).toMatchObject({ reference, postOn: null, createdBy: { id: admin.id, name: 'Kay Admin' } });
    const stored = (await download(pcn.id, letter.id)).bytes;
    expect(sha256(stored)).toBe(letter.sha256);
    expect((await readPdfText(stored)).flat).toContain('The permit shown had expired the day before.');

    // A day later, with the operator renamed in the terms: the letter served is still the one kept.
    t.clock.frozenAtMs = NOW + DAY;
    const { operator_terms_id: termsId } = await t.db
      .selectFrom('pcns')
      .select('operator_terms_id')
      .where('id', '=', pcn.id)
      .executeTakeFirstOrThrow();
    const { terms } = await t.db.selectFrom('operator_terms').select('terms').where('id', '=', termsId!).executeTakeFirstOrThrow();
    await t.db
      .updateTable('operator_terms')
      .set({ terms: JSON.stringify({ ...JSON.parse(terms), creditorName: 'Renamed Parking Ltd' }) })
      .where('id', '=', termsId!)
      .execute();
    try {
      const { token } = await t.login(admin.email, admin.password ?? '');
      const asAdmin = await t.app.request(`/api/appeals/${id}/letter`, { headers: { authorization: `Bearer ${token}` } });
      expect(sha256(new Uint8Array(await asAdmin.arrayBuffer()))).toBe(letter.sha256);
      const asMotorist = await t.app.request('/api/public/charges/current/appeal/letter', {
        headers: { authorization: `Bearer ${chargeToken(t, pcn.id)}` },
      });
      expect(asMotorist.status).toBe(200);
      expect(sha256(new Uint8Array(await asMotorist.arrayBuffer()))).toBe(letter.sha256);
    } finally {
      t.clock.frozenAtMs = NOW;
      await t.db.updateTable('operator_terms').set({ terms }).where('id', '=', termsId!).execute();
    }
  });

  it('lists the documents with their hashes in the evidence pack', async () => {
    const pcn = await paragraph8();
    expect((await letters({ pcnIds: [pcn.id], postOn: '2026-02-06' })).status).toBe(200);
    const items = await documentsOf(pcn.id);
    expect(items.map((item) => item.kind)).toEqual(['NOTICE_TO_DRIVER', 'NOTICE_TO_KEEPER']);
    const res = await fetchEvidencePack(viaApp(t), admin.token, pcn.id);
    expect(res.status).toBe(200);
    const { flat } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(flat).toContain('Documents sent');
    for (const item of items) expect(flat.replace(/\s+/g, ''), item.kind).toContain(`SHA-256${item.sha256}`);
    expect(flat).toContain('Notice to keeper');
    expect(flat).toContain('dated and posted 6 Feb 2026');
    expect(flat).toContain(`Notice to driver (${items[0]!.reference})`);
  });

  it('removes the files with the photos once the notice is closed past retention, keeping the rows and hashes', async () => {
    const pcn = await paragraph8();
    expect((await letters({ pcnIds: [pcn.id] })).status).toBe(200);
    const before = await documentsOf(pcn.id);
    const files = await t.db.selectFrom('sent_documents').select('file_name').where('pcn_id', '=', pcn.id).execute();
    expect(files.map((file) => existsSync(join(t.config.uploadsDir, file.file_name)))).toEqual([true, true]);
    expect(
      (
        await t.request('PATCH', `/pcns/${pcn.id}/status`, {
          token: admin.token,
          json: { status: 'CANCELLED', cancellationReason: 'OPERATOR_ERROR' },
        })
      ).status,
    ).toBe(200);
    await purgeExpiredEvidence({
      db: t.db,
      uploadsDir: t.config.uploadsDir,
      retentionDays: 0,
      now: () => new Date(NOW + 1000),
      logger: silentLogger,
    });

    const after = await documentsOf(pcn.id);
    expect(after.map((item) => [item.kind, item.sha256])).toEqual(before.map((item) => [item.kind, item.sha256]));
    expect(after.every((item) => item.purgedAt !== null)).toBe(true);
    expect(files.map((file) => existsSync(join(t.config.uploadsDir, file.file_name)))).toEqual([false, false]);
    const gone = await download(pcn.id, after[1]!.id);
    expect(gone.status).toBe(404);
    const audit = (await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.find((entry) => entry.action === 'images_purged')!.changes.sentDocuments).toEqual({
      from: before.map((item) => item.sha256),
      to: null,
    });
  });

  it('shows documents to admins alone, and only the notice’s own', async () => {
    const pcn = await paragraph8();
    const other = await paragraph8();
    const [ticket] = await documentsOf(pcn.id);
    const asOfficer = await t.request('GET', `/pcns/${pcn.id}/documents`, { token: officer.token });
    expect(asOfficer.status).toBe(403);
    expect((await download(pcn.id, ticket!.id, officer.token)).status).toBe(403);
    // Another notice's document under this one's path is no document at all.
    expect((await download(other.id, ticket!.id)).status).toBe(404);
    expect((await t.request('GET', `/pcns/${randomUUID()}/documents`, { token: admin.token })).status).toBe(404);
  });
});

describe('the notice to driver kept by a job', () => {
  let t: TestApp;
  let officer: Session;
  let carParkId: string;
  beforeAll(async () => {
    t = await createTestApp({ jobsWaitForTest: true });
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER', { firstName: 'Olu', lastName: 'Officer' });
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  const keptFor = (pcnId: string) =>
    t.db.selectFrom('sent_documents').select(['kind', 'created_at', 'created_by_name']).where('pcn_id', '=', pcnId).execute();

  it('answers the filing before the notice is kept, and keeps it once however often the phone sends the filing', async () => {
    const key = randomUUID();
    const form = { ...validPcnFields(carParkId), images: [jpegUpload(3)] };
    const filed = await postPcn(t, officer.token, form, key);
    expect(filed.status, filed.text).toBe(201);
    const pcnId = filed.json.data.id as string;
    // Answered with the photos stored; the notice to driver is the job's.
    expect(await keptFor(pcnId)).toEqual([]);

    // The answer lost on the way: the phone sends the same filing again, which asks again.
    t.clock.frozenAtMs = NOW + 60_000;
    const again = await postPcn(t, officer.token, form, key);
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    await t.workJobs();
    await t.deps.jobs.whenIdle();
    // One notice, dated when the filing was received and made by its officer, whichever job kept it.
    expect(await keptFor(pcnId)).toEqual([
      { kind: 'NOTICE_TO_DRIVER', created_at: new Date(NOW).toISOString(), created_by_name: 'Olu Officer' },
    ]);
  });
});
