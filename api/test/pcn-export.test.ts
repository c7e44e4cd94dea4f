import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PCN_SORT_KEYS, pcnTitle, SORT_ORDERS, type Pcn } from '@parkpatrol/shared';
import { streamPcnRows } from '../src/repositories/pcn-list.ts';
import { createPcnViaApi, insertPcnsDirectly, jpegUpload } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

// Manage PCNs' 'Export CSV' against the list API it must equal.

let t: TestApp;
let admin: Session;
let officer: Session;
let carParkId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedInUser('ADMIN');
  officer = await t.signedInUser('USER', { firstName: 'Olive', lastName: 'Owner' });
  carParkId = (await t.createCarPark({ name: 'North Lot', assignTo: [officer.id] })).id;
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  // 230 PCNs: more than two export batches of the smallest size tried below, one list page of 100.
  await insertPcnsDirectly(t, 230, (i) => ({
    createdBy: officer.id,
    carParkId,
    vehicleRegistration: i % 2 === 0 ? `EV${String(i).padStart(3, '0')}EN` : `OD${String(i).padStart(3, '0')}DD`,
    status: i % 3 === 0 ? 'UNDER_REVIEW' : 'SUBMITTED',
    // Pairs share a timestamp: the order must break ties the way the list does.
    createdAt: new Date(base + Math.floor(i / 2) * 60_000).toISOString(),
  }));
  // Another officer and car park, older, so the officer, car park and deadline sorts have more than one value.
  const bob = await t.createUser({ firstName: 'Bob', lastName: 'Baker' });
  const eastYard = (await t.createCarPark({ name: 'East Yard' })).id;
  const older = await insertPcnsDirectly(t, 30, (i) => ({
    createdBy: bob.id,
    carParkId: eastYard,
    vehicleRegistration: `XY${String(i % 4).padStart(2, '0')}ZZZ`,
    status: i % 2 === 0 ? 'SUBMITTED' : 'APPROVED',
    createdAt: new Date(Date.parse('2025-06-01T00:00:00.000Z') + Math.floor(i / 3) * 60_000).toISOString(),
  }));
  for (const [i, { id }] of older.entries()) {
    if (i % 3 === 0)
      await t.db
        .updateTable('pcns')
        .set({
          observed_at: new Date(Date.parse('2026-01-01T00:30:00.000Z') + i * 60_000).toISOString(),
          offence_type: 'PARKING_WITHOUT_PERMIT',
        })
        .where('id', '=', id)
        .execute();
  }
});
afterAll(() => t.close());

async function listAll(query: string): Promise<Pcn[]> {
  const pcns: Pcn[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request('GET', `/pcns?scope=all&limit=100&page=${page}&${query}`, { token: admin.token });
    expect(res.status).toBe(200);
    pcns.push(...(res.json.data.pcns as Pcn[]));
    if (page >= res.json.data.pagination.pages) return pcns;
  }
}

async function exportCsv(query: string): Promise<Array<Record<string, string>>> {
  const res = await t.request('GET', `/pcns/export.csv?${query}`, { token: admin.token });
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="pcns-[a-z0-9-]*\d{4}-\d{2}-\d{2}\.csv"$/);
  const raw = await t.app.request(`/api/pcns/export.csv?${query}`, { headers: { authorization: `Bearer ${admin.token}` } });
  expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)], 'a UTF-8 byte order mark first').toEqual([0xef, 0xbb, 0xbf]);
  return parse(res.text, { columns: true, bom: true }) as Array<Record<string, string>>;
}

