import { SERVER_MESSAGES, type LoginResponse } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { dummyPasswordHash, hashPassword, passwordNeedsRehash, verifyPassword } from '../auth/passwords.ts';
import { recogniseDevice } from '../auth/known-devices.ts';
import { findOneTimeToken, spendOneTimeToken } from '../auth/one-time-tokens.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { AppError } from '../http/app-error.ts';
import { findCredentialsByEmail, setPasswordHash } from '../repositories/users.ts';
import { recordActivity } from '../services/activities.ts';
import { ACCESS_LINK_FAILURES_PER_ADDRESS, tooManyAttempts } from './auth-limits.ts';
import { startSession } from './start-session.ts';

/**
 * POST /auth/login: a password guess, limited per account and address (per device for a device
 * that signed in before, per link for one that brings an emailed sign-in link), that starts a
 * session when right and hands back the device's token.
 */
export async function signIn(
  deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'metrics'>,
  limits: { signIn: SignInLimiter; deadLinks: RateLimiter },
  input: { email: string; password: string; deviceToken?: string; deviceLink?: string; address: string },
): Promise<LoginResponse> {
  const { db, now } = deps;
  const credentials = await findCredentialsByEmail(db, input.email);
  const deviceId = credentials ? await recogniseDevice(db, { userId: credentials.id, token: input.deviceToken, now: now() }) : null;
  const link = deviceId ? null : await liveDeviceLink(deps, limits.deadLinks, { ...input, userId: credentials?.id });
  // Counted before the hash runs, so guesses sent side by side cannot outrun the count.
  const reservation = await limits.signIn.reserve(input.email, { address: input.address, knownDevice: deviceId, deviceLink: link });
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
    await limits.signIn.fail(reservation.attempt);
    throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.invalidCredentials);
  }

  // The right password spends the link: the device it admits holds a device token from now on.
  if (link && !(await spendOneTimeToken(db, { id: link, now: now() }))) {
    await limits.signIn.refund(reservation.attempt);
    throw new AppError('INVALID_TOKEN', SERVER_MESSAGES.invalidDeviceLink);
  }
  await limits.signIn.refund(reservation.attempt);
  if (passwordNeedsRehash(credentials.passwordHash)) {
    const passwordHash = await hashPassword(input.password);
    await setPasswordHash(db, credentials.id, { passwordHash, now: now(), replacing: credentials.passwordHash });
  }
  const session = await startSession(
    deps,
    credentials.id,
    deviceId && input.deviceToken ? { id: deviceId, token: input.deviceToken } : null,
  );
  await recordActivity(db, {
    userId: credentials.id,
    type: 'LOGIN',
    ...(link ? { description: 'Signed in on a new device with an emailed sign-in link' } : {}),
    now: now(),
  });
  return session;
}

/**
 * The id of the live sign-in link the guess brings for this account, or null when it brings none.
 * A dead one (used, expired, another account's, or made up) is refused and counted with the dead
 * access and reset links of the address, so links cannot be guessed here either.
 */
async function liveDeviceLink(
  deps: Pick<AppDeps, 'db' | 'now'>,
  deadLinks: RateLimiter,
  input: { deviceLink?: string; address: string; userId: string | undefined },
): Promise<string | null> {
  if (!input.deviceLink) return null;
  const limit = await deadLinks.check(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
  if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);
  const found = await findOneTimeToken(deps.db, { token: input.deviceLink, purpose: 'device-link', now: deps.now() });
  if (found && found.userId === input.userId) return found.id;
  await deadLinks.hit(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
  throw new AppError('INVALID_TOKEN', SERVER_MESSAGES.invalidDeviceLink);
}
