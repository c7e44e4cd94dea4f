import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { choose, chooseOffence, evidencePhotos, expect, markChecklistShots, signIn, snap, test } from './fixtures.ts';
import {
  addQueuedDrafts,
  apiToken,
  expectOnePcnEach,
  firstCarParkId,
  keptAt,
  offlineRegistration,
  readDrafts,
  readStoreRows,
  waitForServiceWorker,
  waitUntilSent,
} from './offline-support.ts';

/**
 * Offline filing in a real browser: the service worker, the Dexie outbox and the form, against the real
 * API. The service worker's own fetches obey setOffline and routes because playwright.config.ts
 * sets PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS=1. One project is enough: the code under
 * test does not depend on the viewport, and the suite must stay quick on two cores.
 */
test.use({ serviceWorkers: 'allow' });
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'offline journeys run once, as the phone they are for');
});

/** Walks the form up to the review step; `onEvidence` runs with the photos stored. */
async function fillNotice(page: Page, registration: string, onEvidence?: () => Promise<void>) {
  await page.getByLabel('Vehicle registration').fill(registration);
  await choose(page, 'Car park', 'Riverside Retail Park');
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseOffence(page, 'Parking without permit');
  await page.getByLabel('Location').fill('Level 1, by the lifts');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Choose photos').setInputFiles(evidencePhotos());
  await expect(page.locator('.previews img')).toHaveCount(4);
  await markChecklistShots(page);
  await onEvidence?.();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /Review & Submit/ })).toBeVisible();
  await expect(page.getByText(registration, { exact: true })).toBeVisible();
}

