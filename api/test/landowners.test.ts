import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  monthlyReportLines,
  poundsCell,
  type CancellationRequest,
  type LandownerChargeListResponse,
  type MonthlyReport,
  type Pcn,
  type PermitKind,
} from '@parkpatrol/shared';
import { createPcnViaApi, type NewPcn } from './fixtures.ts';
import { enterAppeal, enteredAppealForm } from './support/appeals.ts';
import { LETTER_CAR_PARK_TERMS, LETTER_KEEPER, termsSinceLongAgo } from './support/keeper-notices.ts';
import { readPdfText } from './support/pdf.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * Landowners (decision 0042): invited like officers, signed in to their own screens only; their
 * car parks' charges without the motorist; cancellation requests an admin approves or declines;
 * the monthly report as figures, CSV and PDF that agree with the notices.
 */

const NOW = Date.parse('2026-03-20T12:00:00.000Z');

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signedInUser']>>;
let officer: Awaited<ReturnType<TestApp['signedInUser']>>;
let landowner: { id: string; email: string; token: string };
let otherLandowner: Awaited<ReturnType<TestApp['signedInUser']>>;
let carParkId: string;
let otherCarParkId: string;

/** A notice issued (and fixed to the windscreen) at `at`, filed by the officer. */
function issuedAt(at: string, carPark = carParkId): Promise<NewPcn> {
  return createPcnViaApi(t, officer.token, carPark, {
    vehicleRegistration: `LO${randomUUID().slice(0, 5).toUpperCase()}`,
    observedAt: at,
    issuedAt: at,
    noticeServedAt: at,
  });
}

async function moveTo(id: string, statuses: string[]): Promise<void> {
  for (const status of statuses) {
    const moved = await t.request('PATCH', `/pcns/${id}/status`, { token: admin.token, json: { status } });
    expect(moved.status, moved.text).toBe(200);
  }
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.frozenAtMs = NOW;
  admin = await t.signedInUser('ADMIN');
  officer = await t.signedInUser('USER');
  otherLandowner = await t.signedInUser('LANDOWNER');
  carParkId = (await t.createCarPark({ name: 'Riverside Offices', siteCode: 'RIV1', assignTo: [officer.id] })).id;
  otherCarParkId = (await t.createCarPark({ name: 'Hilltop Retail', assignTo: [officer.id, otherLandowner.id] })).id;
  await termsSinceLongAgo(t, carParkId);
});
afterAll(async () => {
  await t.close();
});

