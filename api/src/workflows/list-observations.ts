import type { ObservationListQuery, ObservationListResponse } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { listObservations } from '../repositories/observations.ts';

/** One page of the stay rule's observations, for admins. */
export async function listObservationPage(deps: Pick<AppDeps, 'db'>, query: ObservationListQuery): Promise<ObservationListResponse> {
  const { observations, total } = await listObservations(deps.db, query);
  return { observations, pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } };
}
