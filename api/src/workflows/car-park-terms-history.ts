import { CAR_PARK_TERMS_HISTORY_LIMIT, type CarParkTermsHistory } from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { listCarParkTermsChanges } from '../repositories/terms.ts';
import { assertOwnCarPark } from './landowner-views.ts';

/**
 * GET /car-parks/{id}/terms-history: who changed the car park's terms, what and when, newest
 * first (decision 0017). For admins and the car park's landowners, as its charges and report are:
 * the terms are the ones on their land's signs and on every notice issued there.
 */
export async function carParkTermsHistory(
  deps: Pick<AppDeps, 'db' | 'now'>,
  user: AuthUser,
  carParkId: string,
): Promise<CarParkTermsHistory> {
  await assertOwnCarPark(deps, user, carParkId);
  // One more than is shown tells whether older changes were left off.
  const changes = await listCarParkTermsChanges(deps.db, carParkId, CAR_PARK_TERMS_HISTORY_LIMIT + 1);
  return { changes: changes.slice(0, CAR_PARK_TERMS_HISTORY_LIMIT), hasMore: changes.length > CAR_PARK_TERMS_HISTORY_LIMIT };
}
