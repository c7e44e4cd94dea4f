import type { Engine } from './engine.ts';
import { waitFor, waitForText } from './engine.ts';
import type { LoopbackProxy } from './loopback-proxy.ts';

export type JourneyContext = { engine: Engine; baseUrl: string; proxy: LoopbackProxy };
export type Journey = { name: string; run: (context: JourneyContext) => Promise<void> };

const OFFICER = { email: 'officer@example.com', password: 'officer123', firstName: 'Olivia' };

/**
 * The officer's core journeys, the same in every engine. Each starts where the one before left
 * off (one browser profile per engine, as one phone).
 */
export const JOURNEYS: Journey[] = [
  {
    name: 'signs in, typing as soon as the form is painted',
    async run({ engine, baseUrl }) {
      await engine.goto(`${baseUrl}/login`);
      // The painted form (index.html) or the app's: typing starts at once, as an officer's would.
      await engine.type('input[type=email]', OFFICER.email);
      await engine.type('input[type=password]', OFFICER.password);
      await waitFor(engine, 'the app to have taken the form over', `return !document.getElementById('boot');`);
      // What was typed before the app took over is still there (WebKit once lost the email).
      const kept = await engine.evaluate<string>(`return document.querySelector('input[type=email]')?.value ?? '';`);
      if (kept !== OFFICER.email)
        throw new Error(`the email typed was lost when the app took the form over (the field holds ${JSON.stringify(kept)})`);
      await engine.click('form button[type=submit]');
      await waitForText(engine, `Welcome back, ${OFFICER.firstName}!`);
    },
  },
  {
    name: 'the service worker installs the app and controls the page',
    async run({ engine }) {
      await waitFor(
        engine,
        'a service worker to be active',
        `const r = await navigator.serviceWorker.getRegistration(); return Boolean(r?.active);`,
        60_000,
      );
      // Controlled after a reload at the latest (the first page of a visit may predate it).
      if (!(await engine.evaluate<boolean>('return Boolean(navigator.serviceWorker.controller);'))) await engine.reload();
      await waitFor(engine, 'the page to be controlled', 'return Boolean(navigator.serviceWorker.controller);');
    },
  },
  {
    name: 'reloads signed in with the server unreachable',
    async run({ engine, baseUrl, proxy }) {
      await proxy.cut();
      try {
        const unreachable = await engine.evaluate<boolean>(
          `try { await fetch('${baseUrl}/api/health', { cache: 'no-store' }); return false; } catch { return true; }`,
        );
        if (!unreachable) throw new Error('the server still answered through the cut proxy');
        await engine.reload();
        await waitForText(engine, `Welcome back, ${OFFICER.firstName}!`, 30_000);
      } finally {
        await proxy.restore();
      }
    },
  },
  {
    name: 'offers the officer’s car parks on a new notice with no signal',
    async run({ engine, baseUrl, proxy }) {
      await proxy.cut();
      try {
        await engine.goto(`${baseUrl}/pcn/new`);
        await waitFor(
          engine,
          'the car park choice to list the officer’s car parks',
          `const label = [...document.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith('Car park'));
           const select = label && document.getElementById(label.htmlFor);
           return select instanceof HTMLSelectElement && [...select.options].some((o) => o.value !== '');`,
          30_000,
        );
      } finally {
        await proxy.restore();
      }
    },
  },
];
