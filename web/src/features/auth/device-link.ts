import { ERROR_MESSAGES, SERVER_MESSAGES } from '@parkpatrol/shared';
import { apiClient } from '../../lib/api-client.ts';

/** The query parameter of the emailed sign-in link (api workflows/account-emails.ts). */
export const DEVICE_LINK_PARAM = 'device-link';

/**
 * The refusals a device that is not known yet can get past with an emailed sign-in link: the
 * account's cap after a stranger's guesses, a busy shared address, and a link that died.
 */
const REFUSALS_WITH_LINK_OFFER = new Set<string>([
  SERVER_MESSAGES.signInNeedsKnownDevice,
  SERVER_MESSAGES.tooManyLoginAttempts,
  SERVER_MESSAGES.invalidDeviceLink,
]);

export function offersDeviceLink(error: string | null): boolean {
  return error !== null && REFUSALS_WITH_LINK_OFFER.has(error);
}

/** Asks for a sign-in link for this device, emailed to the account's own address. */
export function requestDeviceLink(email: string): Promise<null> {
  return apiClient.call('POST /auth/device-link', {
    json: { email },
    skipRefresh: true,
    token: null,
    fallbackMessage: ERROR_MESSAGES.deviceLinkEmailFailed,
  });
}
