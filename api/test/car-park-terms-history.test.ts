import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAR_PARK_TERMS_HISTORY_LIMIT, type CarPark, type CarParkTermsHistory } from '@parkpatrol/shared';
import { insertCarParkTerms } from '../src/repositories/terms.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * A car park's terms' history (decision 0017) as Manage Car Parks shows it: each change to its
 * charge, discount, signage, land and stay rules with who made it and when, newest first; for
 * admins and the car park's landowners.
 */

const START = Date.parse('2026-03-02T09:00:00.000Z');
const MINUTE = 60_000;

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signedInUser']>>;
let landowner: Awaited<ReturnType<TestApp['signedInUser']>>;
let otherLandowner: Awaited<ReturnType<TestApp['signedInUser']>>;
let officer: Awaited<ReturnType<TestApp['signedInUser']>>;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.frozenAtMs = START;
  admin = await t.signedInUser('ADMIN', { firstName: 'Amira', lastName: 'Khan' });
  landowner = await t.signedInUser('LANDOWNER');
  otherLandowner = await t.signedInUser('LANDOWNER');
  officer = await t.signedInUser('USER');
});
afterAll(async () => {
  await t.close();
});

const history = (id: string, token = admin.token) => t.request('GET', `/car-parks/${id}/terms-history`, { token });

async function createdPark(): Promise<CarPark> {
  const res = await t.request('POST', '/car-parks', {
    token: admin.token,
    json: {
      name: 'Station Yard',
      siteCode: `SY${Math.random().toString(36).slice(2, 7).toUpperCase()}`,
      chargePence: 10_000,
      reducedChargePence: 6_000,
      reducedWithinDays: 14,
      signageTerms: 'Permit holders only',
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data as CarPark;
}

async function change(id: string, json: Record<string, unknown>, minutesLater: number) {
  t.clock.frozenAtMs = START + minutesLater * MINUTE;
  const res = await t.request('PUT', `/car-parks/${id}`, { token: admin.token, json });
  expect(res.status, res.text).toBe(200);
}

describe('GET /car-parks/{id}/terms-history', () => {
  it('lists each change newest first, with what changed, when and by whom, stay rules included', async () => {
    t.clock.frozenAtMs = START;
    const park = await createdPark();
    await change(park.id, { chargePence: 9_000, reducedChargePence: 5_000, reducedWithinDays: 21 }, 1);
    await change(park.id, { graceMinutes: 15, stayAppliesByDefault: true }, 2);
    // A new name is not a change of terms: no row.
    await change(park.id, { name: 'Station Yard East' }, 3);
    await change(park.id, { jurisdiction: 'SCOTLAND', signageTerms: 'Permit holders only. Pay at the machine.' }, 4);

    const res = await history(park.id);
    expect(res.status, res.text).toBe(200);
    const { changes, hasMore } = res.json.data as CarParkTermsHistory;
    expect(hasMore).toBe(false);
    expect(changes.map((c) => c.createdAt)).toEqual([4, 2, 1, 0].map((m) => new Date(START + m * MINUTE).toISOString()));
    expect(changes.every((c) => c.actorName === 'Amira Khan')).toBe(true);
    expect(changes[0]!.changes).toEqual({
      jurisdiction: { from: 'ENGLAND_AND_WALES', to: 'SCOTLAND' },
      signageTerms: { from: 'Permit holders only', to: 'Permit holders only. Pay at the machine.' },
    });
    expect(changes[1]!.changes).toEqual({ graceMinutes: { from: 10, to: 15 }, stayAppliesByDefault: { from: false, to: true } });
    expect(changes[2]!.changes).toEqual({
      chargePence: { from: 10_000, to: 9_000 },
      reducedChargePence: { from: 6_000, to: 5_000 },
      reducedWithinDays: { from: 14, to: 21 },
    });
    // The car park's creation sets every term from nothing.
    expect(changes[3]!.changes).toMatchObject({
      chargePence: { from: null, to: 10_000 },
      considerationMinutes: { from: null, to: 5 },
      graceMinutes: { from: null, to: 10 },
      stayAppliesByDefault: { from: null, to: false },
      jurisdiction: { from: null, to: 'ENGLAND_AND_WALES' },
    });
  });

  it('answers an empty history for a car park whose terms were never recorded', async () => {
    const { id } = await t.createCarPark();
    const res = await history(id);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ changes: [], hasMore: false });
  });

  it(`holds the newest ${CAR_PARK_TERMS_HISTORY_LIMIT} changes and says when older ones were left off`, async () => {
    const { id } = await t.createCarPark();
    for (let i = 0; i <= CAR_PARK_TERMS_HISTORY_LIMIT; i++) {
      await insertCarParkTerms(t.db, {
        carParkId: id,
        terms: {
          chargePence: 5_000 + i,
          reducedChargePence: null,
          reducedWithinDays: null,
          signageTerms: '',
          jurisdiction: 'ENGLAND_AND_WALES',
          minimumsOverrideReason: null,
          relevantLand: true,
        },
        changes: { chargePence: { from: 5_000 + i - 1, to: 5_000 + i } },
        actor: { id: admin.id, name: 'Amira Khan' },
        now: new Date(START + i * 60_000).toISOString(),
      });
    }
    const { changes, hasMore } = (await history(id)).json.data as CarParkTermsHistory;
    expect(changes).toHaveLength(CAR_PARK_TERMS_HISTORY_LIMIT);
    expect(hasMore).toBe(true);
    expect(changes[0]!.changes.chargePence!.to).toBe(5_000 + CAR_PARK_TERMS_HISTORY_LIMIT);
    expect(changes.at(-1)!.changes.chargePence!.to).toBe(5_001);
  });

  it("is its landowners' to read too; another landowner's is the 404 of a car park that does not exist, an officer's 403", async () => {
    const park = await createdPark();
    await t.request('POST', `/car-parks/${park.id}/assign-user`, { token: admin.token, json: { userId: landowner.id } });
    await t.request('POST', `/car-parks/${park.id}/assign-user`, { token: admin.token, json: { userId: officer.id } });
    const own = await history(park.id, landowner.token);
    expect(own.status).toBe(200);
    expect((own.json.data as CarParkTermsHistory).changes).toHaveLength(1);
    expect((await history(park.id, otherLandowner.token)).status).toBe(404);
    expect((await history(park.id, officer.token)).status).toBe(403);
    expect((await history('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
