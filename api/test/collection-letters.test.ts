import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  type ChargeLookupResponse,
  type CollectionLetterQueue,
  type CollectionLettersPostedResponse,
  type Pcn,
  type PcnAuditResponse,
  type PcnListResponse,
  type SentDocumentListResponse,
} from '@parkpatrol/shared';
import { validOperatorTerms } from './fixtures.ts';
import { readPdfText } from './support/pdf.ts';
import { letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * The chase after the notice to keeper (decision 0039), on a faked clock. Notices to keeper are
 * posted on Wednesday 4 February 2026 and presumed given on Friday 6 February. With the default
 * 28 days the reminder is due from Friday 6 March; posted that day, it is presumed given on
 * Tuesday 10 March, and with the default 14 days the letter before claim is due from Tuesday 24
 * March.
 */
const NOON = (day: string) => Date.parse(`${day}T12:00:00.000Z`);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('collection letters: the reminder and the letter before claim', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  let unpaid: Pcn;
  let paid: Pcn;

  /** Move the clock to noon on `day` and sign in again (moving it expires the tokens). */
  async function at(day: string) {
    t.clock.frozenAtMs = NOON(day);
    admin = { ...admin, token: (await t.login(admin.email, admin.password!)).token };
  }

  const queue = async (kind: string) => {
    const res = await t.request('GET', `/collection-letters?kind=${kind}`, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    return (res.json.data as CollectionLetterQueue).items.map((item) => item.pcnId);
  };
  async function letters(kind: string, pcnIds: string[], postOn?: string) {
    const res = await t.app.request('/api/collection-letters/letters', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind, pcnIds, ...(postOn ? { postOn } : {}) }),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    return {
      status: res.status,
      headers: res.headers,
      bytes,
      json: res.headers.get('content-type')?.includes('json') ? JSON.parse(new TextDecoder().decode(bytes)) : null,
    };
  }
  const posted = (kind: string, pcnIds: string[], postedOn: string) =>
    t.request('POST', '/collection-letters/posted', { token: admin.token, json: { kind, pcnIds, postedOn, proofReference: 'CoP 42' } });
  const stageOf = async (id: string) =>
    t.db
      .selectFrom('pcns')
      .select(['collection_stage', 'reminder_posted_on', 'letter_before_claim_posted_on', 'debt_recovery_fee_pence'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const motoristSees = async (pcn: Pcn) => {
    const res = await t.request('POST', '/public/charges/lookup', {
      json: { reference: pcn.pcnNumber, registration: pcn.vehicleRegistration },
    });
    expect(res.status, res.text).toBe(200);
    return (res.json.data as ChargeLookupResponse).charge;
  };
  /** The charge's newest kept letter of `kind`, downloaded as kept. */
  async function keptLetter(pcnId: string, kind: string) {
    const list = (await t.request('GET', `/pcns/${pcnId}/documents`, { token: admin.token })).json.data as SentDocumentListResponse;
    const document = list.items.filter((item) => item.kind === kind).at(-1)!;
    const res = await t.app.request(`/api/pcns/${pcnId}/documents/${document.id}`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.status).toBe(200);
    return { document, bytes: new Uint8Array(await res.arrayBuffer()) };
  }

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOON('2026-02-04');
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Cal', lastName: 'Collector' });
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
    // Two charges through the real flow: approved, keeper confirmed, notice to keeper made and posted.
    unpaid = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, registration: 'CL11AAA' });
    paid = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, registration: 'CL22BBB' });
    const made = await t.request('POST', '/keeper-notices/letters', { token: admin.token, json: { pcnIds: [unpaid.id, paid.id] } });
    expect(made.status, made.text).toBe(200);
    const marked = await t.request('POST', '/keeper-notices/posted', {
      token: admin.token,
      json: { pcnIds: [unpaid.id, paid.id], postedOn: '2026-02-04', proofReference: '' },
    });
    expect(marked.status, marked.text).toBe(200);
  });
  afterAll(() => t.close());

  it('starts the chase when the notice to keeper is posted, and shows the stage on the review, the list and /charge', async () => {
    expect(await stageOf(unpaid.id)).toMatchObject({ collection_stage: 'NOTICE_TO_KEEPER', reminder_posted_on: null });
    const review = (await t.request('GET', `/pcns/${unpaid.id}`, { token: admin.token })).json.data as Pcn;
    expect(review.collection).toEqual({
      stage: 'NOTICE_TO_KEEPER',
      reminderPostedOn: null,
      letterBeforeClaimPostedOn: null,
      debtRecoveryFeePence: null,
    });
    const list = await t.request('GET', '/pcns?scope=all&collectionStage=NOTICE_TO_KEEPER', { token: admin.token });
    expect(list.status, list.text).toBe(200);
    expect((list.json.data as PcnListResponse).pcns.map((pcn) => pcn.id).sort()).toEqual([unpaid.id, paid.id].sort());
    const none = await t.request('GET', '/pcns?scope=all&collectionStage=REMINDER', { token: admin.token });
    expect((none.json.data as PcnListResponse).pcns).toEqual([]);
    expect((await t.request('GET', '/pcns?collectionStage=SOMEWHERE', { token: admin.token })).status).toBe(400);
    expect((await motoristSees(unpaid)).collectionStage).toBe('NOTICE_TO_KEEPER');
    // Officers have no collection stage filter: it is an admin tool.
    expect((await t.request('GET', '/pcns?collectionStage=REMINDER', { token: officer.token })).status).toBe(403);
  });

  it('keeps the chase settings with the operator terms, refusing a debt recovery charge above the sector cap', async () => {
    const tooMuch = await t.request('PUT', '/settings/operator', {
      token: admin.token,
      json: validOperatorTerms({ debtRecoveryFeePence: 7001 }),
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.details).toEqual({ debtRecoveryFeePence: "At most £70 (the Single Code's cap)" });
    const tooSoon = await t.request('PUT', '/settings/operator', {
      token: admin.token,
      json: validOperatorTerms({ reminderAfterDays: 10 }),
    });
    expect(tooSoon.json.details).toEqual({ reminderAfterDays: 'Between 28 and 180 days' });
    // A save without the chase's settings keeps them as they are (here, their defaults).
    const { reminderAfterDays: _r, letterBeforeClaimAfterDays: _l, debtRecoveryFeePence: _f, ...older } = validOperatorTerms();
    const kept = await t.request('PUT', '/settings/operator', { token: admin.token, json: older });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.json.data.operator).toMatchObject({ reminderAfterDays: 28, letterBeforeClaimAfterDays: 14, debtRecoveryFeePence: 0 });
    const set = await t.request('PUT', '/settings/operator', {
      token: admin.token,
      json: validOperatorTerms({ debtRecoveryFeePence: 7000 }),
    });
    expect(set.status, set.text).toBe(200);
    expect(set.json.data.operator).toMatchObject({ debtRecoveryFeePence: 7000 });
  });

  it('gives a paid charge no reminder', async () => {
    const res = await t.request('POST', `/pcns/${paid.id}/payments`, {
      token: admin.token,
      json: { amountPence: 10000, paidOn: '2026-02-04', method: 'BANK_TRANSFER' },
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(res.status, res.text).toBe(200);
    expect((res.json.data as Pcn).status).toBe('PAID');
  });

  it('makes the reminder due on its day and not before', async () => {
    await at('2026-03-05');
    expect(await queue('REMINDER')).toEqual([]);
    const early = await letters('REMINDER', [unpaid.id]);
    expect(early.status).toBe(422);
    expect(early.json.code).toBe('COLLECTION_LETTER_REFUSED');
    expect(early.json.details).toEqual({ [unpaid.id]: 'Not due yet: a letter may be posted from 6 Mar 2026' });

    await at('2026-03-06');
    expect(await queue('REMINDER')).toEqual([unpaid.id]);
    // The paid charge is refused by name, and nothing is made for either.
    const withPaid = await letters('REMINDER', [unpaid.id, paid.id]);
    expect(withPaid.status).toBe(422);
    expect(withPaid.json.details).toEqual({ [paid.id]: 'Only an issued charge is chased; this one is paid' });
    expect((await t.db.selectFrom('sent_documents').select('id').where('kind', '=', 'REMINDER').execute()).length).toBe(0);
    // Not before the reminder: no letter before claim yet.
    expect((await letters('LETTER_BEFORE_CLAIM', [unpaid.id])).json.details).toEqual({
      [unpaid.id]: 'A letter before claim follows the reminder; this charge stands at notice to keeper',
    });
  });

  it('makes the reminder, keeps it as sent byte for byte, and moves the charge on once posted', async () => {
    const made = await letters('REMINDER', [unpaid.id]);
    expect(made.status, new TextDecoder().decode(made.bytes).slice(0, 300)).toBe(200);
    expect(made.headers.get('content-disposition')).toBe('attachment; filename="reminders-2026-03-06.pdf"');
    const text = (await readPdfText(made.bytes)).flat.replace(/\s+/g, ' ');
    for (const statement of [
      'REMINDER',
      'Ms Kira Keeper',
      `Reference: PCN-${unpaid.pcnNumber}`,
      'Date sent: 6 Mar 2026',
      'As at 23:59 on 5 Mar 2026, £100 remains unpaid.',
      'If it is still unpaid on 24 Mar 2026, we may send you a letter before claim',
      'If unpaid, a debt recovery charge of £70 may be added.',
      '/charge, entering the reference',
      'No appeal was made.',
    ]) {
      expect(text, statement).toContain(statement);
    }
    const kept = await keptLetter(unpaid.id, 'REMINDER');
    expect(kept.document.postOn).toBe('2026-03-06');
    expect(sha256(kept.bytes)).toBe(kept.document.sha256);
    // The batch is the kept letter's pages: the same words.
    expect((await readPdfText(kept.bytes)).flat.replace(/\s+/g, ' ')).toContain('If unpaid, a debt recovery charge of £70 may be added.');

    // Marked posted on another day than it is dated: refused, nothing moves.
    await at('2026-03-09');
    const mismatch = await posted('REMINDER', [unpaid.id], '2026-03-09');
    expect(mismatch.status).toBe(409);
    expect(mismatch.json.code).toBe('LETTER_DATE_MISMATCH');
    expect((await stageOf(unpaid.id)).collection_stage).toBe('NOTICE_TO_KEEPER');

    const done = await posted('REMINDER', [unpaid.id], '2026-03-06');
    expect(done.status, done.text).toBe(200);
    expect((done.json.data as CollectionLettersPostedResponse).results).toEqual([
      {
        pcnId: unpaid.id,
        pcnNumber: unpaid.pcnNumber,
        outcome: 'POSTED',
        postedOn: '2026-03-06',
        givenOn: '2026-03-10',
        collectionStage: 'REMINDER',
      },
    ]);
    expect(await stageOf(unpaid.id)).toMatchObject({ collection_stage: 'REMINDER', reminder_posted_on: '2026-03-06' });
    const again = await posted('REMINDER', [unpaid.id], '2026-03-06');
    expect((again.json.data as CollectionLettersPostedResponse).results[0]!.outcome).toBe('ALREADY_POSTED');
    const review = (await t.request('GET', `/pcns/${unpaid.id}`, { token: admin.token })).json.data as Pcn;
    expect(review.statusHistory!.at(-1)!.note).toBe(
      'Reminder posted on 6 Mar 2026, presumed given on 10 Mar 2026 (proof of posting CoP 42)',
    );
    const audit = (await t.request('GET', `/pcns/${unpaid.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.find((entry) => entry.action === 'collection_stage_changed')!.changes).toEqual({
      collectionStage: { from: 'NOTICE_TO_KEEPER', to: 'REMINDER' },
      reminderPostedOn: { from: null, to: '2026-03-06' },
      proofReference: { from: null, to: 'CoP 42' },
    });
    expect((await motoristSees(unpaid)).collectionStage).toBe('REMINDER');
  });

  it('makes the letter before claim due on its day, with the Information Sheet and Reply Form, and records the charge it warned of', async () => {
    await at('2026-03-23');
    expect(await queue('LETTER_BEFORE_CLAIM')).toEqual([]);
    expect((await letters('LETTER_BEFORE_CLAIM', [unpaid.id])).json.details).toEqual({
      [unpaid.id]: 'Not due yet: a letter may be posted from 24 Mar 2026',
    });

    await at('2026-03-24');
    expect(await queue('LETTER_BEFORE_CLAIM')).toEqual([unpaid.id]);
    const made = await letters('LETTER_BEFORE_CLAIM', [unpaid.id]);
    expect(made.status).toBe(200);
    expect(made.headers.get('content-disposition')).toBe('attachment; filename="letters-before-claim-2026-03-24.pdf"');
    const { pages, flat } = await readPdfText(made.bytes);
    const text = flat.replace(/\s+/g, ' ');
    for (const statement of [
      'LETTER BEFORE CLAIM',
      'Pre-Action Protocol for Debt Claims',
      'The amount of the debt is £100, as at 23:59 on 23 Mar 2026.',
      'No interest is being claimed, and no other charges are being added, except as set out below.',
      'If unpaid, a debt recovery charge of £70 may be added.',
      'The debt has not been assigned',
      'We sent you a reminder on 6 Mar 2026.',
      'by 25 Apr 2026: 30 days from the day this letter is presumed given',
      'Standard Financial Statement',
      'INFORMATION SHEET',
      'National Debtline',
      'REPLY FORM',
      'I agree I owe the debt.',
      'I dispute the debt because',
    ]) {
      expect(text, statement).toContain(statement);
    }
    // The Information Sheet and the Reply Form each begin a page of the same letter.
    expect(pages.findIndex((page) => page.includes('INFORMATION SHEET'))).toBeGreaterThan(0);
    expect(pages.findIndex((page) => page.includes('REPLY FORM'))).toBeGreaterThan(
      pages.findIndex((page) => page.includes('INFORMATION SHEET')),
    );
    const kept = await keptLetter(unpaid.id, 'LETTER_BEFORE_CLAIM');
    expect(sha256(kept.bytes)).toBe(kept.document.sha256);

    const done = await posted('LETTER_BEFORE_CLAIM', [unpaid.id], '2026-03-24');
    expect(done.status, done.text).toBe(200);
    expect(await stageOf(unpaid.id)).toMatchObject({
      collection_stage: 'LETTER_BEFORE_CLAIM',
      letter_before_claim_posted_on: '2026-03-24',
      debt_recovery_fee_pence: 7000,
    });
    // Warned of, not yet owed: the charge is not with a debt recovery agency.
    expect(await motoristSees(unpaid)).toMatchObject({ collectionStage: 'LETTER_BEFORE_CLAIM', amountDuePence: 10000 });
    const review = (await t.request('GET', `/pcns/${unpaid.id}`, { token: admin.token })).json.data as Pcn;
    expect(review.collection).toMatchObject({ stage: 'LETTER_BEFORE_CLAIM', debtRecoveryFeePence: 7000 });
    // Once handed to the agency (the debt recovery export moves it), the warned charge is owed.
    await t.db.updateTable('pcns').set({ collection_stage: 'DEBT_RECOVERY' }).where('id', '=', unpaid.id).execute();
    expect(await motoristSees(unpaid)).toMatchObject({ collectionStage: 'DEBT_RECOVERY', amountDuePence: 17000 });
  });

  it('records no debt recovery charge where the letter before claim warned of none', async () => {
    await at('2026-02-04');
    const quiet = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, registration: 'CL33CCC' });
    expect((await t.request('POST', '/keeper-notices/letters', { token: admin.token, json: { pcnIds: [quiet.id] } })).status).toBe(200);
    const marked = await t.request('POST', '/keeper-notices/posted', {
      token: admin.token,
      json: { pcnIds: [quiet.id], postedOn: '2026-02-04', proofReference: '' },
    });
    expect(marked.status, marked.text).toBe(200);
    await at('2026-03-06');
    expect((await letters('REMINDER', [quiet.id])).status).toBe(200);
    expect((await posted('REMINDER', [quiet.id], '2026-03-06')).status).toBe(200);
    // The operator stops charging for debt recovery before the letter before claim is made.
    expect(
      (await t.request('PUT', '/settings/operator', { token: admin.token, json: validOperatorTerms({ debtRecoveryFeePence: 0 }) })).status,
    ).toBe(200);
    await at('2026-03-24');
    const made = await letters('LETTER_BEFORE_CLAIM', [quiet.id]);
    expect(made.status).toBe(200);
    expect((await readPdfText(made.bytes)).flat).not.toContain('debt recovery charge');
    expect((await posted('LETTER_BEFORE_CLAIM', [quiet.id], '2026-03-24')).status).toBe(200);
    expect(await stageOf(quiet.id)).toMatchObject({ collection_stage: 'LETTER_BEFORE_CLAIM', debt_recovery_fee_pence: null });
    await t.db.updateTable('pcns').set({ collection_stage: 'DEBT_RECOVERY' }).where('id', '=', quiet.id).execute();
    expect((await motoristSees(quiet)).amountDuePence).toBe(10000);
  });
});
