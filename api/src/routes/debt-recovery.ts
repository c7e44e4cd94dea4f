import { Hono } from 'hono';
import { debtRecoveryExportInputSchema, debtRecoveryUpdatesInputSchema } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { SANDBOXED_FILE_POLICY } from '../http/sandboxed-file.ts';
import { readJson } from '../http/validation.ts';
import {
  listBatches,
  listEligibleCharges,
  listHandovers,
  readBatch,
  readHandover,
  startDebtRecoveryHandover,
} from '../workflows/debt-recovery.ts';
import { importDebtRecoveryUpdates } from '../workflows/import-debt-recovery-updates.ts';

/** The hand-over to a debt recovery agency and its outcomes back (decision 0040): admins only (keeper names and addresses). */
export function createDebtRecoveryRoutes(deps: AppDeps) {
  return (
    new Hono<AppEnv>()
      .use('*', requireAuth(deps), requireAdmin)

      .get('/eligible', async (c) => ok(c, 'GET /debt-recovery/eligible', await listEligibleCharges(deps)))

      .get('/exports', async (c) => ok(c, 'GET /debt-recovery/exports', await listBatches(deps.db)))

      .post('/exports', async (c) => {
        const input = await readJson(c, debtRecoveryExportInputSchema);
        const handover = await startDebtRecoveryHandover(deps, { pcnIds: input.pcnIds, user: c.get('user') });
        return ok(c, 'POST /debt-recovery/exports', handover, { status: 202 });
      })

      .get('/handovers', async (c) => ok(c, 'GET /debt-recovery/handovers', await listHandovers(deps)))

      .get('/handovers/:id', async (c) => ok(c, 'GET /debt-recovery/handovers/:id', await readHandover(deps.db, c.req.param('id'))))

      // The ZIP as it was made, byte for byte: never shown inline, never kept on the way.
      .get('/exports/:id', async (c) => {
        const { batch, bytes } = await readBatch(deps, c.req.param('id'));
        return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
          'Content-Type': 'application/zip',
          'Content-Disposition': `attachment; filename="${batch.fileName}"`,
          'Repr-Digest': `sha-256=:${Buffer.from(batch.sha256, 'hex').toString('base64')}:`,
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': SANDBOXED_FILE_POLICY,
        });
      })

      .post('/updates', async (c) => {
        const input = await readJson(c, debtRecoveryUpdatesInputSchema);
        return ok(
          c,
          'POST /debt-recovery/updates',
          await importDebtRecoveryUpdates(deps.db, { csv: input.csv, preview: input.preview, user: c.get('user'), now: deps.now() }),
        );
      })
  );
}
