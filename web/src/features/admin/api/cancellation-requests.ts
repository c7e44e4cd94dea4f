import type { CancellationDecisionInput, Pcn } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const CANCELLATION_DECISION_FAILED = 'Failed to record the decision on the request';

/** Approve (the charge is cancelled as the landowner asked) or decline a landowner's request, with a reason. */
export function decideCancellationRequest(pcnId: string, requestId: string, input: CancellationDecisionInput): Promise<Pcn> {
  return apiClient.call('POST /pcns/:id/cancellation-requests/:requestId/decision', {
    params: { id: pcnId, requestId },
    json: input,
    fallbackMessage: CANCELLATION_DECISION_FAILED,
  });
}
