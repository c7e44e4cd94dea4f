import { chargeLookupInputSchema, fieldErrors, type ChargeLookupResponse, type PublicCharge } from '@parkpatrol/shared';
import { apiClient } from '../../lib/api-client.ts';

export const CHARGE_LOOKUP_FAILED = 'The charge could not be looked up. Check your connection and try again.';

/** The shared schema's messages by field, or null when both fields will do. */
export function lookupProblems(input: { reference: string; registration: string }): Record<string, string> | null {
  const parsed = chargeLookupInputSchema.safeParse(input);
  return parsed.success ? null : fieldErrors(parsed.error);
}
export const CHARGE_LOAD_FAILED = 'The charge could not be loaded. Look it up again.';

/** No staff session goes with the motorist's requests, and none is refreshed: the charge has its own token. */
export function lookUpCharge(reference: string, registration: string): Promise<ChargeLookupResponse> {
  return apiClient.call('POST /public/charges/lookup', {
    json: { reference, registration },
    token: null,
    skipRefresh: true,
    fallbackMessage: CHARGE_LOOKUP_FAILED,
  });
}

export function getCurrentCharge(accessToken: string): Promise<PublicCharge> {
  return apiClient.call('GET /public/charges/current', { token: accessToken, skipRefresh: true, fallbackMessage: CHARGE_LOAD_FAILED });
}
