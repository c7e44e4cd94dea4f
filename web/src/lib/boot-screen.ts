/**
 * The first screen index.html paints before the app's code arrives (web/build/boot-screen.ts).
 * The app takes it over in the same frame it renders its own: the sign-in screen and the
 * motorist's lookup carry over what was typed (and a submit pressed meanwhile), and anything
 * else just removes it.
 */
export type BootSignIn = {
  email: string;
  password: string;
  /** Which field had the caret, so typing goes on where it was. */
  focused: 'email' | 'password' | null;
  /** Sign In was pressed before the app was ready. */
  isSubmitted: boolean;
};

const BOOT_ID = 'boot';
const BOOT_FORM_ID = 'boot-sign-in';
const BOOT_CHARGE_FORM_ID = 'boot-charge-lookup';

/** What the painted charge lookup (at /charge) holds. */
export type BootChargeLookup = {
  reference: string;
  registration: string;
  focused: 'reference' | 'registration' | null;
  isSubmitted: boolean;
};

/** What the painted charge lookup holds, and removes the boot screen; null when it was not shown. */
export function takeBootChargeLookup(): BootChargeLookup | null {
  if (typeof document === 'undefined') return null;
  const form = document.getElementById(BOOT_CHARGE_FORM_ID);
  const shown = form instanceof HTMLFormElement && form.offsetParent !== null;
  const taken: BootChargeLookup | null = shown ? readChargeForm(form) : null;
  removeBootScreen();
  return taken;
}

function readChargeForm(form: HTMLFormElement): BootChargeLookup {
  const reference = form.elements.namedItem('reference');
  const registration = form.elements.namedItem('registration');
  const active = document.activeElement;
  return {
    reference: reference instanceof HTMLInputElement ? reference.value : '',
    registration: registration instanceof HTMLInputElement ? registration.value : '',
    focused: active === reference ? 'reference' : active === registration ? 'registration' : null,
    isSubmitted: form.getAttribute('data-submitted') === 'true',
  };
}

/** Whether the painted sign-in form is on screen (the app's own form then waits to take it over). */
export function hasBootSignIn(): boolean {
  if (typeof document === 'undefined') return false;
  const form = document.getElementById(BOOT_FORM_ID);
  return form instanceof HTMLFormElement && form.offsetParent !== null;
}

/** What the painted sign-in form holds, and removes the boot screen; null when there was none. */
export function takeBootSignIn(): BootSignIn | null {
  if (typeof document === 'undefined') return null;
  const form = document.getElementById(BOOT_FORM_ID);
  const taken = form instanceof HTMLFormElement && hasBootSignIn() ? readForm(form) : null;
  removeBootScreen();
  return taken;
}

export function removeBootScreen(): void {
  if (typeof document === 'undefined') return;
  document.getElementById(BOOT_ID)?.remove();
}

function readForm(form: HTMLFormElement): BootSignIn {
  const email = form.elements.namedItem('email');
  const password = form.elements.namedItem('password');
  const active = document.activeElement;
  return {
    email: email instanceof HTMLInputElement ? email.value : '',
    password: password instanceof HTMLInputElement ? password.value : '',
    focused: active === email ? 'email' : active === password ? 'password' : null,
    isSubmitted: form.getAttribute('data-submitted') === 'true',
  };
}
