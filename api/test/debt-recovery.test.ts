import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DebtRecoveryBatch,
  DebtRecoveryBatchListResponse,
  DebtRecoveryEligibleResponse,
  DebtRecoveryHandover,
  DebtRecoveryHandoverListResponse,
  DebtRecoveryUpdateImport,
  Pcn,
  PcnAuditResponse,
  SentDocumentListResponse,
} from '@parkpatrol/shared';
import { letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * The hand-over to a debt recovery agency (decision 0040). Every charge reaches its letter before
 * claim through the real calls: the notice to keeper made and posted on Wednesday 4 February
 * 2026 (presumed given Friday 6 February), the reminder on Monday 9 March (given Wednesday 11
 * March, the operator's default 28 days on), the letter before claim on Wednesday 25 March (given
 * Friday 27 March, 14 days on). The debtor's 30 days to answer run to Sunday 26 April: the
 * charges may go from Monday 27 April.
 */
const NOTICE_DAY = Date.parse('2026-02-04T12:00:00.000Z');
const REMINDER_DAY = Date.parse('2026-03-09T12:00:00.000Z');
const LETTER_BEFORE_CLAIM_DAY = Date.parse('2026-03-25T12:00:00.000Z');
const LAST_DAY_TO_ANSWER = Date.parse('2026-04-26T12:00:00.000Z');
const FIRST_DAY_TO_HAND_OVER = Date.parse('2026-04-27T12:00:00.000Z');

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function download(t: TestApp, token: string, path: string) {
  const res = await t.app.request(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const reference = (pcn: Pcn) => `PCN-${pcn.pcnNumber}`;

/** The clock moved; moving it expires the tokens, so both sign in again. */
async function atTime(t: TestApp, at: number, who: { admin: Session; officer: Session }) {
  t.clock.frozenAtMs = at;
  return {
    admin: { ...who.admin, ...(await t.login(who.admin.email, who.admin.password!)) },
    officer: { ...who.officer, ...(await t.login(who.officer.email, who.officer.password!)) },
  };
}

/**
 * `count` charges through their notice to keeper, the last never chased further, the others
 * through their reminder and letter before claim; the clock left on the letter before claim's day.
 */
async function chargesAtLetterBeforeClaim(t: TestApp, count: number) {
  t.clock.frozenAtMs = NOTICE_DAY;
  let who = { officer: await t.signedInUser('USER'), admin: await t.signedInUser('ADMIN', { firstName: 'Dee', lastName: 'Admin' }) };
  const post = async (path: string, json: unknown) => t.request('POST', path, { token: who.admin.token, json });
  const chase = async (kind: 'REMINDER' | 'LETTER_BEFORE_CLAIM', pcnIds: string[], postedOn: string) => {
    const made = await post('/collection-letters/letters', { kind, pcnIds });
    expect(made.status, made.text.slice(0, 300)).toBe(200);
    const posted = await post('/collection-letters/posted', { kind, pcnIds, postedOn, proofReference: '' });
    expect(posted.status, posted.text).toBe(200);
  };
  const carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [who.officer.id] })).id;
  await termsSinceLongAgo(t, carParkId);
  const charges: Pcn[] = [];
  for (let n = 0; n < count; n++) {
    charges.push(
      await letterReadyPcn(t, { officerToken: who.officer.token, adminToken: who.admin.token, carParkId, registration: `DR${n}1ABC` }),
    );
  }
  const all = charges.map((pcn) => pcn.id);
  expect((await post('/keeper-notices/letters', { pcnIds: all })).status).toBe(200);
  const posted = await post('/keeper-notices/posted', { pcnIds: all, postedOn: '2026-02-04', proofReference: 'CP-1' });
  expect(posted.status, posted.text).toBe(200);
  const unchased = charges.pop()!;
  const chased = charges.map((pcn) => pcn.id);
  who = await atTime(t, REMINDER_DAY, who);
  await chase('REMINDER', chased, '2026-03-09');
  who = await atTime(t, LETTER_BEFORE_CLAIM_DAY, who);
  await chase('LETTER_BEFORE_CLAIM', chased, '2026-03-25');
  return { ...who, charges, unchased };
}

