import { SERVER_MESSAGES, type AccessLinkResponse } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { consumeOneTimeToken } from '../auth/one-time-tokens.ts';
import { AppError } from '../http/app-error.ts';
import { findUserById } from '../repositories/users.ts';
import { recordActivity } from '../services/activities.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { ACCESS_LINK_FAILURES_PER_ADDRESS, tooManyAttempts } from './auth-limits.ts';
import { startSession } from './start-session.ts';

/**
 * POST /auth/access-link: onboarding emails carry /u/{token}, and the web app posts the token
 * for a session. The link works once; an account without a password yet is asked to choose one.
 */
export async function redeemAccessLink(
  deps: Pick<AppDeps, 'db' | 'config' | 'now'>,
  limits: RateLimiter,
  input: { token: string; address: string },
): Promise<AccessLinkResponse> {
  const limit = await limits.check(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
  if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);

  const at = deps.now();
  const consumed = await consumeOneTimeToken(deps.db, { token: input.token, purpose: 'access-link', now: at });
  const credentials = consumed ? await findUserById(deps.db, consumed.userId) : undefined;
  if (!consumed || !credentials?.isActive) {
    await limits.hit(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
    throw new AppError('INVALID_TOKEN', SERVER_MESSAGES.invalidAccessLink);
  }
  const session = await startSession(deps, consumed.userId);
  await recordActivity(deps.db, { userId: consumed.userId, type: 'LOGIN', description: 'Signed in with an access link', now: at });
  return { ...session, mustSetPassword: !session.user.hasPassword };
}
