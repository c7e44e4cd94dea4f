import { createMiddleware } from 'hono/factory';
import { isAdminRole, isLandownerRole, SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';
import { extendBodyDeadline, isEvidenceUpload } from '../http/body-deadline.ts';
import { requestHeader } from '../http/request-header.ts';
import { findSessionUser } from '../repositories/users.ts';
import { verifyAccessToken } from './access-token.ts';
import { mayLandownerUse } from './landowner-routes.ts';

/**
 * What an account opened by an access link may do before it has a password: read its profile
 * and set the password (PUT /users/profile with newPassword; the handler refuses anything
 * else). Signing out needs no access token. Everything else answers PASSWORD_REQUIRED, so
 * skipping the web app's password step gains nothing.
 */
const PASSWORD_STEP_ROUTES = new Set(['GET /api/users/profile', 'PUT /api/users/profile']);

export function mayUseWithoutPassword(method: string, path: string): boolean {
  return PASSWORD_STEP_ROUTES.has(`${method.toUpperCase()} ${path.replace(/\/+$/, '')}`);
}

/**
 * Checks the bearer token and loads the user fresh from the database on every request, so a
 * deactivated user or a changed role takes effect at once rather than after 15 minutes. The
 * account as read here is `account` for the route; `withCarParks` reads its car parks in the
 * same statement (the profile answers from it).
 */
export function requireAuth(deps: AppDeps, options: { withCarParks?: boolean } = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const header = requestHeader(c, 'authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.notSignedIn);
    const claims = await verifyAccessToken(deps.config.jwtSecret, match[1], deps.now());
    if (!claims) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.sessionExpired);
    const account = await findSessionUser(deps.db, claims.sub, options);
    if (!account?.isActive) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.sessionExpired);
    if (!account.hasPassword && !mayUseWithoutPassword(c.req.method, c.req.path)) {
      throw new AppError('PASSWORD_REQUIRED', SERVER_MESSAGES.passwordRequired);
    }
    if (isLandownerRole(account.role) && !mayLandownerUse(c.req.method, c.req.path)) {
      throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
    }
    c.set('user', { id: account.id, role: account.role, email: account.email, firstName: account.firstName, lastName: account.lastName });
    c.set('account', account);
    c.set('sessionId', claims.sid);
    // A signed-in officer's photos may take minutes over one bar of signal.
    if (isEvidenceUpload(c.req.method, c.req.path)) extendBodyDeadline(c);
    await next();
  });
}

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!isAdminRole(c.get('user').role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  await next();
});
