import { SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { issueOneTimeToken, PASSWORD_RESET_TTL_MS } from '../auth/one-time-tokens.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { findCredentialsByEmail, findUserById } from '../repositories/users.ts';
import { escapeHtml } from '../services/mail.ts';
import { RESET_REQUESTS_PER_ACCOUNT, RESET_REQUESTS_PER_ADDRESS, tooManyAttempts } from './auth-limits.ts';

type ResetDeps = Pick<AppDeps, 'db' | 'config' | 'mailer' | 'logger' | 'now'>;

/**
 * POST /auth/forgot-password: a reset link by email to an active account. The answer is the
 * same for any email, known or not, and does not wait for the mail.
 */
export async function requestPasswordReset(deps: ResetDeps, limits: RateLimiter, input: { email: string; address: string }): Promise<void> {
  await requestAccountEmail(deps, limits, input, {
    failure: 'password reset email failed',
    isFor: (credentials) => credentials.isActive,
    send: (userId) => sendPasswordResetEmail(deps, userId),
  });
}

type Credentials = NonNullable<Awaited<ReturnType<typeof findCredentialsByEmail>>>;

/**
 * A link emailed to an account on request (a reset, a device's sign-in link): one pair of limits
 * for them all, per account and per address, so asking for one kind cannot lift the limit of
 * another. The answer is the same for any email and does not wait for the mail.
 */
export async function requestAccountEmail(
  deps: ResetDeps,
  limits: RateLimiter,
  input: { email: string; address: string },
  email: { failure: string; isFor: (credentials: Credentials) => boolean; send: (userId: string) => Promise<void> },
): Promise<void> {
  // Counted for every email, known or not, so the limit itself reveals nothing; a refused
  // request counts against neither.
  const limit = await limits.take([
    { rule: RESET_REQUESTS_PER_ACCOUNT, key: input.email },
    { rule: RESET_REQUESTS_PER_ADDRESS, key: input.address },
  ]);
  if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);

  const credentials = await findCredentialsByEmail(deps.db, input.email);
  if (credentials && email.isFor(credentials)) {
    // Sent after answering: waiting for SMTP would make a known email measurably slower than
    // an unknown one, and a mail failure must not show in the answer either.
    void email.send(credentials.id).catch((err: unknown) => {
      deps.logger.error(email.failure, {
        userId: credentials.id,
        reason: err instanceof Error ? err.message : String(err),
      });
    });
  }
}

async function sendPasswordResetEmail(deps: ResetDeps, userId: string): Promise<void> {
  const { db, config } = deps;
  const user = await findUserById(db, userId);
  if (!user) return;
  const token = await issueOneTimeToken(db, { userId, purpose: 'password-reset', ttlMs: PASSWORD_RESET_TTL_MS, now: deps.now() });
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
