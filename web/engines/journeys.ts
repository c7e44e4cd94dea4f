import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import {
  compressorFaults,
  compressorProbeScript,
  compressorWorkerPath,
  uprightPhoneJpeg,
  type CompressorProbe,
} from '../e2e/compressor-probe.ts';
import type { AdminApi } from './admin-api.ts';
import type { Engine } from './engine.ts';
import { clickText, waitFor, waitForText } from './engine.ts';
import type { LoopbackProxy } from './loopback-proxy.ts';

export type JourneyContext = {
  engine: Engine;
  /** The app's origin, through the proxy. */
  baseUrl: string;
  proxy: LoopbackProxy;
  /** What reached the server, asked straight of the API (never cut). */
  admin: AdminApi;
  /** The built app the server serves: a journey publishes a new version by changing it. */
  servedDist: string;
  /** Four JPEG files, as an officer's camera roll. */
  photos: readonly string[];
  /** Tells this engine's notices apart from another's. */
  tag: string;
  /** A car park of the officer's where a stay applies: no consideration, one minute's grace. */
  stayCarPark: string;
  /** What one journey leaves for a later one (one phone, one shift). */
  shift: { observation?: { registration: string; firstSeenAt: number } };
};
export type Journey = { name: string; run: (context: JourneyContext) => Promise<void> };

const OFFICER = { email: 'officer@example.com', password: 'officer123', firstName: 'Olivia' };
/** A demo car park of the officer's where no stay applies. */
const CAR_PARK = 'Riverside Retail Park';
const SHOTS = ['Number plate', 'Vehicle in context', 'Signage', 'Windscreen, no permit'];
/** A minute's stay, so a journey waits one minute, not fifteen: shorter than the Single Code's minimums, so with its reason. */
export const STAY_PERIODS = {
  considerationMinutes: 0,
  graceMinutes: 1,
  minimumsOverrideReason: 'Test site: the browser journeys keep the stay short to run fast',
};

/** The CSS selector of the field labelled `label` (its id), once it is on the page. */
function fieldFor(engine: Engine, label: string): Promise<string> {
  return waitFor<string>(
    engine,
    `the field labelled ${label}`,
    // On screen only: index.html also holds the motorist's painted lookup form, hidden elsewhere.
    `const l = [...document.querySelectorAll('label')].find((e) => e.textContent?.trim().startsWith(${JSON.stringify(label)}) && e.htmlFor && e.getClientRects().length > 0);
     return l && document.getElementById(l.htmlFor) ? '#' + CSS.escape(l.htmlFor) : '';`,
  );
}

/** A new notice's vehicle step: the registration typed as given, and `carPark` chosen. */
async function fillVehicle(engine: Engine, baseUrl: string, registration: string, carPark: string): Promise<void> {
  await engine.goto(`${baseUrl}/pcn/new`);
  await engine.type(await fieldFor(engine, 'Vehicle registration'), registration);
  const select = await fieldFor(engine, 'Car park');
  await waitFor(
    engine,
    `${carPark} to choose`,
    `const select = document.querySelector(${JSON.stringify(select)});
     const option = [...select.options].find((o) => o.textContent?.trim() === ${JSON.stringify(carPark)});
     if (!option) return false;
     // React reads the value a change event finds, set through the element's own setter.
     Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, option.value);
     select.dispatchEvent(new Event('change', { bubbles: true }));
     return true;`,
  );
}

/** From the vehicle step, filled, on to the photos: (for an observation, the first sighting, under the car park), the offence, then the four photos chosen. */
async function offenceAndPhotos(
  engine: Engine,
  photos: readonly string[],
  firstSighting: () => Promise<void> = async () => undefined,
): Promise<void> {
  await firstSighting();
  await clickText(engine, 'button', 'Next');
  await clickText(engine, 'label', 'Parking without permit');
  await engine.type(await fieldFor(engine, 'Location'), 'Level 1, by the lifts');
  await clickText(engine, 'button', 'Next');
  await engine.setFiles('input[type=file][multiple]', photos);
}

