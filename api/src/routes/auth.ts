import { Hono } from 'hono';
import {
  accessLinkInputSchema,
  forgotPasswordInputSchema,
  loginInputSchema,
  logoutInputSchema,
  refreshInputSchema,
  resetPasswordInputSchema,
  resetTokenCheckInputSchema,
  SUCCESS_MESSAGES,
  type AccessLinkResponse,
  type AuthTokens,
  type LoginResponse,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { clientAddress } from '../http/client-address.ts';
import { ok } from '../http/respond.ts';
import { readJson } from '../http/validation.ts';
import { redeemAccessLink } from '../workflows/redeem-access-link.ts';
import { refreshSession } from '../workflows/refresh-session.ts';
import { checkResetToken, resetPassword } from '../workflows/reset-password.ts';
import { signIn } from '../workflows/sign-in.ts';
import { signOut } from '../workflows/sign-out.ts';
import { requestAccountEmail } from '../workflows/account-emails.ts';

export function createAuthRoutes(deps: AppDeps, signInLimiter: SignInLimiter) {
  const addressOf = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, { trustProxy: deps.config.trustProxy });
  // Reset emails and dead links, counted in the database like the password guesses.
  const limits = createRateLimiter({ db: deps.db, now: deps.now });

  return (
    new Hono<AppEnv>()
      .post('/login', async (c) => {
        const input = await readJson(c, loginInputSchema);
        const body: LoginResponse = await signIn(deps, { signIn: signInLimiter, deadLinks: limits }, { ...input, address: addressOf(c) });
        return ok(c, 'POST /auth/login', body);
      })

      .post('/refresh', async (c) => {
        const input = await readJson(c, refreshInputSchema);
        const body: AuthTokens = await refreshSession(deps, input);
        return ok(c, 'POST /auth/refresh', body);
      })

      // The refresh token in the body, or else the access token of the session to end.
      .post('/logout', async (c) => {
        const input = await readJson(c, logoutInputSchema);
        const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
        await signOut(deps, { refreshToken: input.refreshToken, accessToken: bearer });
        return ok(c, 'POST /auth/logout', null, { message: SUCCESS_MESSAGES.signedOut });
      })

      .post('/forgot-password', async (c) => {
        const input = await readJson(c, forgotPasswordInputSchema);
        await requestAccountEmail(deps, limits, { email: input.email, address: addressOf(c) }, 'passwordReset');
        return ok(c, 'POST /auth/forgot-password', null, { message: SUCCESS_MESSAGES.passwordResetEmailSent });
      })

      // A sign-in link for a device the account's cap (or a busy address) refuses: the answer is
      // the same for any email, and it is counted with the reset emails.
      .post('/device-link', async (c) => {
        const input = await readJson(c, forgotPasswordInputSchema);
        await requestAccountEmail(deps, limits, { email: input.email, address: addressOf(c) }, 'deviceLink');
        return ok(c, 'POST /auth/device-link', null, { message: SUCCESS_MESSAGES.deviceLinkEmailSent });
      })

      .post('/reset-password', async (c) => {
        const input = await readJson(c, resetPasswordInputSchema);
        await resetPassword(
          deps,
          { signIn: signInLimiter, deadLinks: limits },
          { token: input.token, password: input.password, address: addressOf(c) },
        );
        return ok(c, 'POST /auth/reset-password', null, { message: SUCCESS_MESSAGES.passwordResetSuccessful });
      })

      .post('/reset-password/check', async (c) => {
        const input = await readJson(c, resetTokenCheckInputSchema);
        await checkResetToken(deps, limits, { token: input.token, address: addressOf(c) });
        return ok(c, 'POST /auth/reset-password/check', { isValid: true });
      })

      .post('/access-link', async (c) => {
        const input = await readJson(c, accessLinkInputSchema);
        const body: AccessLinkResponse = await redeemAccessLink(deps, limits, { token: input.token, address: addressOf(c) });
        return ok(c, 'POST /auth/access-link', body);
      })
  );
}
