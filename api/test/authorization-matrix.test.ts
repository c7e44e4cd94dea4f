import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoute } from '@parkpatrol/shared';
import { describeEndpoint, ENDPOINTS } from './endpoint-table.ts';
import { matrixCells, registeredRoutes, runCell } from './support/send.ts';
import { createWorld, uncappedUploads, type World } from './support/world.ts';
import { createTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
let w: World;

beforeAll(async () => {
  // Behind a proxy, as deployed: the rows that each need an address of their own send one (endpoint-table.ts).
  t = await createTestApp({ uploadGate: uncappedUploads(), config: { trustProxy: true } });
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

/** Every route of the shared contract: the compiler holds this list to the contract, the test below to the app. */
const CONTRACT_ROUTES: Record<ApiRoute, true> = {
  'GET /health': true,
  'POST /auth/login': true,
  'POST /auth/refresh': true,
  'POST /auth/logout': true,
  'POST /auth/forgot-password': true,
  'POST /auth/device-link': true,
  'POST /auth/reset-password': true,
  'POST /auth/reset-password/check': true,
  'POST /auth/access-link': true,
  'GET /users/profile': true,
  'PUT /users/profile': true,
  'GET /users/export.csv': true,
  'GET /users/selection': true,
  'GET /users': true,
  'POST /users/bulk-active': true,
  'POST /users': true,
  'PUT /users/:id': true,
  'DELETE /users/:id': true,
  'GET /car-parks': true,
  'GET /car-parks/all': true,
  'POST /car-parks': true,
  'PUT /car-parks/:id': true,
  'DELETE /car-parks/:id': true,
  'POST /car-parks/:id/assign-user': true,
  'DELETE /car-parks/:id/unassign-user': true,
  'GET /car-parks/:id/permits': true,
  'POST /car-parks/:id/permits': true,
  'POST /car-parks/:id/permits/import': true,
  'PUT /car-parks/:id/permits/:permitId': true,
  'DELETE /car-parks/:id/permits/:permitId': true,
  'GET /permits/sync': true,
  'GET /car-parks/:id/visitor': true,
  'PUT /car-parks/:id/visitor': true,
  'GET /public/visit/:siteCode': true,
  'POST /public/visit/:siteCode': true,
  'GET /car-parks/:id/charges': true,
  'GET /car-parks/:id/reports/monthly': true,
  'GET /car-parks/:id/reports/monthly.csv': true,
  'GET /car-parks/:id/reports/monthly.pdf': true,
  'GET /car-parks/:id/terms-history': true,
  'GET /settings/operator': true,
  'PUT /settings/operator': true,
  'PUT /settings/operator/logo': true,
  'DELETE /settings/operator/logo': true,
  'GET /settings/notice-terms': true,
  'PUT /pcns/:id/keeper': true,
  'PUT /pcns/:id/hirer': true,
  'PUT /pcns/:id/driver': true,
  'POST /pcns/:id/letters': true,
  'POST /pcns/:id/letters/posted': true,
  'POST /keeper-replies': true,
  'GET /public/charges/operator': true,
  'GET /public/charges/operator/logo/:file': true,
  'POST /public/charges/lookup': true,
  'POST /pcns/:id/payments': true,
  'POST /pcns/:id/refunds': true,
  'GET /public/charges/current': true,
  'POST /public/charges/current/appeal': true,
  'POST /public/appeals/confirm': true,
  'GET /public/charges/current/appeal/letter': true,
  'POST /public/charges/current/appeal/withdraw': true,
  'POST /public/charges/current/checkout': true,
  'POST /payments/stripe/webhook': true,
  'GET /debt-recovery/eligible': true,
  'GET /debt-recovery/exports': true,
  'POST /debt-recovery/exports': true,
  'GET /debt-recovery/exports/:id': true,
  'GET /debt-recovery/handovers': true,
  'GET /debt-recovery/handovers/:id': true,
  'POST /debt-recovery/updates': true,
  'GET /appeals': true,
  'GET /appeals/export.csv': true,
  'POST /appeals': true,
  'GET /appeals/:id': true,
  'POST /appeals/:id/decision': true,
  'POST /appeals/:id/decision-preview': true,
  'POST /appeals/:id/consider': true,
  'POST /appeals/:id/set-aside': true,
  'GET /appeals/:id/letter': true,
  'GET /appeals/:id/attachments/:attachmentId': true,
  'POST /keeper-notices/letters': true,
  'POST /keeper-notices/posted': true,
  'POST /keeper-notices/batches': true,
  'GET /keeper-notices/batches': true,
  'GET /keeper-notices/batches/:id': true,
  'GET /keeper-notices/batches/:id/file': true,
  'GET /collection-letters': true,
  'POST /collection-letters/letters': true,
  'POST /collection-letters/posted': true,
  'GET /pcns': true,
  'GET /pcns/stats': true,
  'GET /pcns/export.csv': true,
  'GET /pcns/selection': true,
  'GET /pcns/duplicates': true,
  'POST /pcns/bulk-status': true,
  'POST /pcns/bulk-status/undo': true,
  'GET /pcns/:id': true,
  'GET /pcns/:id/neighbours': true,
  'GET /pcns/:id/audit': true,
  'POST /pcns/:id/evidence-packs': true,
  'GET /pcns/:id/evidence-packs/:packId': true,
  'GET /pcns/:id/evidence-packs/:packId/file': true,
  'GET /pcns/:id/documents': true,
  'GET /pcns/:id/documents/:documentId': true,
  'POST /pcns': true,
  'PUT /pcns/:id': true,
  'DELETE /pcns/:id': true,
  'POST /pcns/:id/submit': true,
  'PATCH /pcns/:id/status': true,
  'POST /pcns/:id/cancellation-requests': true,
  'POST /pcns/:id/cancellation-requests/:requestId/decision': true,
  'GET /observations': true,
  'PUT /observations/:id': true,
  'GET /onboarding/users': true,
  'POST /onboarding/send/:userId': true,
  'POST /onboarding/send-bulk': true,
  'POST /tracking/heartbeat': true,
  'GET /tracking/admin/analytics': true,
  'GET /analytics/money': true,
  'GET /analytics/money.csv': true,
  'GET /payments/export': true,
  'GET /tracking/admin/users': true,
  'POST /client-errors': true,
  'GET /uploads/:fileName': true,
  'GET /uploads/:fileName/thumbnail': true,
};

describe('the shared API contract', () => {
  it('names every route the app registers under /api, and no route the app lacks', () => {
    const inContract = Object.keys(CONTRACT_ROUTES)
      .map((route) => route.replace(' ', ' /api'))
      .sort();
    const inApp = registeredRoutes(t).filter((route) => route.includes(' /api/'));
    expect({
      missingFromContract: inApp.filter((r) => !inContract.includes(r)),
      notInApp: inContract.filter((r) => !inApp.includes(r)),
    }).toEqual({
      missingFromContract: [],
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
