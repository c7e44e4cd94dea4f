import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Appeal, BulkResponse, Pcn, PcnAuditResponse, PcnListResponse } from '@parkpatrol/shared';
import { createPcnViaApi, type NewPcn } from './fixtures.ts';
import { enterAppeal, enteredAppealForm } from './support/appeals.ts';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * Every way to CANCELLED carries why (decision 0042): an admin's change and bulk action (the
 * reason required, OTHER with a note), an accepted appeal (APPEALS_CHARTER under a Charter case,
 * else OPERATOR_ERROR), a landowner's approved request (LANDOWNER_REQUEST); Manage PCNs filters
 * by it.
 */

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signedInUser']>>;
let officer: Awaited<ReturnType<TestApp['signedInUser']>>;
let landowner: Awaited<ReturnType<TestApp['signedInUser']>>;
let carParkId: string;

const file = (overrides: Record<string, string> = {}): Promise<NewPcn> =>
  createPcnViaApi(t, officer.token, carParkId, {
    observedAt: '2026-02-01T10:00:00.000Z',
    issuedAt: '2026-02-01T10:00:00.000Z',
    noticeServedAt: '2026-02-01T10:00:00.000Z',
    ...overrides,
  });
const stored = (id: string) =>
  t.db.selectFrom('pcns').select(['status', 'cancellation_reason', 'cancellation_note']).where('id', '=', id).executeTakeFirstOrThrow();
const patch = (id: string, json: object, token = admin.token) => t.request('PATCH', `/pcns/${id}/status`, { token, json });

beforeAll(async () => {
  t = await createTestApp();
  t.clock.frozenAtMs = Date.parse('2026-02-04T12:00:00.000Z');
  admin = await t.signedInUser('ADMIN');
  officer = await t.signedInUser('USER');
  landowner = await t.signedInUser('LANDOWNER');
  carParkId = (await t.createCarPark({ assignTo: [officer.id, landowner.id] })).id;
  await termsSinceLongAgo(t, carParkId);
});
afterAll(async () => {
  await t.close();
});

describe("an admin's status change", () => {
  it('refuses CANCELLED without a reason, and OTHER without a note, naming the field; keeps both on the charge and in the audit', async () => {
    const pcn = await file();
    const bare = await patch(pcn.id, { status: 'CANCELLED' });
    expect(bare.status).toBe(400);
    expect(bare.json.details).toEqual({ cancellationReason: 'Choose why the charge is cancelled' });
    const unknown = await patch(pcn.id, { status: 'CANCELLED', cancellationReason: 'BORED' });
    expect(unknown.json.details).toEqual({ cancellationReason: 'Choose why the charge is cancelled' });
    const other = await patch(pcn.id, { status: 'CANCELLED', cancellationReason: 'OTHER', cancellationNote: '   ' });
    expect(other.status).toBe(400);
    expect(other.json.details).toEqual({ cancellationNote: 'Say why the charge is cancelled' });
    expect(await stored(pcn.id)).toEqual({ status: 'SUBMITTED', cancellation_reason: null, cancellation_note: null });

    const done = await patch(pcn.id, {
      status: 'CANCELLED',
      cancellationReason: 'OTHER',
      cancellationNote: 'Landowner closed the site that day',
    });
    expect(done.status, done.text).toBe(200);
    expect(done.json.data as Pcn).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'OTHER',
      cancellationNote: 'Landowner closed the site that day',
    });
    const audit = (await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.find((entry) => entry.action === 'status_changed')?.changes).toMatchObject({
      status: { to: 'CANCELLED' },
      cancellationReason: { to: 'OTHER' },
      cancellationNote: { to: 'Landowner closed the site that day' },
    });
  });

  it("other statuses take no reason; an officer's withdrawal of their own notice says why too", async () => {
    const pcn = await file();
    const review = await patch(pcn.id, { status: 'UNDER_REVIEW' });
    expect(review.status).toBe(200);
    expect(await stored(pcn.id)).toMatchObject({ status: 'UNDER_REVIEW', cancellation_reason: null });

    const own = await file();
    expect((await patch(own.id, { status: 'CANCELLED' }, officer.token)).status).toBe(400);
    const withdrawn = await patch(own.id, { status: 'CANCELLED', cancellationReason: 'DUPLICATE' }, officer.token);
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(await stored(own.id)).toMatchObject({ status: 'CANCELLED', cancellation_reason: 'DUPLICATE' });
  });
});

describe('the bulk status change', () => {
  it('needs the reason too, and gives it to every charge it cancels, through the statuses on the way', async () => {
    const [first, second] = [await file(), await file()];
    await patch(second.id, { status: 'UNDER_REVIEW' });
    const bare = await t.request('POST', '/pcns/bulk-status', {
      token: admin.token,
      json: { pcnIds: [first.id, second.id], status: 'CANCELLED' },
    });
    expect(bare.status).toBe(400);
    expect(bare.json.details).toEqual({ cancellationReason: 'Choose why the charge is cancelled' });
    const done = await t.request('POST', '/pcns/bulk-status', {
      token: admin.token,
      json: { pcnIds: [first.id, second.id], status: 'CANCELLED', cancellationReason: 'PERMIT_HOLDER' },
    });
    expect(done.status, done.text).toBe(200);
    expect((done.json.data as BulkResponse).results.every((result) => result.success)).toBe(true);
    for (const pcn of [first, second])
      expect(await stored(pcn.id)).toEqual({ status: 'CANCELLED', cancellation_reason: 'PERMIT_HOLDER', cancellation_note: null });
  });
});