test('with no signal the app starts signed in, files three notices (one across a reload) and sends each exactly once when signal returns', async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const registrations = [0, 1, 2].map((n) => offlineRegistration('OFL', n));
  const token = await apiToken(request, baseURL!);
  // A PCN to read offline later: its detail is opened once with signal.
  const seeded = await request.post(`${baseURL}/api/pcns`, {
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': crypto.randomUUID() },
    multipart: {
      vehicleRegistration: offlineRegistration('SEE', 0),
      carParkId: await firstCarParkId(request, baseURL!, token),
      offenceType: 'OTHER',
      description: 'Blocking the gate',
      location: 'Gate',
      noticeServedBy: 'AFFIXED',
    },
  });
  const seededPcn = ((await seeded.json()) as { data: { id: string; pcnNumber: string } }).data;

  // ---- one visit with signal: the shell, car parks, the list and a detail are kept ----
  await signIn(page);
  await waitForServiceWorker(page);
  await page.goto(`/pcn/${seededPcn.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`PCN-${seededPcn.pcnNumber}`);
  await keptAt(page, `:pcn:${seededPcn.id}`);
  await page.goto('/pcn/new');
  // Kept once they have arrived: the select shows them.
  await expect(page.getByLabel('Car park', { exact: true }).getByRole('option', { name: 'Riverside Retail Park' })).toHaveCount(1);
  await page.goto('/pcn');
  await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await keptAt(page, ':pcns?page=1&');

  // ---- no signal: reload, still signed in, every officer screen from the phone ----
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
  await expect(page.locator('.outbox-pill--offline')).toHaveText('Offline');
  await expect(page.getByText(/^No signal: your list as of \d{2}:\d{2}$/)).toBeVisible();
  await page.goto(`/pcn/${seededPcn.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`PCN-${seededPcn.pcnNumber}`);
  await expect(page.getByText(/possibly out of date/)).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Olivia!');
  expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBeTruthy();

  // ---- three notices with four photos each, the second across a reload mid-form ----
  for (const [index, registration] of registrations.entries()) {
    await page.goto('/pcn/new');
    await fillNotice(page, registration, async () => {
      if (index !== 1) return;
      const draftUrl = page.url();
      // Each tick is written to the phone as it is made; a reload a moment sooner than the last
      // write lands would test the timing, not the resume. The test waits for what the officer saw.
      const draftId = new URL(draftUrl).searchParams.get('draft') ?? draftUrl.split('/').pop();
      await expect
        .poll(
          async () =>
            (await readStoreRows<{ draftId: string; shots?: string[] }>(page, 'photos')).filter(
              (photo) => photo.draftId === draftId && (photo.shots?.length ?? 0) > 0,
            ).length,
        )
        .toBe(4);
      await page.reload();
      // The same draft, on the same step, with its photos from the phone's storage.
      expect(page.url()).toBe(draftUrl);
      await expect(page.getByRole('heading', { level: 2, name: /Upload Evidence/ })).toBeVisible();
      await expect(page.locator('.previews img')).toHaveCount(4);
      await snap(page, testInfo, 'offline-form-resumed');
    });
    await page.getByRole('radio', { name: 'Fixed to the vehicle' }).check();
    const started = Date.now();
    await page.getByRole('button', { name: 'Submit PCN' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
    testInfo.annotations.push({ type: 'submit-to-list-ms', description: String(Date.now() - started) });
    await expect(page.locator('.pending-item', { hasText: registration })).toContainText('Waiting for signal');
  }
  await expect(page.locator('.outbox-pill--unsent')).toHaveText('3 unsent');
  await snap(page, testInfo, 'offline-outbox-three-waiting');
  // All three wait. The outbox's backoff timer still tries them now and then, so one may be
  // caught mid-attempt ('sending', a second before no answer puts it back): waiting is the state.
  await expect
    .poll(async () =>
      (await readDrafts(page)).filter((draft) => registrations.includes(draft.vehicleRegistration)).map((draft) => draft.state),
    )
    .toEqual(['queued', 'queued', 'queued']);

  // ---- signal back: everything goes by itself, once ----
  await context.setOffline(false);
  await expect(page.locator('.outbox-pill--unsent')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator('.outbox-pill--offline')).toHaveCount(0);
  const sent = (await readDrafts(page)).filter((draft) => registrations.includes(draft.vehicleRegistration));
  expect(sent.map((draft) => draft.state)).toEqual(['sent', 'sent', 'sent']);
  const onServer = await expectOnePcnEach(request, baseURL!, token, registrations);
  for (const draft of sent) {
    expect(draft.serverPcnNumber).toBe(onServer[draft.vehicleRegistration]!.pcnNumber);
    // Sent, it leaves the outbox; the list shows it once, with the number the server gave.
    await expect(page.locator('.pending-item', { hasText: draft.vehicleRegistration })).toHaveCount(0);
    await expect(page.getByRole('row', { name: new RegExp(`PCN-${draft.serverPcnNumber}`) })).toHaveCount(1);
  }
  await snap(page, testInfo, 'offline-outbox-sent');
});

test('a flaky network that loses every other answer after the server received the upload still gives one PCN per notice', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const registrations = [0, 1, 2].map((n) => offlineRegistration('FLK', n));
  const token = await apiToken(request, baseURL!);
  let uploads = 0;
  let lostAnswers = 0;
  // Routed on the context so the service worker's sends (Background Sync) meet the same network.
  await context.route('**/api/pcns', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    uploads++;
    if (uploads % 2 === 1) {
      // The server gets the whole upload and commits the PCN; the phone never hears back.
      await route.fetch();
      lostAnswers++;
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  await signIn(page);
  const ids = await addQueuedDrafts(page, registrations, await firstCarParkId(request, baseURL!, token), evidencePhotos());
  // App start is one of the outbox's triggers.
  await page.goto('/pcn');
  const drafts = await waitUntilSent(page, ids);
  expect(lostAnswers).toBeGreaterThanOrEqual(2);
  const onServer = await expectOnePcnEach(request, baseURL!, token, registrations);
  for (const draft of drafts) expect(draft.serverPcnNumber).toBe(onServer[draft.vehicleRegistration]!.pcnNumber);
  await context.unroute('**/api/pcns');
});

test('the manifest passes Chromium’s installability check', async ({ request, baseURL }, testInfo) => {
  // Chromium never offers to install from an incognito profile, and every Playwright context is
  // one; a persistent profile is what a phone has.
  const profileDir = mkdtempSync(join(tmpdir(), 'parkpatrol-install-'));
  const { launchOptions } = testInfo.project.use;
  const context = await chromium.launchPersistentContext(profileDir, { ...launchOptions, baseURL, serviceWorkers: 'allow' });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/login');
    await waitForServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    await expect
      .poll(async () => ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] }).installabilityErrors, {
        timeout: 15_000,
      })
      .toEqual([]);
    await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/apple-touch-icon.png');
  } finally {
    await context.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
  const manifest = (await (await request.get(`${baseURL}/manifest.webmanifest`)).json()) as {
    name: string;
    display: string;
    icons: Array<{ sizes: string; purpose: string }>;
    shortcuts: Array<{ url: string }>;
  };
  expect(manifest.name).toBe('ParkPatrol Self Ticketing');
  expect(manifest.display).toBe('standalone');
  expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '192x192 maskable',
    '512x512 maskable',
  ]);
  expect(manifest.shortcuts.map((shortcut) => shortcut.url)).toEqual(['/pcn/new']);
});
