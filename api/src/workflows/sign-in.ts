import { SERVER_MESSAGES, type LoginResponse } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { dummyPasswordHash, hashPassword, passwordNeedsRehash, verifyPassword } from '../auth/passwords.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { AppError } from '../http/app-error.ts';
import { findCredentialsByEmail, setPasswordHash } from '../repositories/users.ts';
import { recordActivity } from '../services/activities.ts';
import { tooManyAttempts } from './auth-limits.ts';
import { startSession } from './start-session.ts';

/** POST /auth/login: a password guess, limited per account and address, that starts a session when right. */
export async function signIn(
  deps: Pick<AppDeps, 'db' | 'config' | 'now'>,
  signInLimiter: SignInLimiter,
  input: { email: string; password: string; address: string },
): Promise<LoginResponse> {
  const { db, now } = deps;
  // Counted before the hash runs, so guesses sent side by side cannot outrun the count.
  const reservation = await signInLimiter.reserve(input.email, input.address);
  if (!reservation.isAllowed) throw tooManyAttempts(reservation, SERVER_MESSAGES.tooManyLoginAttempts);

  const credentials = await findCredentialsByEmail(db, input.email);
  // Always run one argon2 verification, so an unknown email costs the same time as a wrong password.
  const hash = credentials?.passwordHash ?? (await dummyPasswordHash());
  const isPasswordRight = await verifyPassword(hash, input.password);
  if (!credentials || !credentials.passwordHash || !isPasswordRight || !credentials.isActive) {
    await signInLimiter.fail(reservation.attempt);
    throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.invalidCredentials);
  }

  await signInLimiter.refund(reservation.attempt);
  if (passwordNeedsRehash(credentials.passwordHash)) {
    const passwordHash = await hashPassword(input.password);
    await setPasswordHash(db, credentials.id, { passwordHash, now: now(), replacing: credentials.passwordHash });
  }
  const session = await startSession(deps, credentials.id);
  await recordActivity(db, { userId: credentials.id, type: 'LOGIN', now: now() });
  return session;
}
