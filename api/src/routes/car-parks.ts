import { Hono } from 'hono';
import {
  assignUserInputSchema,
  carParkListQuerySchema,
  createCarParkInputSchema,
  isAdminRole,
  SERVER_MESSAGES,
  SUCCESS_MESSAGES,
  updateCarParkInputSchema,
  type CarPark,
  type CarParkListResponse,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { AppError } from '../http/app-error.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import {
  assignUserToCarPark,
  deleteCarPark,
  findCarParkById,
  hasPcns,
  listActiveCarParks,
  listCarParks,
  unassignUserFromCarPark,
} from '../repositories/car-parks.ts';
import { isForeignKeyViolation } from '../repositories/constraint-errors.ts';
import { changeCarPark, createCarPark } from '../workflows/save-car-park.ts';
import { findUserById } from '../repositories/users.ts';

async function findCarParkOr404(deps: AppDeps, id: string): Promise<CarPark> {
  const carPark = await findCarParkById(deps.db, id, { withAssignedUsers: true });
  if (!carPark) throw new AppError('NOT_FOUND', SERVER_MESSAGES.carParkNotFound);
  return carPark;
}

async function ensureUserExists(deps: AppDeps, userId: string): Promise<void> {
  if (!(await findUserById(deps.db, userId))) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
}

export function createCarParkRoutes(deps: AppDeps) {
  const { db, now } = deps;

  return (
    new Hono<AppEnv>()
      .use('*', requireAuth(deps))

      // The officer's choices in the PCN form: only where they patrol, and only open sites.
      .get('/', async (c) => {
        const user = c.get('user');
        const carParks = await listActiveCarParks(db, isAdminRole(user.role) ? {} : { assignedToUserId: user.id });
        return ok(c, 'GET /car-parks', carParks);
      })

      .get('/all', requireAdmin, async (c) => {
        const query = readQuery(c, carParkListQuerySchema);
        const { carParks, total } = await listCarParks(db, query);
        const body: CarParkListResponse = {
          carParks,
          pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) },
        };
        return ok(c, 'GET /car-parks/all', body);
      })

      .post('/', requireAdmin, async (c) => {
        const input = await readJson(c, createCarParkInputSchema);
        const id = await createCarPark(db, input, c.get('user'), now());
        return ok(c, 'POST /car-parks', await findCarParkOr404(deps, id), { status: 201 });
      })

      .put('/:id', requireAdmin, async (c) => {
        const input = await readJson(c, updateCarParkInputSchema);
        const carPark = await findCarParkOr404(deps, c.req.param('id'));
        await changeCarPark(db, { id: carPark.id, before: carPark, changes: input }, c.get('user'), now());
        return ok(c, 'PUT /car-parks/:id', await findCarParkOr404(deps, carPark.id));
      })

      .delete('/:id', requireAdmin, async (c) => {
        const carPark = await findCarParkOr404(deps, c.req.param('id'));
        // PCNs keep pointing at their car park for as long as they exist; a site that has them is
        // deactivated instead, which takes it off every officer's list.
        if (await hasPcns(db, carPark.id)) throw new AppError('CONFLICT', SERVER_MESSAGES.carParkHasPcns);
        await deleteCarPark(db, carPark.id).catch((err: unknown) => {
          throw isForeignKeyViolation(err) ? new AppError('CONFLICT', SERVER_MESSAGES.carParkHasPcns) : err;
        });
        return ok(c, 'DELETE /car-parks/:id', { id: carPark.id }, { message: SUCCESS_MESSAGES.carParkDeleted });
      })

      .post('/:id/assign-user', requireAdmin, async (c) => {
        const input = await readJson(c, assignUserInputSchema);
        const carPark = await findCarParkOr404(deps, c.req.param('id'));
        await ensureUserExists(deps, input.userId);
        await assignUserToCarPark(db, { carParkId: carPark.id, userId: input.userId, now: now() });
        return ok(c, 'POST /car-parks/:id/assign-user', await findCarParkOr404(deps, carPark.id));
      })

      .delete('/:id/unassign-user', requireAdmin, async (c) => {
        const input = await readJson(c, assignUserInputSchema);
        const carPark = await findCarParkOr404(deps, c.req.param('id'));
        await ensureUserExists(deps, input.userId);
        await unassignUserFromCarPark(db, { carParkId: carPark.id, userId: input.userId });
        return ok(c, 'DELETE /car-parks/:id/unassign-user', await findCarParkOr404(deps, carPark.id));
      })
  );
}
