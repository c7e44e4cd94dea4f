import type { RateLimitRule } from '../auth/rate-limit.ts';
import { AppError } from '../http/app-error.ts';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;
const ONE_HOUR_MS = 60 * 60 * 1000;

/**
 * Limits (docs/security.md). Password guesses go through the shared sign-in limiter
 * (auth/sign-in-limiter.ts); these count reset emails and dead links, in the database
 * (auth/rate-limit.ts), so every API process counts the same. A scope names its rows in
 * rate_limit_events: renaming one forgets the counts, which only ever errs towards letting in.
 */
export const RESET_REQUESTS_PER_ACCOUNT: RateLimitRule = { scope: 'reset-requests-per-account', limit: 3, windowMs: ONE_HOUR_MS };
export const RESET_REQUESTS_PER_ADDRESS: RateLimitRule = { scope: 'reset-requests-per-address', limit: 10, windowMs: ONE_HOUR_MS };
/** Dead access links and dead reset links alike, so neither is a token oracle. */
export const ACCESS_LINK_FAILURES_PER_ADDRESS: RateLimitRule = {
  scope: 'access-link-failures-per-address',
  limit: 10,
  windowMs: FIFTEEN_MINUTES_MS,
};

/** The 429 of a spent limit, saying when to try again. */
export function tooManyAttempts(decision: { retryAfterSeconds: number }, message: string): AppError {
  return new AppError('RATE_LIMITED', message, { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
}
