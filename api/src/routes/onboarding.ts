import { Hono } from 'hono';
import {
  isLocalOnlyUrl,
  canManageRole,
  ERROR_MESSAGES,
  onboardingListQuerySchema,
  SERVER_MESSAGES,
  sendBulkOnboardingInputSchema,
  sendOnboardingInputSchema,
  SUCCESS_MESSAGES,
  type BulkOnboardingResponse,
  type OnboardingCandidatesResponse,
  type OnboardingResult,
  type Role,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv, AuthUser } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { ACCESS_LINK_TTL_MS, issueOneTimeToken } from '../auth/one-time-tokens.ts';
import { AppError } from '../http/app-error.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import { listOnboardingCandidates } from '../repositories/users.ts';
import { recordActivity } from '../services/activities.ts';
import { hashToken } from '../services/crypto-tokens.ts';
import { buildOnboardingEmail } from '../services/onboarding-email.ts';

/** A few sends at a time: quick for a whole team, gentle on the mail relay. */
const BULK_CONCURRENCY = 4;

export function createOnboardingRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .use('*', requireAuth(deps), requireAdmin)
    .get('/users', async (c) => {
      const query = readQuery(c, onboardingListQuerySchema);
      const { appUrl } = deps.config;
      const users = await listOnboardingCandidates(deps.db, c.get('user').id, query);
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

/**
 * Issues a fresh access link (voiding any older one), emails it, and records the send for the
 * admin. A link whose email did not go out is voided too, so no working link exists that
 * nobody received.
 */
async function sendOnboardingEmail(
  deps: AppDeps,
  input: { userId: string; adminNotes: string | undefined; admin: AuthUser },
): Promise<void> {
  const { db, config } = deps;
  const user = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'role', 'is_active'])
    .where('id', '=', input.userId)
    .executeTakeFirst();
  if (!user) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
  if (user.is_active !== 1) {
    throw new AppError('CONFLICT', `${SERVER_MESSAGES.userInactive}. Activate the account before sending an onboarding email.`);
  }
  // The link is a session for that account, so the same rule as editing the account applies.
  if (!canManageRole(input.admin.role, user.role as Role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.cannotManageRole);

  const carParks = await db
    .selectFrom('car_park_users')
    .innerJoin('car_parks', 'car_parks.id', 'car_park_users.car_park_id')
    .select(['car_parks.name', 'car_parks.site_code', 'car_parks.address', 'car_parks.postcode'])
    .where('car_park_users.user_id', '=', user.id)
    .where('car_parks.is_active', '=', 1)
    .orderBy('car_parks.name')
    .execute();

  const now = deps.now();
  const token = await issueOneTimeToken(db, { userId: user.id, purpose: 'access-link', ttlMs: ACCESS_LINK_TTL_MS, now });
  let isBuilt = false;
  try {
    const email = await buildOnboardingEmail({
      productName: config.productName,
      appUrl: config.appUrl,
      accessUrl: `${config.appUrl}/u/${token}`,
      expiresAt: new Date(now.getTime() + ACCESS_LINK_TTL_MS),
      recipient: { firstName: user.first_name, lastName: user.last_name, email: user.email, role: user.role as Role },
      carParks: carParks.map((p) => ({ name: p.name, siteCode: p.site_code, address: p.address, postcode: p.postcode })),
      adminNotes: input.adminNotes,
      sentBy: { firstName: input.admin.firstName, lastName: input.admin.lastName, email: input.admin.email },
    });
    isBuilt = true;
    await deps.mailer.send({ to: user.email, ...email, purpose: 'onboarding', userId: user.id });
  } catch (err) {
    await db.updateTable('one_time_tokens').set({ used_at: now.toISOString() }).where('token_hash', '=', hashToken(token)).execute();
    if (!isBuilt) throw err;
    // The mailer has already recorded and logged the SMTP reason; the admin gets a clear message.
    throw new AppError(
      'EMAIL_DELIVERY_FAILED',
      `${ERROR_MESSAGES.sendOnboardingEmail}: the mail server did not accept it. Please try again later.`,
    );
  }

  await recordActivity(db, {
    userId: input.admin.id,
    type: 'ONBOARDING_SENT',
    description: `Onboarding email sent to ${user.first_name} ${user.last_name} (${user.email})`,
    now: deps.now(),
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
