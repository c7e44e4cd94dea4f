import { ERROR_MESSAGES, type Pcn } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export function getPcn(id: string): Promise<Pcn> {
  return apiClient.call('GET /pcns/:id', { params: { id }, fallbackMessage: ERROR_MESSAGES.fetchPcn });
}