/** The form's first two steps: the vehicle at `carPark` (and, for an observation, the first sighting), then the offence. */
async function startNotice(
  engine: Engine,
  baseUrl: string,
  registration: string,
  carPark: string,
  photos: readonly string[],
  firstSighting?: () => Promise<void>,
): Promise<void> {
  await fillVehicle(engine, baseUrl, registration, carPark);
  await offenceAndPhotos(engine, photos, firstSighting);
}

/** What each of the four photos shows. */
async function describePhotos(engine: Engine): Promise<void> {
  await waitFor(engine, 'four photo previews', `return document.querySelectorAll('.previews img').length === 4;`, 60_000);
  await engine.evaluate(`
    for (const [index, shot] of ${JSON.stringify(SHOTS)}.entries()) {
      const group = [...document.querySelectorAll('fieldset')].find((f) => f.querySelector('legend')?.textContent === 'Photo ' + (index + 1) + ' shows');
      const box = [...(group?.querySelectorAll('label') ?? [])].find((l) => l.textContent?.trim() === shot)?.querySelector('input');
      if (!box) throw new Error('no checkbox ' + shot + ' on photo ' + (index + 1));
      if (!box.checked) box.click();
    }
    return true;`);
  // A person moves on a moment later; a page left while its last write is in flight loses that
  // write (web/src/lib/page-cache-guard.ts), so the journey waits until the phone has the marks.
  await waitFor(
    engine,
    'the four photos’ marks saved on this phone',
    `const draftId = new URLSearchParams(location.search).get('draft');
    return await new Promise((resolve) => {
      const open = indexedDB.open('parkpatrol');
      open.onerror = () => resolve(false);
      open.onsuccess = () => {
        const read = open.result.transaction('photos', 'readonly').objectStore('photos').index('draftId').getAll(draftId);
        read.onsuccess = () => { open.result.close(); resolve(read.result.filter((photo) => (photo.shots ?? []).length > 0).length >= 4); };
        read.onerror = () => resolve(false);
      };
    });`,
  );
}

/** The form's step the page shows, '1' for the vehicle, as an expression in the page. */
const STEP_NOW = `(document.body.innerText.match(/Step (\\d) of \\d/)?.[1] ?? '')`;

