import type { AppDeps } from '../app-env.ts';
import { DEVICE_LINK_TTL_MS, issueOneTimeToken } from '../auth/one-time-tokens.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { findUserById } from '../repositories/users.ts';
import { escapeHtml } from '../services/mail.ts';
import { requestAccountEmail } from './request-password-reset.ts';

type DeviceLinkDeps = Pick<AppDeps, 'db' | 'config' | 'mailer' | 'logger' | 'now'>;

/**
 * POST /auth/device-link: a sign-in link for this device, emailed to the account's own address.
 * A stranger's guesses can make the account hear known devices only (auth/sign-in-limiter.ts),
 * and a busy office address can spend its own cap; the owner's new phone then asks for this link,
 * which the stranger cannot read. Opened on the phone, it lets that phone's password be checked
 * past both caps (workflows/sign-in.ts), and the right password spends it and makes the phone a
 * known device. It signs nobody in by itself. Counted with the reset emails, per account and per
 * address. A new link leaves the earlier ones working until they expire (at most the few an hour
 * the limit sends, each useless without the password), so a stranger asking for more cannot void
 * the one the owner holds.
 */
export async function requestDeviceLink(
  deps: DeviceLinkDeps,
  limits: RateLimiter,
  input: { email: string; address: string },
): Promise<void> {
  await requestAccountEmail(deps, limits, input, {
    failure: 'device sign-in link email failed',
    // An account with no password yet signs in with its onboarding link instead.
    isFor: (credentials) => credentials.isActive && credentials.passwordHash !== null,
    send: (userId) => sendDeviceLinkEmail(deps, userId),
  });
}

async function sendDeviceLinkEmail(deps: DeviceLinkDeps, userId: string): Promise<void> {
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
