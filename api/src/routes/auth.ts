import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import {
  accessLinkInputSchema,
  forgotPasswordInputSchema,
  loginInputSchema,
  logoutInputSchema,
  refreshInputSchema,
  resetPasswordInputSchema,
  resetTokenCheckInputSchema,
  SERVER_MESSAGES,
  SUCCESS_MESSAGES,
  type AccessLinkResponse,
  type AuthTokens,
  type LoginResponse,
  type User,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { signAccessToken, verifyAccessToken } from '../auth/access-token.ts';
import { consumeOneTimeToken, isOneTimeTokenValid, issueOneTimeToken, PASSWORD_RESET_TTL_MS } from '../auth/one-time-tokens.ts';
import { dummyPasswordHash, hashPassword, passwordNeedsRehash, verifyPassword } from '../auth/passwords.ts';
import { combineDecisions, createRateLimiter } from '../auth/rate-limit.ts';
import { issueRefreshToken, revokeRefreshTokenFamily, revokeSession, revokeUserRefreshTokens, rotateRefreshToken } from '../auth/refresh-tokens.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { AppError } from '../http/app-error.ts';
import { clientAddress } from '../http/client-address.ts';
import { ok } from '../http/respond.ts';
import { readJson } from '../http/validation.ts';
import { findCredentialsByEmail, findUserById, setPasswordHash } from '../repositories/users.ts';
import { recordActivity } from '../services/activities.ts';
import { escapeHtml } from '../services/mail.ts';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;
const ONE_HOUR_MS = 60 * 60 * 1000;

/**
 * Limits (design section 7). Password guesses go through the shared sign-in limiter
 * (auth/sign-in-limiter.ts); these count reset emails and dead access links.
 */
export const FORGOT_PASSWORD_PER_ACCOUNT = 3;
export const FORGOT_PASSWORD_PER_ADDRESS = 10;
export const ACCESS_LINK_FAILURES_PER_ADDRESS = 10;

export function tooManyAttempts(decision: { retryAfterSeconds: number }, message: string): AppError {
  return new AppError('RATE_LIMITED', message, { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
}

export function createAuthRoutes(deps: AppDeps, signInLimiter: SignInLimiter) {
  const { db, config, logger, now } = deps;
  const addressOf = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, { trustProxy: config.trustProxy });
  const resetRequestsByAccount = createRateLimiter({ limit: FORGOT_PASSWORD_PER_ACCOUNT, windowMs: ONE_HOUR_MS, now });
  const resetRequestsByAddress = createRateLimiter({ limit: FORGOT_PASSWORD_PER_ADDRESS, windowMs: ONE_HOUR_MS, now });
  const accessLinkFailuresByAddress = createRateLimiter({ limit: ACCESS_LINK_FAILURES_PER_ADDRESS, windowMs: FIFTEEN_MINUTES_MS, now });

  async function startSession(userId: string): Promise<{ user: User } & AuthTokens> {
    const at = now();
    const user = await findUserById(db, userId, { withCarParks: true });
    if (!user) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.invalidCredentials);
    const sessionId = randomUUID();
    const token = await signAccessToken(config.jwtSecret, user, sessionId, at);
    const refreshToken = await issueRefreshToken(db, { userId, now: at, familyId: sessionId });
    return { user, token, refreshToken };
  }

  async function sendPasswordResetEmail(userId: string): Promise<void> {
    const user = await findUserById(db, userId);
    if (!user) return;
    const token = await issueOneTimeToken(db, { userId, purpose: 'password-reset', ttlMs: PASSWORD_RESET_TTL_MS, now: now() });
    const link = `${config.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
    const product = config.productName;
    await deps.mailer.send({
      to: user.email,
      subject: `Reset your ${product} password`,
      purpose: 'password-reset',
      userId,
      text: [
        `Hello ${user.firstName},`,
        '',
        `Someone asked to reset the password of your ${product} Self Ticketing account.`,
        'Open this link within one hour to choose a new password (it works once):',
        '',
        link,
        '',
        'If you did not ask for this, ignore this email: your password stays as it is.',
      ].join('\n'),
      html: [
        `<p>Hello ${escapeHtml(user.firstName)},</p>`,
        `<p>Someone asked to reset the password of your ${escapeHtml(product)} Self Ticketing account.</p>`,
        '<p>Open this link within one hour to choose a new password (it works once):</p>',
        `<p><a href="${escapeHtml(link)}">Reset my password</a></p>`,
        '<p>If you did not ask for this, ignore this email: your password stays as it is.</p>',
      ].join('\n'),
    });
  }

  return new Hono<AppEnv>()
    .post('/login', async (c) => {
      const input = await readJson(c, loginInputSchema);
      // Counted before the hash runs, so guesses sent side by side cannot outrun the count.
      const reservation = await signInLimiter.reserve(input.email, addressOf(c));
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
        await setPasswordHash(db, credentials.id, { passwordHash: await hashPassword(input.password), now: now() });
      }
      const session = await startSession(credentials.id);
      await recordActivity(db, { userId: credentials.id, type: 'LOGIN', now: now() });
      const body: LoginResponse = session;
      return ok(c, body);
    })

    .post('/refresh', async (c) => {
      const input = await readJson(c, refreshInputSchema);
      const at = now();
      const result = await rotateRefreshToken(db, { token: input.refreshToken, now: at });
      if (!result.ok) {
        if (result.reason === 'reuse-detected') {
          logger.warn('refresh token reuse detected; session family revoked', { userId: result.userId });
        }
        throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.invalidRefreshToken);
      }
      const user = await findUserById(db, result.userId);
      if (!user) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.invalidRefreshToken);
      const body: AuthTokens = { token: await signAccessToken(config.jwtSecret, user, result.familyId, at), refreshToken: result.refreshToken };
      return ok(c, body);
    })

    // Works with the refresh token alone: an officer whose access token has expired must still be
    // able to end the session, and signing out twice is not an error. With only the access token,
    // its session id names the refresh-token family to end, so 'Signed out' is true either way.
    .post('/logout', async (c) => {
      const input = await readJson(c, logoutInputSchema);
      const at = now();
      let endedFor: string | null = null;
      if (input.refreshToken) {
        endedFor = (await revokeRefreshTokenFamily(db, { token: input.refreshToken, now: at }))?.userId ?? null;
      } else {
        const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
        const claims = bearer ? await verifyAccessToken(config.jwtSecret, bearer) : null;
        if (!claims) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.logoutNeedsSession);
        const wasLive = await revokeSession(db, { userId: claims.sub, familyId: claims.sid, now: at });
        endedFor = wasLive ? claims.sub : null;
      }
      // Only a session that was still live counts, so signing out twice records one LOGOUT.
      if (endedFor) await recordActivity(db, { userId: endedFor, type: 'LOGOUT', now: at });
      return ok(c, null, { message: SUCCESS_MESSAGES.signedOut });
    })

    .post('/forgot-password', async (c) => {
      const input = await readJson(c, forgotPasswordInputSchema);
      const addressKey = addressOf(c);
      // Counted for every email, known or not, so the limit itself reveals nothing.
      const limit = combineDecisions([resetRequestsByAccount.check(input.email), resetRequestsByAddress.check(addressKey)]);
      if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);
      resetRequestsByAccount.hit(input.email);
      resetRequestsByAddress.hit(addressKey);

      const credentials = await findCredentialsByEmail(db, input.email);
      if (credentials?.isActive) {
        // Sent after answering: waiting for SMTP would make a known email measurably slower than
        // an unknown one, and a mail failure must not show in the answer either.
        void sendPasswordResetEmail(credentials.id).catch((err: unknown) => {
          logger.error('password reset email failed', { userId: credentials.id, reason: err instanceof Error ? err.message : String(err) });
        });
      }
      return ok(c, null, { message: SUCCESS_MESSAGES.passwordResetEmailSent });
    })

    .post('/reset-password', async (c) => {
      const input = await readJson(c, resetPasswordInputSchema);
      const at = now();
      // The token is checked before the (deliberately slow) hash, so a flood of made-up tokens
      // costs no argon2 work. A crash between the two only means asking for a new link.
      const consumed = await consumeOneTimeToken(db, { token: input.token, purpose: 'password-reset', now: at });
      const user = consumed ? await findUserById(db, consumed.userId) : undefined;
      if (!user?.isActive) throw new AppError('INVALID_TOKEN', SERVER_MESSAGES.invalidResetToken);
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        await setPasswordHash(trx, user.id, { passwordHash, now: at });
        // Whoever knew the old password is signed out everywhere.
        await revokeUserRefreshTokens(trx, { userId: user.id, now: at });
        await recordActivity(trx, { userId: user.id, type: 'PASSWORD_RESET', now: at });
      });
      await signInLimiter.forgetAccount(user.email);
      return ok(c, null, { message: SUCCESS_MESSAGES.passwordResetSuccessful });
    })

    // The reset screen asks on load, so a dead link says so before anyone types a password.
    // Spends nothing; unknown tokens count like dead access links, so it is no token oracle.
    .post('/reset-password/check', async (c) => {
      const input = await readJson(c, resetTokenCheckInputSchema);
      const addressKey = addressOf(c);
      const limit = accessLinkFailuresByAddress.check(addressKey);
      if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);
      if (!(await isOneTimeTokenValid(db, { token: input.token, purpose: 'password-reset', now: now() }))) {
        accessLinkFailuresByAddress.hit(addressKey);
        throw new AppError('INVALID_TOKEN', SERVER_MESSAGES.invalidResetToken);
      }
      return ok(c, { isValid: true });
    })

    // Onboarding emails carry /u/{token}; the web app posts the token here for a session.
    .post('/access-link', async (c) => {
      const input = await readJson(c, accessLinkInputSchema);
      const addressKey = addressOf(c);
      const limit = accessLinkFailuresByAddress.check(addressKey);
      if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);

      const at = now();
      const consumed = await consumeOneTimeToken(db, { token: input.token, purpose: 'access-link', now: at });
      const credentials = consumed ? await findUserById(db, consumed.userId) : undefined;
      if (!consumed || !credentials?.isActive) {
        accessLinkFailuresByAddress.hit(addressKey);
        throw new AppError('INVALID_TOKEN', SERVER_MESSAGES.invalidAccessLink);
      }
      const session = await startSession(consumed.userId);
      await recordActivity(db, { userId: consumed.userId, type: 'LOGIN', description: 'Signed in with an access link', now: at });
      const body: AccessLinkResponse = { ...session, mustSetPassword: !session.user.hasPassword };
      return ok(c, body);
    });
}
