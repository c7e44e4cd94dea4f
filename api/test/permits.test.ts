import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permit, PermitImport, PermitSyncResponse } from '@parkpatrol/shared';
import { jpegUpload, postPcn, validPcnFields } from './fixtures.ts';
import { readPdfText } from './support/pdf.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { fetchEvidencePack, viaApp } from './support/evidence-pack.ts';

/**
 * Permits per car park (decision 0041): the register admins and landowners keep, the CSV import,
 * what an officer's phone is given at sign-in and on each sync, the server's check at filing and
 * what the evidence pack records of it.
 */
describe('permits', () => {
  let t: TestApp;
  let admin: Session;
  let officer: Session;
  let landowner: Session;
  let otherLandowner: Session;
  let carParkId: string;
  let otherCarParkId: string;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = Date.parse('2026-06-10T09:00:00.000Z');
    admin = await t.signedInUser('ADMIN');
    officer = await t.signedInUser('USER');
    landowner = await t.signedInUser('LANDOWNER', { firstName: 'Lena', lastName: 'Owner' });
    otherLandowner = await t.signedInUser('LANDOWNER');
    carParkId = (await t.createCarPark({ name: 'Riverside', assignTo: [officer.id, landowner.id] })).id;
    otherCarParkId = (await t.createCarPark({ name: 'Hilltop', assignTo: [otherLandowner.id] })).id;
  });
  afterAll(() => t.close());

  const permitsPath = (id = carParkId) => `/car-parks/${id}/permits`;
  async function add(token: string, json: Record<string, unknown>, id = carParkId) {
    return t.request('POST', permitsPath(id), { token, json });
  }

  it('adds, lists, changes and ends a permit, keeping its history', async () => {
    const created = await add(admin.token, { vehicleRegistration: 'ab12 cde', kind: 'STAFF', validUntil: '2026-12-31', note: 'Reception' });
    expect(created.status).toBe(201);
    const permit = created.json.data as Permit;
    expect(permit).toMatchObject({
      carParkId,
      vehicleRegistration: 'AB12CDE',
      kind: 'STAFF',
      validFrom: '2026-06-10T09:00:00.000Z',
      // The whole of 31 December in London (GMT then).
      validUntil: '2026-12-31T23:59:59.999Z',
      note: 'Reception',
      source: 'STAFF_ENTRY',
      endedAt: null,
    });

    const listed = await t.request('GET', permitsPath(), { token: admin.token });
    expect(listed.json.data.permits.map((p: Permit) => p.id)).toContain(permit.id);

    const changed = await t.request('PUT', `${permitsPath()}/${permit.id}`, { token: admin.token, json: { note: 'Reception, blue car' } });
    expect(changed.status).toBe(200);
    expect(changed.json.data.note).toBe('Reception, blue car');

    const ended = await t.request('DELETE', `${permitsPath()}/${permit.id}`, { token: admin.token });
    expect(ended.status).toBe(200);
    expect(ended.json.data.endedAt).toBe('2026-06-10T09:00:00.000Z');

    // Gone from the list in force, kept in the full one, and its changes recorded in order.
    const current = await t.request('GET', permitsPath(), { token: admin.token });
    expect(current.json.data.permits.map((p: Permit) => p.id)).not.toContain(permit.id);
    const all = await t.request('GET', `${permitsPath()}?status=all`, { token: admin.token });
    expect(all.json.data.permits.find((p: Permit) => p.id === permit.id)).toMatchObject({ endedAt: '2026-06-10T09:00:00.000Z' });
    const history = await t.db
      .selectFrom('permit_changes')
      .select('changes')
      .where('permit_id', '=', permit.id)
      .orderBy('created_at')
      .execute();
    expect(history.map((row) => Object.keys(JSON.parse(row.changes)))).toEqual([['created'], ['note'], ['ended']]);

    const afterEnd = await t.request('PUT', `${permitsPath()}/${permit.id}`, { token: admin.token, json: { note: 'again' } });
    expect(afterEnd.status).toBe(409);
  });

  it('refuses a permit that cannot be read, naming the field', async () => {
    const bad = await add(admin.token, { vehicleRegistration: '!!', kind: 'STAFF' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.details)).toContain('vehicleRegistration');
    const backwards = await add(admin.token, {
      vehicleRegistration: 'AB12CDE',
      kind: 'STAFF',
      validFrom: '2026-07-01',
      validUntil: '2026-06-01',
    });
    expect(backwards.status).toBe(400);
    expect(Object.keys(backwards.json.details)).toContain('validUntil');
    const kind = await add(admin.token, { vehicleRegistration: 'AB12CDE', kind: 'GOLD' });
    expect(kind.status).toBe(400);
    expect(Object.keys(kind.json.details)).toContain('kind');
  });

  it('lets a landowner manage only the car parks assigned to them, and an officer none', async () => {
    const own = await add(landowner.token, { vehicleRegistration: 'LO11 AAA', kind: 'RESIDENT' });
    expect(own.status).toBe(201);
    expect(own.json.data.createdByName).toBe('Lena Owner');
    // Another landowner's car park answers as one that does not exist.
    expect((await t.request('GET', permitsPath(otherCarParkId), { token: landowner.token })).status).toBe(404);
    expect((await add(landowner.token, { vehicleRegistration: 'LO11 AAA', kind: 'RESIDENT' }, otherCarParkId)).status).toBe(404);
    expect((await t.request('DELETE', `${permitsPath()}/${own.json.data.id}`, { token: otherLandowner.token })).status).toBe(404);
    expect((await t.request('GET', permitsPath(), { token: officer.token })).status).toBe(403);
    expect((await add(officer.token, { vehicleRegistration: 'LO11 AAA', kind: 'STAFF' })).status).toBe(403);
  });

  it('imports a CSV row by row: bad rows listed with why, good ones added, repeats unchanged', async () => {
    const csv = [
      'Registration,Kind,Valid From,Valid Until,Note',
      'CS01 AAA,Staff,01/06/2026,31/12/2026,Flat 1',
      'cs02aaa,blue badge,,,',
      ',STAFF,,,no registration',
      'CS03 AAA,GOLD,,,',
      'CS04 AAA,VISITOR,2026-06-20,2026-06-01,',
      'CS01 AAA,STAFF,2026-06-01,2026-12-31,Flat 1',
    ].join('\n');
    const res = await t.request('POST', `${permitsPath()}/import`, { token: landowner.token, json: { csv } });
    expect(res.status).toBe(200);
    const result = res.json.data as PermitImport;
    expect(result.counts).toEqual({ ADDED: 2, UNCHANGED: 1, INVALID: 3 });
    expect(result.results.map((r) => [r.row, r.outcome])).toEqual([
      [1, 'ADDED'],
      [2, 'ADDED'],
      [3, 'INVALID'],
      [4, 'INVALID'],
      [5, 'INVALID'],
      [6, 'UNCHANGED'],
    ]);
    expect(result.results[2]!.message).toMatch(/^registration:/);
    expect(result.results[3]!.message).toMatch(/^kind:/);
    expect(result.results[4]!.message).toMatch(/^valid_until:/);
    const listed = (await t.request('GET', permitsPath(), { token: admin.token })).json.data.permits as Permit[];
    const imported = listed.filter((p) => p.source === 'IMPORT');
    expect(imported.map((p) => [p.vehicleRegistration, p.kind]).sort()).toEqual([
      ['CS01AAA', 'STAFF'],
      ['CS02AAA', 'BLUE_BADGE'],
    ]);
    // Nothing of the invalid rows reached the register.
    expect(listed.some((p) => p.vehicleRegistration === 'CS03AAA' || p.vehicleRegistration === 'CS04AAA')).toBe(false);

    const noColumns = await t.request('POST', `${permitsPath()}/import`, { token: admin.token, json: { csv: 'plate,type\nAB1,STAFF' } });
    expect(noColumns.status).toBe(400);
    expect(Object.keys(noColumns.json.details)).toEqual(['csv']);
  });

  async function moveClock(ms: number) {
    t.clock.frozenAtMs! += ms;
    // Moving the clock expires the tokens: sign in again.
    for (const session of [admin, officer, landowner, otherLandowner])
      Object.assign(session, await t.login(session.email, session.password!));
  }

  it("gives an officer's phone its car parks' permits, then only the changes since", async () => {
    // Past the minute each sync asks again for (SYNC_OVERLAP_MS), so the changes below are the only ones.
    await moveClock(5 * 60_000);
    const full = await t.request('GET', '/permits/sync', { token: officer.token });
    expect(full.status).toBe(200);
    const first = full.json.data as PermitSyncResponse;
    expect(first.full).toBe(true);
    expect(first.carParkIds).toEqual([carParkId]);
    expect(first.permits.every((p) => p.carParkId === carParkId && p.endedAt === null)).toBe(true);
    // The phone carries what the check needs: no note, no names.
    expect(Object.keys(first.permits[0]!).sort()).toEqual([
      'carParkId',
      'endedAt',
      'id',
      'kind',
      'validFrom',
      'validUntil',
      'vehicleRegistration',
    ]);

    await moveClock(5 * 60_000);
    const added = (await add(admin.token, { vehicleRegistration: 'SY01 NEW', kind: 'CONTRACTOR' })).json.data as Permit;
    const toEnd = first.permits[0]!;
    await t.request('DELETE', `${permitsPath()}/${toEnd.id}`, { token: admin.token });
    await add(admin.token, { vehicleRegistration: 'SY02 ELS', kind: 'STAFF' }, otherCarParkId);

    const since = await t.request('GET', `/permits/sync?since=${encodeURIComponent(first.syncedAt)}`, { token: officer.token });
    const changes = since.json.data as PermitSyncResponse;
    expect(changes.full).toBe(false);
    expect(changes.permits.map((p) => p.id).sort()).toEqual([added.id, toEnd.id].sort());
    expect(changes.permits.find((p) => p.id === toEnd.id)!.endedAt).not.toBeNull();

    // A landowner has no phone list: they file nothing.
    expect((await t.request('GET', '/permits/sync', { token: landowner.token })).status).toBe(403);
  });

  it('refuses at filing a notice for a permit holder without a reason, naming the permit, and records the check', async () => {
    await add(admin.token, { vehicleRegistration: 'PH01 ABC', kind: 'STAFF', validUntil: '2026-12-31' });
    const form = { ...validPcnFields(carParkId), vehicleRegistration: 'ph01 abc', images: [jpegUpload(31), jpegUpload(32)] };
    const draftKey = randomUUID();
    const filesBefore = (await t.db.selectFrom('pcns').select('id').execute()).length;

    const refused = await postPcn(t, officer.token, form, draftKey);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.code).toBe('PERMIT_HOLDER');
    expect(refused.json.message).toBe('Staff permit, valid until 31 Dec 2026: do not issue');
    expect(refused.json.details.permitOverrideReason).toBe('Staff permit, valid until 31 Dec 2026: do not issue');
    expect((await t.db.selectFrom('pcns').select('id').execute()).length).toBe(filesBefore);

    // The same draft, sent again with the officer's reason: filed once.
    const withReason = { ...form, permitOverrideReason: 'Parked outside the permitted bays' };
    const filed = await postPcn(t, officer.token, withReason as never, draftKey);
    expect(filed.status).toBe(201);
    const again = await postPcn(t, officer.token, withReason as never, draftKey);
    expect(again.status).toBe(201);
    expect(again.json.data.id).toBe(filed.json.data.id);
    const row = await t.db
      .selectFrom('pcns')
      .select(['permit_override_reason', 'permit_check'])
      .where('id', '=', filed.json.data.id)
      .executeTakeFirstOrThrow();
    expect(row.permit_override_reason).toBe('Parked outside the permitted bays');
    const check = JSON.parse(row.permit_check!);
    expect(check).toMatchObject({ carParkId, checkedAt: '2026-06-10T09:10:00.000Z', overrideReason: 'Parked outside the permitted bays' });
    expect(check.matched).toMatchObject({ kind: 'STAFF', vehicleRegistration: 'PH01ABC' });
    expect(check.permitsInForce).toBeGreaterThan(0);

    // A registration with no permit files as before, and its check says so.
    const plain = await postPcn(t, officer.token, {
      ...validPcnFields(carParkId),
      vehicleRegistration: 'NO11 PER',
      images: [jpegUpload(33), jpegUpload(34)],
    });
    expect(plain.status).toBe(201);

    // The evidence pack records the check.
    const pack = await fetchEvidencePack(viaApp(t), admin.token, filed.json.data.id);
    expect(pack.status).toBe(200);
    const text = (await readPdfText(new Uint8Array(await pack.arrayBuffer()))).flat;
    expect(text).toContain('Permit check');
    expect(text).toContain("against the car park's permit list");
    expect(text).toContain('Staff permit, valid until 31 Dec 2026: do not issue');
    expect(text).toContain("Officer's reason for issuing anyway: Parked outside the permitted bays");
    const plainPack = await fetchEvidencePack(viaApp(t), admin.token, plain.json.data.id);
    expect((await readPdfText(new Uint8Array(await plainPack.arrayBuffer()))).flat).toContain(
      'The registration held no permit valid at the time.',
    );
  });

  it('does not count a permit ended or not yet started at filing', async () => {
    const later = await add(admin.token, {
      vehicleRegistration: 'FU01 TUR',
      kind: 'VISITOR',
      validFrom: '2026-07-01',
      validUntil: '2026-07-01',
    });
    expect(later.status).toBe(201);
    const res = await postPcn(t, officer.token, {
      ...validPcnFields(carParkId),
      vehicleRegistration: 'FU01TUR',
      images: [jpegUpload(35), jpegUpload(36)],
    });
    expect(res.status).toBe(201);
  });

  describe('the visitor page', () => {
    let siteCode: string;
    const visit = (json: Record<string, unknown>, code = siteCode) => t.request('POST', `/public/visit/${code}`, { json });

    it('is opened by the landowner with its address, code and places a day; an address in use is refused', async () => {
      siteCode = 'riverside-house';
      const saved = await t.request('PUT', `/car-parks/${carParkId}/visitor`, {
        token: landowner.token,
        json: { siteCode: 'Riverside-House', visitorCode: 'Guest26', dailyLimit: 2 },
      });
      expect(saved.status).toBe(200);
      expect(saved.json.data).toEqual({ siteCode, visitorCode: 'Guest26', dailyLimit: 2, usedToday: 0 });
      const taken = await t.request('PUT', `/car-parks/${otherCarParkId}/visitor`, {
        token: otherLandowner.token,
        json: { siteCode, visitorCode: 'Other1', dailyLimit: 5 },
      });
      expect(taken.status).toBe(409);
      expect(Object.keys(taken.json.details)).toEqual(['siteCode']);
      const noCode = await t.request('PUT', `/car-parks/${carParkId}/visitor`, { token: landowner.token, json: { siteCode } });
      expect(noCode.status).toBe(400);
      expect(Object.keys(noCode.json.details)).toContain('visitorCode');
      // Another landowner's car park is not theirs to open.
      expect((await t.request('GET', `/car-parks/${otherCarParkId}/visitor`, { token: landowner.token })).status).toBe(404);
    });

    it('gives a visitor a permit to the end of the day, once a day, within the car park’s places, and the phones hear of it', async () => {
      expect((await t.request('GET', `/public/visit/${siteCode}`)).json.data).toEqual({ carParkName: 'Riverside' });
      expect((await t.request('GET', '/public/visit/nowhere-at-all')).status).toBe(404);

      const wrong = await visit({ vehicleRegistration: 'VI51 TOR', visitorCode: 'guess' });
      expect(wrong.status).toBe(400);
      expect(wrong.json.details).toEqual({ visitorCode: 'That visitor code is not right. Ask at reception.' });

      const first = await visit({ vehicleRegistration: 'vi51 tor', visitorCode: 'guest26' });
      expect(first.status).toBe(201);
      // 09:10 UTC on 10 June is BST: the permit holds to 23:59:59.999 London time.
      expect(first.json.data).toEqual({
        carParkName: 'Riverside',
        vehicleRegistration: 'VI51TOR',
        validUntil: '2026-06-10T22:59:59.999Z',
        message: 'VI51TOR may park here until the end of 10 Jun 2026.',
      });
      expect((await visit({ vehicleRegistration: 'VI51TOR', visitorCode: 'Guest26' })).status).toBe(200);
      expect((await visit({ vehicleRegistration: 'VI52 TOR', visitorCode: 'Guest26' })).status).toBe(201);
      const full = await visit({ vehicleRegistration: 'VI53 TOR', visitorCode: 'Guest26' });
      expect(full.status).toBe(409);
      expect(full.json.message).toBe('This car park has no visitor places left today. Ask at reception.');

      const settings = await t.request('GET', `/car-parks/${carParkId}/visitor`, { token: landowner.token });
      expect(settings.json.data.usedToday).toBe(2);
      const sync = (await t.request('GET', '/permits/sync', { token: officer.token })).json.data as PermitSyncResponse;
      const visitor = sync.permits.find((p) => p.vehicleRegistration === 'VI51TOR');
      expect(visitor).toMatchObject({ kind: 'VISITOR', validUntil: '2026-06-10T22:59:59.999Z' });
      const listed = (await t.request('GET', permitsPath(), { token: landowner.token })).json.data.permits as Permit[];
      expect(listed.find((p) => p.vehicleRegistration === 'VI51TOR')).toMatchObject({
        source: 'VISITOR_PAGE',
        createdByName: 'Visitor page',
      });
    });

    it('makes a device that keeps guessing the code wait', async () => {
      // One wrong code was tried above: nine more make the ten a device may get wrong in 15 minutes.
      for (let i = 0; i < 9; i++) expect((await visit({ vehicleRegistration: 'GU55 ESS', visitorCode: `no${i}` })).status).toBe(400);
      const limited = await visit({ vehicleRegistration: 'GU55 ESS', visitorCode: 'Guest26' });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBeTruthy();
    });

    it('is closed by clearing its address', async () => {
      const closed = await t.request('PUT', `/car-parks/${carParkId}/visitor`, { token: admin.token, json: { siteCode: null } });
      expect(closed.json.data).toMatchObject({ siteCode: null, visitorCode: null });
      expect((await t.request('GET', `/public/visit/${siteCode}`)).status).toBe(404);
    });
  });
});
