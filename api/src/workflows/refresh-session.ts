import { SERVER_MESSAGES, type AuthTokens } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { signAccessToken } from '../auth/access-token.ts';
import { rotateRefreshToken } from '../auth/refresh-tokens.ts';
import { sealingKey } from '../auth/sealed-text.ts';
import { AppError } from '../http/app-error.ts';
import { findUserById } from '../repositories/users.ts';

/**
 * POST /auth/refresh: the refresh token exchanged for the next one of its family and a new
 * access token for the same session. Presented again within REFRESH_REUSE_SECONDS with the same
 * device token as the rotation (the officer's other tab, a retry after a cut-off), it gets the
 * very same pair (the access token is signed again at the rotation's moment, so it is the same
 * bytes). A token reused after that, or from another device, revokes the family (a copy is in other hands), which is
 * worth a warning in the log.
 */
export async function refreshSession(
  deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'now'>,
  input: { refreshToken: string; deviceToken?: string | undefined },
): Promise<AuthTokens> {
  const at = deps.now();
  const result = await rotateRefreshToken(deps.db, {
    token: input.refreshToken,
    deviceToken: input.deviceToken,
    now: at,
    reuseWindowMs: deps.config.refreshReuseSeconds * 1000,
    sealKey: sealingKey(deps.config.jwtSecret, 'refresh successor'),
  });
  if (!result.ok) {
    if (result.reason === 'reuse-detected') {
      deps.logger.warn('refresh token reuse detected; session family revoked', { userId: result.userId });
    }
    throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.invalidRefreshToken);
  }
  const user = await findUserById(deps.db, result.userId);
  if (!user) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.invalidRefreshToken);
  return { token: await signAccessToken(deps.config.jwtSecret, user, result.familyId, result.issuedAt), refreshToken: result.refreshToken };
}
