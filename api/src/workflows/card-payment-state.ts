import type { PublicCardPayment } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { amountDueOf, chargeStateOf, type ChargeFacts } from '../domain/public-charge.ts';
import type { CardProcessor } from '../services/card-processor.ts';

/**
 * What the motorist's page says of paying by card: null without the card processor; payable while
 * something is due and no appeal holds the charge, for what is due now; confirming while a
 * checkout of this charge is complete at the processor and its webhook has not been recorded yet.
 */
export async function cardPaymentOf(
  deps: Pick<AppDeps, 'db' | 'cardProcessor' | 'logger'>,
  pcnId: string,
  facts: ChargeFacts,
  now: Date,
): Promise<PublicCardPayment | null> {
  const processor = deps.cardProcessor;
  if (!processor) return null;
  const due = amountDueOf(facts, now);
  const payable = chargeStateOf(facts.status) === 'OUTSTANDING' && !due.onHold && due.chargePence !== null && due.amountDuePence > 0;
  const confirming = await isConfirming(deps.db, processor, pcnId, now).catch((error: unknown) => {
    // The page must still show the charge when the processor cannot be asked; the webhook decides anyway.
    deps.logger.warn('could not ask the card processor about a checkout', { pcnId, error: String(error) });
    return false;
  });
  return { payable, amountPence: payable ? due.amountDuePence : 0, confirming };
}

/** The newest checkout not yet recorded as paid and not expired: has the motorist paid there? */
async function isConfirming(db: Db, processor: CardProcessor, pcnId: string, now: Date): Promise<boolean> {
  const open = await db
    .selectFrom('card_checkouts')
    .select(['stripe_session_id'])
    .where('pcn_id', '=', pcnId)
    .where('completed_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!open) return false;
  const session = await processor.retrieveCheckoutSession(open.stripe_session_id);
  return session.status === 'complete';
}
