import { canManageRole, ERROR_MESSAGES, SERVER_MESSAGES, type OnboardingListQuery } from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { ACCESS_LINK_TTL_MS, issueOneTimeToken } from '../auth/one-time-tokens.ts';
import { AppError } from '../http/app-error.ts';
import { listOnboardingCandidates } from '../repositories/users.ts';
import { recordActivity } from '../services/activities.ts';
import { hashToken } from '../services/crypto-tokens.ts';
import { buildOnboardingEmail } from '../services/onboarding-email.ts';

/** The accounts an admin may send an onboarding email to, as the onboarding screen lists them. */
export function onboardingCandidates(deps: Pick<AppDeps, 'db'>, admin: AuthUser, query: OnboardingListQuery) {
  return listOnboardingCandidates(deps.db, admin.id, query);
}

/**
 * Issues a fresh access link (voiding any older one), emails it, and records the send for the
 * admin. A link whose email did not go out is voided too, so no working link exists that
 * nobody received.
 */
export async function sendOnboardingEmail(
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
  if (!user.is_active) {
    throw new AppError('CONFLICT', `${SERVER_MESSAGES.userInactive}. Activate the account before sending an onboarding email.`);
  }
  // The link is a session for that account, so the same rule as editing the account applies.
  if (!canManageRole(input.admin.role, user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.cannotManageRole);

  const carParks = await db
    .selectFrom('car_park_users')
    .innerJoin('car_parks', 'car_parks.id', 'car_park_users.car_park_id')
    .select(['car_parks.name', 'car_parks.site_code', 'car_parks.address', 'car_parks.postcode'])
    .where('car_park_users.user_id', '=', user.id)
    .where('car_parks.is_active', '=', true)
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
      recipient: { firstName: user.first_name, lastName: user.last_name, email: user.email, role: user.role },
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
