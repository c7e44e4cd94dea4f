import { ERROR_MESSAGES, RECENT_PCNS_COUNT, type PcnListItem } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** Spec: the dashboard lists the first 5 PCNs of the unfiltered list (newest first). */
export async function getRecentPcns(): Promise<PcnListItem[]> {
  const data = await apiClient.call('GET /pcns', {
    query: { page: 1, limit: RECENT_PCNS_COUNT },
    fallbackMessage: ERROR_MESSAGES.fetchPcns,
  });
  return data.pcns.slice(0, RECENT_PCNS_COUNT);
}
