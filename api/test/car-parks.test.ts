import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECTOR_LIMIT_MESSAGES, SERVER_MESSAGES, SUCCESS_MESSAGES, type CarPark } from '@parkpatrol/shared';
import { createTestApp, type TestApp } from './test-app.ts';

type Actor = Awaited<ReturnType<TestApp['signedInUser']>>;

let t: TestApp;
let superAdmin: Actor;
let admin: Actor;
let officer: Actor;

beforeAll(async () => {
  t = await createTestApp();
  superAdmin = await t.signedInUser('SUPER_ADMIN');
  admin = await t.signedInUser('ADMIN');
  officer = await t.signedInUser('USER', { firstName: 'Olivia', lastName: 'Officer' });
});
afterAll(() => t.close());

const ids = (list: Array<{ id: string }>) => list.map((item) => item.id);
const uniqueCode = () => `T${randomUUID().slice(0, 6).toUpperCase()}`;

async function insertPcnAt(carParkId: string): Promise<void> {
  const stamp = new Date().toISOString();
  const sequence = Math.floor(Math.random() * 1e9);
  await t.db
    .insertInto('pcns')
    .values({
      id: randomUUID(),
      sequence,
      pcn_number: String(sequence).padStart(8, '0'),
      vehicle_registration: 'AB12CDE',
      car_park_id: carParkId,
      offence_type: 'OTHER',
      description: '',
      location: 'Bay 1',
      status: 'SUBMITTED',
      admin_notes: null,
      observed_at: null,
      created_by: officer.id,
      idempotency_key: null,
      request_hash: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
}

describe('GET /car-parks', () => {
  it('refuses anonymous callers with 401', async () => {
    expect((await t.request('GET', '/car-parks')).status).toBe(401);
  });

  it('gives a USER only their assigned, active car parks as a plain array', async () => {
    const mine = await t.createCarPark({ name: 'Mine', assignTo: [officer.id] });
    const closed = await t.createCarPark({ name: 'Closed', isActive: false, assignTo: [officer.id] });
    const notMine = await t.createCarPark({ name: 'Not Mine' });

    const res = await t.request('GET', '/car-parks', { token: officer.token });

    expect(res.status).toBe(200);
    expect(Array.isArray(res.json.data)).toBe(true);
    expect(ids(res.json.data)).toContain(mine.id);
    expect(ids(res.json.data)).not.toContain(closed.id);
    expect(ids(res.json.data)).not.toContain(notMine.id);
    expect(res.json.data.find((p: { id: string }) => p.id === mine.id)).toMatchObject({
      id: mine.id,
      name: 'Mine',
      siteCode: expect.any(String),
      address: '1 Test Street',
      postcode: 'AB1 2CD',
      isActive: true,
      considerationMinutes: 5,
      graceMinutes: 10,
    });
  });

  it('gives admins every active car park', async () => {
    const open = await t.createCarPark({ name: 'Open To Admins' });
    const closed = await t.createCarPark({ name: 'Closed To Admins', isActive: false });
    for (const actor of [admin, superAdmin]) {
      const res = await t.request('GET', '/car-parks', { token: actor.token });
      expect(res.status).toBe(200);
      expect(ids(res.json.data)).toContain(open.id);
      expect(ids(res.json.data)).not.toContain(closed.id);
    }
  });
});

describe('GET /car-parks/all', () => {
  it('answers 401 to anonymous callers and 403 to a USER', async () => {
    expect((await t.request('GET', '/car-parks/all')).status).toBe(401);
    expect((await t.request('GET', '/car-parks/all', { token: officer.token })).status).toBe(403);
  });

  it('lists car parks, active or not, paginated and with assigned users', async () => {
    const assigned = await t.createCarPark({ name: 'AAA Listed With Officer', isActive: false, assignTo: [officer.id] });
    const res = await t.request('GET', '/car-parks/all?limit=100', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.json.data.pagination).toMatchObject({ page: 1, limit: 100 });
    const found = res.json.data.carParks.find((p: { id: string }) => p.id === assigned.id);
    expect(found.assignedUsers).toEqual([{ id: officer.id, firstName: 'Olivia', lastName: 'Officer', email: officer.email, role: 'USER' }]);

    const firstPage = await t.request('GET', '/car-parks/all?limit=1', { token: superAdmin.token });
    expect(firstPage.json.data.carParks).toHaveLength(1);
    expect(firstPage.json.data.pagination.pages).toBe(firstPage.json.data.pagination.total);
  });

  it('searches by name or site code and filters by the active flag', async () => {
    const code = uniqueCode();
    const wanted = await t.createCarPark({ name: 'Harbourside Multistorey', siteCode: code });
    const byName = await t.request('GET', '/car-parks/all?search=harbourside', { token: admin.token });
    expect(ids(byName.json.data.carParks)).toEqual([wanted.id]);
    const byCode = await t.request('GET', `/car-parks/all?search=${code.toLowerCase()}`, { token: admin.token });
    expect(ids(byCode.json.data.carParks)).toEqual([wanted.id]);
    const inactive = await t.request('GET', '/car-parks/all?isActive=false&limit=100', { token: admin.token });
    expect(inactive.json.data.carParks.every((p: { isActive: boolean }) => !p.isActive)).toBe(true);
  });

  it('refuses a bad query with 400', async () => {
    expect((await t.request('GET', '/car-parks/all?limit=0', { token: admin.token })).status).toBe(400);
    expect((await t.request('GET', '/car-parks/all?page=abc', { token: admin.token })).status).toBe(400);
  });
});

describe('POST /car-parks', () => {
  const input = (overrides: Record<string, unknown> = {}) => ({
    name: 'Quayside',
    siteCode: uniqueCode().toLowerCase(),
    address: '3 Quay St',
    postcode: 'ne1 3aa',
    ...overrides,
  });

  it('answers 401 to anonymous callers and 403 to a USER', async () => {
    expect((await t.request('POST', '/car-parks', { json: input() })).status).toBe(401);
    expect((await t.request('POST', '/car-parks', { token: officer.token, json: input() })).status).toBe(403);
  });

  it('lets an ADMIN create a car park, with site code and postcode upper-cased and defaults filled', async () => {
    const body = input();
    const res = await t.request('POST', '/car-parks', { token: admin.token, json: body });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      id: expect.any(String),
      name: 'Quayside',
      siteCode: body.siteCode.toUpperCase(),
      postcode: 'NE1 3AA',
      isActive: true,
      considerationMinutes: 5,
      graceMinutes: 10,
      assignedUsers: [],
    });
  });

  it('refuses a site code already in use with 409', async () => {
    const code = uniqueCode();
    await t.createCarPark({ siteCode: code });
    const res = await t.request('POST', '/car-parks', { token: superAdmin.token, json: input({ siteCode: code.toLowerCase() }) });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ code: 'CONFLICT', message: SERVER_MESSAGES.siteCodeTaken });
  });

  it('refuses bad input with 400 and field details', async () => {
    const res = await t.request('POST', '/car-parks', { token: admin.token, json: { graceMinutes: 'ten' } });
    expect(res.status).toBe(400);
    expect(res.json.details).toHaveProperty('name');
    expect(res.json.details).toHaveProperty('siteCode');
    expect(res.json.details).toHaveProperty('graceMinutes');
    const malformed = await t.request('POST', '/car-parks', {
      token: admin.token,
      body: 'nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });
});

describe('PUT /car-parks/{id}', () => {
  it('answers 401, 403 to a USER, and 404 for an unknown id', async () => {
    const carPark = await t.createCarPark();
    expect((await t.request('PUT', `/car-parks/${carPark.id}`, { json: { name: 'X' } })).status).toBe(401);
    expect((await t.request('PUT', `/car-parks/${carPark.id}`, { token: officer.token, json: { name: 'X' } })).status).toBe(403);
    const unknown = await t.request('PUT', '/car-parks/no-such-park', { token: admin.token, json: { name: 'X' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe(SERVER_MESSAGES.carParkNotFound);
  });

  it('changes the given fields and deactivation takes it off the officer list', async () => {
    const carPark = await t.createCarPark({ assignTo: [officer.id] });
    const res = await t.request('PUT', `/car-parks/${carPark.id}`, {
      token: admin.token,
      json: { name: 'Renamed', isActive: false, graceMinutes: 15 },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: carPark.id, name: 'Renamed', isActive: false, graceMinutes: 15, address: '1 Test Street' });
    const list = await t.request('GET', '/car-parks', { token: officer.token });
    expect(ids(list.json.data)).not.toContain(carPark.id);
  });

  it('keeps whether a stay applies by default, off unless set, and a PUT changes only that', async () => {
    const created = await t.request('POST', '/car-parks', { token: admin.token, json: { name: 'Stay Park', siteCode: uniqueCode() } });
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({ stayAppliesByDefault: false, considerationMinutes: 5, graceMinutes: 10 });
    const res = await t.request('PUT', `/car-parks/${created.json.data.id}`, { token: admin.token, json: { stayAppliesByDefault: true } });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ name: 'Stay Park', stayAppliesByDefault: true, graceMinutes: 10 });
  });

  it('refuses a site code used by another car park with 409 but accepts its own', async () => {
    const code = uniqueCode();
    await t.createCarPark({ siteCode: code });
    const carPark = await t.createCarPark();
    expect((await t.request('PUT', `/car-parks/${carPark.id}`, { token: admin.token, json: { siteCode: code } })).status).toBe(409);
    const own = await t.request('PUT', `/car-parks/${carPark.id}`, { token: admin.token, json: { siteCode: 'OWN1' } });
    expect(own.status).toBe(200);
    expect((await t.request('PUT', `/car-parks/${carPark.id}`, { token: admin.token, json: { siteCode: 'own1' } })).status).toBe(200);
  });

  it('refuses bad input with 400', async () => {
    const carPark = await t.createCarPark();
    expect((await t.request('PUT', `/car-parks/${carPark.id}`, { token: admin.token, json: { isActive: 'no' } })).status).toBe(400);
    expect((await t.request('PUT', `/car-parks/${carPark.id}`, { token: admin.token, json: { considerationMinutes: -1 } })).status).toBe(
      400,
    );
  });
});

describe("the sector's limits on every car park", () => {
  const NO_STOPPING = 'No-stopping zone: no consideration period applies';
  const create = (json: Record<string, unknown>) =>
    t.request('POST', '/car-parks', { token: admin.token, json: { name: 'Limits Yard', siteCode: uniqueCode(), ...json } });
  const change = (id: string, json: Record<string, unknown>) => t.request('PUT', `/car-parks/${id}`, { token: admin.token, json });
  const history = async (id: string) =>
    (
      await t.db.selectFrom('car_park_terms').select(['terms', 'changes']).where('car_park_id', '=', id).orderBy('created_at').execute()
    ).map((row) => ({
      terms: JSON.parse(row.terms) as Record<string, unknown>,
      changes: JSON.parse(row.changes) as Record<string, unknown>,
    }));

  it('refuses a charge over £100 and a reduced amount over 60% of it, naming the field and the limit', async () => {
    const tooMuch = await create({ chargePence: 15_000 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.details).toEqual({ chargePence: "At most £100 (the Single Code's cap)" });
    const deep = await create({ chargePence: 10_000, reducedChargePence: 6_100, reducedWithinDays: 14 });
    expect(deep.status).toBe(400);
    expect(deep.json).toMatchObject({ code: 'VALIDATION_FAILED', message: SECTOR_LIMIT_MESSAGES.reducedChargePence(10_000) });
    expect(deep.json.details).toEqual({ reducedChargePence: "At most £60, 60% of the charge (the Single Code's cap)" });
    expect((await create({ chargePence: 10_000, reducedChargePence: 6_000, reducedWithinDays: 14 })).status).toBe(201);
  });

  it('refuses periods shorter than the minimums without a reason, and stores and returns the reason given', async () => {
    const bare = await create({ considerationMinutes: 2 });
    expect(bare.status).toBe(400);
    expect(bare.json.details).toEqual({ minimumsOverrideReason: SECTOR_LIMIT_MESSAGES.minimumsOverrideReason });
    expect((await create({ graceMinutes: 9, minimumsOverrideReason: '   ' })).json.details).toHaveProperty('minimumsOverrideReason');

    const res = await create({ considerationMinutes: 2, minimumsOverrideReason: ` ${NO_STOPPING} ` });
    expect(res.status).toBe(201);
    const created = res.json.data as CarPark;
    expect(created).toMatchObject({ considerationMinutes: 2, graceMinutes: 10, minimumsOverrideReason: NO_STOPPING });
    const listed = await t.request('GET', `/car-parks/all?search=${created.siteCode}`, { token: admin.token });
    expect(listed.json.data.carParks[0]).toMatchObject({ id: created.id, minimumsOverrideReason: NO_STOPPING });
    expect((await history(created.id))[0]!.changes).toMatchObject({ minimumsOverrideReason: { from: null, to: NO_STOPPING } });

    // Within the minimums a reason explains nothing, so none is kept.
    const plain = await create({ minimumsOverrideReason: NO_STOPPING });
    expect(plain.status).toBe(201);
    expect(plain.json.data.minimumsOverrideReason).toBeNull();
  });

  it('judges an update on what it would leave stored, and drops the reason once the periods are back', async () => {
    const park = (await create({ chargePence: 10_000, reducedChargePence: 6_000, reducedWithinDays: 14 })).json.data as CarPark;
    const tooMuch = await change(park.id, { chargePence: 15_000 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.details).toHaveProperty('chargePence');
    // £90 leaves the stored £60 reduction over 60% of it (£54).
    const lower = await change(park.id, { chargePence: 9_000 });
    expect(lower.status).toBe(400);
    expect(lower.json.details).toEqual({ reducedChargePence: "At most £54, 60% of the charge (the Single Code's cap)" });

    const short = await change(park.id, { graceMinutes: 2 });
    expect(short.status).toBe(400);
    expect(short.json.details).toEqual({ minimumsOverrideReason: SECTOR_LIMIT_MESSAGES.minimumsOverrideReason });
    const given = await change(park.id, { graceMinutes: 2, minimumsOverrideReason: 'Loading bay: drivers may not wait' });
    expect(given.status).toBe(200);
    expect(given.json.data).toMatchObject({ graceMinutes: 2, minimumsOverrideReason: 'Loading bay: drivers may not wait' });
    // Another change keeps the reason while the period stays short.
    expect((await change(park.id, { name: 'Loading Yard' })).json.data.minimumsOverrideReason).toBe('Loading bay: drivers may not wait');

    const back = await change(park.id, { graceMinutes: 10 });
    expect(back.status).toBe(200);
    expect(back.json.data.minimumsOverrideReason).toBeNull();
    const rows = await history(park.id);
    // The first row (the car park's creation) has no reason, so no change to one.
    expect(rows.map((row) => row.changes.minimumsOverrideReason ?? null)).toEqual([
      null,
      { from: null, to: 'Loading bay: drivers may not wait' },
      { from: 'Loading bay: drivers may not wait', to: null },
    ]);
    expect(rows.at(-1)!.terms).toMatchObject({ chargePence: 10_000, minimumsOverrideReason: null });
  });

  it('still reads a car park stored outside the limits, and asks for it to be brought within them when saved', async () => {
    const { id } = await t.createCarPark({ name: 'Stored Before The Limits', assignTo: [officer.id] });
    await t.db
      .updateTable('car_parks')
      .set({ charge_pence: 15_000, reduced_charge_pence: 9_500, reduced_within_days: 14, consideration_minutes: 0, grace_minutes: 2 })
      .where('id', '=', id)
      .execute();
    const mine = await t.request('GET', '/car-parks', { token: officer.token });
    expect(mine.status).toBe(200);
    expect(mine.json.data.find((p: CarPark) => p.id === id)).toMatchObject({
      chargePence: 15_000,
      considerationMinutes: 0,
      graceMinutes: 2,
      minimumsOverrideReason: null,
    });
    const all = await t.request('GET', '/car-parks/all?search=Stored%20Before', { token: admin.token });
    expect(all.status).toBe(200);
    expect(ids(all.json.data.carParks)).toEqual([id]);

    const renamed = await change(id, { name: 'Renamed Before The Limits' });
    expect(renamed.status).toBe(400);
    expect(renamed.json.details).toEqual({
      chargePence: SECTOR_LIMIT_MESSAGES.chargePence,
      reducedChargePence: SECTOR_LIMIT_MESSAGES.reducedChargePence(15_000),
      minimumsOverrideReason: SECTOR_LIMIT_MESSAGES.minimumsOverrideReason,
    });
    // Taking it out of use is never refused: it changes nothing a notice is issued under.
    expect((await change(id, { isActive: false })).status).toBe(200);
    expect((await change(id, { isActive: true })).status).toBe(400);
    const fixed = await change(id, { isActive: true, chargePence: 10_000, reducedChargePence: 6_000, minimumsOverrideReason: NO_STOPPING });
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.json.data).toMatchObject({ isActive: true, chargePence: 10_000, minimumsOverrideReason: NO_STOPPING });
  });
});

describe('DELETE /car-parks/{id}', () => {
  it('answers 401, 403 to a USER, and 404 for an unknown id', async () => {
    const carPark = await t.createCarPark();
    expect((await t.request('DELETE', `/car-parks/${carPark.id}`)).status).toBe(401);
    expect((await t.request('DELETE', `/car-parks/${carPark.id}`, { token: officer.token })).status).toBe(403);
    expect((await t.request('DELETE', '/car-parks/no-such-park', { token: admin.token })).status).toBe(404);
  });

  it('deletes a car park without PCNs, with its assignments', async () => {
    const carPark = await t.createCarPark({ assignTo: [officer.id] });
    const res = await t.request('DELETE', `/car-parks/${carPark.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, data: { id: carPark.id }, message: SUCCESS_MESSAGES.carParkDeleted });
    expect((await t.request('PUT', `/car-parks/${carPark.id}`, { token: admin.token, json: { name: 'X' } })).status).toBe(404);
    const profile = await t.request('GET', '/users/profile', { token: officer.token });
    expect(ids(profile.json.data.carParks)).not.toContain(carPark.id);
  });

  it('refuses to delete a car park that has PCNs with 409, suggesting deactivation', async () => {
    const carPark = await t.createCarPark();
    await insertPcnAt(carPark.id);
    const res = await t.request('DELETE', `/car-parks/${carPark.id}`, { token: superAdmin.token });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ code: 'CONFLICT', message: SERVER_MESSAGES.carParkHasPcns });
    expect(res.json.message).toContain('Deactivate');
  });
});

describe('assigning users to car parks', () => {
  it('answers 401 to anonymous callers and 403 to a USER', async () => {
    const carPark = await t.createCarPark();
    expect((await t.request('POST', `/car-parks/${carPark.id}/assign-user`, { json: { userId: officer.id } })).status).toBe(401);
    expect(
      (await t.request('POST', `/car-parks/${carPark.id}/assign-user`, { token: officer.token, json: { userId: officer.id } })).status,
    ).toBe(403);
    expect(
      (await t.request('DELETE', `/car-parks/${carPark.id}/unassign-user`, { token: officer.token, json: { userId: officer.id } })).status,
    ).toBe(403);
  });

  it('assigns idempotently, so the officer sees the car park, and unassigns idempotently', async () => {
    const carPark = await t.createCarPark({ name: 'Newly Assigned' });
    for (let i = 0; i < 2; i++) {
      const res = await t.request('POST', `/car-parks/${carPark.id}/assign-user`, { token: admin.token, json: { userId: officer.id } });
      expect(res.status).toBe(200);
      expect(ids(res.json.data.assignedUsers)).toEqual([officer.id]);
    }
    expect(ids((await t.request('GET', '/car-parks', { token: officer.token })).json.data)).toContain(carPark.id);

    for (let i = 0; i < 2; i++) {
      const res = await t.request('DELETE', `/car-parks/${carPark.id}/unassign-user`, { token: admin.token, json: { userId: officer.id } });
      expect(res.status).toBe(200);
      expect(res.json.data.assignedUsers).toEqual([]);
    }
    expect(ids((await t.request('GET', '/car-parks', { token: officer.token })).json.data)).not.toContain(carPark.id);
  });

  it('answers 404 for an unknown car park or user', async () => {
    const carPark = await t.createCarPark();
    const noPark = await t.request('POST', '/car-parks/no-such-park/assign-user', { token: admin.token, json: { userId: officer.id } });
    expect(noPark.status).toBe(404);
    expect(noPark.json.message).toBe(SERVER_MESSAGES.carParkNotFound);
    const noUser = await t.request('POST', `/car-parks/${carPark.id}/assign-user`, {
      token: admin.token,
      json: { userId: 'no-such-user' },
    });
    expect(noUser.status).toBe(404);
    expect(noUser.json.message).toBe(SERVER_MESSAGES.userNotFound);
    expect(
      (await t.request('DELETE', '/car-parks/no-such-park/unassign-user', { token: admin.token, json: { userId: officer.id } })).status,
    ).toBe(404);
    expect(
      (await t.request('DELETE', `/car-parks/${carPark.id}/unassign-user`, { token: admin.token, json: { userId: 'no-such-user' } }))
        .status,
    ).toBe(404);
  });

  it('refuses a missing or mistyped userId with 400', async () => {
    const carPark = await t.createCarPark();
    expect((await t.request('POST', `/car-parks/${carPark.id}/assign-user`, { token: admin.token, json: {} })).status).toBe(400);
    expect((await t.request('POST', `/car-parks/${carPark.id}/assign-user`, { token: admin.token, json: { userId: 5 } })).status).toBe(400);
    expect((await t.request('DELETE', `/car-parks/${carPark.id}/unassign-user`, { token: admin.token })).status).toBe(400);
  });
});
