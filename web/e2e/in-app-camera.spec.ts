import type { Locator, Page } from '@playwright/test';
import config from '../playwright.config.ts';
import { ADMIN, apiToken, createCarPark, createOfficer, uniqueSuffix } from './admin-support.ts';
import {
  choose,
  chooseOffence,
  evidencePhotos,
  expect,
  expectNoSeriousAxeViolations,
  expectTouchTargets,
  NO_PERMIT_SHOTS,
  signIn,
  snap,
  takeShots,
  test,
  uniqueRegistration,
} from './fixtures.ts';

/**
 * The in-app camera (docs/decisions/0043-in-app-camera.md) on the phone it is for, with
 * Chromium's fake camera: one notice at the car park used last within 12 taps, typing only the
 * registration; the camera released when its view closes or the page hides; and the phone's own
 * camera when the in-app one is refused.
 */
const base = config.use?.launchOptions ?? {};
test.use({
  locale: 'en-US',
  launchOptions: {
    ...base,
    args: [...(base.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the officer flow on a phone: once, as the phone it is for');
});

const TAP_BUDGET = 12;
const LOCATION = 'Row C, bay 14';

/** Keeps every stream the page opens, to see from outside whether the camera was released. */
async function watchCameraStreams(page: Page) {
  await page.addInitScript(() => {
    const opened: MediaStream[] = [];
    (window as unknown as { openedStreams: MediaStream[] }).openedStreams = opened;
    const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      opened.push(stream);
      return stream;
    };
  });
}

/** How many camera tracks the page holds open ('live') now. */
function liveTracks(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as { openedStreams: MediaStream[] }).openedStreams
        .flatMap((stream) => stream.getTracks())
        .filter((track) => track.readyState === 'live').length,
  );
}

test('one notice at the car park used last: at most 12 taps with the in-app camera, typing only the registration', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const adminToken = await apiToken(request, ADMIN);
  const other = await createCarPark(request, adminToken, `Camera Other Car Park ${uniqueSuffix()}`);
  const carParkName = `Camera Car Park ${uniqueSuffix()}`;
  const carParkId = await createCarPark(request, adminToken, carParkName);
  const officer = await createOfficer(request, adminToken, 'Cora', [other, carParkId]);
  const photos = evidencePhotos();
  await signIn(page, officer);
  await watchCameraStreams(page);

  // Earlier in the shift, a notice at this car park: it is what the phone remembers (not counted).
  const earlier = uniqueRegistration(testInfo);
  await page.goto('/pcn/new');
  await page.getByLabel('Vehicle registration').fill(earlier);
  await choose(page, 'Car park', carParkName);
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseOffence(page, 'Parking without permit');
  await page.getByLabel('Location').fill(LOCATION);
  await page.getByRole('button', { name: 'Next' }).click();
  await takeShots(page, photos);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'Fixed to the vehicle' }).check();
  await page.getByRole('button', { name: 'Submit PCN' }).click();
  await expect(page).toHaveURL(/\/pcn$/);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Cora!');
  const registration = uniqueRegistration(testInfo);
  expect(registration).not.toBe(earlier);

  // Every tap the officer makes from here is counted, the camera's shutter included; typing is not.
  const tapped: string[] = [];
  const tap = async (target: Locator, what: string) => {
    tapped.push(what);
    await target.click();
  };

  await tap(page.getByRole('link', { name: 'Create New PCN' }), 'Create New PCN');
  await page.getByLabel('Vehicle registration').fill(registration);
  // The car park used last, chosen already.
  await expect(page.getByLabel('Car park', { exact: true })).toHaveValue(carParkId);
  await tap(page.getByRole('button', { name: 'Next' }), 'Next');

  await expect(page.getByRole('heading', { level: 2, name: /Offence Information/ })).toBeFocused();
  await tap(page.getByRole('radio', { name: 'Parking without permit' }), 'Parking without permit');
  // The place used last at this car park, one tap: no typing.
  await tap(page.getByRole('group', { name: 'Recent places at this car park' }).getByRole('button', { name: LOCATION }), LOCATION);
  await expect(page.getByLabel('Location')).toHaveValue(LOCATION);
  await tap(page.getByRole('button', { name: 'Next' }), 'Next');

  await expect(page.getByRole('heading', { level: 2, name: /Upload Evidence/ })).toBeFocused();
  await tap(page.getByRole('button', { name: 'Open camera' }), 'Open camera');
  const camera = page.getByRole('dialog', { name: 'Shot 1 of 4: Number plate' });
  await expect(camera).toBeVisible();
  await expect(camera).toContainText('The whole plate, sharp and readable.');
  await expect(camera.getByRole('button', { name: 'Capture Number plate' })).toBeEnabled();
  expect(await liveTracks(page)).toBe(1);
  await snap(page, testInfo, 'camera-shot1');
  await expectTouchTargets(page, 'camera view');
  await expectNoSeriousAxeViolations(page, 'camera view');

  for (const [index, shot] of NO_PERMIT_SHOTS.entries()) {
    await expect(page.getByRole('heading', { level: 2, name: `Shot ${index + 1} of 4: ${shot}` })).toBeVisible();
    await tap(page.getByRole('button', { name: `Capture ${shot}` }), `Capture ${shot}`);
  }

  // The last shutter tap was also Next: the review, with the four photos, each marked.
  await expect(page.getByRole('heading', { level: 2, name: /Review & Submit/ })).toBeFocused({ timeout: 20_000 });
  await expect(page.getByRole('list', { name: 'Photos to submit' }).getByRole('img')).toHaveCount(4);
  expect(await liveTracks(page)).toBe(0);
  await snap(page, testInfo, 'camera-review');
  await tap(page.getByRole('radio', { name: 'Fixed to the vehicle' }), 'Fixed to the vehicle');
  await tap(page.getByRole('button', { name: 'Submit PCN' }), 'Submit PCN');
  await expect(page).toHaveURL(/\/pcn$/);
  const row = page.getByRole('row', { name: new RegExp(registration) });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  // On this en-US phone the list still reads the UK way: '29 Nov 2026', a 24-hour clock.
  const ukToday = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: '2-digit', month: 'short', year: 'numeric' }).format(
    new Date(),
  );
  await expect(row).toContainText(ukToday);
  await expect(row).not.toContainText(/\b(AM|PM)\b/);

  testInfo.annotations.push({ type: 'taps', description: `${tapped.length}: ${tapped.join(' > ')}` });
  expect(tapped.length).toBeLessThanOrEqual(TAP_BUDGET);

  // Sent with each photo showing its shot: the checklist was ticked by the camera.
  await row.click();
  await expect(page).toHaveURL(/\/pcn\/[0-9a-f-]{36}$/);
  await expect(page.locator('.capture-facts__photo img')).toHaveCount(4);
});

