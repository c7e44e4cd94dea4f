import { Hono } from 'hono';
import { bulkPcnStatusInputSchema, bulkPcnStatusUndoInputSchema, changePcnStatusInputSchema, type BulkResponse } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { readJson } from '../http/validation.ts';
import { viewerOf } from '../http/viewer.ts';
import { cancellationOf, changePcnStatus, changePcnStatuses, undoPcnStatuses } from '../workflows/change-pcn-status.ts';
import { viewPcnById, viewPcnRow } from '../workflows/pcn-view.ts';
import { submitPcn } from '../workflows/submit-pcn.ts';

/** A notice's status: the officer's submit, an admin's review decision, and the bulk change. */
export function createPcnStatusRoutes(deps: AppDeps) {
  return (
    new Hono<AppEnv>()
      /**
       * Manage PCNs' bulk status change: each PCN goes through the single change on its own, and the
       * answer says per PCN whether it moved (a PCN whose status does not allow it stays as it was).
       */
      .post('/bulk-status', requireAdmin, async (c) => {
        const input = await readJson(c, bulkPcnStatusInputSchema);
        const body: BulkResponse = { results: await changePcnStatuses(deps, { ...input, actor: c.get('user') }) };
        return ok(c, 'POST /pcns/bulk-status', body);
      })

      /** Undo of a bulk change while its results are on screen: each PCN back to the status it had, or why not. */
      .post('/bulk-status/undo', requireAdmin, async (c) => {
        const input = await readJson(c, bulkPcnStatusUndoInputSchema);
        const body: BulkResponse = { results: await undoPcnStatuses(deps, { ...input, actor: c.get('user') }) };
        return ok(c, 'POST /pcns/bulk-status/undo', body);
      })

      .post('/:id/submit', async (c) => {
        const row = await submitPcn(deps.db, c.get('user'), c.req.param('id'));
        return ok(c, 'POST /pcns/:id/submit', await viewPcnRow(deps, row, viewerOf(c), { withHistory: true }));
      })

      .patch('/:id/status', async (c) => {
        const id = c.req.param('id');
        const input = await readJson(c, changePcnStatusInputSchema);
        await changePcnStatus(deps.db, {
          pcnId: id,
          actor: c.get('user'),
          status: input.status,
          adminNotes: input.adminNotes,
          cancellation: cancellationOf(input),
          now: deps.now(),
        });
        return ok(c, 'PATCH /pcns/:id/status', await viewPcnById(deps, id, viewerOf(c)));
      })
  );
}