describe('an accepted appeal', () => {
  const appealOn = async (reason: string) => {
    const pcn = await file();
    const entered = await enterAppeal(t, admin.token, enteredAppealForm({ pcnId: pcn.id, receivedOn: '2026-02-03', reason }));
    expect(entered.status, entered.text).toBe(201);
    return { pcn, appealId: (entered.json.data as Appeal).id };
  };

  it('cancels as OPERATOR_ERROR on its merits, and as APPEALS_CHARTER under a Charter case', async () => {
    const merits = await appealOn('VALID_PERMIT');
    const accepted = await t.request('POST', `/appeals/${merits.appealId}/decision`, {
      token: admin.token,
      json: { outcome: 'ACCEPTED', reasons: 'Your permit was valid.' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await stored(merits.pcn.id)).toMatchObject({ status: 'CANCELLED', cancellation_reason: 'OPERATOR_ERROR' });

    const charter = await appealOn('KEYING_ERROR');
    const underCharter = await t.request('POST', `/appeals/${charter.appealId}/decision`, {
      token: admin.token,
      json: { outcome: 'ACCEPTED', reasons: 'One letter mistyped at the machine.', charterOutcome: 'MINOR_KEYING_ERROR' },
    });
    expect(underCharter.status, underCharter.text).toBe(200);
    expect(await stored(charter.pcn.id)).toMatchObject({ status: 'CANCELLED', cancellation_reason: 'APPEALS_CHARTER' });
    const audit = (await t.request('GET', `/pcns/${charter.pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.find((entry) => entry.action === 'status_changed')?.changes).toMatchObject({
      cancellationReason: { to: 'APPEALS_CHARTER' },
    });
  });
});

describe("a landowner's approved request", () => {
  it("cancels as LANDOWNER_REQUEST, the landowner's words the note", async () => {
    const pcn = await file();
    const asked = await t.request('POST', `/pcns/${pcn.id}/cancellation-requests`, {
      token: landowner.token,
      json: { reason: 'Our caretaker' },
    });
    expect(asked.status, asked.text).toBe(201);
    const approved = await t.request('POST', `/pcns/${pcn.id}/cancellation-requests/${asked.json.data.id}/decision`, {
      token: admin.token,
      json: { decision: 'APPROVED', reason: 'Caretaker on the staff list' },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(await stored(pcn.id)).toEqual({
      status: 'CANCELLED',
      cancellation_reason: 'LANDOWNER_REQUEST',
      cancellation_note: 'Our caretaker',
    });
  });
});

describe('Manage PCNs by cancellation reason', () => {
  it('lists, counts and exports only the charges cancelled for the reason; an admin filter only', async () => {
    const list = async (reason: string) => {
      const res = await t.request('GET', `/pcns?scope=all&page=1&limit=100&cancellationReason=${reason}`, { token: admin.token });
      expect(res.status, res.text).toBe(200);
      return res.json.data as PcnListResponse;
    };
    const expected = await t.db.selectFrom('pcns').select('id').where('cancellation_reason', '=', 'PERMIT_HOLDER').execute();
    const permitHolders = await list('PERMIT_HOLDER');
    expect(permitHolders.pcns.map((pcn) => pcn.id).sort()).toEqual(expected.map((row) => row.id).sort());
    expect(permitHolders.pagination.total).toBe(2);
    expect(permitHolders.pcns.every((pcn) => pcn.cancellationReason === 'PERMIT_HOLDER')).toBe(true);
    expect((await list('LANDOWNER_REQUEST')).pcns.map((pcn) => pcn.cancellationReason)).toEqual(['LANDOWNER_REQUEST']);

    const selection = await t.request('GET', '/pcns/selection?scope=all&cancellationReason=PERMIT_HOLDER', { token: admin.token });
    expect(selection.json.data.items.map((item: { id: string }) => item.id).sort()).toEqual(expected.map((row) => row.id).sort());

    const bad = await t.request('GET', '/pcns?scope=all&cancellationReason=BORED', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.json.details).toEqual({ cancellationReason: 'Choose a cancellation reason' });
    expect((await t.request('GET', '/pcns?cancellationReason=DUPLICATE', { token: officer.token })).status).toBe(403);
  });

  it("lists the charges a landowner's request waits on, and drops one once it is decided", async () => {
    const pcn = await file();
    const asked = await t.request('POST', `/pcns/${pcn.id}/cancellation-requests`, {
      token: landowner.token,
      json: { reason: 'Delivery driver' },
    });
    expect(asked.status).toBe(201);
    const waiting = async () => {
      const res = await t.request('GET', '/pcns?scope=all&page=1&limit=100&cancellationRequest=PENDING', { token: admin.token });
      expect(res.status, res.text).toBe(200);
      return (res.json.data as PcnListResponse).pcns.map((row) => row.id);
    };
    expect(await waiting()).toEqual([pcn.id]);
    await t.request('POST', `/pcns/${pcn.id}/cancellation-requests/${asked.json.data.id}/decision`, {
      token: admin.token,
      json: { decision: 'DECLINED', reason: 'No delivery booked' },
    });
    expect(await waiting()).toEqual([]);
    expect((await t.request('GET', '/pcns?cancellationRequest=PENDING', { token: officer.token })).status).toBe(403);
  });
});
