import { isAdminRole, SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';

/**
 * Who may add, change, end and import a car park's permits: an admin for every car park; a
 * LANDOWNER only for the car parks they are assigned to (car_park_users, the same assignment as
 * officers'). Officers (USER) never manage permits: they read them through their phone's sync.
 *
 * The same rule of assignment answers whether a landowner may see anything of a car park
 * (`isAssignedToCarPark`), so a landowner's screens and the permits agree on what is theirs.
 */
export async function canManagePermits(db: Db, user: Pick<AuthUser, 'id' | 'role'>, carParkId: string): Promise<boolean> {
  if (isAdminRole(user.role)) return true;
  if (user.role !== 'LANDOWNER') return false;
  return isAssignedToCarPark(db, user.id, carParkId);
}

/** Whether the user is assigned to the car park (officers and landowners alike). */
export async function isAssignedToCarPark(db: Db, userId: string, carParkId: string): Promise<boolean> {
  const row = await db
    .selectFrom('car_park_users')
    .select('car_park_users.user_id')
    .where('car_park_users.car_park_id', '=', carParkId)
    .where('car_park_users.user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The ids of the car parks a user is assigned to (a landowner's car parks, an officer's patch). */
export async function assignedCarParkIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('car_park_users').select('car_park_id').where('user_id', '=', userId).execute();
  return rows.map((row) => row.car_park_id);
}

/**
 * The car park's permits may be managed by this user, else the answer: a car park that does not
 * exist, or that a landowner is not assigned to, is the same 404 (a landowner learns nothing of
 * another landowner's car parks); an officer gets 403, as for every admin screen.
 */
export async function assertMayManagePermits(db: Db, user: Pick<AuthUser, 'id' | 'role'>, carParkId: string): Promise<void> {
  if (!isAdminRole(user.role) && user.role !== 'LANDOWNER') throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  const exists = await db.selectFrom('car_parks').select('id').where('id', '=', carParkId).executeTakeFirst();
  if (!exists || !(await canManagePermits(db, user, carParkId))) {
    throw new AppError('NOT_FOUND', SERVER_MESSAGES.carParkNotFound);
  }
}
