import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarPark, OperatorSettingsResponse, Pcn } from '@parkpatrol/shared';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { jpegUpload, postPcn, validOperatorTerms, validPcnFields } from './fixtures.ts';

/**
 * The operator's terms and each car park's, set once by an admin, audited change by change, and
 * kept on every notice as they stood when it was issued (decision 0017).
 */
describe("the operator's terms", () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp();
    officer = await t.signedInUser('USER');
    // How to pay is a Super Admin's to set (security-round-four-records.test.ts has an Admin refused).
    admin = await t.signedInUser('SUPER_ADMIN', { firstName: 'Tess', lastName: 'Terms' });
  });
  afterAll(() => t.close());

  it('starts unset, saves the creditor and appeals service, and audits each change with who made it', async () => {
    const empty = await t.request('GET', '/settings/operator', { token: admin.token });
    expect(empty.json.data).toEqual({ operator: null, changes: [], logoUrl: null });
    expect((await t.request('GET', '/settings/notice-terms', { token: officer.token })).json.data).toBeNull();

    const saved = await t.request('PUT', '/settings/operator', { token: admin.token, json: validOperatorTerms() });
    expect(saved.status, saved.text).toBe(200);
    const first = saved.json.data as OperatorSettingsResponse;
    expect(first.operator).toMatchObject({ ...validOperatorTerms(), updatedBy: 'Tess Terms' });
    expect(first.changes).toHaveLength(1);
    expect(first.changes[0]!.changes.creditorName).toEqual({ from: null, to: 'ParkPatrol Parking Ltd' });

    // Saved unchanged: nothing to audit.
    const again = await t.request('PUT', '/settings/operator', { token: admin.token, json: validOperatorTerms() });
    expect((again.json.data as OperatorSettingsResponse).changes).toHaveLength(1);

    // A minute later by the test app's clock, which otherwise stands still: the newest change is the one made last.
    t.clock.offsetMs += 60_000;
    const moved = await t.request('PUT', '/settings/operator', {
      token: admin.token,
      json: validOperatorTerms({ creditorPhone: '0113 496 0999', appealsService: 'IAS', appealsServiceContact: 'The IAS\nwww.theias.org' }),
    });
    const latest = (moved.json.data as OperatorSettingsResponse).changes[0]!;
    expect(latest.actorName).toBe('Tess Terms');
    expect(latest.changes).toEqual({
      creditorPhone: { from: '0113 496 0000', to: '0113 496 0999' },
      appealsService: { from: 'POPLA', to: 'IAS' },
      appealsServiceContact: { from: 'POPLA, PO Box 1270, Warrington WA4 9RL\nwww.popla.co.uk', to: 'The IAS\nwww.theias.org' },
    });

    // Officers read what their notices print, not who changed it.
    const forOfficer = await t.request('GET', '/settings/notice-terms', { token: officer.token });
    expect(forOfficer.json.data).toEqual(
      validOperatorTerms({ creditorPhone: '0113 496 0999', appealsService: 'IAS', appealsServiceContact: 'The IAS\nwww.theias.org' }),
    );
  });

  it('refuses incomplete terms field by field, and officers may not change them', async () => {
    const missing = await t.request('PUT', '/settings/operator', { token: admin.token, json: validOperatorTerms({ creditorName: ' ' }) });
    expect(missing.status).toBe(400);
    expect(missing.json.details).toEqual({ creditorName: 'Give the creditor’s name' });
    const badService = await t.request('PUT', '/settings/operator', {
      token: admin.token,
      json: validOperatorTerms({ appealsService: 'OMBUDSMAN' }),
    });
    expect(badService.json.details).toEqual({ appealsService: 'Choose the independent appeals service' });
    const badEmail = await t.request('PUT', '/settings/operator', {
      token: admin.token,
      json: validOperatorTerms({ creditorEmail: 'nope' }),
    });
    expect(Object.keys(badEmail.json.details)).toEqual(['creditorEmail']);
    expect((await t.request('PUT', '/settings/operator', { token: officer.token, json: validOperatorTerms() })).status).toBe(403);
  });
});

