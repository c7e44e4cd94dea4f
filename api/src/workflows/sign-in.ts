import { SERVER_MESSAGES, type LoginResponse } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { dummyPasswordHash, hashPassword, passwordNeedsRehash, verifyPassword } from '../auth/passwords.ts';
import { recogniseDevice } from '../auth/known-devices.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { AppError } from '../http/app-error.ts';
import { findCredentialsByEmail, setPasswordHash } from '../repositories/users.ts';
import { recordActivity } from '../services/activities.ts';
import { tooManyAttempts } from './auth-limits.ts';
import { startSession } from './start-session.ts';

/**
 * POST /auth/login: a password guess, limited per account and address (per device for a device
 * that signed in before), that starts a session when right and hands back the device's token.
 */
export async function signIn(
  deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'metrics'>,
  signInLimiter: SignInLimiter,
  input: { email: string; password: string; deviceToken?: string; address: string },
): Promise<LoginResponse> {
  const { db, now } = deps;
  const credentials = await findCredentialsByEmail(db, input.email);
  const deviceId = credentials ? await recogniseDevice(db, { userId: credentials.id, token: input.deviceToken, now: now() }) : null;
  // Counted before the hash runs, so guesses sent side by side cannot outrun the count.
  const reservation = await signInLimiter.reserve(input.email, { address: input.address, knownDevice: deviceId });
  if (!reservation.isAllowed) {
    deps.metrics.signInLimited.inc({ limit: reservation.needsKnownDevice ? 'account' : 'address' });
    // Made-up emails are counted alike, so this answer says nothing about who has an account.
    const message = reservation.needsKnownDevice ? SERVER_MESSAGES.signInNeedsKnownDevice : SERVER_MESSAGES.tooManyLoginAttempts;
    throw tooManyAttempts(reservation, message);
  }

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
  const session = await startSession(
    deps,
    credentials.id,
    deviceId && input.deviceToken ? { id: deviceId, token: input.deviceToken } : null,
  );
  await recordActivity(db, { userId: credentials.id, type: 'LOGIN', now: now() });
  return session;
}
