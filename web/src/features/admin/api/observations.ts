import { ERROR_MESSAGES, type ObservationListResponse, type ObservationStatus } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** GET /observations: every officer's observations, newest first sighting first (docs/decisions/0012). */
export function getObservations(filters: {
  officerId?: string | null;
  status?: ObservationStatus | null;
  limit?: number;
}): Promise<ObservationListResponse> {
  return apiClient.call('GET /observations', {
    query: { page: 1, limit: filters.limit ?? 50, officerId: filters.officerId ?? undefined, status: filters.status ?? undefined },
    fallbackMessage: ERROR_MESSAGES.fetchObservations,
  });
}
