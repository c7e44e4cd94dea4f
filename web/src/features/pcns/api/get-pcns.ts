import { DEFAULT_LIMIT, ERROR_MESSAGES, type PcnListResponse, type PcnStatus } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export type PcnListQuery = { page: number; limit?: number; status?: PcnStatus | null; search?: string };

/** Server-side search and filter, so every page of the officer's PCNs is reachable. */
export function getPcns(query: PcnListQuery): Promise<PcnListResponse> {
  return apiClient.call('GET /pcns', {
    query: {
      page: query.page,
      limit: query.limit ?? DEFAULT_LIMIT,
      status: query.status ?? undefined,
      search: query.search?.trim() || undefined,
    },
    fallbackMessage: ERROR_MESSAGES.fetchPcns,
  });
}

/** The phone keeps the plain pages (and status filters) for offline reading; searches are not kept. */
export function pcnListCacheKey(query: PcnListQuery): string | null {
  if (query.search?.trim()) return null;
  return `pcns?page=${query.page}&limit=${query.limit ?? DEFAULT_LIMIT}&status=${query.status ?? ''}`;
}
