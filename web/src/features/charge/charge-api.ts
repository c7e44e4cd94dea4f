import {
  CARD_PAYMENT_MESSAGES,
  chargeLookupInputSchema,
  fieldErrors,
  IDEMPOTENCY_KEY_HEADER,
  LOOKUP_CHALLENGE_HEADER,
  type AppealFiled,
  type AppealSubmitted,
  type AppealWithdrawal,
  type CardCheckout,
  type ChargeLookupResponse,
  type PublicCharge,
} from '@parkpatrol/shared';
import { ApiError, apiClient, toApiError } from '../../lib/api-client.ts';
import { CHARGE_LOOKUP_CHECK_FAILED, CHARGE_MISTYPE_HELP, chargeLookupWait } from './charge-texts.ts';
import { solveLookupChallenge } from './lookup-check.ts';

export const CHARGE_LOOKUP_FAILED = 'The charge could not be looked up. Check your connection and try again.';

/** The shared schema's messages by field, or null when both fields will do. */
export function lookupProblems(input: { reference: string; registration: string }): Record<string, string> | null {
  const parsed = chargeLookupInputSchema.safeParse(input);
  return parsed.success ? null : fieldErrors(parsed.error);
}
export const CHARGE_LOAD_FAILED = 'The charge could not be loaded. Look it up again.';

/** Checks done for one press of Find: the work asked for can rise while the first is being done. */
const MOST_CHECKS = 2;

/** No staff session goes with the motorist's requests, and none is refreshed: the charge has its own token. */
export function lookUpCharge(reference: string, registration: string, onChecking: () => void = () => {}): Promise<ChargeLookupResponse> {
  return withLookupChecks(
    (proof) =>
      apiClient.call('POST /public/charges/lookup', {
        json: { reference, registration, ...(proof ? { proof } : {}) },
        token: null,
        skipRefresh: true,
        fallbackMessage: CHARGE_LOOKUP_FAILED,
      }),
    onChecking,
  );
}

/**
 * A lookup sent, and when the server asks for a check first (others' wrong tries at this
 * reference or plate, or many from this connection), the check done here and the lookup sent
 * again; `onChecking` is told, so the page can say why it takes a moment.
 */
export async function withLookupChecks<T>(send: (proof: string | null) => Promise<T>, onChecking: () => void): Promise<T> {
  let proof: string | null = null;
  for (let checks = 0; ; checks++) {
    try {
      return await send(proof);
    } catch (error) {
      const challenge = error instanceof ApiError && error.status === 429 ? error.headers.get(LOOKUP_CHALLENGE_HEADER) : null;
      if (!challenge || checks >= MOST_CHECKS) throw error;
      onChecking();
      proof = await solveLookupChallenge(challenge).catch(() => {
        throw new ApiError(CHARGE_LOOKUP_CHECK_FAILED, { status: 429 });
      });
    }
  }
}

/** What the page says of a failed lookup: the server's words, and what to do next in plain English. */
export function lookupFailureOf(error: unknown): { message: string; help: string | null } {
  const failure = toApiError(error, CHARGE_LOOKUP_FAILED);
  if (failure.status === 404) return { message: failure.message, help: CHARGE_MISTYPE_HELP };
  if (failure.status === 429 && failure.headers.has(LOOKUP_CHALLENGE_HEADER)) return { message: CHARGE_LOOKUP_CHECK_FAILED, help: null };
  if (failure.status === 429 && failure.message !== CHARGE_LOOKUP_CHECK_FAILED) {
    const seconds = Number(failure.headers.get('retry-after'));
    return { message: failure.message, help: chargeLookupWait(Number.isFinite(seconds) && seconds > 0 ? seconds : null) };
  }
  return { message: failure.message, help: null };
}

/**
 * A card checkout for what is due now: the server works the amount out; the page only goes where
 * it is told (the card processor's hosted page).
 */
export function startCardCheckout(accessToken: string): Promise<CardCheckout> {
  return apiClient.call('POST /public/charges/current/checkout', {
    token: accessToken,
    skipRefresh: true,
    fallbackMessage: CARD_PAYMENT_MESSAGES.startFailed,
  });
}

export function getCurrentCharge(accessToken: string): Promise<PublicCharge> {
  return apiClient.call('GET /public/charges/current', { token: accessToken, skipRefresh: true, fallbackMessage: CHARGE_LOAD_FAILED });
}

export const APPEAL_SEND_FAILED = 'Your appeal could not be sent. Check your connection and send it again: nothing will be sent twice.';

/**
 * The appeal, once per key: sending the same form again (a lost answer) gives the same answer.
 * It waits for the link emailed to the address it gives (decision 0032), unless that link was
 * already used: then it is the appeal.
 */
export function sendAppeal(accessToken: string, form: FormData, idempotencyKey: string): Promise<AppealFiled> {
  return apiClient.call('POST /public/charges/current/appeal', {
    body: form,
    token: accessToken,
    skipRefresh: true,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    fallbackMessage: APPEAL_SEND_FAILED,
  });
}

export const APPEAL_CONFIRM_FAILED = 'Your appeal could not be sent. Check your connection and press Send my appeal again.';

/** The emailed link's token, sent when the motorist presses Send: only then is the appeal received. */
export function confirmAppeal(token: string): Promise<AppealSubmitted> {
  return apiClient.call('POST /public/appeals/confirm', {
    json: { token },
    token: null,
    skipRefresh: true,
    fallbackMessage: APPEAL_CONFIRM_FAILED,
  });
}

export const APPEAL_WITHDRAW_FAILED = 'Your appeal could not be withdrawn. Check your connection and try again.';

/** Withdraws the charge's open appeal (decision 0044), with the email it gave: the page's token alone is not enough. */
export function withdrawAppeal(accessToken: string, email: string): Promise<AppealWithdrawal> {
  return apiClient.call('POST /public/charges/current/appeal/withdraw', {
    json: { email },
    token: accessToken,
    skipRefresh: true,
    fallbackMessage: APPEAL_WITHDRAW_FAILED,
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
