import { Hono } from 'hono';
import { pcnDuplicatesQuerySchema, pcnListQuerySchema, pcnStatsQuerySchema, type PcnDuplicatesResponse } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { readQuery } from '../http/validation.ts';
import { viewerOf } from '../http/viewer.ts';
import { countPcns, exportPcns, findSameEvent, listPcns, neighboursOf, selectPcns } from '../workflows/pcn-list.ts';

/** The lists of notices: an officer's own, Manage PCNs for admins, and the duplicate check while filing. */
export function createPcnListRoutes(deps: AppDeps) {
  return (
    new Hono<AppEnv>()
      .get('/', async (c) => ok(c, 'GET /pcns', await listPcns(deps, viewerOf(c), readQuery(c, pcnListQuerySchema))))

      .get('/stats', async (c) => ok(c, 'GET /pcns/stats', await countPcns(deps, c.get('user'), readQuery(c, pcnStatsQuerySchema))))

      // Manage PCNs' 'Export CSV': exactly the filtered, sorted list, every page, streamed.
      .get('/export.csv', requireAdmin, async (c) => {
        const { csv, fileName } = await exportPcns(deps, readQuery(c, pcnListQuerySchema));
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', `attachment; filename="${fileName}"`);
        return c.body(csv);
      })

      // Manage PCNs' 'Select all matching': every PCN the list's query selects, not only the page shown.
      .get('/selection', requireAdmin, async (c) => ok(c, 'GET /pcns/selection', await selectPcns(deps, readQuery(c, pcnListQuerySchema))))

      // The review's 'Previous' and 'Save & next': the PCNs around this one in the list it was opened from.
      .get('/:id/neighbours', requireAdmin, async (c) =>
        ok(c, 'GET /pcns/:id/neighbours', await neighboursOf(deps, c.req.param('id'), readQuery(c, pcnListQuerySchema))),
      )

      /**
       * Other PCNs for the same parking event (same registration, car park and UTC day of first
       * sighting, else creation), anyone's: only number, status and time, nothing of the officer
       * who filed them. A USER may ask only about a car park assigned to them.
       */
      .get('/duplicates', async (c) => {
        const body: PcnDuplicatesResponse = await findSameEvent(deps, c.get('user'), readQuery(c, pcnDuplicatesQuerySchema));
        return ok(c, 'GET /pcns/duplicates', body);
      })
  );
}
