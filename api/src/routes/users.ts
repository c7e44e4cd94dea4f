import { Hono } from 'hono';
import {
  bulkUserActiveInputSchema,
  createUserInputSchema,
  SUCCESS_MESSAGES,
  updateProfileInputSchema,
  updateUserInputSchema,
  userExportFileName,
  userListQuerySchema,
  type BulkResponse,
  type UserSelectionResponse,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { clientAddress } from '../http/client-address.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import { confirmCurrentPassword } from '../workflows/confirm-current-password.ts';
import { selectAllMatchingUsers } from '../workflows/select-all-matching.ts';
import { deleteUserAccount, setUsersActive, updateUserAccount } from '../workflows/update-user-account.ts';
import { createUser, exportUsers, listUserPage, updateProfile, viewUser } from '../workflows/user-admin.ts';

export function createUserRoutes(deps: AppDeps, signInLimiter: SignInLimiter) {
  const { db } = deps;

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
        const me = { ...c.get('user'), sessionId: c.get('sessionId'), address: clientAddress(c, { trustProxy: deps.config.trustProxy }) };
        return ok(c, 'PUT /users/profile', await updateProfile({ ...deps, signInLimiter }, me, input));
      })

      // Manage Users' 'Export CSV': every user the filters select, in the list's order.
      .get('/export.csv', requireAdmin, async (c) => {
        const { page: _page, limit: _limit, ...filter } = readQuery(c, userListQuerySchema);
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', `attachment; filename="${userExportFileName(deps.now(), filter)}"`);
        return c.body(exportUsers(deps, filter));
      })

      // Manage Users' 'Select all matching': every user the list's query selects, not only the page shown.
      .get('/selection', requireAdmin, async (c) => {
        const { page: _page, limit: _limit, ...filter } = readQuery(c, userListQuerySchema);
        const body: UserSelectionResponse = await selectAllMatchingUsers(db, filter);
        return ok(c, 'GET /users/selection', body);
      })

      .get('/', requireAdmin, async (c) => {
        return ok(c, 'GET /users', await listUserPage(deps, readQuery(c, userListQuerySchema)));
      })

      // Manage Users' bulk activate/deactivate: each user under the rules of a single change.
      .post('/bulk-active', requireAdmin, async (c) => {
        const input = await readJson(c, bulkUserActiveInputSchema);
        const body: BulkResponse = { results: await setUsersActive(deps, { ...input, actor: c.get('user') }) };
        return ok(c, 'POST /users/bulk-active', body);
      })

      .post('/', requireAdmin, async (c) => {
        const input = await readJson(c, createUserInputSchema);
        return ok(c, 'POST /users', await createUser(deps, c.get('user'), input), { status: 201 });
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
        return ok(c, 'PUT /users/:id', await viewUser(deps, id));
      })

      .delete('/:id', requireAdmin, async (c) => {
        const id = c.req.param('id');
        await deleteUserAccount(deps, c.get('user'), id);
        return ok(c, 'DELETE /users/:id', { id }, { message: SUCCESS_MESSAGES.userDeleted });
      })
  );
}
