import { SCREEN_TEXTS } from '../../shared/src/messages.ts';
import { TOKEN_STORAGE_KEY } from '../../shared/src/limits.ts';
import { paths } from '../src/config/paths.ts';
import { BOOT_CHARGE_FORM_ID, BOOT_FORM_ID, BOOT_PRESSED_ATTRIBUTE, CLICK_AFTER_LIFT_MS } from '../src/lib/boot-screen.ts';
import { CHARGE_LOOKUP_INTRO, CHARGE_REFERENCE_HINT } from '../src/features/charge/charge-texts.ts';

/**
 * What index.html paints before any JavaScript arrives: on one bar of signal the app's
 * code takes seconds, the page a few hundred milliseconds.
 *
 * - Signed out: the sign-in form, the same markup and classes LoginScreen renders, so nothing
 *   moves when React takes over; what was typed meanwhile is carried over (lib/boot-screen.ts).
 * - At /charge, signed in or not: the motorist's lookup form, as ChargeScreen renders it, with
 *   the reference of the notice's QR code (`?ref=`) filled in.
 * - Signed in, or on a public page that is not sign-in: the full-page 'Loading...' React shows first.
 *
 * A small inline script picks one before the body paints, and starts the app's scripts once the
 * page is painted; the server allows it by its hash in the Content-Security-Policy
 * (api/src/http/inline-scripts.ts), no 'unsafe-inline'. Without it, the sign-in form shows.
 * Sign In pressed before the app is ready is remembered, not sent as a plain form post (which
 * would put the password in the address).
 */
// The appeal's confirmation link is under /charge but has no lookup form: it gets the shell.
const CHARGE_PAGE = new RegExp(`^${paths.charge}(?!/confirm-appeal)(/|$)`);

/** Public pages with a form of their own: they get the loading shell, not the sign-in form. */
const OTHER_PUBLIC_PAGES = new RegExp(
  `^(${[paths.forgotPassword, paths.resetPassword, paths.accessLink(''), paths.chargeConfirmAppeal, paths.visit('')].join('|')})`,
);

/** Where the build writes the app's script list into the boot script; in development Vite loads the app itself. */
export const APP_SCRIPTS_MARKER = '/*app-scripts*/null';

export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function bootScript(): string {
  return [
    '(function(){var d=document.documentElement,m="sign-in";',
    `try{if(${CHARGE_PAGE}.test(location.pathname))m="charge";else if(localStorage.getItem(${JSON.stringify(TOKEN_STORAGE_KEY)})||${OTHER_PUBLIC_PAGES}.test(location.pathname))m="shell"}catch(e){m="shell"}`,
    'd.setAttribute("data-boot",m);',
    // Once the markup is parsed ("interactive"): DOMContentLoaded would wait for the app's own scripts.
    `if(m==="charge")document.addEventListener("readystatechange",function(){var r=document.getElementById("boot-reference"),q=new URLSearchParams(location.search).get("ref");if(r&&q&&!r.value)r.value=q.slice(0,40)});`,
    `function bf(e){var f=e.target&&e.target.closest&&e.target.closest("form");return f&&(f.id===${JSON.stringify(BOOT_FORM_ID)}||f.id===${JSON.stringify(BOOT_CHARGE_FORM_ID)})?f:null}`,
    `document.addEventListener("submit",function(e){var f=bf(e);if(f){e.preventDefault();f.setAttribute("data-submitted","true")}},true);`,
    // A press on a painted form is marked until its click (or its cancel): the app waits for it
    // before taking over, or a Sign In released after the takeover would click nothing.
    `document.addEventListener("pointerdown",function(e){var f=bf(e);if(f)f.setAttribute(${JSON.stringify(BOOT_PRESSED_ATTRIBUTE)},"")},true);`,
    `function up(){var p=document.querySelectorAll("[${BOOT_PRESSED_ATTRIBUTE}]");for(var i=0;i<p.length;i++)p[i].removeAttribute(${JSON.stringify(BOOT_PRESSED_ATTRIBUTE)})}`,
    `document.addEventListener("click",up);document.addEventListener("pointercancel",up);document.addEventListener("pointerup",function(){setTimeout(up,${CLICK_AFTER_LIFT_MS})});`,
    // The app's scripts, once this page is painted (build/first-paint.ts fills the list in: the
    // entry first, then the modules it imports). Nothing in the first paint waits for them or
    // shares the link with them; a tab opened in the background starts within a second.
    `var s=${APP_SCRIPTS_MARKER},started=false;`,
    'function start(){if(started||!s)return;started=true;for(var i=s.length-1;i>=0;i--){var e=document.createElement(i?"link":"script");if(i){e.rel="modulepreload";e.href=s[i]}else{e.type="module";e.src=s[i]}e.crossOrigin="";document.head.appendChild(e)}}',
    'requestAnimationFrame(function(){setTimeout(start,0)});setTimeout(start,1000)})();',
  ].join('');
}

