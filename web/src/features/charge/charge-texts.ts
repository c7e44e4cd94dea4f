/** The lookup's words, shared by ChargeScreen and the form index.html paints before it (web/build/boot-screen.ts). */
export const CHARGE_LOOKUP_INTRO =
  'Enter the reference and the vehicle registration from your notice to see the charge, its photos, how to pay and how to appeal.';
/** Either reference finds the charge: its number, or the draft reference a ticket printed with no signal. */
export const CHARGE_REFERENCE_HINT = 'For example PCN-00000123 or D-1A2B3C4D';