test('the camera is released when its view closes or the page hides, and opening it again walks what is still missing', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `Camera Close Car Park ${uniqueSuffix()}`);
  const officer = await createOfficer(request, adminToken, 'Ciaran', [carParkId]);
  await signIn(page, officer);
  await watchCameraStreams(page);
  await reachEvidence(page, 'E2EPCAM1');

  await page.getByRole('button', { name: 'Open camera' }).click();
  await page.getByRole('button', { name: 'Capture Number plate' }).click();
  await expect(page.getByRole('dialog', { name: 'Shot 2 of 4: Vehicle in context' })).toBeVisible();
  await page.getByRole('button', { name: 'Close camera' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Open camera' })).toBeFocused();
  expect(await liveTracks(page)).toBe(0);
  // The shot taken is kept, and marked.
  await expect(page.locator('.preview--evidence')).toHaveCount(1);
  await expect(page.locator('.preview--evidence').first()).toContainText('Shows: Number plate');

  await page.getByRole('button', { name: 'Open camera' }).click();
  await expect(page.getByRole('dialog', { name: 'Shot 1 of 3: Vehicle in context' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Capture Vehicle in context' })).toBeEnabled();
  expect(await liveTracks(page)).toBe(1);
  // The phone is locked or another app comes to the front.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await liveTracks(page)).toBe(0);
});

test('a refused camera falls back to the phone’s own, with a plain sentence; Choose photos still works', async ({ page, request }) => {
  test.setTimeout(90_000);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `Camera Refused Car Park ${uniqueSuffix()}`);
  const officer = await createOfficer(request, adminToken, 'Rhys', [carParkId]);
  const photos = evidencePhotos();
  // The officer answers "Block" to the browser's camera question.
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  await signIn(page, officer);
  await reachEvidence(page, 'E2EPCAM2');

  await page.getByRole('button', { name: 'Open camera' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Camera access was refused.' })).toHaveText(
    "Camera access was refused. Use 'Take photo' on each row instead.",
  );
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'camera refused');
  // Each row's own camera, and the gallery, as before.
  await takeShots(page, photos.slice(0, 3), NO_PERMIT_SHOTS.slice(0, 3));
  await page.getByLabel('Choose photos').setInputFiles(photos[3]!);
  await expect(page.locator('.previews img')).toHaveCount(4);
  await page.getByRole('group', { name: 'Photo 4 shows' }).getByText('Windscreen, no permit', { exact: true }).click();
  await expect(page.getByText('All 4 shots covered.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open camera' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /Review & Submit/ })).toBeFocused();
});

/** A new notice with its only car park, up to the evidence step. */
async function reachEvidence(page: Page, registration: string) {
  await page.goto('/pcn/new');
  await page.getByLabel('Vehicle registration').fill(registration);
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseOffence(page, 'Parking without permit');
  await page.getByLabel('Location').fill('Level 1');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /Upload Evidence/ })).toBeFocused();
}
