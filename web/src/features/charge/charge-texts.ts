/** The lookup's words, shared by ChargeScreen and the form index.html paints before it (web/build/boot-screen.ts). */
export const CHARGE_LOOKUP_INTRO =
  'Enter the reference and the vehicle registration from your notice to see the charge, its photos, how to pay and how to appeal.';
/** Either reference finds the charge: its number, or the draft reference a ticket printed with no signal. */
export const CHARGE_REFERENCE_HINT = 'For example PCN-00000123 or D-1A2B3C4D';

/** Beside the answer to a wrong pair: the typing is kept, and the usual slips named, in plain words. */
export const CHARGE_MISTYPE_HELP =
  'What you typed is still in the boxes below, so you only need to correct it. Check each letter and number against your notice: the letter O and the number 0, I and 1, S and 5, and B and 8 are easy to mix up. Spaces and capital letters do not matter.';
/** While the browser does the check the server asks for once a reference or registration has had many wrong tries. */
export const CHARGE_LOOKUP_CHECKING =
  'Many wrong attempts have been made with this reference or registration, so your browser is doing a short check before looking your charge up. This can take a few seconds.';
/** The browser could not do the check (too old, or the page not served securely). */
export const CHARGE_LOOKUP_CHECK_FAILED =
  'Your browser could not do the short check this lookup needs. Press Find my charge to try again, or use another browser.';

/** Beside the 429 of too many lookups from one connection: when to come back, and that nothing typed is lost. */
export function chargeLookupWait(retryAfterSeconds: number | null): string {
  const minutes = Math.max(1, Math.ceil((retryAfterSeconds ?? 15 * 60) / 60));
  return `You can try again in about ${minutes} minute${minutes === 1 ? '' : 's'}. What you typed is kept, so you only need to press Find my charge again then.`;
}

/** What the motorist is told once the appeal is received: on /charge, and on the page its emailed link opens. */
export function appealReceivedText(reference: string): string {
  return `Your appeal ${reference} has been received. We have emailed you a copy of this acknowledgement, and will answer by email.`;
}

/** Back from the card processor's page: how often the page asks whether the payment is recorded, and for how long before it says it may take a few minutes. */
export const CARD_CONFIRM_POLL_MS = 2000;
export const CARD_CONFIRM_WAIT_MS = 60_000;
