import { SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { consumeOneTimeToken, isOneTimeTokenValid } from '../auth/one-time-tokens.ts';
import { hashPassword } from '../auth/passwords.ts';
import { endUserCredentials } from '../auth/end-credentials.ts';
import { forgetDevices } from '../auth/known-devices.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { AppError } from '../http/app-error.ts';
import { findUserById, setPasswordHash } from '../repositories/users.ts';
import { recordActivity } from '../services/activities.ts';
import { ACCESS_LINK_FAILURES_PER_ADDRESS, tooManyAttempts } from './auth-limits.ts';

/**
 * POST /auth/reset-password: the emailed link spent on a new password. The password, the
 * sign-out everywhere and the activity commit together; the account's failed guesses are
 * forgotten after.
 */
export async function resetPassword(
  deps: Pick<AppDeps, 'db' | 'now'>,
  limiters: { signIn: SignInLimiter; deadLinks: RateLimiter },
  input: { token: string; password: string; address: string },
): Promise<void> {
  const { db } = deps;
  const at = deps.now();
  // Dead tokens count here as on /check and on access links, so neither route is a way round
  // the other's limit.
  const limit = await limiters.deadLinks.check(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
  if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);
  // The token is checked before the (deliberately slow) hash, so a flood of made-up tokens
  // costs no argon2 work. A crash between the two only means asking for a new link.
  const consumed = await consumeOneTimeToken(db, { token: input.token, purpose: 'password-reset', now: at });
  const user = consumed ? await findUserById(db, consumed.userId) : undefined;
  if (!user?.isActive) {
    await limiters.deadLinks.hit(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
    throw new AppError('INVALID_TOKEN', SERVER_MESSAGES.invalidResetToken);
  }
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.id, { passwordHash, now: at });
    // Whoever knew the old password is signed out everywhere, and older links die with it.
    await endUserCredentials(trx, { userId: user.id, now: at });
    await forgetDevices(trx, user.id);
    await recordActivity(trx, { userId: user.id, type: 'PASSWORD_RESET', now: at });
  });
  await limiters.signIn.forgetAccount(user.email);
}

/**
 * POST /auth/reset-password/check: the reset screen asks on load, so a dead link says so before
 * anyone types a password. Spends nothing; unknown tokens count like dead access links, so it is
 * no token oracle.
 */
export async function checkResetToken(
  deps: Pick<AppDeps, 'db' | 'now'>,
  limits: RateLimiter,
  input: { token: string; address: string },
): Promise<void> {
  const limit = await limits.check(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
  if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);
  if (!(await isOneTimeTokenValid(deps.db, { token: input.token, purpose: 'password-reset', now: deps.now() }))) {
    await limits.hit(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
    throw new AppError('INVALID_TOKEN', SERVER_MESSAGES.invalidResetToken);
  }
}
