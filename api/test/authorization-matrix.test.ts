import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEndpoint, ENDPOINTS } from './endpoint-table.ts';
import { matrixCells, registeredRoutes, runCell } from './support/send.ts';
import { createWorld, uncappedUploads, type World } from './support/world.ts';
import { createTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp({ uploadGate: uncappedUploads() });
  w = await createWorld(t);
});
afterAll(async () => {
  await t.close();
});

describe('the endpoint table', () => {
  it('lists every route the app registers, and no route the app lacks', () => {
    const inTable = [...new Set(ENDPOINTS.map((e) => `${e.method} /api${e.route}`))].sort();
    const inApp = registeredRoutes(t);
    expect({ missingFromTable: inApp.filter((r) => !inTable.includes(r)), notInApp: inTable.filter((r) => !inApp.includes(r)) }).toEqual({
      missingFromTable: [],
      notInApp: [],
    });
  });
});

// Every cell builds its own resources, so cells run side by side (most of their time is fsync).
describe.concurrent('authorisation matrix: every endpoint for every caller', () => {
  for (const { endpoint, actor, status } of matrixCells(ENDPOINTS)) {
    it(`${describeEndpoint(endpoint)} as ${actor} answers ${status}`, async () => {
      const res = await runCell(w, endpoint, actor);
      expect(res.status, res.text.slice(0, 300)).toBe(status);
      if (status >= 400) {
        expect(res.json).toMatchObject({ success: false, code: expect.any(String), message: expect.any(String) });
      } else if (res.headers.get('content-type')?.includes('application/json')) {
        expect(res.json).toMatchObject({ success: true });
      }
    });
  }
});
