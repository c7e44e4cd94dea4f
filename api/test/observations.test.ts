import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation, ObservationListResponse } from '@parkpatrol/shared';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { jpegUpload, postPcn, validPcnFields } from './fixtures.ts';

const MINUTE = 60_000;

/**
 * The stay rule's observations (docs/decisions/0012): the phone reports a first visit and its
 * close; the notice that completes one closes it as ISSUED in the same commit; admins read them.
 */
describe('observations', () => {
  let t: TestApp;
  let officer: Session;
  let otherOfficer: Session;
  let admin: Session;
  let parkId: string;

  beforeAll(async () => {
    t = await createTestApp();
    officer = await t.signedInUser('USER', { firstName: 'Olive', lastName: 'Observer' });
    otherOfficer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    // Consideration 5 + grace 10 (the test car park's values), stays applying by default.
    parkId = (await t.createCarPark({ name: 'Station Yard', assignTo: [officer.id, otherOfficer.id] })).id;
    await t.db.updateTable('car_parks').set({ stay_applies_by_default: true }).where('id', '=', parkId).execute();
  });
  afterAll(() => t.close());

  function put(session: Session, id: string, body: Record<string, unknown>) {
    return t.request('PUT', `/observations/${id}`, { token: session.token, json: body });
  }

  function opened(observedAt: string, registration = 'OB12 SRV') {
    return { vehicleRegistration: registration, carParkId: parkId, observedAt, status: 'OPEN' };
  }

  async function list(query = ''): Promise<Observation[]> {
    const res = await t.request('GET', `/observations?limit=100${query}`, { token: admin.token });
    expect(res.status).toBe(200);
    return (res.json.data as ObservationListResponse).observations;
  }

  it('stores an open observation with the due time the car park sets, once however often it is sent', async () => {
    const id = randomUUID();
    const observedAt = new Date(t.deps.now().getTime() - 2 * MINUTE).toISOString();
    const first = await put(officer, id, opened(observedAt));
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({
      id,
      status: 'OPEN',
      vehicleRegistration: 'OB12SRV',
      observedAt,
      dueAt: new Date(Date.parse(observedAt) + 15 * MINUTE).toISOString(),
      carPark: { id: parkId, name: 'Station Yard' },
      officer: { id: officer.id, firstName: 'Olive', lastName: 'Observer' },
      closedAt: null,
      pcnId: null,
    });
    expect((await put(officer, id, opened(observedAt))).status).toBe(200);
    expect((await list(`&officerId=${officer.id}`)).filter((row) => row.id === id)).toHaveLength(1);
  });

  it('closes an observation as gone for good: a late or replayed open does not reopen it', async () => {
    const id = randomUUID();
    const observedAt = new Date(t.deps.now().getTime() - 20 * MINUTE).toISOString();
    const closedAt = new Date(t.deps.now().getTime() - MINUTE).toISOString();
    await put(officer, id, opened(observedAt));
    const gone = await put(officer, id, { ...opened(observedAt), status: 'GONE', closedAt });
    expect(gone.json.data).toMatchObject({ status: 'GONE', closedAt });
    const replay = await put(officer, id, opened(observedAt));
    expect(replay.status).toBe(200);
    expect(replay.json.data).toMatchObject({ status: 'GONE', closedAt });
    // A close that arrives first (the open was lost) is stored as it is.
    const direct = await put(officer, randomUUID(), { ...opened(observedAt), status: 'GONE' });
    expect(direct.json.data.status).toBe('GONE');
    // No notice was made for either.
    const pcns = await t.db.selectFrom('pcns').select('id').where('created_by', '=', officer.id).execute();
    expect(pcns).toHaveLength(0);
  });

  it('closes the observation as issued when its notice is filed, with or without the open reaching the server', async () => {
    const observedAt = new Date(t.deps.now().getTime() - 20 * MINUTE).toISOString();
    const secondVisit = new Date(t.deps.now().getTime() - 2 * MINUTE).toISOString();
    for (const sendOpenFirst of [true, false]) {
      const id = randomUUID();
      if (sendOpenFirst) await put(officer, id, opened(observedAt, 'IS12 SUE'));
      const res = await postPcn(
        t,
        officer.token,
        {
          ...validPcnFields(parkId),
          vehicleRegistration: 'IS12 SUE',
          observedAt,
          images: [jpegUpload(1), jpegUpload(2)],
          imageTakenAt: [observedAt, secondVisit],
        },
        id,
      );
      expect(res.status).toBe(201);
      const [row] = (await list(`&officerId=${officer.id}&status=ISSUED`)).filter((observation) => observation.id === id);
      expect(row).toMatchObject({
        status: 'ISSUED',
        pcnId: res.json.data.id,
        pcnNumber: res.json.data.pcnNumber,
        vehicleRegistration: 'IS12SUE',
      });
      // A late open from the phone leaves it issued.
      expect((await put(officer, id, opened(observedAt, 'IS12 SUE'))).json.data.status).toBe('ISSUED');
    }
  });

  it("keeps each officer's observations apart and filters the admins' list by officer and status", async () => {
    const id = randomUUID();
    const observedAt = new Date(t.deps.now().getTime() - MINUTE).toISOString();
    await put(otherOfficer, id, opened(observedAt, 'OT12 HER'));
    // The same phone id from another officer is another observation, never theirs.
    await put(officer, id, { ...opened(observedAt, 'ME12 MINE'), status: 'GONE' });
    const others = await list(`&officerId=${otherOfficer.id}`);
    expect(others.find((row) => row.id === id)).toMatchObject({ status: 'OPEN', vehicleRegistration: 'OT12HER' });
    const open = await list('&status=OPEN');
    expect(open.every((row) => row.status === 'OPEN')).toBe(true);
    expect(open.some((row) => row.officer?.id === otherOfficer.id)).toBe(true);
  });

  it('refuses bad input with its own messages, and a car park the officer does not patrol', async () => {
    const bad = await put(officer, randomUUID(), { vehicleRegistration: '', carParkId: parkId, observedAt: 'noon', status: 'CLOSED' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.details).sort()).toEqual(['observedAt', 'status', 'vehicleRegistration']);
    expect((await put(officer, 'not-a-uuid', opened(new Date().toISOString()))).status).toBe(400);
    const elsewhere = (await t.createCarPark({ name: 'Not Mine' })).id;
    const refused = await put(officer, randomUUID(), { ...opened(new Date().toISOString()), carParkId: elsewhere });
    expect(refused.status).toBe(403);
    expect((await t.request('GET', '/observations', { token: officer.token })).status).toBe(403);
  });
});
