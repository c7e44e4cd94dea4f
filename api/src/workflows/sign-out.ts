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
  const { db } = deps;
  const at = deps.now();
  let endedFor: string | null = null;
  if (input.refreshToken) {
    endedFor = (await revokeRefreshTokenFamily(db, { token: input.refreshToken, now: at }))?.userId ?? null;
  } else {
    const claims = input.accessToken ? await verifyAccessToken(deps.config.jwtSecret, input.accessToken) : null;
    if (!claims) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.logoutNeedsSession);
    const wasLive = await revokeSession(db, { userId: claims.sub, familyId: claims.sid, now: at });
    endedFor = wasLive ? claims.sub : null;
  }
  // Only a session that was still live counts, so signing out twice records one LOGOUT.
  if (endedFor) await recordActivity(db, { userId: endedFor, type: 'LOGOUT', now: at });
}
