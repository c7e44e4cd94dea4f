import { randomUUID } from 'node:crypto';
import { SERVER_MESSAGES, type LoginResponse } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { signAccessToken } from '../auth/access-token.ts';
import { rememberDevice } from '../auth/known-devices.ts';
import { issueRefreshToken } from '../auth/refresh-tokens.ts';
import { AppError } from '../http/app-error.ts';
import { findUserById } from '../repositories/users.ts';

/**
 * A new session for a user who proved who they are (a password, an access link): a new
 * refresh-token family, whose id the access token carries as its session id, and the token of the
 * device it signed in on (the one it showed, if it is a known device of the account, else a new one).
 */
export async function startSession(
  deps: Pick<AppDeps, 'db' | 'config' | 'now'>,
  userId: string,
  knownDevice: { id: string; token: string } | null = null,
): Promise<LoginResponse> {
  const at = deps.now();
  const user = await findUserById(deps.db, userId, { withCarParks: true });
  if (!user) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.invalidCredentials);
  const sessionId = randomUUID();
  const token = await signAccessToken(deps.config.jwtSecret, user, sessionId, at);
  const refreshToken = await issueRefreshToken(deps.db, { userId, now: at, familyId: sessionId });
  const deviceToken = await rememberDevice(deps.db, { userId, known: knownDevice, now: at });
  return { user, token, refreshToken, deviceToken };
}
