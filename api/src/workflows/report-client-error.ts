import type { ClientErrorReport } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import type { RateLimiter, RateLimitRule } from '../auth/rate-limit.ts';
import { SERVER_MESSAGES } from '@parkpatrol/shared';
import { tooManyAttempts } from './auth-limits.ts';

/** A page in a crash loop, or a stranger filling the log, stops here; a real bug shows in the first few. */
export const CLIENT_ERRORS_PER_ADDRESS: RateLimitRule = { scope: 'client-errors-per-address', limit: 30, windowMs: 15 * 60 * 1000 };

/** POST /client-errors: one line in the log, with the build and page, for whoever reads it next. */
export async function reportClientError(
  deps: Pick<AppDeps, 'logger'>,
  limits: RateLimiter,
  input: { report: ClientErrorReport; address: string; userAgent: string | undefined },
): Promise<void> {
  const decision = await limits.take([{ rule: CLIENT_ERRORS_PER_ADDRESS, key: input.address }]);
  if (decision.isLimited) throw tooManyAttempts(decision, SERVER_MESSAGES.tooManyRequests);
  const { message, ...where } = input.report;
  deps.logger.warn('client error', { error: message, ...where, userAgent: input.userAgent?.slice(0, 300) });
}