describe("a car park's terms", () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp();
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
  });
  afterAll(() => t.close());

  const createPark = (json: Record<string, unknown>) =>
    t.request('POST', '/car-parks', {
      token: admin.token,
      json: { name: 'Terms Yard', siteCode: `T${Math.random().toString(36).slice(2, 8)}`, ...json },
    });

  it('keeps the charge, its reduction and days, the signage terms and the jurisdiction', async () => {
    const res = await createPark({
      chargePence: 10000,
      reducedChargePence: 6000,
      reducedWithinDays: 14,
      signageTerms: 'Permit holders only',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data as CarPark).toMatchObject({
      chargePence: 10000,
      reducedChargePence: 6000,
      reducedWithinDays: 14,
      signageTerms: 'Permit holders only',
      jurisdiction: 'ENGLAND_AND_WALES',
    });
    const plain = await createPark({});
    expect(plain.json.data).toMatchObject({ chargePence: null, reducedChargePence: null, reducedWithinDays: null, signageTerms: '' });
  });

  it('refuses a reduction that is not less than the charge, or comes without its days, or under 14 days', async () => {
    const notLess = await createPark({ chargePence: 6000, reducedChargePence: 6000, reducedWithinDays: 14 });
    expect(notLess.status).toBe(400);
    expect(notLess.json.details).toEqual({ reducedChargePence: 'Must be less than the charge' });
    const noDays = await createPark({ chargePence: 10000, reducedChargePence: 6000 });
    expect(noDays.json.details).toEqual({ reducedWithinDays: 'Say within how many days' });
    const short = await createPark({ chargePence: 10000, reducedChargePence: 6000, reducedWithinDays: 7 });
    expect(short.json.details).toEqual({ reducedWithinDays: 'At least 14 days (the Single Code of Practice)' });
    const place = await createPark({ jurisdiction: 'WALES' });
    expect(place.json.details).toEqual({ jurisdiction: 'Choose where the land is' });
    // An update is judged with what it leaves stored.
    const park = (await createPark({ chargePence: 10000, reducedChargePence: 6000, reducedWithinDays: 14 })).json.data as CarPark;
    const lower = await t.request('PUT', `/car-parks/${park.id}`, { token: admin.token, json: { chargePence: 5000 } });
    expect(lower.status).toBe(400);
    expect(lower.json.details).toEqual({ reducedChargePence: 'Must be less than the charge' });
  });

  it('moves its notices off the keeper route when the land turns out to be in Scotland, and back', async () => {
    const park = (await createPark({})).json.data as CarPark;
    await t.request('POST', `/car-parks/${park.id}/assign-user`, { token: admin.token, json: { userId: officer.id } });
    const filed = await postPcn(t, officer.token, { ...validPcnFields(park.id), images: [jpegUpload(3)], noticeServedBy: 'AFFIXED' });
    const id = (filed.json.data as Pcn).id;
    const postBy = async () =>
      (await t.db.selectFrom('pcns').select('keeper_post_by').where('id', '=', id).executeTakeFirstOrThrow()).keeper_post_by;
    const before = await postBy();
    expect(before).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    expect((await t.request('PUT', `/car-parks/${park.id}`, { token: admin.token, json: { jurisdiction: 'SCOTLAND' } })).status).toBe(200);
    expect(await postBy()).toBeNull();
    const read = await t.request('GET', `/pcns/${id}`, { token: admin.token });
    expect((read.json.data as Pcn).keeperNotice.route).toBe('NOT_AVAILABLE');

    await t.request('PUT', `/car-parks/${park.id}`, { token: admin.token, json: { jurisdiction: 'ENGLAND_AND_WALES' } });
    expect(await postBy()).toBe(before);
    const history = await t.db
      .selectFrom('car_park_terms')
      .select('changes')
      .where('car_park_id', '=', park.id)
      .orderBy('created_at')
      .execute();
    expect(history.map((row) => JSON.parse(row.changes).jurisdiction?.to)).toEqual(['ENGLAND_AND_WALES', 'SCOTLAND', 'ENGLAND_AND_WALES']);
  });

  it('leaves each notice with the terms in force when it was issued, even when it arrives after they changed', async () => {
    const superAdmin = await t.signedInUser('SUPER_ADMIN');
    await t.request('PUT', '/settings/operator', { token: superAdmin.token, json: validOperatorTerms() });
    const park = (await createPark({ chargePence: 10000, reducedChargePence: 6000, reducedWithinDays: 14, signageTerms: 'Old signs' })).json
      .data as CarPark;
    await t.request('POST', `/car-parks/${park.id}/assign-user`, { token: admin.token, json: { userId: officer.id } });
    // Back-date the first terms two hours, as if they had been set then.
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
    await t.db.updateTable('car_park_terms').set({ created_at: twoHoursAgo }).where('car_park_id', '=', park.id).execute();
    await t.db.updateTable('operator_terms').set({ created_at: twoHoursAgo }).execute();
    await t.request('PUT', `/car-parks/${park.id}`, {
      token: admin.token,
      json: { chargePence: 9000, reducedChargePence: 5000, signageTerms: 'New signs' },
    });

    // Issued 90 minutes ago on a phone without signal, sent now: the old terms.
    const ninetyMinutesAgo = new Date(Date.now() - 90 * 60_000).toISOString();
    const late = await postPcn(t, officer.token, {
      ...validPcnFields(park.id),
      images: [jpegUpload(4)],
      noticeServedBy: 'AFFIXED',
      observedAt: ninetyMinutesAgo,
      issuedAt: ninetyMinutesAgo,
    });
    expect(late.status, late.text).toBe(201);
    expect((late.json.data as Pcn).terms).toEqual({
      operator: validOperatorTerms(),
      carPark: {
        chargePence: 10000,
        reducedChargePence: 6000,
        reducedWithinDays: 14,
        signageTerms: 'Old signs',
        jurisdiction: 'ENGLAND_AND_WALES',
      },
    });
    const fresh = await postPcn(t, officer.token, { ...validPcnFields(park.id), images: [jpegUpload(5)], noticeServedBy: 'AFFIXED' });
    expect((fresh.json.data as Pcn).terms?.carPark).toMatchObject({
      chargePence: 9000,
      reducedChargePence: 5000,
      signageTerms: 'New signs',
    });

    // Changing the terms again does not touch notices already issued.
    expect((await t.request('PUT', `/car-parks/${park.id}`, { token: admin.token, json: { chargePence: 9500 } })).status).toBe(200);
    const reread = await t.request('GET', `/pcns/${(fresh.json.data as Pcn).id}`, { token: officer.token });
    expect((reread.json.data as Pcn).terms?.carPark?.chargePence).toBe(9000);
  });
});