export function bootMarkup(productTitle: string): string {
  const t = (text: string) => escapeHtml(text);
  return `<div id="boot">
      <main class="auth-page boot-sign-in">
        <div class="auth-card">
          <h1 class="page-heading auth-card__title">${t(productTitle)}</h1>
          <p class="auth-card__subtitle">${t(SCREEN_TEXTS.signInSubtitle)}</p>
          <form id="${BOOT_FORM_ID}" class="form-stack" novalidate>
            <div class="field"><label class="field__label" for="boot-email">Email</label><input class="field__input" id="boot-email" name="email" type="email" autocomplete="username" inputmode="email" autofocus></div>
            <div class="field"><label class="field__label" for="boot-password">Password</label><input class="field__input" id="boot-password" name="password" type="password" autocomplete="current-password"></div>
            <button class="button button--primary button--block" type="submit">${t(SCREEN_TEXTS.signIn)}</button>
          </form>
          <p class="auth-card__footer"><a class="text-link" href="${paths.forgotPassword}">${t(SCREEN_TEXTS.forgotPasswordLink)}</a></p>
        </div>
      </main>
      <main class="charge-page boot-charge">
        <div class="charge-page__inner">
          <p class="charge-operator"></p>
          <h1 class="page-heading">Your parking charge</h1>
          <p>${t(CHARGE_LOOKUP_INTRO)}</p>
          <form id="${BOOT_CHARGE_FORM_ID}" class="form-stack" novalidate aria-label="Find your charge">
            <div class="field"><label class="field__label" for="boot-reference">Charge reference</label><input class="field__input" id="boot-reference" name="reference" autocapitalize="characters" autocomplete="off" aria-describedby="boot-reference-description" aria-required="true"><span id="boot-reference-description" class="field__description">${t(CHARGE_REFERENCE_HINT)}</span></div>
            <div class="field"><label class="field__label" for="boot-registration">Vehicle registration</label><input class="field__input" id="boot-registration" name="registration" autocapitalize="characters" autocomplete="off" aria-required="true"></div>
            <button class="button button--primary" type="submit">Find my charge</button>
          </form>
        </div>
      </main>
      <main class="full-page-spinner boot-shell">
        <div class="spinner" role="status"><span class="spinner__circle" aria-hidden="true"></span><span>${t(SCREEN_TEXTS.loading)}</span></div>
      </main>
    </div>`;
}

/**
 * Until the script has chosen, or when it cannot run, the sign-in form shows. While a press on
 * the painted form waits to end, the app's screen, already rendered above it, is not shown: the
 * painted button stays under the finger.
 */
export const BOOT_STYLE = `html[data-boot="shell"] .boot-sign-in,html[data-boot="charge"] .boot-sign-in,html:not([data-boot="shell"]) .boot-shell,html:not([data-boot="charge"]) .boot-charge,body:has(>#boot [${BOOT_PRESSED_ATTRIBUTE}])>#root{display:none}`;

/** index.html with the boot screen in place of its markers. */
export function withBootScreen(html: string, productTitle: string): string {
  return html
    .replace('<!--boot-head-->', `<style>${BOOT_STYLE}</style>\n    <script>${bootScript()}</script>`)
    .replace('<!--boot-body-->', bootMarkup(productTitle));
}
