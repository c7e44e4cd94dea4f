import type { Locator, Page } from '@playwright/test';
import { ADMIN, apiToken, createCarPark, createOfficer, pcnsOnServer, uniqueSuffix } from './admin-support.ts';
import {
  chooseOffence,
  evidencePhotos,
  expect,
  expectNoSeriousAxeViolations,
  expectTouchTargets,
  NO_PERMIT_SHOTS,
  signIn,
  snap,
  test,
  uniqueRegistration,
} from './fixtures.ts';
import { addQueuedDrafts, waitUntilSent } from './offline-support.ts';

/**
 * Guided capture on the phone it is for: guided capture within the tap budget, forgiving validation,
 * an officer with no car parks, and the logout warning with a notice another officer never sends.
 */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the officer flow on a phone: once, as the phone it is for');
});

const TAP_BUDGET = 12;

test('a no-permit notice filed with guided capture takes at most 12 taps from the dashboard', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const adminToken = await apiToken(request, ADMIN);
  const carParkName = `Guided Car Park ${uniqueSuffix()}`;
  const carParkId = await createCarPark(request, adminToken, carParkName);
  const officer = await createOfficer(request, adminToken, 'Gwen', [carParkId]);
  const registration = uniqueRegistration(testInfo);
  const photos = evidencePhotos();
  await signIn(page, officer);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Gwen!');

  // Every tap the officer makes is counted here; typing and the camera's shutter are not.
  let taps = 0;
  const tap = async (target: Locator) => {
    taps++;
    await target.click();
  };
  /** The row's camera button is one tap; the shutter is the camera's own. */
  const takePhoto = async (shot: string, photo: string) => {
    taps++;
    await page.getByLabel(`Take photo: ${shot}`).setInputFiles(photo);
  };

  await tap(page.getByRole('link', { name: 'Create New PCN' }));
  await page.getByLabel('Vehicle registration').fill(registration);
  // The only car park assigned is already chosen.
  await expect(page.getByLabel('Car park', { exact: true })).toHaveValue(carParkId);
  // No stay applies: the first sighting is a quiet option, not the step's main action.
  await expect(page.getByRole('button', { name: 'Vehicle first seen', exact: true })).toHaveClass(/button--secondary/);
  await snap(page, testInfo, 'guided-step1');
  await expectTouchTargets(page, 'vehicle step');
  await tap(page.getByRole('button', { name: 'Next' }));

  await expect(page.getByRole('heading', { level: 2, name: /Offence Information/ })).toBeFocused();
  await tap(page.getByRole('radio', { name: 'Parking without permit' }));
  await page.getByLabel('Location').fill('Row C, bay 14');
  await snap(page, testInfo, 'guided-step2');
  await expectTouchTargets(page, 'offence step');
  await expectNoSeriousAxeViolations(page, 'offence step with one-tap offences');
  await tap(page.getByRole('button', { name: 'Next' }));

  await expect(page.getByRole('heading', { level: 2, name: /Upload Evidence/ })).toBeFocused();
  const shots = page.getByRole('list', { name: 'Shots needed' });
  await expect(shots.getByRole('listitem')).toHaveCount(4);
  for (const [index, shot] of NO_PERMIT_SHOTS.entries()) {
    await takePhoto(shot, photos[index]!);
    await expect(page.locator('.previews img')).toHaveCount(index + 1);
    // A photo taken from a row shows that shot, with no further tap.
    await expect(page.locator('.preview--evidence').nth(index)).toContainText(`Shows: ${shot}`);
  }
  await expect(page.getByText('All 4 shots covered.')).toBeVisible();
  // Each photo once on the step.
  await expect(page.locator('img[alt^="Photo "]')).toHaveCount(4);
  await snap(page, testInfo, 'guided-step3');
  await expectTouchTargets(page, 'evidence step');
  await expectNoSeriousAxeViolations(page, 'guided capture');
  await tap(page.getByRole('button', { name: 'Next' }));

  await expect(page.getByRole('heading', { level: 2, name: /Review & Submit/ })).toBeFocused();
  await snap(page, testInfo, 'guided-step4');
  await expectTouchTargets(page, 'review step');
  // How the notice was served: one tap, which decides the route to the keeper.
  await tap(page.getByRole('radio', { name: 'Fixed to the vehicle' }));
  await expect(page.getByRole('radio', { name: 'Fixed to the vehicle' })).toBeChecked();
  await tap(page.getByRole('button', { name: 'Submit PCN' }));
  await expect(page).toHaveURL(/\/pcn$/);
  const row = page.getByRole('row', { name: new RegExp(registration) });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  expect(taps).toBeLessThanOrEqual(TAP_BUDGET);
  testInfo.annotations.push({ type: 'taps', description: String(taps) });

  // My PCNs on a phone: a compact card, tappable as a whole, with the plate first.
  await expect(row).toContainText(carParkName);
  await snap(page, testInfo, 'guided-my-pcns');
  await expectTouchTargets(page, 'My PCNs');
  await expectNoSeriousAxeViolations(page, 'My PCNs cards');
  const card = await row.boundingBox();
  expect(card!.height).toBeLessThan(200);
  await page.mouse.click(card!.x + card!.width / 3, card!.y + 12);
  await expect(page).toHaveURL(/\/pcn\/[0-9a-f-]{36}$/);
  await expect(page.locator('.capture-facts__photo img')).toHaveCount(4);
  // The service, as tapped, with the time of the tap.
  await expect(page.getByRole('definition').filter({ hasText: /^Fixed to the vehicle, / })).toHaveCount(1);
  await snap(page, testInfo, 'guided-detail');
  await expectTouchTargets(page, 'PCN detail');
});

