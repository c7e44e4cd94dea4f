import type { Page } from '@playwright/test';
import { draftReference } from '@parkpatrol/shared';
import { ADMIN, apiToken, createCarPark, createOfficer, uniqueSuffix } from './admin-support.ts';
import { evidencePhotos, expect, expectNoSeriousAxeViolations, signIn, snap, test } from './fixtures.ts';
import { addQueuedDrafts, expectOnePcnEach, offlineRegistration, keptAt, waitForServiceWorker, waitUntilSent } from './offline-support.ts';

/**
 * The officer's outbox and lists with no signal, on the phone: what My PCNs and the dashboard say
 * when the server cannot be reached, the count of notices waiting, no 'Retry now' without signal,
 * a waiting notice opened from the phone and its notice to driver printed again, the top bar's
 * title beside both pills on a narrow phone, and the notices numbered in the order they were filed
 * once signal returns. A fresh officer, so "none submitted yet" would show if the outbox were
 * forgotten.
 */
test.use({ serviceWorkers: 'allow' });
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the outbox is the phone’s');
});

/** The UK clock's 'HH:MM' of an instant, as the officer's screens give it. */
function ukTime(at: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

/** The top bar's title is whole (neither cut nor clipped) and clear of the pills. */
async function expectWholeTitle(page: Page, title: string) {
  const bar = page.locator('.topbar__title');
  await expect(bar).toHaveText(title);
  const fits = await bar.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight);
  expect(fits, `'${title}' shown whole at ${page.viewportSize()?.width} px`).toBe(true);
  const titleBox = (await bar.boundingBox())!;
  for (const pill of await page.locator('.outbox-pill').all()) {
    await expect(pill).toBeVisible();
    const box = (await pill.boundingBox())!;
    const overlaps =
      box.x < titleBox.x + titleBox.width &&
      titleBox.x < box.x + box.width &&
      box.y < titleBox.y + titleBox.height &&
      titleBox.y < box.y + box.height;
    expect(overlaps, `a pill over '${title}'`).toBe(false);
  }
}

