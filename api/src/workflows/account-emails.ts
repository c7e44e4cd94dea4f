import { SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { DEVICE_LINK_TTL_MS, issueOneTimeToken, PASSWORD_RESET_TTL_MS } from '../auth/one-time-tokens.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import type { AccountEmailKind } from '../jobs/job-queue.ts';
import { findCredentialsByEmail, findCredentialsById, findUserById } from '../repositories/users.ts';
import { escapeHtml } from '../services/mail.ts';
import { RESET_REQUESTS_PER_ACCOUNT, RESET_REQUESTS_PER_ADDRESS, tooManyAttempts } from './auth-limits.ts';

/**
 * Links an account asks for by email: a password reset (POST /auth/forgot-password) and a
 * sign-in link for a new device (POST /auth/device-link).
 *
 * The device link: a stranger's guesses can make the account hear known devices only
 * (auth/sign-in-limiter.ts), and a busy office address can spend its own cap; the owner's new
 * phone then asks for this link, which the stranger cannot read. Opened on the phone, it lets that
 * phone's password be checked past both caps (workflows/sign-in.ts), and the right password spends
 * it and makes the phone a known device. It signs nobody in by itself. A new link leaves the
 * earlier ones working until they expire (at most the few an hour the limit sends, each useless
 * without the password), so a stranger asking for more cannot void the one the owner holds.
 */

type RequestDeps = Pick<AppDeps, 'db' | 'jobs' | 'logger'>;
type SendDeps = Pick<AppDeps, 'db' | 'config' | 'mailer' | 'now'>;
type Credentials = Pick<NonNullable<Awaited<ReturnType<typeof findCredentialsByEmail>>>, 'isActive' | 'passwordHash'>;

/** Who may have each link, checked when it is asked for and again when it is sent. */
const MAY_HAVE: Record<AccountEmailKind, (credentials: Credentials) => boolean> = {
  passwordReset: (credentials) => credentials.isActive,
  // An account with no password yet signs in with its onboarding link instead.
  deviceLink: (credentials) => credentials.isActive && credentials.passwordHash !== null,
};

/**
 * One pair of limits for every kind, per account and per address, so asking for one kind cannot
 * lift the limit of another. The answer is the same for any email, known or not, and does not
 * wait for the mail: the email is a job (jobs/job-queue.ts) that mints its link when it is sent,
 * so the queue never holds a working link, and a mail server that refuses is tried again.
 */
export async function requestAccountEmail(
  deps: RequestDeps,
  limits: RateLimiter,
  input: { email: string; address: string },
  kind: AccountEmailKind,
): Promise<void> {
  // Counted for every email, known or not, so the limit itself reveals nothing; a refused
  // request counts against neither.
  const limit = await limits.take([
    { rule: RESET_REQUESTS_PER_ACCOUNT, key: input.email },
    { rule: RESET_REQUESTS_PER_ADDRESS, key: input.address },
  ]);
  if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);

  const credentials = await findCredentialsByEmail(deps.db, input.email);
  if (credentials && MAY_HAVE[kind](credentials)) {
    // Asked for after answering: even the queue's write would make a known email measurably
    // slower than an unknown one, and a failure must not show in the answer either.
    void deps.jobs.send('accountEmail', { userId: credentials.id, kind }).catch((err: unknown) => {
      deps.logger.error('an account email could not be asked for', {
        userId: credentials.id,
        kind,
        reason: err instanceof Error ? err.message : String(err),
      });
    });
  }
}

/** The job: the link minted now and emailed, if the account may still have it. */
export async function sendAccountEmail(deps: SendDeps, job: { userId: string; kind: AccountEmailKind }): Promise<void> {
  const credentials = await findCredentialsById(deps.db, job.userId);
  if (!credentials || !MAY_HAVE[job.kind](credentials)) return;
  await (job.kind === 'passwordReset' ? sendPasswordResetEmail(deps, job.userId) : sendDeviceLinkEmail(deps, job.userId));
}

async function sendPasswordResetEmail(deps: SendDeps, userId: string): Promise<void> {
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

async function sendDeviceLinkEmail(deps: SendDeps, userId: string): Promise<void> {
  const { db, config } = deps;
  const user = await findUserById(db, userId);
  if (!user) return;
  const token = await issueOneTimeToken(db, {
    userId,
    purpose: 'device-link',
    ttlMs: DEVICE_LINK_TTL_MS,
    now: deps.now(),
    keepEarlier: true,
  });
  const link = `${config.appUrl}/login?device-link=${encodeURIComponent(token)}`;
  const product = config.productName;
  await deps.mailer.send({
    to: user.email,
    subject: `Sign in to ${product} on a new device`,
    purpose: 'device-link',
    userId,
    text: [
      `Hello ${user.firstName},`,
      '',
      `Someone asked for a link to sign in to your ${product} Self Ticketing account on a device it has not seen before.`,
      'Open this link within one hour on that device, then sign in with your password (it works once):',
      '',
      link,
      '',
      'If you did not ask for this, ignore this email: the link does nothing without your password.',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(user.firstName)},</p>`,
      `<p>Someone asked for a link to sign in to your ${escapeHtml(product)} Self Ticketing account on a device it has not seen before.</p>`,
      '<p>Open this link within one hour on that device, then sign in with your password (it works once):</p>',
      `<p><a href="${escapeHtml(link)}">Sign in on this device</a></p>`,
      '<p>If you did not ask for this, ignore this email: the link does nothing without your password.</p>',
    ].join('\n'),
  });
}
