import { afterAll, beforeAll, expect, it } from 'vitest';
import { PCN_SORT_KEYS, PCN_STATUSES } from '@parkpatrol/shared';
import { insertPcnsDirectly } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

// The list's page and count are compiled once per filter shape and reused with each
// request's values. Whatever the order of requests, a warm app must answer exactly as a fresh
// process on the same database does, which compiles each query for the request in hand.

let t: TestApp;
let admin: Session;
let officers: Session[];
let carParkIds: string[];

/** A small deterministic generator, so a failure names a sequence that can be run again. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedInUser('ADMIN');
  officers = [await t.signedInUser('USER'), await t.signedInUser('USER')];
  carParkIds = [(await t.createCarPark({ name: 'North' })).id, (await t.createCarPark({ name: 'South' })).id];
  await insertPcnsDirectly(t, 40, (i) => ({
    createdBy: officers[i % 2]!.id,
    carParkId: carParkIds[(i >> 1) % 2]!,
    vehicleRegistration: `${['AB', 'CD', 'EF'][i % 3]}${10 + i}XYZ`,
    status: PCN_STATUSES[i % PCN_STATUSES.length],
    createdAt: new Date(Date.UTC(2026, 10, 1 + (i % 9), 8, i)).toISOString(),
  }));
});
afterAll(() => t.close());

it('a warm app answers every filter, search, sort and page as a fresh process does', async () => {
  const next = random(17);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const maybe = <T>(value: T): T | undefined => (next() < 0.5 ? value : undefined);
  for (let round = 0; round < 60; round++) {
    const asAdmin = next() < 0.5;
    const query = new URLSearchParams();
    const set = (name: string, value: string | undefined) => value !== undefined && query.set(name, value);
    set('status', maybe(pick(PCN_STATUSES)));
    set('carParkId', maybe(pick(carParkIds)));
    set('from', maybe(pick(['2026-11-02', '2026-11-04'])));
    set('to', maybe(pick(['2026-11-05', '2026-11-08'])));
    // Short searches take the LIKE path, longer ones the trigram index on SQLite; on PostgreSQL a
    // whole PCN number takes the number's own index.
    set('search', maybe(pick(['ab', 'CD1', 'ef 2', '1', 'xyz', '000', '00000002', 'PCN-00000003'])));
    set('sort', maybe(pick(PCN_SORT_KEYS.filter((key) => asAdmin || key !== 'deadline'))));
    set('order', maybe(pick(['asc', 'desc'])));
    if (asAdmin) set('flagged', maybe('duplicates'));
    set('limit', String(pick([3, 5, 10])));
    set('page', String(pick([1, 2, 3])));
    const token = asAdmin ? admin.token : pick(officers).token;
    const path = `/pcns?${query.toString()}`;

    const warm = await t.request('GET', path, { token });
    const fresh = await createTestApp({ sharingDatabaseOf: t });
    try {
      const reference = await fresh.request('GET', path, { token });
      expect(warm.status, path).toBe(200);
      expect(warm.json, path).toEqual(reference.json);
    } finally {
      await fresh.close();
    }
  }
});
