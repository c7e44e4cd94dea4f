import { ERROR_MESSAGES, type PcnStats } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** Counts per status for the caller, so the counters are right for any number of PCNs. */
export function getPcnStats(): Promise<PcnStats> {
  return apiClient.call('GET /pcns/stats', { fallbackMessage: ERROR_MESSAGES.fetchPcns });
}
