import { SERVER_MESSAGES, VALIDATION_MESSAGES } from '@parkpatrol/shared';
import { verifyPassword } from '../auth/passwords.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import type { Metrics } from '../services/metrics.ts';
import { findPasswordHash } from '../repositories/users.ts';
import { tooManyAttempts } from './auth-limits.ts';

/**
 * Changing one's own password or email needs the current password, whatever the route and role:
 * a stolen access token must not take the account over. The same limiter as sign-in counts each
 * check before the hash runs, so the check is no way to guess the password without limit. An
 * account opened by an access link has no password yet and passes (it is choosing its first).
 * A signed-in session is a device that signed in, so its checks are counted per session: a
 * stranger's guesses at the sign-in form cannot stop the owner changing their password.
 */
export async function confirmCurrentPassword(
  deps: { db: Db; signInLimiter: SignInLimiter; metrics: Pick<Metrics, 'signInLimited'> },
  input: { userId: string; email: string; currentPassword: string | undefined; address: string; sessionId: string },
): Promise<void> {
  const currentHash = await findPasswordHash(deps.db, input.userId);
  if (!currentHash) return;
  if (!input.currentPassword) {
    throw new AppError('VALIDATION_FAILED', VALIDATION_MESSAGES.currentPasswordRequired, {
      details: { currentPassword: VALIDATION_MESSAGES.currentPasswordRequired },
    });
  }
  const reservation = await deps.signInLimiter.reserve(input.email, { address: input.address, knownDevice: `session:${input.sessionId}` });
  if (!reservation.isAllowed) {
    deps.metrics.signInLimited.inc({ limit: 'current-password' });
    throw tooManyAttempts(reservation, SERVER_MESSAGES.tooManyPasswordAttempts);
  }
  if (!(await verifyPassword(currentHash, input.currentPassword))) {
    await deps.signInLimiter.fail(reservation.attempt);
    throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.wrongCurrentPassword, {
      details: { currentPassword: SERVER_MESSAGES.wrongCurrentPassword },
    });
  }
  await deps.signInLimiter.refund(reservation.attempt);
}