test('errors clear as the fields are fixed, and an officer with no car parks is told why', async ({ page, request }, testInfo) => {
  const adminToken = await apiToken(request, ADMIN);
  await signIn(page);
  await page.goto('/pcn/new');
  await page.getByRole('button', { name: 'Next' }).click();
  const registrationError = page.getByText('Vehicle registration is required');
  await expect(registrationError).toBeVisible();
  await page.getByLabel('Vehicle registration').fill('AB12CDE');
  // Gone as soon as the field is valid, without pressing Next again.
  await expect(registrationError).toHaveCount(0);
  await expect(page.locator('.field__error', { hasText: 'Choose a car park' })).toBeVisible();
  await page.getByLabel('Car park', { exact: true }).selectOption({ label: 'Riverside Retail Park' });
  await expect(page.locator('.field__error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Location is required')).toBeVisible();
  await page.getByLabel('Location').fill('Level 1');
  await expect(page.getByText('Location is required')).toHaveCount(0);
  await chooseOffence(page, 'Parking in fire route');
  await expect(page.locator('.field__error')).toHaveCount(0);

  // An officer nobody has assigned a car park to: a reason and a way out, not an empty list.
  const lonely = await createOfficer(request, adminToken, 'Nadia', []);
  // The first officer logs out as on a real phone (the session lives in IndexedDB, so clearing
  // localStorage would leave them signed in); a draft not yet sent is not a queued notice.
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, lonely);
  // Told on the dashboard, and not offered a form they cannot finish.
  const message = page.getByText('You have no car parks assigned. Ask an administrator to assign one.');
  await expect(message).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create New PCN' })).toHaveCount(0);
  await page.goto('/pcn/new');
  await expect(message).toBeVisible();
  await expect(page.getByLabel('Car park', { exact: true })).toHaveCount(0);
  await snap(page, testInfo, 'no-car-parks');
  await expectNoSeriousAxeViolations(page, 'no car parks');
  await page.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('logging out with an unsent notice asks first; another officer on the phone never sends or sees it', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `Shared Phone Car Park ${uniqueSuffix()}`);
  const first = await createOfficer(request, adminToken, 'Una', [carParkId]);
  const second = await createOfficer(request, adminToken, 'Vic', [carParkId]);
  const registration = uniqueRegistration(testInfo);
  const photos = evidencePhotos();

  // No connection for notices: the one filed stays unsent on the phone.
  await page.route('**/api/pcns', (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await signIn(page, first);
  await fileNotice(page, registration, photos);
  await expect(page.locator('.pending-item', { hasText: registration })).toContainText('Waiting for signal');

  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  const warning = page.getByRole('alertdialog', { name: 'Log out with notices not sent?' });
  await expect(warning).toContainText(
    '1 notice has not reached the server yet. It stays on this phone and is sent when you sign in here again.',
  );
  await expect(warning).toContainText('Another officer signing in on this phone will not see or send it.');
  await snap(page, testInfo, 'logout-warning');
  await expectNoSeriousAxeViolations(page, 'logout warning');
  await warning.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login/);

  // Signal back, another officer signs in on the same phone: the notice is neither sent nor shown.
  await page.unroute('**/api/pcns');
  await signIn(page, second);
  await page.goto('/pcn');
  await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
  await expect(page.locator('.pending-item')).toHaveCount(0);
  await expect(page.locator('.outbox-pill--unsent')).toHaveCount(0);
  // A notice of this officer's own, sent by a forced run of the phone's outbox: a whole pass went
  // by with the other officer's notice on the phone, and it was not in it.
  const [own] = await addQueuedDrafts(page, [uniqueRegistration(testInfo)], carParkId, photos);
  await waitUntilSent(page, [own!]);
  expect(await pcnsOnServer(request, adminToken, registration)).toBe(0);

  // Its officer signs in again: it is sent, once.
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, first);
  await expect.poll(() => pcnsOnServer(request, adminToken, registration), { timeout: 30_000 }).toBe(1);
});

/** A complete no-permit notice through the form, with guided capture. */
async function fileNotice(page: Page, registration: string, photos: string[]) {
  await page.goto('/pcn/new');
  await page.getByLabel('Vehicle registration').fill(registration);
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseOffence(page, 'Parking without permit');
  await page.getByLabel('Location').fill('Bay 3');
  await page.getByRole('button', { name: 'Next' }).click();
  for (const [index, shot] of NO_PERMIT_SHOTS.entries()) {
    await page.getByLabel(`Take photo: ${shot}`).setInputFiles(photos[index]!);
    await expect(page.locator('.previews img')).toHaveCount(index + 1);
  }
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'Fixed to the vehicle' }).check();
  await page.getByRole('button', { name: 'Submit PCN' }).click();
  await expect(page).toHaveURL(/\/pcn$/);
}