describe('a landowner through onboarding and sign-in', () => {
  it('is invited by an admin with car parks, follows the emailed link, sets a password and signs in to their own screens only', async () => {
    const email = `landowner-${randomUUID().slice(0, 6)}@example.com`;
    const created = await t.request('POST', '/users', {
      token: admin.token,
      json: { email, firstName: 'Lena', lastName: 'Land', role: 'LANDOWNER', carParkIds: [carParkId] },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id as string;
    expect(created.json.data.role).toBe('LANDOWNER');

    expect((await t.request('POST', `/onboarding/send/${id}`, { token: admin.token, json: {} })).status).toBe(200);
    const mail = await t.latestMailText(email, 'onboarding');
    expect(mail).toContain('Role:  Landowner');
    expect(mail).toContain('Ask for a charge to be cancelled');
    expect(mail).toContain('Riverside Offices (RIV1)');
    const token = /\/u\/([A-Za-z0-9_-]+)/.exec(mail)?.[1];
    expect(token).toBeTruthy();
    const opened = await t.request('POST', '/auth/access-link', { json: { token } });
    expect(opened.status, opened.text).toBe(200);
    const password = 'landowner-password-1';
    const set = await t.request('PUT', '/users/profile', { token: opened.json.data.token, json: { newPassword: password } });
    expect(set.status, set.text).toBe(200);

    const session = await t.login(email, password);
    expect(session.user.role).toBe('LANDOWNER');
    landowner = { id, email, token: session.token };
    const carParks = await t.request('GET', '/car-parks', { token: landowner.token });
    expect(carParks.json.data.map((c: { id: string }) => c.id)).toEqual([carParkId]);

    // Nothing an officer or an admin does: filing, the officer's list, Manage PCNs, users, settings.
    for (const [method, path] of [
      ['GET', '/pcns?page=1&limit=10'],
      ['GET', '/pcns/stats'],
      ['GET', '/pcns?scope=all'],
      ['GET', '/users'],
      ['GET', '/appeals'],
      ['GET', '/settings/notice-terms'],
      ['GET', '/observations'],
      ['GET', '/analytics/money'],
    ] as const) {
      const refused = await t.request(method, path, { token: landowner.token });
      expect(refused.status, `${method} ${path}`).toBe(403);
    }
    const filed = await createPcnViaApi(t, landowner.token, carParkId).catch((error: Error) => error.message);
    expect(filed).toContain('403');
  });
});

describe("a landowner's charges", () => {
  it("lists their car park's charges without the motorist, and another landowner's car park is a 404", async () => {
    const pcn = await issuedAt('2026-03-03T09:00:00.000Z');
    await moveTo(pcn.id, ['UNDER_REVIEW', 'APPROVED']);
    expect((await t.request('PUT', `/pcns/${pcn.id}/keeper`, { token: admin.token, json: LETTER_KEEPER })).status).toBe(200);
    const appeal = await enterAppeal(t, admin.token, enteredAppealForm({ pcnId: pcn.id, receivedOn: '2026-03-05', name: 'Dana Driver' }));
    expect(appeal.status, appeal.text).toBe(201);

    const res = await t.request('GET', `/car-parks/${carParkId}/charges?page=1&limit=50`, { token: landowner.token });
    expect(res.status, res.text).toBe(200);
    const list = res.json.data as LandownerChargeListResponse;
    const row = list.charges.find((charge) => charge.id === pcn.id)!;
    expect(row).toMatchObject({ pcnNumber: pcn.pcnNumber, status: 'APPROVED', appealStatus: 'OPEN', cancellationRequest: null });
    // Not a word of the keeper or the appellant anywhere in the answer.
    for (const personal of [
      'Kira',
      'Keeper',
      'Acacia',
      'Dana',
      'dana@example.com',
      'Mill Lane',
      'keeper',
      'appellant',
      'hirer',
      'namedDriver',
    ]) {
      expect(res.text).not.toContain(personal);
    }
    // The full notice (with its keeper) stays an admin's and its officer's.
    expect((await t.request('GET', `/pcns/${pcn.id}`, { token: landowner.token })).status).toBe(403);
    expect((await t.request('GET', `/pcns/${pcn.id}/audit`, { token: landowner.token })).status).toBe(403);

    for (const path of [`/car-parks/${otherCarParkId}/charges`, `/car-parks/${otherCarParkId}/reports/monthly?month=2026-03`]) {
      const hidden = await t.request('GET', path, { token: landowner.token });
      expect(hidden.status, path).toBe(404);
      expect(hidden.json.code).toBe('NOT_FOUND');
    }
    expect((await t.request('GET', `/car-parks/${carParkId}/charges`, { token: otherLandowner.token })).status).toBe(404);
    expect((await t.request('GET', `/car-parks/${carParkId}/charges`, { token: officer.token })).status).toBe(403);
  });
});

describe('cancellation requests', () => {
  it('approved: the charge is CANCELLED with LANDOWNER_REQUEST, the request and the decision audited', async () => {
    const pcn = await issuedAt('2026-03-06T10:00:00.000Z');
    const path = `/pcns/${pcn.id}/cancellation-requests`;
    const empty = await t.request('POST', path, { token: landowner.token, json: { reason: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.json.details).toEqual({ reason: 'Say why the charge should be cancelled' });
    expect((await t.request('POST', path, { token: otherLandowner.token, json: { reason: 'Mine' } })).status).toBe(404);
    expect((await t.request('POST', path, { token: admin.token, json: { reason: 'Admin' } })).status).toBe(403);

    const asked = await t.request('POST', path, { token: landowner.token, json: { reason: 'Our new tenant; permit not yet listed' } });
    expect(asked.status, asked.text).toBe(201);
    const request = asked.json.data as CancellationRequest;
    expect(request).toMatchObject({ status: 'PENDING', requestedByName: 'Lena Land', reason: 'Our new tenant; permit not yet listed' });
    const again = await t.request('POST', path, { token: landowner.token, json: { reason: 'Again' } });
    expect(again.status).toBe(409);

    const review = await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token });
    expect((review.json.data as Pcn).cancellationRequests).toEqual([request]);

    const decisionPath = `${path}/${request.id}/decision`;
    expect((await t.request('POST', decisionPath, { token: landowner.token, json: { decision: 'APPROVED', reason: 'x' } })).status).toBe(
      403,
    );
    const noReason = await t.request('POST', decisionPath, { token: admin.token, json: { decision: 'APPROVED', reason: '' } });
    expect(noReason.json.details).toEqual({ reason: 'Give the reason for your decision' });
    const approved = await t.request('POST', decisionPath, {
      token: admin.token,
      json: { decision: 'APPROVED', reason: 'Tenant confirmed' },
    });
    expect(approved.status, approved.text).toBe(200);
    const cancelled = approved.json.data as Pcn;
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancellationReason: 'LANDOWNER_REQUEST', cancellationNote: request.reason });
    expect(cancelled.cancellationRequests![0]).toMatchObject({
      status: 'APPROVED',
      decisionReason: 'Tenant confirmed',
      decidedAt: new Date(NOW).toISOString(),
    });
    const twice = await t.request('POST', decisionPath, { token: admin.token, json: { decision: 'DECLINED', reason: 'Changed my mind' } });
    expect(twice.status).toBe(409);

    const audit = await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token });
    const actions = (audit.json.data.entries as Array<{ action: string; changes: Record<string, { to: unknown }> }>).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['cancellation_requested', 'cancellation_request_decided', 'status_changed']));
    const statusEntry = audit.json.data.entries.find((e: { action: string }) => e.action === 'status_changed');
    expect(statusEntry.changes.cancellationReason.to).toBe('LANDOWNER_REQUEST');

    const listed = await t.request('GET', `/car-parks/${carParkId}/charges?page=1&limit=50`, { token: landowner.token });
    const row = (listed.json.data as LandownerChargeListResponse).charges.find((c) => c.id === pcn.id)!;
    expect(row).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'LANDOWNER_REQUEST',
      cancellationRequest: { status: 'APPROVED' },
    });
    // A cancelled charge takes no more requests.
    expect((await t.request('POST', path, { token: landowner.token, json: { reason: 'More' } })).status).toBe(409);
  });

  it('declined: the charge stands, the landowner sees the reason', async () => {
    const pcn = await issuedAt('2026-03-07T10:00:00.000Z');
    const asked = await t.request('POST', `/pcns/${pcn.id}/cancellation-requests`, {
      token: landowner.token,
      json: { reason: 'Visitor of ours' },
    });
    const request = asked.json.data as CancellationRequest;
    const declined = await t.request('POST', `/pcns/${pcn.id}/cancellation-requests/${request.id}/decision`, {
      token: admin.token,
      json: { decision: 'DECLINED', reason: 'Parked across the fire exit' },
    });
    expect(declined.status, declined.text).toBe(200);
    expect(declined.json.data).toMatchObject({ status: 'SUBMITTED', cancellationReason: null });
    const listed = await t.request('GET', `/car-parks/${carParkId}/charges?page=1&limit=50`, { token: landowner.token });
    const row = (listed.json.data as LandownerChargeListResponse).charges.find((c) => c.id === pcn.id)!;
    expect(row.cancellationRequest).toMatchObject({ status: 'DECLINED', decisionReason: 'Parked across the fire exit' });
  });
});

