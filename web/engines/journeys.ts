import type { Engine } from './engine.ts';
import { clickText, waitFor, waitForText } from './engine.ts';
import type { LoopbackProxy } from './loopback-proxy.ts';

export type JourneyContext = {
  engine: Engine;
  /** The app's origin, through the proxy. */
  baseUrl: string;
  /** The API itself, never cut: where the checks read what reached the server. */
  apiUrl: string;
  proxy: LoopbackProxy;
  /** Four JPEG files, as an officer's camera roll. */
  photos: readonly string[];
  /** Tells this engine's notices apart from another's. */
  tag: string;
};
export type Journey = { name: string; run: (context: JourneyContext) => Promise<void> };

const OFFICER = { email: 'officer@example.com', password: 'officer123', firstName: 'Olivia' };
const SHOTS = ['Number plate', 'Vehicle in context', 'Signage', 'Windscreen, no permit'];

/** The CSS selector of the field labelled `label` (its id), once it is on the page. */
function fieldFor(engine: Engine, label: string): Promise<string> {
  return waitFor<string>(
    engine,
    `the field labelled ${label}`,
    `const l = [...document.querySelectorAll('label')].find((e) => e.textContent?.trim().startsWith(${JSON.stringify(label)}) && e.htmlFor);
     return l && document.getElementById(l.htmlFor) ? '#' + CSS.escape(l.htmlFor) : '';`,
  );
}

/** The officer's form, start to Submit: the vehicle, the offence, four photos and what each shows, the service. */
async function fileNotice(engine: Engine, baseUrl: string, registration: string, photos: readonly string[]): Promise<void> {
  await engine.goto(`${baseUrl}/pcn/new`);
  await engine.type(await fieldFor(engine, 'Vehicle registration'), registration);
  const carPark = await fieldFor(engine, 'Car park');
  await waitFor(
    engine,
    'a car park to choose',
    `const select = document.querySelector(${JSON.stringify(carPark)});
     const option = [...select.options].find((o) => o.value !== '');
     if (!option) return false;
     // React reads the value a change event finds, set through the element's own setter.
     Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, option.value);
     select.dispatchEvent(new Event('change', { bubbles: true }));
     return true;`,
  );
  await clickText(engine, 'button', 'Next');
  await clickText(engine, 'label', 'Parking without permit');
  await engine.type(await fieldFor(engine, 'Location'), 'Level 1, by the lifts');
  await clickText(engine, 'button', 'Next');
  await engine.setFiles('input[type=file][multiple]', photos);
  await waitFor(engine, 'four photo previews', `return document.querySelectorAll('.previews img').length === 4;`, 60_000);
  await engine.evaluate(`
    for (const [index, shot] of ${JSON.stringify(SHOTS)}.entries()) {
      const group = [...document.querySelectorAll('fieldset')].find((f) => f.querySelector('legend')?.textContent === 'Photo ' + (index + 1) + ' shows');
      const box = [...(group?.querySelectorAll('label') ?? [])].find((l) => l.textContent?.trim() === shot)?.querySelector('input');
      if (!box) throw new Error('no checkbox ' + shot + ' on photo ' + (index + 1));
      if (!box.checked) box.click();
    }
    return true;`);
  await clickText(engine, 'button', 'Next');
  await waitForText(engine, 'Review & Submit');
  await waitFor(
    engine,
    'the service choice',
    `const label = [...document.querySelectorAll('label')].find((l) => l.textContent?.includes('Fixed to the vehicle'));
     label?.click(); return Boolean(label?.querySelector('input')?.checked);`,
  );
  await clickText(engine, 'button', 'Submit PCN');
  await waitFor(
    engine,
    `${registration} waiting in the outbox`,
    `return [...document.querySelectorAll('.pending-item')].some((e) => e.textContent?.includes(${JSON.stringify(registration)}) && e.textContent?.includes('Waiting for signal'));`,
    30_000,
  );
}

