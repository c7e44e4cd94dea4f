import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, type Pcn, type PcnNeighbours, type PcnStatus } from '@parkpatrol/shared';
import { insertPcnsDirectly } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

// The review's 'Previous' and 'Save & next' walk the list the admin came from, in its
// filters and sort, and still know where they are after the review moved a PCN out of it.

let t: TestApp;
let admin: Session;
let officer: Session;
let carParkId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedInUser('ADMIN');
  officer = await t.signedInUser('USER', { firstName: 'Olive', lastName: 'Owner' });
  const bob = await t.createUser({ firstName: 'Bob', lastName: 'Baker' });
  carParkId = (await t.createCarPark({ name: 'Review Lot', assignTo: [officer.id] })).id;
  const otherParkId = (await t.createCarPark({ name: 'Elsewhere' })).id;
  const statuses: PcnStatus[] = ['SUBMITTED', 'SUBMITTED', 'UNDER_REVIEW', 'SUBMITTED', 'APPROVED'];
  await insertPcnsDirectly(t, 14, (i) => ({
    createdBy: i % 2 === 0 ? officer.id : bob.id,
    carParkId: i % 5 === 4 ? otherParkId : carParkId,
    vehicleRegistration: ['RV11AAA', 'RV22BBB', 'RV11AAA', 'RV33CCC'][i % 4]!,
    status: statuses[i % statuses.length],
    // Pairs share a time: the number decides between them.
    createdAt: new Date(Date.parse('2026-05-01T09:00:00.000Z') + Math.floor(i / 2) * 60_000).toISOString(),
  }));
});
afterAll(() => t.close());

async function listAll(query: string): Promise<Pcn[]> {
  const pcns: Pcn[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request('GET', `/pcns?scope=all&limit=4&page=${page}&${query}`, { token: admin.token });
    expect(res.status).toBe(200);
    pcns.push(...(res.json.data.pcns as Pcn[]));
    if (page >= res.json.data.pagination.pages) return pcns;
  }
}

async function neighbours(pcnId: string, query: string): Promise<PcnNeighbours> {
  const res = await t.request('GET', `/pcns/${pcnId}/neighbours?${query}`, { token: admin.token });
  expect(res.status, res.text).toBe(200);
  return res.json.data as PcnNeighbours;
}

describe('GET /pcns/{id}/neighbours', () => {
  it('gives the PCNs before and after each one, and its place, in the filtered and sorted list', async () => {
    for (const query of [
      `status=SUBMITTED&carParkId=${carParkId}&sort=vehicleRegistration&order=asc`,
      `carParkId=${carParkId}&sort=officer&order=desc`,
      'sort=created&order=asc',
      '',
      'search=RV11&sort=status',
      'sort=deadline',
    ]) {
      const ids = (await listAll(query)).map((pcn) => pcn.id);
      expect(ids.length, query).toBeGreaterThan(2);
      for (const [index, id] of ids.entries()) {
        expect(await neighbours(id, query), `${query} #${index + 1}`).toEqual({
          previousId: ids[index - 1] ?? null,
          nextId: ids[index + 1] ?? null,
          position: index + 1,
          total: ids.length,
          totalCapped: false,
        });
      }
    }
  });

  it('still finds the neighbours of a PCN the review just moved out of a status-filtered list, with no position', async () => {
    const query = `status=SUBMITTED&carParkId=${carParkId}&sort=vehicleRegistration&order=desc`;
    const ids = (await listAll(query)).map((pcn) => pcn.id);
    expect(ids.length).toBeGreaterThanOrEqual(5);
    const middle = 2;
    const moved = await t.request('PATCH', `/pcns/${ids[middle]}/status`, { token: admin.token, json: { status: 'UNDER_REVIEW' } });
    expect(moved.status).toBe(200);
    expect(await neighbours(ids[middle]!, query)).toEqual({
      previousId: ids[middle - 1],
      nextId: ids[middle + 1],
      position: null,
      total: ids.length - 1,
      totalCapped: false,
    });
    // The ends too: nothing before the first, nothing after the last.
    for (const end of [0, ids.length - 1]) {
      expect((await t.request('PATCH', `/pcns/${ids[end]}/status`, { token: admin.token, json: { status: 'UNDER_REVIEW' } })).status).toBe(
        200,
      );
    }
    expect(await neighbours(ids[0]!, query)).toMatchObject({ previousId: null, nextId: ids[1], position: null });
    expect(await neighbours(ids.at(-1)!, query)).toMatchObject({ previousId: ids.at(-2), nextId: null, position: null });
    // And the list it left agrees.
    const remaining = (await listAll(query)).map((pcn) => pcn.id);
    expect(remaining).toEqual(ids.filter((_, index) => index !== middle && index !== 0 && index !== ids.length - 1));
  });

  it('answers 404 for a PCN that does not exist, 403 to an officer, 400 to a bad query', async () => {
    const missing = await t.request('GET', `/pcns/${randomUUID()}/neighbours`, { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(ERROR_MESSAGES.pcnNotFound);
    const [own] = await listAll(`carParkId=${carParkId}`);
    expect((await t.request('GET', `/pcns/${own!.id}/neighbours`, { token: officer.token })).status).toBe(403);
    expect((await t.request('GET', `/pcns/${own!.id}/neighbours?sort=colour`, { token: admin.token })).status).toBe(400);
  });
});