describe('GET /pcns/export.csv', () => {
  it('is the filtered, sorted list over every page, with a header row and ISO times', async () => {
    for (const query of ['status=UNDER_REVIEW', 'search=ev0', '', 'sort=deadline']) {
      const listed = await listAll(query);
      const rows = await exportCsv(query);
      expect(
        rows.map((row) => row['PCN number']),
        query,
      ).toEqual(listed.map((pcn) => pcnTitle(pcn.pcnNumber)));
    }
    const [first] = await exportCsv('status=UNDER_REVIEW');
    const [listedFirst] = await listAll('status=UNDER_REVIEW');
    expect(first).toMatchObject({
      Status: 'Under Review',
      'Vehicle registration': listedFirst!.vehicleRegistration,
      'Car park': 'North Lot',
      'Filed by': 'Olive Owner',
      'Officer email': officer.email,
      Photos: '0',
    });
    // The UK clock, day first, as a UK spreadsheet reads it: the same instant as the list's UTC time.
    const ukClock = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    expect(first!.Submitted).toBe(ukClock.format(new Date(listedFirst!.createdAt)).replace(',', ''));
  });

  it('opens in a spreadsheet as the operator reads it: UK times with their offset, photos, the officer’s email, the keeper deadline, a name saying the filter', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: 'CA11FE',
      images: [jpegUpload(1), jpegUpload(2), jpegUpload(3)],
    });
    const summer = '2026-06-01T09:00:00.000Z';
    await t.db
      .updateTable('pcns')
      .set({ observed_at: summer, keeper_post_by: '2026-07-14', description: 'Café' })
      .where('id', '=', pcn.id)
      .execute();
    const res = await t.request('GET', `/pcns/export.csv?search=${pcn.pcnNumber}&carParkId=${carParkId}&status=SUBMITTED`, {
      token: admin.token,
    });
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="pcns-submitted-north-lot-search-${pcn.pcnNumber.toLowerCase()}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const [row] = parse(res.text, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(row).toMatchObject({
      'First seen': '01/06/2026 10:00:00',
      Photos: '3',
      'Officer email': officer.email,
      'Keeper notice post by': '14/07/2026',
      Description: 'Café',
    });
  });

  it('reads the database a batch at a time after the last row, in the list’s order', async () => {
    const listed = (await listAll('')).map((pcn) => pcn.id);
    const streamed: string[] = [];
    for await (const row of streamPcnRows(t.db, {}, 7)) streamed.push(row.id);
    expect(streamed).toEqual(listed);
    const deadline: string[] = [];
    for await (const row of streamPcnRows(t.db, { sort: 'deadline' }, 7)) deadline.push(row.id);
    expect(deadline).toEqual((await listAll('sort=deadline')).map((pcn) => pcn.id));
  });

  it('is the list in every sort and order, filtered, over every page', async () => {
    for (const sort of PCN_SORT_KEYS) {
      for (const order of SORT_ORDERS) {
        for (const filter of ['status=SUBMITTED', 'search=XY0']) {
          const query = `${filter}&sort=${sort}&order=${order}`;
          const listed = await listAll(query);
          expect(listed.length, query).toBeGreaterThan(0);
          const rows = await exportCsv(query);
          expect(
            rows.map((row) => row['PCN number']),
            query,
          ).toEqual(listed.map((pcn) => pcnTitle(pcn.pcnNumber)));
        }
        // Batches of 7 end inside runs of equal sort values: the keyset must carry on after the right row.
        const streamed: string[] = [];
        for await (const row of streamPcnRows(t.db, { sort, order }, 7)) streamed.push(row.id);
        expect(streamed, `${sort} ${order}`).toEqual((await listAll(`sort=${sort}&order=${order}`)).map((pcn) => pcn.id));
      }
    }
  });

  it('says why a cancelled charge was cancelled, and is filtered by that reason as the list is', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, { vehicleRegistration: 'CX01DUP' });
    const cancelled = await t.request('PATCH', `/pcns/${pcn.id}/status`, {
      token: admin.token,
      json: { status: 'CANCELLED', cancellationReason: 'OTHER', cancellationNote: 'Filed at the wrong site' },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    const rows = await exportCsv('cancellationReason=OTHER');
    expect(rows.map((row) => row['PCN number'])).toEqual(
      (await listAll('cancellationReason=OTHER')).map((each) => pcnTitle(each.pcnNumber)),
    );
    expect(rows.find((row) => row['PCN number'] === pcnTitle(pcn.pcnNumber))).toMatchObject({
      Status: 'Cancelled',
      'Cancellation reason': 'Other',
      'Cancellation note': 'Filed at the wrong site',
    });
    // A charge not cancelled has the two cells empty.
    const [open] = await exportCsv('status=UNDER_REVIEW');
    expect(open).toMatchObject({ 'Cancellation reason': '', 'Cancellation note': '' });
  });

  it('escapes a cell that a spreadsheet would run as a formula', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: 'FX01MLA',
      description: '=HYPERLINK("http://evil.example","x")',
      location: '@SUM(A1)',
    });
    const res = await t.request('GET', `/pcns/export.csv?search=${pcn.pcnNumber}`, { token: admin.token });
    expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    const [row] = parse(res.text, { columns: true }) as Array<Record<string, string>>;
    expect(row!.Description).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(row!.Location).toBe(`'@SUM(A1)`);
  });

  it('is for admins only', async () => {
    expect((await t.request('GET', '/pcns/export.csv', { token: officer.token })).status).toBe(403);
    expect((await t.request('GET', '/pcns/export.csv')).status).toBe(401);
  });
});

describe('GET /users/export.csv', () => {
  it('is the filtered user list, every page, newest first, with their car parks', async () => {
    for (let i = 0; i < 3; i++) await t.createUser({ firstName: `Ex${i}`, lastName: 'Porter', email: `ex${i}.porter@example.com` });
    const listed: Array<{ email: string }> = [];
    for (let page = 1; ; page++) {
      const res = await t.request('GET', `/users?search=porter&limit=2&page=${page}`, { token: admin.token });
      listed.push(...(res.json.data.users as Array<{ email: string }>));
      if (page >= res.json.data.pagination.pages) break;
    }
    const res = await t.request('GET', '/users/export.csv?search=porter', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="users-search-porter-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parse(res.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.Email)).toEqual(listed.map((user) => user.email));
    expect(rows).toHaveLength(3);
    const all = parse((await t.request('GET', '/users/export.csv?search=olive', { token: admin.token })).text, { columns: true }) as Array<
      Record<string, string>
    >;
    expect(all[0]).toMatchObject({ 'First name': 'Olive', Role: 'User', Status: 'Active', 'Car parks': 'North Lot' });
    // Times on the UK clock, day first, as the other exports write them.
    expect(all[0]!.Created).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect((await t.request('GET', '/users/export.csv', { token: officer.token })).status).toBe(403);
  });
});