/** From the photos to Submit: on to Review & Submit, how it was served, and Submit; it waits in the outbox. */
async function submitNotice(engine: Engine, registration: string): Promise<void> {
  const onReview = `return [...document.querySelectorAll('label')].some((l) => l.textContent?.includes('Fixed to the vehicle'));`;
  for (let step = 0; step < 4 && !(await engine.evaluate<boolean>(onReview)); step++) {
    const from = await engine.evaluate<string>(`return ${STEP_NOW};`);
    await clickText(engine, 'button', 'Next');
    // One step at a time: a Next pressed again before the step changed would be lost.
    await waitFor(engine, `the step after step ${from}`, `return ${STEP_NOW} !== ${JSON.stringify(from)};`);
  }
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

/** The officer's form, start to Submit: the vehicle, the offence, four photos and what each shows, the service. */
async function fileNotice(engine: Engine, baseUrl: string, registration: string, photos: readonly string[]): Promise<void> {
  await startNotice(engine, baseUrl, registration, CAR_PARK, photos);
  await describePhotos(engine);
  await submitNotice(engine, registration);
}

/** Waits until each registration is on the server exactly once with `photoCount` photos whose hashes match the phone's. */
async function reachedServerOnce(admin: AdminApi, registrations: readonly string[], photoCount: number, timeoutMs = 60_000) {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const found = await admin.notices(registrations);
    const problems = registrations.flatMap((registration) => {
      const notices = found[registration] ?? [];
      if (notices.length !== 1) return [`${registration} is on the server ${notices.length} times, not once`];
      const images = notices[0]!;
      if (images.length !== photoCount) return [`${registration} has ${images.length} photos on the server, not ${photoCount}`];
      if (images.some((image) => !image.clientSha256 || image.clientSha256 !== image.sha256))
        return [`${registration}: a photo's hash on the server differs from the phone's`];
      return [];
    });
    if (problems.length === 0) return;
    // Twice is never right, however long one waits.
    const twice = registrations.find((registration) => (found[registration]?.length ?? 0) > 1);
    if (twice || Date.now() > deadline) throw new Error(problems.join('; '));
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * The registrations in the phone's permit list (lib/permits-offline.ts), read from the app's own
 * database as `permits`: null until the first list arrives.
 */
const PHONE_PERMITS = `const permits = await new Promise((resolve) => {
    const open = indexedDB.open('parkpatrol');
    open.onerror = () => resolve(null);
    open.onsuccess = () => {
      const read = open.result.transaction('cache', 'readonly').objectStore('cache').getAll();
      read.onsuccess = () => {
        open.result.close();
        const row = read.result.find((r) => String(r.key).endsWith(':permits'));
        resolve(row ? row.value.permits.map((permit) => permit.vehicleRegistration) : null);
      };
      read.onerror = () => resolve(null);
    };
  });`;

/** A new version of the app on the server: its service worker's script changes, as a deploy changes it. */
function publishNewServiceWorker(servedDist: string, marker: string): void {
  const file = join(servedDist, 'sw.js');
  const script = `${readFileSync(file, 'utf8')}\n// ${marker}\n`;
  writeFileSync(file, script);
  // The server sends the precompressed copies when the browser accepts them: they change too.
  writeFileSync(`${file}.br`, brotliCompressSync(script));
  writeFileSync(`${file}.gz`, gzipSync(script));
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
    name: 'a permit added online reaches the phone; with no signal the officer is told before any photo, and a notice filed with a reason reaches the server once with it',
    async run({ engine, baseUrl, admin, proxy, photos, tag }) {
      const registration = `${tag}P`;
      const warning = 'Staff permit, valid until 31 Dec 2099: do not issue';
      const reason = 'Parked outside the permitted bays';
      // The whole list came at sign-in with the car parks; a new permit must come as a change to it.
      await waitFor(engine, 'a permit list on the phone', `${PHONE_PERMITS} return permits !== null;`, 30_000);
      await admin.addPermit(CAR_PARK, registration, 'STAFF', '2099-12-31');
      // The app starting again asks for what changed since its last sync.
      await engine.goto(`${baseUrl}/pcn`);
      await waitFor(
        engine,
        `${registration}’s permit in the phone’s list`,
        `${PHONE_PERMITS} return permits?.includes(${JSON.stringify(registration)}) ?? false;`,
        30_000,
      );
      await proxy.cut();
      try {
        // Typed as an officer types it, lower case with a space: the phone's list holds it normalised.
        await fillVehicle(engine, baseUrl, `${registration.slice(0, 4)} ${registration.slice(4)}`.toLowerCase(), CAR_PARK);
        await waitFor(
          engine,
          `the warning ${JSON.stringify(warning)}`,
          `return [...document.querySelectorAll('[role=alert]')].some((e) => e.textContent?.includes(${JSON.stringify(warning)}));`,
        );
        // Told before any photo: the form is still on the vehicle step, with none taken.
        const onVehicleStep = `return ${STEP_NOW} === '1' && document.querySelectorAll('.previews img').length === 0;`;
        if (!(await engine.evaluate<boolean>(onVehicleStep))) throw new Error('the permit warning came after the vehicle step');
        await clickText(engine, 'button', 'Next');
        await waitForText(engine, 'Give a reason to issue despite the permit, or do not issue');
        if (!(await engine.evaluate<boolean>(onVehicleStep))) throw new Error('Next went past the permit warning with no reason');
        await engine.type(await fieldFor(engine, 'Reason to issue despite the permit'), reason);
        await offenceAndPhotos(engine, photos);
        await describePhotos(engine);
        await submitNotice(engine, registration);
      } finally {
        await proxy.restore();
      }
      // Sent by the phone, so a later journey's outbox holds only its own notices.
      await waitFor(
        engine,
        `${registration} sent from the outbox`,
        `return ![...document.querySelectorAll('.pending-item')].some((e) => e.textContent?.includes(${JSON.stringify(registration)}) && !e.textContent?.includes('Sent'));`,
        90_000,
      );
      await reachedServerOnce(admin, [registration], 4);
      const onServer = (await admin.noticeDetails(registration)).map((pcn) => pcn.permitOverrideReason);
      if (onServer[0] !== reason) throw new Error(`${registration} reached the server with the reason ${JSON.stringify(onServer[0])}`);
    },
  },
  {
    name: 'starts an observation at a stay car park with no signal: first sighting, photos, and its due time on the dashboard',
    async run({ engine, baseUrl, proxy, photos, tag, stayCarPark, shift }) {
      const registration = `${tag}O`;
      await proxy.cut();
      try {
        let firstSeenAt = 0;
        await startNotice(engine, baseUrl, registration, stayCarPark, photos, async () => {
          // The first sighting asks for notifications. MiniBrowser offers no way to answer a
          // permission prompt under automation, and while one waits its IndexedDB stops
          // answering (docs/engines.md): the officer's 'Don't allow' is given in the page.
          if (engine.name === 'WebKitGTK')
            await engine.evaluate(`Notification.requestPermission = () => Promise.resolve('denied'); return true;`);
          firstSeenAt = Date.now();
          await clickText(engine, 'button', 'Vehicle first seen');
        });
        await describePhotos(engine);
        const due = await waitFor<string>(
          engine,
          'the second visit’s time',
          `return /^Second visit at \\d\\d?:\\d\\d( [AP]M)?$/.test(document.getElementById('second-visit-title')?.textContent ?? '') && document.getElementById('second-visit-title').textContent;`,
        );
        shift.observation = { registration, firstSeenAt };
        // A page load, not the app's own link: what the phone saved must be all there is.
        await engine.goto(`${baseUrl}/dashboard`);
        await waitFor(
          engine,
          `${registration} under Open observations, ${due.replace('Second visit at', 'due at')}`,
          `return [...document.querySelectorAll('.pending-item')].some((e) => e.textContent?.includes(${JSON.stringify(registration)}) && e.textContent?.includes(${JSON.stringify(due.replace('Second visit at', 'Due at'))}));`,
        );
      } finally {
        await proxy.restore();
      }
    },
  },
  {
    name: 'reminds the officer when the observation falls due, on a screen left open; the second visit’s notice waits with no signal and reaches the server once',
    async run({ engine, baseUrl, admin, proxy, photos, shift }) {
      const observation = shift.observation;
      if (!observation) throw new Error('no observation was started');
      const { registration, firstSeenAt } = observation;
      const dueAt = firstSeenAt + (STAY_PERIODS.considerationMinutes + STAY_PERIODS.graceMinutes) * 60_000;
      await engine.goto(`${baseUrl}/dashboard`);
      await waitForText(engine, 'Open observations');
      const banner = `return document.querySelector('.observation-banner')?.textContent?.includes(${JSON.stringify(`Observation due: ${registration}`)}) ?? false;`;
      if (Date.now() > dueAt - 2_000) throw new Error('the observation fell due before this journey could watch for its reminder');
      if (await engine.evaluate<boolean>(banner)) throw new Error('the reminder came before its time');
      // The page stays open, untouched: the reminder is the open app's own timer.
      await waitFor(engine, `the reminder for ${registration}`, banner, dueAt - Date.now() + 30_000);
      // The first sighting was tapped just after firstSeenAt: never early, and late only by the polling.
      const lateMs = Date.now() - dueAt;
      if (lateMs < 0) throw new Error(`the reminder came ${-lateMs} ms before its time`);
      if (lateMs > 5_000) throw new Error(`the reminder came ${lateMs} ms after its time`);
      console.log(`        ${engine.name}: reminded ${(lateMs / 1000).toFixed(1)} s after the due time`);
      await proxy.cut();
      try {
        await clickText(engine, '.observation-banner a', 'Go back to it');
        await waitForText(engine, 'Second visit due now');
        await engine.setFiles('.second-visit input[type=file]', [photos[1]!]);
        await waitFor(
          engine,
          'the second visit recorded',
          `return document.querySelector('.second-visit [role=status]')?.textContent?.includes('the vehicle was still here') ?? false;`,
          60_000,
        );
        await submitNotice(engine, registration);
      } finally {
        await proxy.restore();
      }
      await reachedServerOnce(admin, [registration], 5);
      for (const deadline = Date.now() + 30_000; ;) {
        const statuses = (await admin.observations(registration)).map((row) => row.status);
        if (statuses.length === 1 && statuses[0] === 'ISSUED') break;
        if (Date.now() > deadline) throw new Error(`the observation of ${registration} is ${JSON.stringify(statuses)}, not ISSUED`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
  },
  {
    name: 'files two notices with four photos each with no signal; they wait across a reload, storage is warned about where not kept, and each reaches the server once when it returns',
    async run({ engine, baseUrl, admin, proxy, photos, tag }) {
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
        // The officer is told when the browser has not agreed to keep storage, and only then.
        const storage = await waitFor<{ persisted: boolean; warned: boolean }>(
          engine,
          'the storage warning to match the browser’s answer',
          `const persisted = (await navigator.storage?.persisted?.()) ?? false;
           const warned = Boolean(document.querySelector('[role=note][aria-label="Storage on this phone"]'));
           return persisted === !warned && { persisted, warned };`,
        );
        console.log(`        ${engine.name}: storage ${storage.persisted ? 'kept (no warning)' : 'not kept: the officer is warned'}`);
      } finally {
        await proxy.restore();
      }
      // Signal back: the outbox sends by itself (no Background Sync in WebKit), each once.
      await waitFor(
        engine,
        'the outbox to be empty',
        `return ![...document.querySelectorAll('.pending-item')].some((e) => ${JSON.stringify(registrations)}.some((r) => e.textContent?.includes(r) && !e.textContent?.includes('Sent')));`,
        90_000,
      );
      await reachedServerOnce(admin, registrations, 4);
    },
  },
  {
    name: 'warns before signing out with a notice unsent, keeps it, and sends it once after signing in again',
    async run({ engine, baseUrl, admin, proxy, photos, tag }) {
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
      await reachedServerOnce(admin, [registration], 4);
    },
  },
  {
    name: 'keeps a notice unsent through a service-worker update taken with no signal, and sends it once',
    async run({ engine, baseUrl, admin, proxy, photos, servedDist, tag }) {
      const registration = `${tag}4`;
      await engine.goto(`${baseUrl}/dashboard`);
      await waitForText(engine, `Welcome back, ${OFFICER.firstName}!`);
      publishNewServiceWorker(servedDist, `new version for ${tag}`);
      await engine.evaluate(`await (await navigator.serviceWorker.getRegistration()).update(); return true;`);
      await waitForText(engine, 'A new version is available', 60_000);
      await proxy.cut();
      try {
        await fileNotice(engine, baseUrl, registration, photos);
        await engine.evaluate(`window.beforeUpdate = true; return true;`);
        await clickText(engine, '.update-prompt button', 'Reload');
        await waitFor(
          engine,
          'the new version in control, with no signal',
          `const r = await navigator.serviceWorker.getRegistration();
           return !window.beforeUpdate && Boolean(navigator.serviceWorker.controller) && Boolean(r?.active) && !r.waiting && !r.installing;`,
          60_000,
        );
        await engine.goto(`${baseUrl}/pcn`);
        await waitFor(
          engine,
          `${registration} still waiting under the new version`,
          `return [...document.querySelectorAll('.pending-item')].some((e) => e.textContent?.includes(${JSON.stringify(registration)}) && e.textContent?.includes('Waiting for signal'));`,
          30_000,
        );
      } finally {
        await proxy.restore();
      }
      await reachedServerOnce(admin, [registration], 4);
    },
  },
  {
    name: 'makes a phone photo small and upright, in its worker and on the page',
    async run({ engine, baseUrl, servedDist }) {
      await engine.goto(`${baseUrl}/pcn`);
      const photo = uprightPhoneJpeg();
      const probe = await engine.evaluate<CompressorProbe>(
        compressorProbeScript(compressorWorkerPath(servedDist), photo.toString('base64')),
      );
      const faults = compressorFaults(probe);
      if (faults.length > 0) throw new Error(`the phone photo came out wrong: ${faults.join('; ')}`);
    },
  },
];
