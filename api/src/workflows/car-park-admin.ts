import {
  isAdminRole,
  SERVER_MESSAGES,
  type CarPark,
  type CarParkListQuery,
  type CarParkListResponse,
  type UpdateCarParkInput,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';
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
import { findUserById } from '../repositories/users.ts';
import { changeCarPark } from './save-car-park.ts';

type Deps = Pick<AppDeps, 'db' | 'now'>;

/** A car park with the users assigned to it, or the 404 of one that does not exist. */
export async function viewCarPark(deps: Pick<AppDeps, 'db'>, id: string): Promise<CarPark> {
  const carPark = await findCarParkById(deps.db, id, { withAssignedUsers: true });
  if (!carPark) throw new AppError('NOT_FOUND', SERVER_MESSAGES.carParkNotFound);
  return carPark;
}

async function ensureUserExists(deps: Pick<AppDeps, 'db'>, userId: string): Promise<void> {
  if (!(await findUserById(deps.db, userId))) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
}

/** The officer's choices in the PCN form: only where they patrol, and only open sites. */
export function carParksToFileAgainst(deps: Pick<AppDeps, 'db'>, user: AuthUser) {
  return listActiveCarParks(deps.db, isAdminRole(user.role) ? {} : { assignedToUserId: user.id });
}

export async function listCarParkPage(deps: Pick<AppDeps, 'db'>, query: CarParkListQuery): Promise<CarParkListResponse> {
  const { carParks, total } = await listCarParks(deps.db, query);
  return { carParks, pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } };
}

export async function updateCarPark(deps: Deps, input: { id: string; changes: UpdateCarParkInput; user: AuthUser }): Promise<CarPark> {
  const carPark = await viewCarPark(deps, input.id);
  await changeCarPark(deps.db, { id: carPark.id, before: carPark, changes: input.changes }, input.user, deps.now());
  return viewCarPark(deps, carPark.id);
}

/**
 * PCNs keep pointing at their car park for as long as they exist; a site that has them is
 * deactivated instead, which takes it off every officer's list.
 */
export async function removeCarPark(deps: Pick<AppDeps, 'db'>, id: string): Promise<string> {
  const carPark = await viewCarPark(deps, id);
  if (await hasPcns(deps.db, carPark.id)) throw new AppError('CONFLICT', SERVER_MESSAGES.carParkHasPcns);
  await deleteCarPark(deps.db, carPark.id).catch((err: unknown) => {
    throw isForeignKeyViolation(err) ? new AppError('CONFLICT', SERVER_MESSAGES.carParkHasPcns) : err;
  });
  return carPark.id;
}

export async function assignUser(deps: Deps, input: { carParkId: string; userId: string }): Promise<CarPark> {
  const carPark = await viewCarPark(deps, input.carParkId);
  await ensureUserExists(deps, input.userId);
  await assignUserToCarPark(deps.db, { carParkId: carPark.id, userId: input.userId, now: deps.now() });
  return viewCarPark(deps, carPark.id);
}

export async function unassignUser(deps: Pick<AppDeps, 'db'>, input: { carParkId: string; userId: string }): Promise<CarPark> {
  const carPark = await viewCarPark(deps, input.carParkId);
  await ensureUserExists(deps, input.userId);
  await unassignUserFromCarPark(deps.db, { carParkId: carPark.id, userId: input.userId });
  return viewCarPark(deps, carPark.id);
}
