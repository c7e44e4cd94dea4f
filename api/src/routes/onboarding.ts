import { Hono } from 'hono';
import {
  isLocalOnlyUrl,
  ERROR_MESSAGES,
  onboardingListQuerySchema,
  sendBulkOnboardingInputSchema,
  sendOnboardingInputSchema,
  SUCCESS_MESSAGES,
  type BulkOnboardingResponse,
  type OnboardingCandidatesResponse,
  type OnboardingResult,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { AppError } from '../http/app-error.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import { onboardingCandidates, sendOnboardingEmail } from '../workflows/send-onboarding-email.ts';

/** A few sends at a time: quick for a whole team, gentle on the mail relay. */
const BULK_CONCURRENCY = 4;

export function createOnboardingRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .use('*', requireAuth(deps), requireAdmin)
    .get('/users', async (c) => {
      const query = readQuery(c, onboardingListQuerySchema);
      const { appUrl } = deps.config;
      const users = await onboardingCandidates(deps, c.get('user'), query);
      const body: OnboardingCandidatesResponse = { users, appUrl, isAppUrlLocal: isLocalOnlyUrl(appUrl) };
      return ok(c, 'GET /onboarding/users', body);
    })
    .post('/send/:userId', async (c) => {
      const { adminNotes } = await readJson(c, sendOnboardingInputSchema);
      const userId = c.req.param('userId');
      await sendOnboardingEmail(deps, { userId, adminNotes, admin: c.get('user') });
      const result: OnboardingResult = { userId, success: true };
      return ok(c, 'POST /onboarding/send/:userId', result, { message: SUCCESS_MESSAGES.onboardingEmailSent });
    })
    .post('/send-bulk', async (c) => {
      const { userIds, adminNotes } = await readJson(c, sendBulkOnboardingInputSchema);
      const admin = c.get('user');
      // A user ticked twice gets one email: a second send would void the first link anyway.
      const uniqueIds = [...new Set(userIds)];
      const results = await mapWithConcurrency(uniqueIds, BULK_CONCURRENCY, async (userId): Promise<OnboardingResult> => {
        try {
          await sendOnboardingEmail(deps, { userId, adminNotes, admin });
          return { userId, success: true };
        } catch (err) {
          return { userId, success: false, error: describeFailure(deps, err, userId) };
        }
      });
      const succeeded = results.filter((r) => r.success).length;
      const body: BulkOnboardingResponse = { results };
      return ok(c, 'POST /onboarding/send-bulk', body, {
        message: `Onboarding emails sent: ${succeeded} succeeded, ${results.length - succeeded} failed`,
      });
    });
}

/** The per-user text of a bulk result: our own messages as they are, anything else generic. */
function describeFailure(deps: AppDeps, err: unknown, userId: string): string {
  if (err instanceof AppError) return err.message;
  deps.logger.error('onboarding send failed', { userId, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  return ERROR_MESSAGES.sendOnboardingEmail;
}

/** Runs `task` over `items` with at most `limit` at once, keeping the results in input order. */
async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
