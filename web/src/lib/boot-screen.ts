/**
 * The first screen index.html paints before the app's code arrives (web/build/boot-screen.ts).
 * The app takes it over in the same frame it renders its own: the sign-in screen carries over
 * what was typed (and a Sign In pressed meanwhile), and anything else just removes it.
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
