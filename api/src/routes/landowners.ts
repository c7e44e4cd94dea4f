import { Hono } from 'hono';
import {
  cancellationDecisionInputSchema,
  cancellationRequestInputSchema,
  carParkChargesQuerySchema,
  monthlyReportQuerySchema,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import { viewerOf } from '../http/viewer.ts';
import { decideCancellationRequest, requestCancellation } from '../workflows/cancellation-requests.ts';
import { carParkTermsHistory } from '../workflows/car-park-terms-history.ts';
import { listCarParkCharges, monthlyReport, monthlyReportCsv, monthlyReportPdf } from '../workflows/landowner-views.ts';

/**
 * A car park's charges and monthly report (decision 0042) and its terms' history (decision 0017),
 * under /car-parks (signed in there): for admins and the car park's landowners; the workflows
 * check which car parks are whose.
 */
export function createCarParkLandownerRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/:id/charges', async (c) =>
      ok(
        c,
        'GET /car-parks/:id/charges',
        await listCarParkCharges(deps, c.get('user'), c.req.param('id'), readQuery(c, carParkChargesQuerySchema)),
      ),
    )
    .get('/:id/terms-history', async (c) =>
      ok(c, 'GET /car-parks/:id/terms-history', await carParkTermsHistory(deps, c.get('user'), c.req.param('id'))),
    )
    .get('/:id/reports/monthly', async (c) => {
      const { month } = readQuery(c, monthlyReportQuerySchema);
      return ok(c, 'GET /car-parks/:id/reports/monthly', await monthlyReport(deps, c.get('user'), c.req.param('id'), month));
    })
    .get('/:id/reports/monthly.csv', async (c) => {
      const { month } = readQuery(c, monthlyReportQuerySchema);
      const file = await monthlyReportCsv(deps, c.get('user'), c.req.param('id'), month);
      return c.body(file.csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'no-store',
      });
    })
    .get('/:id/reports/monthly.pdf', async (c) => {
      const { month } = readQuery(c, monthlyReportQuerySchema);
      const file = await monthlyReportPdf(deps, c.get('user'), c.req.param('id'), month);
      return c.body(new Uint8Array(file.bytes), 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    });
}

/** A landowner's request that a charge be cancelled, and an admin's decision on it from the review (under /pcns, signed in there). */
export function createCancellationRequestRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .post('/:id/cancellation-requests', async (c) => {
      const input = await readJson(c, cancellationRequestInputSchema);
      const request = await requestCancellation(deps, c.get('user'), c.req.param('id'), input);
      return ok(c, 'POST /pcns/:id/cancellation-requests', request, { status: 201 });
    })
    .post('/:id/cancellation-requests/:requestId/decision', requireAdmin, async (c) => {
      const input = await readJson(c, cancellationDecisionInputSchema);
      const ids = { pcnId: c.req.param('id'), requestId: c.req.param('requestId') };
      return ok(
        c,
        'POST /pcns/:id/cancellation-requests/:requestId/decision',
        await decideCancellationRequest(deps, viewerOf(c), ids, input),
      );
    });
}
