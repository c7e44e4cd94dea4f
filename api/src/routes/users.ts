import { Hono } from 'hono';
import {
  bulkUserActiveInputSchema,
  createUserInputSchema,
  SERVER_MESSAGES,
  SUCCESS_MESSAGES,
  updateProfileInputSchema,
  updateUserInputSchema,
  userExportFileName,
  userListQuerySchema,
  type BulkResponse,
  type User,
  type UserListResponse,
  type UserSelectionResponse,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { hashPassword } from '../auth/passwords.ts';
import { endUserCredentials } from '../auth/end-credentials.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { checkCreateUser } from '../auth/user-rules.ts';
import { AppError } from '../http/app-error.ts';
import { clientAddress } from '../http/client-address.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import { isUniqueViolation } from '../repositories/constraint-errors.ts';
import { findMissingCarParkIds, setUserCarParks } from '../repositories/car-parks.ts';
import { findPasswordHash, findUserById, insertUser, isEmailTaken, listUsers, streamUsers, updateUser } from '../repositories/users.ts';
import { USER_CSV_COLUMNS, userCsvRecord } from '../domain/user-csv.ts';
import { csvStream, toRecords } from '../services/csv-export.ts';
import { confirmCurrentPassword } from '../workflows/confirm-current-password.ts';
import { selectAllMatchingUsers } from '../workflows/select-all-matching.ts';
import { deleteUserAccount, enforce, lockActingAdmin, setUsersActive, updateUserAccount } from '../workflows/update-user-account.ts';

async function findUserOr404(deps: AppDeps, id: string): Promise<User> {
  const user = await findUserById(deps.db, id, { withCarParks: true });
  if (!user) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
  return user;
}

export function createUserRoutes(deps: AppDeps, signInLimiter: SignInLimiter) {
  const { db, now } = deps;

  return (
    new Hono<AppEnv>()
      // The account as requireAuth has just read it, car parks and all: every start of the app
      // asks for it, and it is one read. Registered before the requireAuth of the
      // other routes, which it stands in for: Hono runs handlers in the order they were added,
      // and this one answers.
      .get('/profile', requireAuth(deps, { withCarParks: true }), (c) => ok(c, 'GET /users/profile', c.get('account')))

      .use('*', requireAuth(deps))

      .put('/profile', async (c) => {
        const input = await readJson(c, updateProfileInputSchema);
        const me = c.get('user');
        const currentHash = await findPasswordHash(db, me.id);
        // An account opened by an access link uses this route only to choose its first password.
        if (!currentHash && input.newPassword === undefined) throw new AppError('PASSWORD_REQUIRED', SERVER_MESSAGES.passwordRequired);
        let passwordHash: string | undefined;
        if (input.newPassword !== undefined) {
          // A user who arrived by access link has no password yet and sets the first one without
          // a current one; anyone else proves they know it.
          await confirmCurrentPassword(
            { db, signInLimiter, metrics: deps.metrics },
            {
              userId: me.id,
              email: me.email,
              currentPassword: input.currentPassword,
              address: clientAddress(c, { trustProxy: deps.config.trustProxy }),
              sessionId: c.get('sessionId'),
            },
          );
          passwordHash = await hashPassword(input.newPassword);
        }
        const at = now();
        await db.transaction().execute(async (trx) => {
          await updateUser(trx, me.id, {
            ...(input.firstName !== undefined && { firstName: input.firstName }),
            ...(input.lastName !== undefined && { lastName: input.lastName }),
            ...(passwordHash !== undefined && { passwordHash }),
            now: at,
          });
          // Whoever knew the old password is signed out everywhere but here.
          if (passwordHash !== undefined) {
            await endUserCredentials(trx, { userId: me.id, now: at, exceptFamilyId: c.get('sessionId') });
          }
        });
        return ok(c, 'PUT /users/profile', await findUserOr404(deps, me.id));
      })

      // Manage Users' 'Export CSV': every user the filters select, in the list's order.
      .get('/export.csv', requireAdmin, async (c) => {
        const { page: _page, limit: _limit, ...filter } = readQuery(c, userListQuerySchema);
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', `attachment; filename="${userExportFileName(deps.now(), filter)}"`);
        return c.body(csvStream(USER_CSV_COLUMNS, toRecords(streamUsers(db, filter), userCsvRecord)));
      })

      // Manage Users' 'Select all matching': every user the list's query selects, not only the page shown.
      .get('/selection', requireAdmin, async (c) => {
        const { page: _page, limit: _limit, ...filter } = readQuery(c, userListQuerySchema);
        const body: UserSelectionResponse = await selectAllMatchingUsers(db, filter);
        return ok(c, 'GET /users/selection', body);
      })

      .get('/', requireAdmin, async (c) => {
        const query = readQuery(c, userListQuerySchema);
        const { users, total } = await listUsers(db, query);
        const body: UserListResponse = {
          users,
          pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) },
        };
        return ok(c, 'GET /users', body);
      })

      // Manage Users' bulk activate/deactivate: each user under the rules of a single change.
      .post('/bulk-active', requireAdmin, async (c) => {
        const input = await readJson(c, bulkUserActiveInputSchema);
        const body: BulkResponse = { results: await setUsersActive(deps, { ...input, actor: c.get('user') }) };
        return ok(c, 'POST /users/bulk-active', body);
      })

      .post('/', requireAdmin, async (c) => {
        const input = await readJson(c, createUserInputSchema);
        enforce(checkCreateUser(c.get('user'), input.role));
        if (await isEmailTaken(db, input.email)) throw new AppError('CONFLICT', SERVER_MESSAGES.emailTaken);
        const carParkIds = input.carParkIds ?? [];
        if ((await findMissingCarParkIds(db, carParkIds)).length > 0) {
          throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.carParkNotFound, {
            details: { carParkIds: SERVER_MESSAGES.carParkNotFound },
          });
        }
        const passwordHash = input.password ? await hashPassword(input.password) : null;
        const at = now();
        const id = await db
          .transaction()
          .execute(async (trx) => {
            // Again under the user-role lock: the admin may have been demoted while the hash ran.
            enforce(checkCreateUser(await lockActingAdmin(trx, c.get('user')), input.role));
            const newId = await insertUser(trx, { ...input, passwordHash, now: at });
            await setUserCarParks(trx, { userId: newId, carParkIds, now: at });
            return newId;
          })
          .catch((err: unknown) => {
            throw isUniqueViolation(err) ? new AppError('CONFLICT', SERVER_MESSAGES.emailTaken) : err;
          });
        return ok(c, 'POST /users', await findUserOr404(deps, id), { status: 201 });
      })

      .put('/:id', requireAdmin, async (c) => {
        const { currentPassword, ...input } = await readJson(c, updateUserInputSchema);
        const id = c.req.param('id');
        const actor = c.get('user');
        // An admin changing their own password or email proves it is them, as on the profile.
        if (id === actor.id && (input.password !== undefined || input.email !== undefined)) {
          await confirmCurrentPassword(
            { db, signInLimiter, metrics: deps.metrics },
            {
              userId: actor.id,
              email: actor.email,
              currentPassword,
              address: clientAddress(c, { trustProxy: deps.config.trustProxy }),
              sessionId: c.get('sessionId'),
            },
          );
        }
        await updateUserAccount(deps, { ...actor, sessionId: c.get('sessionId') }, id, input);
        return ok(c, 'PUT /users/:id', await findUserOr404(deps, id));
      })

      .delete('/:id', requireAdmin, async (c) => {
        const id = c.req.param('id');
        await deleteUserAccount(deps, c.get('user'), id);
        return ok(c, 'DELETE /users/:id', { id }, { message: SUCCESS_MESSAGES.userDeleted });
      })
  );
}
