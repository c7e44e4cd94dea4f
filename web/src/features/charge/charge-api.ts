import {
  chargeLookupInputSchema,
  fieldErrors,
  IDEMPOTENCY_KEY_HEADER,
  type AppealSubmitted,
  type ChargeLookupResponse,
  type PublicCharge,
} from '@parkpatrol/shared';
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

export const APPEAL_SEND_FAILED = 'Your appeal could not be sent. Check your connection and send it again: nothing will be sent twice.';

/** The appeal, once per key: sending the same form again (a lost answer) gives the same appeal. */
export function sendAppeal(accessToken: string, form: FormData, idempotencyKey: string): Promise<AppealSubmitted> {
  return apiClient.call('POST /public/charges/current/appeal', {
    body: form,
    token: accessToken,
    skipRefresh: true,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    fallbackMessage: APPEAL_SEND_FAILED,
  });
}

export const LETTER_DOWNLOAD_FAILED = 'The letter could not be downloaded. Try again.';

export function downloadDecisionLetter(accessToken: string): Promise<Blob> {
  return apiClient.download('GET /public/charges/current/appeal/letter', {
    token: accessToken,
    skipRefresh: true,
    fallbackMessage: LETTER_DOWNLOAD_FAILED,
  });
}
