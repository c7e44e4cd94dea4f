import type { PcnDuplicateMatch, PcnDuplicatesQuery } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** Only a hint to the officer: a slow answer is not worth waiting for. */
const DUPLICATE_CHECK_TIMEOUT_MS = 8000;

/** GET /pcns/duplicates: other notices for the same vehicle, car park and UTC day. */
export async function getPcnDuplicates(query: PcnDuplicatesQuery): Promise<PcnDuplicateMatch[]> {
  const body = await apiClient.call('GET /pcns/duplicates', {
    query: query,
    fallbackMessage: 'Could not check for other notices',
    timeoutMs: DUPLICATE_CHECK_TIMEOUT_MS,
  });
  return body?.duplicates ?? [];
}