describe('the monthly report', () => {
  it("counts a month's notices as they stand, and the CSV and the PDF hold the same figures", async () => {
    const car = await t.createCarPark({ name: 'Quayside Flats', siteCode: 'QUAY', assignTo: [officer.id, landowner.id] });
    await termsSinceLongAgo(t, car.id);
    const at = (day: string) => issuedAt(day, car.id);
    // Outside March (UK time): 23:30 GMT on 28 February; inside: ten past midnight on 1 March.
    await at('2026-02-28T23:30:00.000Z');
    const paid = await at('2026-03-01T00:10:00.000Z');
    const errorCancelled = await at('2026-03-02T09:00:00.000Z');
    const landownerCancelled = await at('2026-03-04T09:00:00.000Z');
    const owing = await at('2026-03-10T09:00:00.000Z');
    const appealed = await at('2026-03-12T09:00:00.000Z');
    const duplicate = await at('2026-03-13T09:00:00.000Z');

    for (const pcn of [paid, owing, appealed]) await moveTo(pcn.id, ['UNDER_REVIEW', 'APPROVED', 'ISSUED']);
    const payment = await t.request('POST', `/pcns/${paid.id}/payments`, {
      token: admin.token,
      headers: { 'idempotency-key': randomUUID() },
      json: { amountPence: LETTER_CAR_PARK_TERMS.reducedChargePence, paidOn: '2026-03-15', method: 'CHEQUE', reference: 'CHQ 1' },
    });
    expect(payment.status, payment.text).toBe(200);
    const cancel = (id: string, json: object) =>
      t.request('PATCH', `/pcns/${id}/status`, { token: admin.token, json: { status: 'CANCELLED', ...json } });
    expect((await cancel(errorCancelled.id, { cancellationReason: 'OPERATOR_ERROR' })).status).toBe(200);
    expect((await cancel(duplicate.id, { cancellationReason: 'DUPLICATE' })).status).toBe(200);
    const asked = await t.request('POST', `/pcns/${landownerCancelled.id}/cancellation-requests`, {
      token: landowner.token,
      json: { reason: 'Staff car' },
    });
    await t.request('POST', `/pcns/${landownerCancelled.id}/cancellation-requests/${asked.json.data.id}/decision`, {
      token: admin.token,
      json: { decision: 'APPROVED', reason: 'Staff list checked' },
    });
    const appeal = await enterAppeal(t, admin.token, enteredAppealForm({ pcnId: appealed.id, receivedOn: '2026-03-14' }));
    expect(appeal.status, appeal.text).toBe(201);

    const permit = async (kind: PermitKind, validFrom: string, validUntil: string | null, endedAt: string | null = null) =>
      t.db
        .insertInto('permits')
        .values({
          id: randomUUID(),
          car_park_id: car.id,
          vehicle_registration: `PM${randomUUID().slice(0, 5).toUpperCase()}`,
          kind,
          valid_from: validFrom,
          valid_until: validUntil,
          note: '',
          source: 'STAFF_ENTRY',
          created_by: null,
          created_by_name: 'Test set-up',
          created_at: validFrom,
          updated_at: endedAt ?? validFrom,
          ended_at: endedAt,
          ended_by_name: endedAt ? 'Test set-up' : null,
        })
        .execute();
    await permit('STAFF', '2026-01-01T00:00:00.000Z', null);
    await permit('STAFF', '2026-03-01T00:00:00.000Z', '2026-12-31T23:59:59.000Z');
    await permit('VISITOR', '2026-03-20T08:00:00.000Z', '2026-03-20T23:59:59.000Z');
    await permit('RESIDENT', '2026-01-01T00:00:00.000Z', null, '2026-03-10T00:00:00.000Z'); // ended
    await permit('CONTRACTOR', '2026-02-01T00:00:00.000Z', '2026-03-19T00:00:00.000Z'); // expired
    await permit('VISITOR', '2026-03-25T00:00:00.000Z', null); // not yet

    const res = await t.request('GET', `/car-parks/${car.id}/reports/monthly?month=2026-03`, { token: landowner.token });
    expect(res.status, res.text).toBe(200);
    const report = res.json.data as MonthlyReport;
    // Paid within the 14 days at the reduced amount; the owing one too: its notice to driver was 10 days ago, within the 14 days it is offered.
    expect(report).toEqual({
      carPark: { id: car.id, name: 'Quayside Flats', siteCode: 'QUAY' },
      month: '2026-03',
      permitsCountedAt: new Date(NOW).toISOString(),
      issued: 6,
      cancelled: {
        total: 3,
        byReason: [
          { reason: 'OPERATOR_ERROR', count: 1 },
          { reason: 'LANDOWNER_REQUEST', count: 1 },
          { reason: 'DUPLICATE', count: 1 },
        ],
      },
      appeals: { total: 1, byStatus: [{ status: 'OPEN', count: 1 }] },
      paid: { count: 1, receivedPence: LETTER_CAR_PARK_TERMS.reducedChargePence },
      outstanding: { count: 1, duePence: LETTER_CAR_PARK_TERMS.reducedChargePence },
      permitsInForce: {
        total: 3,
        byKind: [
          { kind: 'STAFF', count: 2 },
          { kind: 'VISITOR', count: 1 },
        ],
      },
    });
    // The notices themselves agree: six in March at this car park, as the charges list shows them.
    const charges = await t.request('GET', `/car-parks/${car.id}/charges?page=1&limit=50`, { token: landowner.token });
    const inMarch = (charges.json.data as LandownerChargeListResponse).charges.filter((c) => c.issuedAt >= '2026-03-01T00:00:00.000Z');
    expect(inMarch).toHaveLength(report.issued);
    expect(inMarch.filter((c) => c.status === 'CANCELLED')).toHaveLength(report.cancelled.total);

    // February holds the one before midnight; the admin reads the same report.
    const february = await t.request('GET', `/car-parks/${car.id}/reports/monthly?month=2026-02`, { token: admin.token });
    expect(february.json.data.issued).toBe(1);
    const badMonth = await t.request('GET', `/car-parks/${car.id}/reports/monthly?month=2026-13`, { token: landowner.token });
    expect(badMonth.status).toBe(400);
    expect(badMonth.json.details).toEqual({ month: 'Choose a month like 2026-11' });

    const csv = await t.request('GET', `/car-parks/${car.id}/reports/monthly.csv?month=2026-03`, { token: landowner.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('monthly-report-quay-2026-03.csv');
    const rows = csv.text.trim().split(/\r?\n/);
    expect(rows[0]).toBe('Car park,Month,Figure,Breakdown,Count,Amount (£)');
    expect(rows.slice(1).map(csvCells)).toEqual(
      monthlyReportLines(report).map((line) => [
        'Quayside Flats',
        '2026-03',
        line.section,
        line.item,
        String(line.count),
        line.pence === null ? '' : poundsCell(line.pence),
      ]),
    );
    expect(rows).toContain('Quayside Flats,2026-03,Cancelled,Landowner request,1,');
    expect(rows).toContain('Quayside Flats,2026-03,Paid,"Received, less refunds",1,60.00');

    const pdf = await fetchBytes(`/car-parks/${car.id}/reports/monthly.pdf?month=2026-03`, landowner.token);
    const { flat } = await readPdfText(pdf);
    expect(flat).toContain('Quayside Flats: monthly report, March 2026');
    expect(flat).toContain('Notices issued');
    expect(flat).toContain('Landowner request');
    expect(flat).toContain('Operator error');
    expect(flat).toContain('Awaiting a decision');
    expect(flat).toContain('1 (£60)');
    expect(flat).not.toContain('Kira');
  });
});

/** One CSV line's cells, quotes undone. */
function csvCells(line: string): string[] {
  return [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((match) => {
    const cell = match[1]!;
    return cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
  });
}

async function fetchBytes(path: string, token: string): Promise<Uint8Array> {
  const res = await t.app.request(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  return new Uint8Array(await res.arrayBuffer());
}
