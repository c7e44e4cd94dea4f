import { Hono, type Context } from 'hono';
import { moneyAnalyticsQuerySchema, paymentsExportQuerySchema } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { readQuery } from '../http/validation.ts';
import { exportPayments, moneyAnalytics, moneyAnalyticsCsv } from '../workflows/money-analytics.ts';

/** A CSV download: never kept on the way (it names charges and sums of money). */
function csvAnswer(c: Context<AppEnv>, file: { csv: ReadableStream<Uint8Array>; fileName: string }) {
  c.header('Content-Type', 'text/csv; charset=utf-8');
  c.header('Content-Disposition', `attachment; filename="${file.fileName}"`);
  c.header('Cache-Control', 'no-store');
  return c.body(file.csv);
}

/** The Admin Dashboard's money at a glance, as figures and as the same figures in a CSV. */
export function createMoneyAnalyticsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/money', auth, requireAdmin, async (c) =>
      ok(c, 'GET /analytics/money', await moneyAnalytics(deps, readQuery(c, moneyAnalyticsQuerySchema))),
    )
    .get('/money.csv', auth, requireAdmin, async (c) =>
      csvAnswer(c, await moneyAnalyticsCsv(deps, readQuery(c, moneyAnalyticsQuerySchema))),
    );
}

/**
 * The payments export for reconciliation, beside the card processor's webhook under /payments
 * (routes/payments.ts): each route here carries its own sign-in, the webhook none.
 */
export function createPaymentExportRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>().get('/export', auth, requireAdmin, async (c) =>
    csvAnswer(c, await exportPayments(deps, readQuery(c, paymentsExportQuerySchema))),
  );
}
