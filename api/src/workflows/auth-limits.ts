import { createRateLimiter, type RateLimiter } from '../auth/rate-limit.ts';
import { AppError } from '../http/app-error.ts';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;
const ONE_HOUR_MS = 60 * 60 * 1000;

/**
 * Limits (design section 7). Password guesses go through the shared sign-in limiter
 * (auth/sign-in-limiter.ts); these count reset emails and dead access links.
 */
export const FORGOT_PASSWORD_PER_ACCOUNT = 3;
export const FORGOT_PASSWORD_PER_ADDRESS = 10;
export const ACCESS_LINK_FAILURES_PER_ADDRESS = 10;

/** The counters of one app's auth routes (in memory: one API process serves them). */
export type AuthLimits = {
  resetRequestsByAccount: RateLimiter;
  resetRequestsByAddress: RateLimiter;
  /** Dead access links and dead reset links alike, so neither is a token oracle. */
  accessLinkFailuresByAddress: RateLimiter;
};

export function createAuthLimits(now: () => Date): AuthLimits {
  return {
    resetRequestsByAccount: createRateLimiter({ limit: FORGOT_PASSWORD_PER_ACCOUNT, windowMs: ONE_HOUR_MS, now }),
    resetRequestsByAddress: createRateLimiter({ limit: FORGOT_PASSWORD_PER_ADDRESS, windowMs: ONE_HOUR_MS, now }),
    accessLinkFailuresByAddress: createRateLimiter({ limit: ACCESS_LINK_FAILURES_PER_ADDRESS, windowMs: FIFTEEN_MINUTES_MS, now }),
  };
}

/** The 429 of a spent limit, saying when to try again. */
export function tooManyAttempts(decision: { retryAfterSeconds: number }, message: string): AppError {
  return new AppError('RATE_LIMITED', message, { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
}
