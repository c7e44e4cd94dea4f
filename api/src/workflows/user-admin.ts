import {
  SERVER_MESSAGES,
  type CreateUserInput,
  type UpdateProfileInput,
  type User,
  type UserListQuery,
  type UserListResponse,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { endUserCredentials } from '../auth/end-credentials.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { checkCreateUser } from '../auth/user-rules.ts';
import { USER_CSV_COLUMNS, userCsvRecord } from '../domain/user-csv.ts';
import { AppError } from '../http/app-error.ts';
import { findMissingCarParkIds, setUserCarParks } from '../repositories/car-parks.ts';
import { isUniqueViolation } from '../repositories/constraint-errors.ts';
import { findPasswordHash, findUserById, insertUser, isEmailTaken, listUsers, streamUsers, updateUser } from '../repositories/users.ts';
import { csvStream, toRecords } from '../services/csv-export.ts';
import { confirmCurrentPassword } from './confirm-current-password.ts';
import { enforce, lockActingAdmin } from './update-user-account.ts';

/** A user with their car parks, or the 404 of one that does not exist. */
export async function viewUser(deps: Pick<AppDeps, 'db'>, id: string): Promise<User> {
  const user = await findUserById(deps.db, id, { withCarParks: true });
  if (!user) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
  return user;
}

/**
 * The signed-in user's own name and password. An account opened by an access link has no
 * password yet and chooses its first one here without a current one; anyone else proves they
 * know it, and whoever knew the old password is signed out everywhere but this session.
 */
export async function updateProfile(
  deps: Pick<AppDeps, 'db' | 'now' | 'metrics'> & { signInLimiter: SignInLimiter },
  me: AuthUser & { sessionId: string; address: string },
  input: UpdateProfileInput,
): Promise<User> {
  const { db } = deps;
  const currentHash = await findPasswordHash(db, me.id);
  if (!currentHash && input.newPassword === undefined) throw new AppError('PASSWORD_REQUIRED', SERVER_MESSAGES.passwordRequired);
  let passwordHash: string | undefined;
  if (input.newPassword !== undefined) {
    await confirmCurrentPassword(
      { db, signInLimiter: deps.signInLimiter, metrics: deps.metrics },
      { userId: me.id, email: me.email, currentPassword: input.currentPassword, address: me.address, sessionId: me.sessionId },
    );
    passwordHash = await hashPassword(input.newPassword);
  }
  const at = deps.now();
  await db.transaction().execute(async (trx) => {
    await updateUser(trx, me.id, {
      ...(input.firstName !== undefined && { firstName: input.firstName }),
      ...(input.lastName !== undefined && { lastName: input.lastName }),
      ...(passwordHash !== undefined && { passwordHash }),
      now: at,
    });
    if (passwordHash !== undefined) {
      await endUserCredentials(trx, { userId: me.id, now: at, exceptFamilyId: me.sessionId });
    }
  });
  return viewUser(deps, me.id);
}

/** Manage Users' 'Export CSV': every user the filters select, in the list's order, streamed. */
export function exportUsers(deps: Pick<AppDeps, 'db'>, filter: Omit<UserListQuery, 'page' | 'limit'>) {
  return csvStream(USER_CSV_COLUMNS, toRecords(streamUsers(deps.db, filter), userCsvRecord));
}

export async function listUserPage(deps: Pick<AppDeps, 'db'>, query: UserListQuery): Promise<UserListResponse> {
  const { users, total } = await listUsers(deps.db, query);
  return { users, pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } };
}

/** A new account, with its car parks, by an admin allowed to give it that role. */
export async function createUser(deps: Pick<AppDeps, 'db' | 'now'>, actor: AuthUser, input: CreateUserInput): Promise<User> {
  const { db } = deps;
  enforce(checkCreateUser(actor, input.role));
  if (await isEmailTaken(db, input.email)) throw new AppError('CONFLICT', SERVER_MESSAGES.emailTaken);
  const carParkIds = input.carParkIds ?? [];
  if ((await findMissingCarParkIds(db, carParkIds)).length > 0) {
    throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.carParkNotFound, {
      details: { carParkIds: SERVER_MESSAGES.carParkNotFound },
    });
  }
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const at = deps.now();
  const id = await db
    .transaction()
    .execute(async (trx) => {
      // Again under the user-role lock: the admin may have been demoted while the hash ran.
      enforce(checkCreateUser(await lockActingAdmin(trx, actor), input.role));
      const newId = await insertUser(trx, { ...input, passwordHash, now: at });
      await setUserCarParks(trx, { userId: newId, carParkIds, now: at });
      return newId;
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? new AppError('CONFLICT', SERVER_MESSAGES.emailTaken) : err;
    });
  return viewUser(deps, id);
}