/** Each registration's notices on the server (admin's view), with their photos' hashes. */
async function onServer(
  apiUrl: string,
  registrations: readonly string[],
): Promise<Record<string, Array<{ sha256: string; clientSha256?: string | null }[]>>> {
  const login = await fetch(`${apiUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: apiUrl },
    body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const headers = { authorization: `Bearer ${token}` };
  const found: Record<string, Array<{ sha256: string; clientSha256?: string | null }[]>> = {};
  for (const registration of registrations) {
    const list = (await (await fetch(`${apiUrl}/api/pcns?scope=all&limit=100&search=${registration}`, { headers })).json()) as {
      data: { pcns: Array<{ id: string; vehicleRegistration: string }> };
    };
    const pcns = list.data.pcns.filter((pcn) => pcn.vehicleRegistration === registration);
    found[registration] = [];
    for (const pcn of pcns) {
      const detail = (await (await fetch(`${apiUrl}/api/pcns/${pcn.id}`, { headers })).json()) as {
        data: { images: Array<{ sha256: string; clientSha256?: string | null }> };
      };
      found[registration].push(detail.data.images);
    }
  }
  return found;
}

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
  {
    name: 'files two notices with four photos each with no signal; they wait across a reload and each reaches the server once when it returns',
    async run({ engine, baseUrl, apiUrl, proxy, photos, tag }) {
      const registrations = [`${tag}1`, `${tag}2`];
      await proxy.cut();
      try {
        for (const registration of registrations) await fileNotice(engine, baseUrl, registration, photos);
        await engine.reload();
        await waitFor(
          engine,
          'both notices still waiting after a reload',
          `const rows = [...document.querySelectorAll('.pending-item')].map((e) => e.textContent ?? '');
           return ${JSON.stringify(registrations)}.every((r) => rows.some((t) => t.includes(r) && t.includes('Waiting for signal')));`,
          30_000,
        );
      } finally {
        await proxy.restore();
      }
      // Signal back: the outbox sends by itself (no Background Sync in WebKit), each once.
      await waitFor(
        engine,
        'the outbox to be empty',
        `return !document.querySelector('.outbox-pill--unsent') && ![...document.querySelectorAll('.pending-item')].some((e) => ${JSON.stringify(registrations)}.some((r) => e.textContent?.includes(r) && !e.textContent?.includes('Sent')));`,
        90_000,
      );
      const found = await onServer(apiUrl, registrations);
      for (const registration of registrations) {
        const pcns = found[registration] ?? [];
        if (pcns.length !== 1) throw new Error(`${registration} reached the server ${pcns.length} times, not once`);
        const images = pcns[0]!;
        if (images.length !== 4) throw new Error(`${registration} reached the server with ${images.length} photos, not 4`);
        if (images.some((image) => !image.clientSha256 || image.clientSha256 !== image.sha256)) {
          throw new Error(`${registration}: a photo's hash on the server differs from the phone's`);
        }
      }
    },
  },
  {
    name: 'warns before signing out with a notice unsent, keeps it, and sends it once after signing in again',
    async run({ engine, baseUrl, apiUrl, proxy, photos, tag }) {
      const registration = `${tag}3`;
      await proxy.cut();
      try {
        await fileNotice(engine, baseUrl, registration, photos);
        await engine.click('button[aria-label^="Account menu"]');
        await clickText(engine, '[role=menuitem]', 'Logout');
        await waitForText(engine, 'Log out with notices not sent?');
        await waitForText(engine, '1 notice has not reached the server yet.');
        await clickText(engine, '[role=alertdialog] button', 'Log out');
        await waitFor(
          engine,
          'the sign-in screen',
          `return location.pathname === '/login' && Boolean(document.querySelector('input[type=password]'));`,
        );
      } finally {
        await proxy.restore();
      }
      await engine.type('input[type=email]', OFFICER.email);
      await engine.type('input[type=password]', OFFICER.password);
      await engine.click('form button[type=submit]');
      await waitForText(engine, `Welcome back, ${OFFICER.firstName}!`);
      // Sent by itself after the sign-in, once.
      for (const deadline = Date.now() + 60_000; ;) {
        const pcns = (await onServer(apiUrl, [registration]))[registration] ?? [];
        if (pcns.length === 1 && pcns[0]!.length === 4) break;
        if (pcns.length > 1) throw new Error(`${registration} reached the server ${pcns.length} times`);
        if (Date.now() > deadline) throw new Error(`${registration} did not reach the server within 60 s of signing in again`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
  },
];
