/**
 * Card payments on the motorist's page (/charge) through the card processor's hosted checkout.
 * `payable`: a card payment may be started now (something is due and no appeal holds the charge).
 * `amountPence`: what the server would ask for if Pay were pressed now (what is due today).
 * `confirming`: the motorist has paid at the checkout, and the processor's signed word (the webhook)
 * has not reached us yet. Null when the operator takes no card payments (no keys set).
 */
export type PublicCardPayment = { payable: boolean; amountPence: number; confirming: boolean };

/** POST /public/charges/current/checkout: where the motorist's browser goes to pay. */
export type CardCheckout = { url: string };

/** Where the checkout sends the motorist back: /charge with this in its query, so the page knows to wait for the payment. */
export const CARD_RETURN_PARAM = 'card';
export const CARD_RETURN_VALUES = { paid: 'returned', cancelled: 'cancelled' } as const;

/** The pay button's words: the amount with its pence ('Pay £60.00 by card'). */
export function payByCardLabel(amountPence: number): string {
  return `Pay ${penceShown(amountPence)} by card`;
}

export const CARD_PAYMENT_MESSAGES = {
  unavailable: 'Card payments are not taken online for this charge. Pay as the "How to pay" section says.',
  onHold: 'This charge is on hold while your appeal is considered: nothing can be paid until it is decided.',
  paid: 'This charge has already been paid. Nothing more is due.',
  cancelled: 'This charge has been cancelled. Nothing is due.',
  nothingDue: 'Nothing is due on this charge now.',
  processorFailed: 'The card payment page could not be opened. Try again in a few minutes, or pay as the "How to pay" section says.',
  badSignature: 'The event is not signed by the card processor, or its signature is too old',
  badEvent: 'The event could not be read',
  confirming: 'Payment being confirmed. Your card payment has been taken; this page changes to Paid as soon as it is recorded.',
  slow: 'Confirming the payment is taking longer than usual. It may take a few minutes: you do not need to pay again.',
  checkAgain: 'Check again',
  startFailed: 'The card payment could not be started. Check your connection and try again.',
  redirecting: 'Opening the card payment page…',
  cancelledReturn: 'The card payment was not completed. Nothing has been taken.',
} as const;

/** After a card payment that met less than was due by the time it was paid (the reduced rate had ended): what remains. */
export function whatRemainsText(amountDuePence: number): string {
  return `What remains: ${penceShown(amountDuePence)}`;
}

/** '£60.00', '£1,234.50': an amount always with its pence, as payment buttons show it. */
export function penceShown(pence: number): string {
  return `£${Math.floor(pence / 100).toLocaleString('en-GB')}.${String(pence % 100).padStart(2, '0')}`;
}
