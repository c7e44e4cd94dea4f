import type { Pcn } from '@parkpatrol/shared';
import { ApiError } from '../../../lib/api-client.ts';
import type { AttemptKey } from '../../../lib/attempt-key.ts';

export const PAYMENT_ALREADY_RECORDED =
  'A payment from this form was already recorded: it is now in the list above. Check it before recording another.';

/**
 * One send of the payment form (or the refund dialog) under its attempt's key. The server refuses a key whose payment
 * differs from the one it recorded under it: the first send was recorded but its answer lost, and
 * the form was edited since. That payment is in the list once it is reloaded, and the key is spent,
 * so the next try gets a new one rather than the same refusal until the page is reloaded.
 */
export async function sendPaymentAttempt(input: {
  attempt: AttemptKey;
  record: (idempotencyKey: string) => Promise<Pcn>;
  reload: () => Promise<Pcn>;
  onChanged: (updated: Pcn) => void;
  /** What the refusal says: the payment form's words unless another form (a refund) gives its own. */
  alreadyRecorded?: string;
}): Promise<void> {
  try {
    const updated = await input.record(input.attempt.current);
    input.attempt.recorded();
    input.onChanged(updated);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'IDEMPOTENCY_MISMATCH') throw error;
    input.attempt.recorded();
    input.onChanged(await input.reload());
    throw new ApiError(input.alreadyRecorded ?? PAYMENT_ALREADY_RECORDED, { status: error.status, code: error.code });
  }
}
