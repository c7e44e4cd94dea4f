import { createMiddleware } from 'hono/factory';
import { isAdminRole, SERVER_MESSAGES, type Role } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';
import { verifyAccessToken } from './access-token.ts';

/**
 * Checks the bearer token and loads the user fresh from the database on every request, so a
 * deactivated user or a changed role takes effect at once rather than after 15 minutes.
 */
export function requireAuth(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.notSignedIn);
    const claims = await verifyAccessToken(deps.config.jwtSecret, match[1]);
    if (!claims) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.sessionExpired);
    const row = await deps.db
      .selectFrom('users')
      .select(['id', 'role', 'email', 'first_name', 'last_name', 'is_active'])
      .where('id', '=', claims.sub)
      .executeTakeFirst();
    if (!row || row.is_active !== 1) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.sessionExpired);
    c.set('user', {
      id: row.id,
      role: row.role as Role,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
    });
    await next();
  });
}

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!isAdminRole(c.get('user').role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  await next();
});
