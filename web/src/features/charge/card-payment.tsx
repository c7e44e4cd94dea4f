import { useEffect, useRef, useState } from 'react';
import { CARD_PAYMENT_MESSAGES, payByCardLabel, whatRemainsText, type PublicCharge } from '@parkpatrol/shared';
import { Alert } from '../../lib/alert.tsx';
import { Button } from '../../lib/button.tsx';
import { toApiError } from '../../lib/api-client.ts';
import { startCardCheckout } from './charge-api.ts';
import { CARD_CONFIRM_POLL_MS, CARD_CONFIRM_WAIT_MS } from './charge-texts.ts';

/**
 * Paying by card on /charge: the button for what is due now, then, back from the card
 * processor's page, 'Payment being confirmed' until its signed word reaches the server (the
 * page asks every 2 s for up to a minute, then offers to check again), and 'Paid' or what
 * remains. One live region carries each change, so a screen reader hears confirming turn to Paid.
 */
export function CardPayment({
  charge,
  accessToken,
  cardReturn,
  onReload,
}: {
  charge: PublicCharge;
  accessToken: string;
  /** Back from the card processor's page: paid there, or cancelled. */
  cardReturn: 'returned' | 'cancelled' | null;
  onReload: () => Promise<void>;
}) {
  const card = charge.card;
  const [isStarting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isSlow, setSlow] = useState(false);
  const [round, setRound] = useState(0);
  const confirming = card?.confirming === true && charge.state === 'OUTSTANDING';
  const reload = useRef(onReload);
  reload.current = onReload;

  useEffect(() => {
    if (!confirming) return;
    setSlow(false);
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started >= CARD_CONFIRM_WAIT_MS) {
        clearInterval(timer);
        setSlow(true);
        return;
      }
      // A failed check is tried again at the next tick; the page keeps what it shows.
      reload.current().catch(() => undefined);
    }, CARD_CONFIRM_POLL_MS);
    return () => clearInterval(timer);
  }, [confirming, round]);

  if (!card || charge.state === 'CANCELLED') return null;

  const pay = async () => {
    setError(null);
    setStarting(true);
    try {
      const { url } = await startCardCheckout(accessToken);
      window.location.assign(url);
    } catch (failure) {
      setError(toApiError(failure, CARD_PAYMENT_MESSAGES.startFailed).message);
      setStarting(false);
    }
  };

  const showsRemaining = charge.state === 'OUTSTANDING' && charge.paidPence > 0 && charge.amountDuePence > 0 && !charge.onHold;
  return (
    <section className="charge-card" aria-labelledby="charge-card-title">
      <h2 id="charge-card-title">Pay by card</h2>
      <div role="status" aria-live="polite" aria-atomic="true" className="charge-card__status">
        {charge.state === 'PAID' ? (
          <p className="charge-card__paid">Paid</p>
        ) : confirming ? (
          <p>{isSlow ? CARD_PAYMENT_MESSAGES.slow : CARD_PAYMENT_MESSAGES.confirming}</p>
        ) : showsRemaining ? (
          <p className="charge-card__remaining">{whatRemainsText(charge.amountDuePence)}</p>
        ) : cardReturn === 'cancelled' ? (
          <p>{CARD_PAYMENT_MESSAGES.cancelledReturn}</p>
        ) : null}
        {isStarting ? <p>{CARD_PAYMENT_MESSAGES.redirecting}</p> : null}
      </div>
      {confirming && isSlow ? (
        <Button
          variant="secondary"
          onPress={() => {
            reload.current().catch(() => undefined);
            setRound((n) => n + 1);
          }}
        >
          {CARD_PAYMENT_MESSAGES.checkAgain}
        </Button>
      ) : null}
      {error ? <Alert>{error}</Alert> : null}
      {card.payable && !confirming ? (
        <Button onPress={() => void pay()} isDisabled={isStarting} aria-busy={isStarting || undefined}>
          {payByCardLabel(card.amountPence)}
        </Button>
      ) : null}
    </section>
  );
}