test('with no signal the outbox counts its notices, reprints one from the phone, hides Retry now, and sends them in filing order when signal returns', async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(150_000);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `Outbox Yard ${uniqueSuffix()}`, {
    chargePence: 10_000,
    reducedChargePence: 6_000,
    reducedWithinDays: 14,
    signageTerms: 'Customer parking only',
  });
  const officer = await createOfficer(request, adminToken, 'Owen', [carParkId]);
  const registrations = [0, 1, 2].map((n) => offlineRegistration('ORD', n));

  // ---- once with signal: the (empty) lists and what filing and printing need are kept ----
  await signIn(page, officer);
  await waitForServiceWorker(page);
  await expect(page.getByText('No PCNs submitted yet. Create your first PCN to get started!')).toBeVisible();
  await keptAt(page, ':notice-terms');
  await page.goto('/pcn');
  await expect(page.getByText("You haven't submitted any PCNs yet.")).toBeVisible();
  const listKeptAt = await keptAt(page, ':pcns?page=1&');
  const dashboardKeptAt = await keptAt(page, ':recent-pcns');

  // ---- no signal: three notices filed, in this order ----
  await context.setOffline(true);
  const ids = await addQueuedDrafts(page, registrations, carParkId, evidencePhotos());
  await page.goto('/pcn');
  await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
  await expect(page.locator('.outbox-pill--offline')).toHaveText('Offline');
  await expect(page.locator('.outbox-pill--unsent')).toHaveText('3 unsent');
  await expect(page.getByText(`No signal: your list as of ${ukTime(listKeptAt)}`)).toBeVisible();
  const outbox = page.getByRole('region', { name: 'Outbox' });
  await expect(outbox).toContainText('3 notices waiting to send');
  await expect(outbox).toContainText('No signal: they are sent by themselves when signal returns.');
  await expect(page.locator('.pending-item')).toHaveText(registrations.map((registration) => new RegExp(registration)));
  await expect(page.locator('.pending-item').first()).toContainText('Waiting for signal');
  // Nothing the officer could do about no signal: no retry to press, no error, no "none yet".
  await expect(page.getByRole('button', { name: /Retry now/ })).toHaveCount(0);
  await expect(page.getByText('Failed to fetch PCNs')).toHaveCount(0);
  await expect(page.getByText("You haven't submitted any PCNs yet.")).toHaveCount(0);
  await snap(page, testInfo, 'outbox-offline-my-pcns');
  await expectNoSeriousAxeViolations(page, 'My PCNs with no signal');

  // The storage warning, where the browser keeps no promise, is one line; 'Why?' says the rest.
  const storage = page.getByRole('note', { name: 'Storage on this phone' });
  if (await storage.isVisible()) {
    await expect(storage).toContainText('Unsent notices may be lost if the phone fills up.');
    await expect(storage.getByText(/This browser has not agreed/)).toBeHidden();
    await storage.getByRole('button', { name: 'Why?' }).click();
    await expect(storage.getByText(/This browser has not agreed to keep this app's storage/)).toBeVisible();
    await expect(storage.getByRole('button', { name: 'Why?' })).toHaveAttribute('aria-expanded', 'true');
  }

  // ---- the title beside both pills, on the phone and a narrower one ----
  await expectWholeTitle(page, 'My PCNs');
  await page.setViewportSize({ width: 320, height: 700 });
  await expectWholeTitle(page, 'My PCNs');
  await snap(page, testInfo, 'outbox-offline-320');
  await page.setViewportSize({ width: 390, height: 844 });

  // ---- the dashboard says the same ----
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Owen!');
  await expect(page.getByText(`No signal: your list as of ${ukTime(dashboardKeptAt)}`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Outbox' })).toContainText('3 notices waiting to send');
  await expect(page.getByText('No PCNs submitted yet. Create your first PCN to get started!')).toHaveCount(0);
  await expect(page.getByText('Failed to fetch PCNs')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Retry now/ })).toHaveCount(0);
  await page.setViewportSize({ width: 320, height: 700 });
  await expectWholeTitle(page, 'Dashboard');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, 'outbox-offline-dashboard');
  await expectNoSeriousAxeViolations(page, 'the dashboard with no signal');

  // ---- the first notice opened from the outbox, its notice to driver printed again ----
  await page.getByRole('link', { name: `View: ${registrations[0]}` }).click();
  await expect(page).toHaveURL(new RegExp(`/outbox/${ids[0]}$`));
  const reference = draftReference(ids[0]!);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${registrations[0]} · ${reference}`);
  await expect(page.getByText('Not on the server yet: Waiting for signal')).toBeVisible();
  const photos = page.getByRole('list', { name: 'Photos on this phone (4)' }).getByRole('img');
  await expect(photos).toHaveCount(4);
  await expect.poll(() => photos.evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0))).toBe(true);
  await expect(page.getByText(`It prints the reference ${reference}, which this notice keeps once it reaches the server.`)).toBeVisible();
  await page.getByRole('button', { name: 'Print notice to driver' }).click();
  const preview = page.getByRole('region', { name: 'Print preview' });
  await expect(preview).toContainText('Parking Charge Notice');
  await expect(preview).toContainText(`Reference ${reference}`);
  await expect(preview).toContainText(registrations[0]!);
  await snap(page, testInfo, 'outbox-offline-reprint');
  await expectNoSeriousAxeViolations(page, 'a waiting notice with its print preview');

  // ---- signal back: the first notice's first send is lost; the others wait for it ----
  let lostFirst = false;
  await context.route('**/api/pcns', async (route) => {
    const isFirst = route.request().method() === 'POST' && route.request().headers()['idempotency-key'] === ids[0];
    if (!isFirst || lostFirst) return route.fallback();
    lostFirst = true;
    return route.abort('connectionreset');
  });
  await context.setOffline(false);
  await page.goto('/pcn');
  await waitUntilSent(page, ids);
  expect(lostFirst).toBe(true);
  const token = await apiToken(request, officer);
  const onServer = await expectOnePcnEach(request, baseURL!, token, registrations);
  const numbers = registrations.map((registration) => Number(onServer[registration]!.pcnNumber));
  expect(numbers, 'numbered in the order filed').toEqual([...numbers].sort((a, b) => a - b));
  await context.unroute('**/api/pcns');
});