describe('the hand-over to a debt recovery agency', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let charges: Pcn[];
  /** A charge whose notice to keeper was posted but that was never chased. */
  let unchased: Pcn;
  let batch: DebtRecoveryBatch;

  async function moveTo(at: number) {
    ({ admin, officer } = await atTime(t, at, { admin, officer }));
  }

  async function post(path: string, json: unknown, token = admin.token) {
    return t.request('POST', path, { token, json });
  }

  beforeAll(async () => {
    t = await createTestApp();
    ({ officer, admin, charges, unchased } = await chargesAtLetterBeforeClaim(t, 7));
  });
  afterAll(() => t.close());

  it('refuses a charge until the 30 days to answer its letter before claim have ended, and makes nothing', async () => {
    await moveTo(LAST_DAY_TO_ANSWER);
    const eligible = await t.request('GET', '/debt-recovery/eligible', { token: admin.token });
    expect(eligible.status).toBe(200);
    expect((eligible.json.data as DebtRecoveryEligibleResponse).items).toEqual([]);
    const refused = await post('/debt-recovery/exports', { pcnIds: [charges[0]!.id] });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('DEBT_RECOVERY_REFUSED');
    expect(refused.json.details).toEqual({
      [charges[0]!.id]: 'Too early: the 30 days to answer the letter before claim run to 26 Apr 2026. Hand it over from 27 Apr 2026',
    });
    const batches = await t.request('GET', '/debt-recovery/exports', { token: admin.token });
    expect((batches.json.data as DebtRecoveryBatchListResponse).items).toEqual([]);
  });

  it('lists the charges past their letter before claim, and refuses a batch naming each charge that cannot go', async () => {
    await moveTo(FIRST_DAY_TO_HAND_OVER);
    const eligible = (await t.request('GET', '/debt-recovery/eligible', { token: admin.token })).json.data as DebtRecoveryEligibleResponse;
    expect(eligible.items.map((item) => item.pcnId)).toEqual(charges.map((pcn) => pcn.id));
    expect(eligible.items[0]).toMatchObject({
      letterBeforeClaimPostedOn: '2026-03-25',
      replyEndedOn: '2026-04-26',
      amountDuePence: 10000,
      paidPence: 0,
      carParkName: 'Riverside Retail Park',
    });

    const refused = await post('/debt-recovery/exports', { pcnIds: [charges[0]!.id, unchased.id] });
    expect(refused.status).toBe(409);
    expect(refused.json.details).toEqual({ [unchased.id]: 'No letter before claim has been posted for it' });
    expect(refused.json.message).toBe(`A charge cannot go to the agency: ${reference(unchased)}. Nothing was handed over`);
    const untouched = await t.db
      .selectFrom('pcns')
      .select(['collection_stage', 'debt_recovery_batch_id'])
      .where('id', '=', charges[0]!.id)
      .executeTakeFirstOrThrow();
    expect(untouched).toEqual({ collection_stage: 'LETTER_BEFORE_CLAIM', debt_recovery_batch_id: null });
  });

  it('hands a batch over: a ZIP of the charges, their documents as sent and evidence packs, with a manifest of SHA-256s', async () => {
    const chosen = charges.slice(0, 5);
    const made = await post('/debt-recovery/exports', { pcnIds: chosen.map((pcn) => pcn.id).reverse() });
    expect(made.status, made.text).toBe(202);
    // Answered before anything was packed; the test app works the job before it returns.
    expect(made.json.data).toMatchObject({ state: 'WAITING', total: 5, made: 0, error: null, batch: null, createdBy: 'Dee Admin' });
    const handover = (await t.request('GET', `/debt-recovery/handovers/${made.json.data.id as string}`, { token: admin.token })).json
      .data as DebtRecoveryHandover;
    expect(handover).toMatchObject({ state: 'READY', total: 5, made: 5, error: null });
    batch = handover.batch!;
    expect(batch).toMatchObject({
      reference: 'DR-2026-04-27-1',
      chargeCount: 5,
      fileName: 'debt-recovery-DR-2026-04-27-1.zip',
      createdBy: 'Dee Admin',
    });

    const zip = await download(t, admin.token, `/debt-recovery/exports/${batch.id}`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('cache-control')).toBe('no-store');
    expect(zip.headers.get('content-disposition')).toBe('attachment; filename="debt-recovery-DR-2026-04-27-1.zip"');
    expect(sha256(zip.bytes)).toBe(batch.sha256);
    expect(zip.bytes.byteLength).toBe(batch.sizeBytes);
    // Downloaded again: the same bytes, as stored.
    expect(sha256((await download(t, admin.token, `/debt-recovery/exports/${batch.id}`)).bytes)).toBe(batch.sha256);

    const files = unzipSync(zip.bytes);
    const paths = Object.keys(files);
    // A fixed order: the two CSVs, then each charge's folder by reference.
    expect(paths.slice(0, 2)).toEqual(['charges.csv', 'manifest.csv']);
    const folders = [...new Set(paths.slice(2).map((path) => path.split('/')[0]))];
    expect(folders).toEqual(chosen.map(reference));

    const manifest = parse(new TextDecoder().decode(files['manifest.csv']), { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(manifest.map((entry) => entry.path)).toEqual(paths.filter((path) => path !== 'manifest.csv'));
    for (const entry of manifest) {
      const bytes = files[entry.path!]!;
      expect(sha256(bytes), entry.path).toBe(entry.sha256);
      expect(String(bytes.byteLength)).toBe(entry.size_bytes);
    }

    // Each document byte for byte as stored, under the name its download has.
    for (const pcn of chosen) {
      const listed = (await t.request('GET', `/pcns/${pcn.id}/documents`, { token: admin.token })).json.data as SentDocumentListResponse;
      expect(listed.items.map((document) => document.kind)).toEqual([
        'NOTICE_TO_DRIVER',
        'NOTICE_TO_KEEPER',
        'REMINDER',
        'LETTER_BEFORE_CLAIM',
      ]);
      for (const document of listed.items) {
        const stored = await download(t, admin.token, `/pcns/${pcn.id}/documents/${document.id}`);
        const inZip = files[`${reference(pcn)}/${document.fileName}`];
        expect(inZip, document.fileName).toBeDefined();
        expect(sha256(inZip!)).toBe(sha256(stored.bytes));
      }
      const pack = files[`${reference(pcn)}/${reference(pcn)}-evidence-pack.pdf`];
      expect(new TextDecoder().decode(pack!.slice(0, 5))).toBe('%PDF-');
    }

    const rows = parse(new TextDecoder().decode(files['charges.csv']), { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.reference)).toEqual(chosen.map(reference));
    expect(rows[0]).toMatchObject({
      vrm: chosen[0]!.vehicleRegistration,
      issued_on: '2025-12-31',
      car_park: 'Riverside Retail Park',
      keeper_name: 'Ms Kira Keeper',
      keeper_address: '12 Acacia Avenue, Headingley, Leeds',
      keeper_postcode: 'LS6 3AA',
      charge_pence: '10000',
      paid_pence: '0',
      amount_due_pence: '10000',
      letter_before_claim_posted_on: '2026-03-25',
      folder: `${reference(chosen[0]!)}/`,
    });

    // Each charge moved, with its batch, its history and its audit.
    for (const pcn of chosen) {
      const row = await t.db
        .selectFrom('pcns')
        .select(['collection_stage', 'debt_recovery_batch_id'])
        .where('id', '=', pcn.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ collection_stage: 'DEBT_RECOVERY', debt_recovery_batch_id: batch.id });
    }
    const audit = (await t.request('GET', `/pcns/${chosen[0]!.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.find((entry) => entry.action === 'debt_recovery_exported')?.changes).toMatchObject({
      collectionStage: { from: 'LETTER_BEFORE_CLAIM', to: 'DEBT_RECOVERY' },
      debtRecoveryBatch: { from: null, to: 'DR-2026-04-27-1' },
    });
    const history = await t.db.selectFrom('pcn_status_history').select('note').where('pcn_id', '=', chosen[0]!.id).execute();
    expect(history.map((entry) => entry.note)).toContain('Handed to the debt recovery agency in batch DR-2026-04-27-1: £100 due');

    // Gone from the eligible list, refused a second time, and the batch listed.
    const eligible = (await t.request('GET', '/debt-recovery/eligible', { token: admin.token })).json.data as DebtRecoveryEligibleResponse;
    expect(eligible.items.map((item) => item.pcnId)).toEqual([charges[5]!.id]);
    const again = await post('/debt-recovery/exports', { pcnIds: [chosen[0]!.id] });
    expect(again.json.details).toEqual({ [chosen[0]!.id]: 'It is already with the debt recovery agency' });
    const list = (await t.request('GET', '/debt-recovery/exports', { token: admin.token })).json.data as DebtRecoveryBatchListResponse;
    expect(list.items).toEqual([batch]);
  });

  it('imports the agency’s outcomes: a dry run first, then only matching rows applied, the rest listed, a replay applying nothing', async () => {
    const [paid, partPaid, closed, returned, mismatched, notHandedOver] = charges;
    const csv = [
      'Reference,VRM,Outcome,Paid Pence,Amount,Paid On,Agency Reference',
      `${reference(paid!)},${paid!.vehicleRegistration},PAID,10000,,2026-04-27,AG-1001`,
      `${reference(partPaid!)},${partPaid!.vehicleRegistration},Part paid,,£40.00,27/04/2026,AG-1002`,
      `${reference(closed!)},${closed!.vehicleRegistration},CLOSED,,,,AG-1003`,
      `${reference(returned!)},${returned!.vehicleRegistration},RETURNED,,,,AG-1004`,
      `${reference(mismatched!)},ZZ99ZZZ,PAID,10000,,,AG-1005`,
      `${reference(notHandedOver!)},${notHandedOver!.vehicleRegistration},PAID,10000,,,AG-1006`,
      'PCN-99999999,AB12CDE,PAID,10000,,,AG-1007',
      `${reference(mismatched!)},${mismatched!.vehicleRegistration},SETTLED,,,,AG-1008`,
    ].join('\n');
    const kinds = ['APPLIED', 'APPLIED', 'APPLIED', 'APPLIED', 'MISMATCH', 'NOT_IN_BATCH', 'NOT_FOUND', 'INVALID'];

    const preview = await post('/debt-recovery/updates', { csv, preview: true });
    expect(preview.status, preview.text).toBe(200);
    expect((preview.json.data as DebtRecoveryUpdateImport).preview).toBe(true);
    expect((preview.json.data as DebtRecoveryUpdateImport).results.map((result) => result.result)).toEqual(kinds);
    const paymentsAfterPreview = await t.db.selectFrom('pcn_payments').select('id').execute();
    expect(paymentsAfterPreview).toEqual([]);
    expect(await t.db.selectFrom('debt_recovery_updates').select('id').execute()).toEqual([]);

    const applied = (await post('/debt-recovery/updates', { csv })).json.data as DebtRecoveryUpdateImport;
    expect(applied.preview).toBe(false);
    expect(applied.results.map((result) => result.result)).toEqual(kinds);
    expect(applied.counts).toEqual({ APPLIED: 4, ALREADY_IMPORTED: 0, NOT_IN_BATCH: 1, MISMATCH: 1, NOT_FOUND: 1, INVALID: 1 });
    expect(applied.results[4]!.message).toBe(`The registration ZZ99ZZZ is not the charge's (${mismatched!.vehicleRegistration})`);
    expect(applied.results[5]!.message).toBe('The charge is not with the agency: it was never handed over, or was returned');
    expect(applied.results[7]!.message).toBe('The outcome must be one of PAID, PART_PAID, CLOSED, RETURNED');

    const stateOf = (pcn: Pcn) =>
      t.db
        .selectFrom('pcns')
        .select(['status', 'collection_stage', 'debt_recovery_batch_id'])
        .where('id', '=', pcn.id)
        .executeTakeFirstOrThrow();
    const paymentsOf = (pcn: Pcn) =>
      t.db.selectFrom('pcn_payments').select(['amount_pence', 'method', 'reference', 'paid_on']).where('pcn_id', '=', pcn.id).execute();
    expect(await stateOf(paid!)).toEqual({ status: 'PAID', collection_stage: 'DEBT_RECOVERY', debt_recovery_batch_id: batch.id });
    expect(await paymentsOf(paid!)).toEqual([
      { amount_pence: 10000, method: 'DEBT_RECOVERY_AGENCY', reference: 'AG-1001', paid_on: '2026-04-27' },
    ]);
    expect(await stateOf(partPaid!)).toEqual({ status: 'ISSUED', collection_stage: 'DEBT_RECOVERY', debt_recovery_batch_id: batch.id });
    expect(await paymentsOf(partPaid!)).toEqual([
      { amount_pence: 4000, method: 'DEBT_RECOVERY_AGENCY', reference: 'AG-1002', paid_on: '2026-04-27' },
    ]);
    expect(await stateOf(closed!)).toEqual({ status: 'ISSUED', collection_stage: 'DEBT_RECOVERY', debt_recovery_batch_id: batch.id });
    const closedHistory = await t.db.selectFrom('pcn_status_history').select('note').where('pcn_id', '=', closed!.id).execute();
    expect(closedHistory.map((entry) => entry.note)).toContain('Closed by the agency (batch DR-2026-04-27-1, agency reference AG-1003)');
    expect(await stateOf(returned!)).toEqual({ status: 'ISSUED', collection_stage: 'LETTER_BEFORE_CLAIM', debt_recovery_batch_id: null });
    // Never applied silently: the mismatched and the charge never handed over are as they were.
    expect(await paymentsOf(mismatched!)).toEqual([]);
    expect(await paymentsOf(notHandedOver!)).toEqual([]);
    expect(await stateOf(notHandedOver!)).toEqual({
      status: 'ISSUED',
      collection_stage: 'LETTER_BEFORE_CLAIM',
      debt_recovery_batch_id: null,
    });
    const audit = (await t.request('GET', `/pcns/${returned!.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.find((entry) => entry.action === 'debt_recovery_outcome')?.changes).toMatchObject({
      outcome: { from: null, to: 'RETURNED' },
      collectionStage: { from: 'DEBT_RECOVERY', to: 'LETTER_BEFORE_CLAIM' },
    });

    // The same file again: every outcome already imported, nothing more recorded.
    const replay = (await post('/debt-recovery/updates', { csv })).json.data as DebtRecoveryUpdateImport;
    expect(replay.results.map((result) => result.result)).toEqual([
      'ALREADY_IMPORTED',
      'ALREADY_IMPORTED',
      'ALREADY_IMPORTED',
      'ALREADY_IMPORTED',
      'MISMATCH',
      'NOT_IN_BATCH',
      'NOT_FOUND',
      'INVALID',
    ]);
    expect(await t.db.selectFrom('pcn_payments').select('id').execute()).toHaveLength(2);
    expect(await t.db.selectFrom('debt_recovery_updates').select('id').execute()).toHaveLength(4);

    const noColumns = await post('/debt-recovery/updates', { csv: 'a,b\n1,2' });
    expect(noColumns.status).toBe(400);
    expect(noColumns.json.message).toMatch(/^The file's first line must name its columns: reference, vrm, outcome/);
  });

  it('is for admins only', async () => {
    for (const [method, path, json] of [
      ['GET', '/debt-recovery/eligible', undefined],
      ['GET', '/debt-recovery/exports', undefined],
      ['GET', `/debt-recovery/exports/${batch.id}`, undefined],
      ['POST', '/debt-recovery/exports', { pcnIds: [charges[5]!.id] }],
      ['POST', '/debt-recovery/updates', { csv: 'reference,vrm,outcome\nPCN-1,AB12CDE,PAID' }],
    ] as const) {
      const res = await t.request(method, path, { token: officer.token, json });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect(await t.db.selectFrom('debt_recovery_batches').select('id').execute()).toHaveLength(1);
  });
});

describe('a hand-over packed by a job', () => {
  let t: TestApp;
  let admin: Session;
  let charges: Pcn[];

  beforeAll(async () => {
    t = await createTestApp({ jobsWaitForTest: true });
    ({ admin, charges } = await chargesAtLetterBeforeClaim(t, 3));
    ({ admin } = await atTime(t, FIRST_DAY_TO_HAND_OVER, { admin, officer: admin }));
  });
  afterAll(() => t.close());

  const get = async <T>(path: string) => (await t.request('GET', path, { token: admin.token })).json.data as T;
  const stageOf = async (pcn: Pcn) =>
    t.db.selectFrom('pcns').select(['collection_stage', 'debt_recovery_batch_id']).where('id', '=', pcn.id).executeTakeFirstOrThrow();

  it('moves nothing until the batch is made, and fails for good, handing nothing over, when a document no longer matches', async () => {
    const [first, second] = charges;
    const asked = await t.request('POST', '/debt-recovery/exports', { token: admin.token, json: { pcnIds: [first!.id, second!.id] } });
    expect(asked.status, asked.text).toBe(202);
    const handover = asked.json.data as DebtRecoveryHandover;
    expect(handover).toMatchObject({ state: 'WAITING', total: 2, made: 0, batch: null });

    // Asked for and not yet packed: the charges stay where they were, spoken for.
    expect(await stageOf(first!)).toEqual({ collection_stage: 'LETTER_BEFORE_CLAIM', debt_recovery_batch_id: null });
    expect((await get<DebtRecoveryEligibleResponse>('/debt-recovery/eligible')).items.map((item) => item.pcnId)).toEqual([]);
    const twice = await t.request('POST', '/debt-recovery/exports', { token: admin.token, json: { pcnIds: [second!.id] } });
    expect(twice.status).toBe(409);
    expect(twice.json.details).toEqual({ [second!.id]: 'It is in a hand-over still being made' });
    expect((await get<DebtRecoveryHandoverListResponse>('/debt-recovery/handovers')).items.map((item) => item.id)).toEqual([handover.id]);

    // A letter kept for the second charge no longer matches its SHA-256: the job refuses to send it.
    const kept = await t.db
      .selectFrom('sent_documents')
      .select('file_name')
      .where('pcn_id', '=', second!.id)
      .where('kind', '=', 'LETTER_BEFORE_CLAIM')
      .executeTakeFirstOrThrow();
    const original = (await t.deps.evidence.read(kept.file_name))!;
    await t.deps.evidence.put(kept.file_name, new TextEncoder().encode('%PDF-1.7 altered'), 'application/pdf');
    await t.workJobs();
    await t.deps.jobs.whenIdle();
    const failed = await get<DebtRecoveryHandover>(`/debt-recovery/handovers/${handover.id}`);
    expect(failed).toMatchObject({ state: 'FAILED', batch: null });
    expect(failed.error).toBe(
      `A document kept for ${reference(second!)} is missing or no longer matches its SHA-256: nothing was handed over`,
    );
    expect(await stageOf(first!)).toEqual({ collection_stage: 'LETTER_BEFORE_CLAIM', debt_recovery_batch_id: null });
    expect(await t.db.selectFrom('debt_recovery_batches').select('id').execute()).toEqual([]);
    // Offered again, and the failure stays listed for the admin to read.
    expect((await get<DebtRecoveryEligibleResponse>('/debt-recovery/eligible')).items.map((item) => item.pcnId)).toEqual([
      first!.id,
      second!.id,
    ]);
    expect((await get<DebtRecoveryHandoverListResponse>('/debt-recovery/handovers')).items).toEqual([failed]);

    // The letter as sent put back: the same two charges go.
    await t.deps.evidence.put(kept.file_name, original, 'application/pdf');
    const again = await t.request('POST', '/debt-recovery/exports', { token: admin.token, json: { pcnIds: [first!.id, second!.id] } });
    expect(again.status, again.text).toBe(202);
    const made = await get<DebtRecoveryHandover>(`/debt-recovery/handovers/${again.json.data.id as string}`);
    expect(made).toMatchObject({ state: 'READY', total: 2, made: 2, error: null, batch: { reference: 'DR-2026-04-27-1', chargeCount: 2 } });
    expect(await stageOf(first!)).toEqual({ collection_stage: 'DEBT_RECOVERY', debt_recovery_batch_id: made.batch!.id });
  });
});
