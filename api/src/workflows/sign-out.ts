import { SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { verifyAccessToken } from '../auth/access-token.ts';
import { revokeRefreshTokenFamily, revokeSession } from '../auth/refresh-tokens.ts';
import { AppError } from '../http/app-error.ts';
import { recordActivity } from '../services/activities.ts';

/**
 * POST /auth/logout. Works with the refresh token alone: an officer whose access token has
 * expired must still be able to end the session, and signing out twice is not an error. With
 * only the access token, its session id names the refresh-token family to end, so the answer's
 * 'Signed out' is true either way.
 */
export async function signOut(
  deps: Pick<AppDeps, 'db' | 'config' | 'now'>,
  input: { refreshToken: string | undefined; accessToken: string | undefined },
): Promise<void> {
  const at = deps.now();
  const { refreshToken } = input;
  const claims = refreshToken ? null : input.accessToken ? await verifyAccessToken(deps.config.jwtSecret, input.accessToken, at) : null;
  if (!refreshToken && !claims) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.logoutNeedsSession);
  await deps.db.transaction().execute(async (trx) => {
    let endedFor: string | null = null;
    if (refreshToken) {
      endedFor = (await revokeRefreshTokenFamily(trx, { token: refreshToken, now: at }))?.userId ?? null;
    } else if (claims) {
      const wasLive = await revokeSession(trx, { userId: claims.sub, familyId: claims.sid, now: at });
      endedFor = wasLive ? claims.sub : null;
    }
    // Only the sign-out that found the session live counts (the revocation is conditional), so
    // two tabs signing out together, or one tab twice, record one LOGOUT, committed with it.
    if (endedFor) await recordActivity(trx, { userId: endedFor, type: 'LOGOUT', now: at });
  });
}
