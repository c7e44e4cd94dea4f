import { Hono } from 'hono';
import {
  assignUserInputSchema,
  carParkListQuerySchema,
  createCarParkInputSchema,
  SUCCESS_MESSAGES,
  updateCarParkInputSchema,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import {
  assignUser,
  carParksToFileAgainst,
  listCarParkPage,
  removeCarPark,
  unassignUser,
  updateCarPark,
  viewCarPark,
} from '../workflows/car-park-admin.ts';
import { createCarPark } from '../workflows/save-car-park.ts';
import { createCarParkPermitRoutes, createCarParkVisitorRoutes } from './permits.ts';
import { createCarParkLandownerRoutes } from './landowners.ts';

export function createCarParkRoutes(deps: AppDeps) {
  const { db, now } = deps;

  return (
    new Hono<AppEnv>()
      .use('*', requireAuth(deps))

      // The officer's choices in the PCN form: only where they patrol, and only open sites.
      .get('/', async (c) => ok(c, 'GET /car-parks', await carParksToFileAgainst(deps, c.get('user'))))

      .get('/all', requireAdmin, async (c) =>
        ok(c, 'GET /car-parks/all', await listCarParkPage(deps, readQuery(c, carParkListQuerySchema))),
      )

      .post('/', requireAdmin, async (c) => {
        const input = await readJson(c, createCarParkInputSchema);
        const id = await createCarPark(db, input, c.get('user'), now());
        return ok(c, 'POST /car-parks', await viewCarPark(deps, id), { status: 201 });
      })

      .put('/:id', requireAdmin, async (c) => {
        const changes = await readJson(c, updateCarParkInputSchema);
        return ok(c, 'PUT /car-parks/:id', await updateCarPark(deps, { id: c.req.param('id'), changes, user: c.get('user') }));
      })

      .delete('/:id', requireAdmin, async (c) => {
        const id = await removeCarPark(deps, c.req.param('id'));
        return ok(c, 'DELETE /car-parks/:id', { id }, { message: SUCCESS_MESSAGES.carParkDeleted });
      })

      .post('/:id/assign-user', requireAdmin, async (c) => {
        const { userId } = await readJson(c, assignUserInputSchema);
        return ok(c, 'POST /car-parks/:id/assign-user', await assignUser(deps, { carParkId: c.req.param('id'), userId }));
      })

      .delete('/:id/unassign-user', requireAdmin, async (c) => {
        const { userId } = await readJson(c, assignUserInputSchema);
        return ok(c, 'DELETE /car-parks/:id/unassign-user', await unassignUser(deps, { carParkId: c.req.param('id'), userId }));
      })

      // Admins and the car park's landowners (their own rule: workflows/permit-access.ts).
      .route('/:id/permits', createCarParkPermitRoutes(deps))
      .route('/:id/visitor', createCarParkVisitorRoutes(deps))

      // A car park's charges (without the motorist) and monthly report: admins and its landowners.
      .route('/', createCarParkLandownerRoutes(deps))
  );
}
