import { flushSync } from 'react-dom';
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
export const BOOT_FORM_ID = 'boot-sign-in';
/** The motorist's lookup form, painted at /charge (a stranger's first visit from a notice's QR code). */
export const BOOT_CHARGE_FORM_ID = 'boot-charge-lookup';
/** On a painted form while a finger or mouse button is down on it, until its click or cancel. */
export const BOOT_PRESSED_ATTRIBUTE = 'data-pressed';
/** After a press lifts, how long its click may take to come (a tap's comes a moment after). */
export const CLICK_AFTER_LIFT_MS = 300;
/** The longest a takeover waits on a press, should its end never be seen. */
const PRESS_WAIT_MS = 5000;

/**
 * Runs `takeOver` at once, or, while a press on a painted form is down, once it has ended: a
 * Sign In (or Find) pressed on the painted form and released over the app's own would otherwise
 * click nothing, its button gone under the finger. The takeover runs after the click's own
 * submit, which the painted form remembers. Returns what cancels the wait.
 */
export function afterBootPress(takeOver: () => void): () => void {
  if (typeof document === 'undefined' || !document.querySelector(`#${BOOT_ID} [${BOOT_PRESSED_ATTRIBUTE}]`)) {
    takeOver();
    return () => undefined;
  }
  let timer = setTimeout(() => endAfter(0), PRESS_WAIT_MS);
  const events: Array<[string, () => void]> = [
    // A task after the click's, so its submit has been seen by the painted form.
    ['click', () => endAfter(0)],
    ['pointercancel', () => endAfter(0)],
    ['pointerup', () => endAfter(CLICK_AFTER_LIFT_MS)],
  ];
  const stop = () => {
    clearTimeout(timer);
    for (const [type, listener] of events) document.removeEventListener(type, listener, true);
  };
  function endAfter(ms: number) {
    clearTimeout(timer);
    if (ms === 0) for (const [type, listener] of events) document.removeEventListener(type, listener, true);
    timer = setTimeout(() => {
      stop();
      // Rendered before anything else runs, as in the layout effect it would have run in: a
      // remembered submit, sent a task later, reads what was taken over.
      flushSync(takeOver);
    }, ms);
  }
  for (const [type, listener] of events) document.addEventListener(type, listener, true);
  return stop;
}

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
