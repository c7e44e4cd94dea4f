import type { Page } from '@playwright/test';
import { ADMIN, apiToken, bearer, createCarPark, createOfficer, pcnsOnServer, uniqueSuffix } from './admin-support.ts';
import {
  choose,
  chooseOffence,
  clockStartWithinOneDay,
  evidencePhotos,
  expect,
  NO_PERMIT_SHOTS,
  signIn,
  snap,
  takeShots,
  test,
  uniqueRegistration,
} from './fixtures.ts';
import { expectOnePcnEach, readDrafts, readStoreRows, waitForServiceWorker } from './offline-support.ts';

/**
 * An officer's whole shift on the phone (docs/decisions/0012): ready to file with no signal from
 * sign-in, the stay rule as an observation with a second visit (reminded by the app, closed as
 * gone with no notice), and a form whose action bar never hides what is in use.
 */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the officer on a phone: once, as the phone it is for');
});

type Observation = { id: string; status: string; vehicleRegistration: string; pcnNumber: string | null };

async function observationsOf(page: Page, adminToken: string, registration: string): Promise<Observation[]> {
  const response = await page.request.get('/api/observations?limit=100', { headers: bearer(adminToken) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { observations: Observation[] } }).data.observations.filter(
    (row) => row.vehicleRegistration === registration,
  );
}

/** The car park names kept on the phone for the signed-in officer. */
async function cachedCarParkNames(page: Page): Promise<string[]> {
  const rows = await readStoreRows<{ key: string; value: Array<{ name: string }> }>(page, 'cache');
  return rows.filter((row) => row.key.endsWith(':car-parks')).flatMap((row) => row.value.map((carPark) => carPark.name));
}

const LOCATION = 'Level -1, bay 3';

/** A whole no-permit notice from an open form: vehicle, offence, four guided photos, Submit. */
async function fileNoPermitNotice(page: Page, registration: string, carParkName: string, options: { isLocationRecent?: boolean } = {}) {
  await page.getByLabel('Vehicle registration').fill(registration);
  await expect(page.getByLabel('Car park', { exact: true }).getByRole('option', { name: carParkName })).toHaveCount(1);
  await choose(page, 'Car park', carParkName);
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseOffence(page, 'Parking without permit');
  if (options.isLocationRecent) {
    // The last notice's location at this car park is one tap away.
    await page.getByRole('group', { name: 'Recent places at this car park' }).getByRole('button', { name: LOCATION }).click();
    await expect(page.getByLabel('Location')).toHaveValue(LOCATION);
  } else {
    await page.getByLabel('Location').fill(LOCATION);
  }
  await page.getByRole('button', { name: 'Next' }).click();
  await takeShots(page, evidencePhotos());
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'Fixed to the vehicle' }).check();
  await page.getByRole('button', { name: 'Submit PCN' }).click();
  await expect(page).toHaveURL(/\/pcn$/);
  await expect(page.locator('.pending-item', { hasText: registration })).toContainText('Waiting for signal');
}

test.describe('offline from sign-in', () => {
  test.use({ serviceWorkers: 'allow' });

  test('signed in at the depot, a notice is filed in the basement with no form opened online; again after signing out and in; a car park added meanwhile appears when signal returns', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const adminToken = await apiToken(request, ADMIN);
    const suffix = uniqueSuffix();
    const basement = `Basement ${suffix}`;
    const basementId = await createCarPark(request, adminToken, basement);
    const laterId = await createCarPark(request, adminToken, `Added Later ${suffix}`);
    const officer = await createOfficer(request, adminToken, 'Bea', [basementId]);
    const registrations = [`BSA${suffix.slice(-5)}`, `BSB${suffix.slice(-5)}`];

    // ---- at the depot: sign in and nothing else ----
    await signIn(page, officer);
    await waitForServiceWorker(page);
    await expect.poll(() => cachedCarParkNames(page)).toEqual([basement]);

    // ---- in the basement: no signal before any form was opened ----
    await context.setOffline(true);
    await page.goto('/pcn/new');
    await expect(page.getByRole('link', { name: /^Offline/ })).toBeVisible();
    await expect(page.getByText('Failed to fetch car parks')).toHaveCount(0);
    // The 'saved on this phone' note belongs on screens of saved server data, not on the form.
    await expect(page.getByText(/shown as saved on this phone/)).toHaveCount(0);
    await fileNoPermitNotice(page, registrations[0]!, basement);
    await expect(page.getByRole('link', { name: '1 notice waiting to be sent' })).toContainText('1 unsent');

    // ---- signal for a moment: sign out (the notice stays for this officer), sign in again ----
    await context.setOffline(false);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    const warning = page.getByRole('alertdialog');
    if (await warning.isVisible()) await warning.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login/);
    expect(await cachedCarParkNames(page)).toEqual([]);
    await signIn(page, officer);
    await expect.poll(() => cachedCarParkNames(page)).toEqual([basement]);

    // ---- no signal again: the same, with the form opened offline ----
    await context.setOffline(true);
    await page.goto('/pcn/new');
    await fileNoPermitNotice(page, registrations[1]!, basement, { isLocationRecent: true });

    // ---- the form open offline while an admin assigns another car park; signal returns ----
    await page.goto('/pcn/new');
    const carParkSelect = page.getByLabel('Car park', { exact: true });
    await expect(carParkSelect.getByRole('option', { name: `Added Later ${suffix}` })).toHaveCount(0);
    const assigned = await request.post(`/api/car-parks/${laterId}/assign-user`, {
      headers: bearer(adminToken),
      data: { userId: await officerId(request, adminToken, officer.email) },
    });
    expect(assigned.status()).toBe(200);
    await context.setOffline(false);
    await expect(carParkSelect.getByRole('option', { name: `Added Later ${suffix}` })).toHaveCount(1);

    // Both notices filed offline reach the server exactly once.
    const officerToken = await apiToken(request, officer);
    await expect.poll(async () => (await readDrafts(page)).filter((draft) => draft.state === 'sent').length, { timeout: 60_000 }).toBe(2);
    await expectOnePcnEach(request, baseURL!, officerToken, registrations);
  });
});

async function officerId(request: import('@playwright/test').APIRequestContext, adminToken: string, email: string): Promise<string> {
  const response = await request.get(`/api/users?search=${encodeURIComponent(email)}`, { headers: bearer(adminToken) });
  return ((await response.json()) as { data: { users: Array<{ id: string }> } }).data.users[0]!.id;
}

test('an observation: first sighting, the reminder when due, the second photo and one notice; another closed as gone never becomes a notice', async ({
  page,
  context,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const adminToken = await apiToken(request, ADMIN);
  const carParkName = `Stay Check ${uniqueSuffix()}`;
  // One minute's consideration and one of grace: the second visit is due two minutes after first
  // sighting. Shorter than the Single Code's minimums, so the car park says why.
  const carParkId = await createCarPark(request, adminToken, carParkName, {
    stayAppliesByDefault: true,
    considerationMinutes: 1,
    graceMinutes: 1,
    minimumsOverrideReason: 'Test site: the journey keeps the stay short to run fast',
  });
  const officer = await createOfficer(request, adminToken, 'Ola', [carParkId]);
  const stayed = uniqueRegistration(testInfo);
  const left = `GON${uniqueSuffix().slice(-5)}`;
  await context.grantPermissions(['notifications']);
  // Records the notifications the app shows (the browser's own API, wrapped; none of our code).
  await page.addInitScript(() => {
    const shown: Array<{ title: string; body: string }> = [];
    (window as unknown as { shownNotifications: typeof shown }).shownNotifications = shown;
    const Real = window.Notification;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push({ title, body: options?.body ?? '' });
      }
    }
    window.Notification = Recorded;
  });
  const shownNotifications = () =>
    page.evaluate(() => (window as unknown as { shownNotifications: Array<{ title: string; body: string }> }).shownNotifications);
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/pcns') && r.method() === 'POST') posts.push(r.headers()['idempotency-key'] ?? '');
  });

  await page.clock.install({ time: clockStartWithinOneDay(30) });
  await signIn(page, officer);

  // ---- first visit: registration focused at once, first sighting, photos ----
  await page.getByRole('link', { name: 'Create New PCN' }).click();
  await expect(page.getByLabel('Vehicle registration')).toBeFocused();
  await page.keyboard.type(stayed);
  await page.getByRole('button', { name: 'Vehicle first seen', exact: true }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseOffence(page, 'Parking without permit');
  await page.getByLabel('Location').fill('Row A');
  await page.getByRole('button', { name: 'Next' }).click();
  await takeShots(page, evidencePhotos());
  const secondVisit = page.getByRole('region', { name: /^Second visit/ });
  await expect(secondVisit.getByRole('heading')).toHaveText(/^Second visit at \d\d:\d\d$/);
  const dueTime = ((await secondVisit.getByRole('heading').textContent()) ?? '').replace('Second visit at ', '');
  await snap(page, testInfo, 'observation-first-visit');

  // ---- the officer walks on: the dashboard lists it with its due time ----
  await page.goto('/dashboard');
  const openList = page.getByRole('region', { name: 'Open observations' });
  await expect(openList.locator('.pending-item', { hasText: stayed })).toContainText(`Due at ${dueTime}`);
  await expect(page.locator('.observation-banner')).toHaveCount(0);

  // ---- a second observation, of a car that will have gone ----
  await page.getByRole('link', { name: 'Create New PCN' }).click();
  await page.getByLabel('Vehicle registration').fill(left);
  await page.getByRole('button', { name: 'Vehicle first seen', exact: true }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseOffence(page, 'Parking without permit');
  await page.getByLabel('Location').fill('Row B');
  await page.getByRole('button', { name: 'Next' }).click();
  await takeShots(page, evidencePhotos().slice(0, 1), NO_PERMIT_SHOTS.slice(0, 1));
  await page.goto('/dashboard');
  await expect(openList.locator('.pending-item')).toHaveCount(2);
  await expect.poll(async () => (await observationsOf(page, adminToken, stayed)).map((row) => row.status)).toEqual(['OPEN']);

  // ---- due: the app says so on every screen, and as a notification ----
  await page.clock.fastForward('02:05');
  const banner = page.locator('.observation-banner');
  await expect(banner).toContainText('2 observations are due.');
  await expect(openList.locator('.pending-item', { hasText: stayed })).toContainText('Due now: go back and check the vehicle');
  await expect
    .poll(async () => (await shownNotifications()).map((n) => n.body).sort())
    .toEqual(
      [left, stayed]
        .map((registration) => `Observation due: ${registration} at ${carParkName}. Go back and check whether the vehicle is still there.`)
        .sort(),
    );
  await snap(page, testInfo, 'observation-due');

  // ---- the one that left: closed as gone, with no notice ----
  const leftRow = openList.locator('.pending-item', { hasText: left });
  await leftRow.getByRole('button', { name: `Vehicle has gone: ${left}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Vehicle has gone' }).click();
  await expect(page.getByRole('region', { name: 'Closed observations' }).locator('.pending-item', { hasText: left })).toContainText(
    /Vehicle gone at \d\d:\d\d: no notice/,
  );
  await expect(banner).toContainText(`Observation due: ${stayed} at ${carParkName}.`);
  await expect.poll(async () => (await observationsOf(page, adminToken, left)).map((row) => row.status)).toEqual(['GONE']);

  // ---- the one still there: back to it, the second photo, and the notice ----
  await banner.getByRole('link', { name: 'Go back to it' }).click();
  await expect(secondVisit.getByRole('heading')).toHaveText('Second visit due now');
  await expect(banner).toHaveCount(0);
  await page.getByLabel('Vehicle still here').setInputFiles(evidencePhotos()[1]!);
  await expect(secondVisit.getByRole('status')).toHaveText(/^Second visit recorded at \d\d:\d\d: the vehicle was still here\./);
  for (let step = 0; step < 3; step++) {
    if (await page.getByRole('button', { name: 'Submit PCN' }).isVisible()) break;
    await page.getByRole('button', { name: 'Next' }).click();
  }
  const created = page.waitForResponse((r) => r.url().endsWith('/api/pcns') && r.request().method() === 'POST');
  await page.getByRole('radio', { name: 'Fixed to the vehicle' }).check();
  await page.getByRole('button', { name: 'Submit PCN' }).click();
  expect((await created).status()).toBe(201);
  await expect(page).toHaveURL(/\/pcn$/);
  await expect.poll(() => pcnsOnServer(request, adminToken, stayed)).toBe(1);
  await expect.poll(async () => (await observationsOf(page, adminToken, stayed)).map((row) => row.status)).toEqual(['ISSUED']);

  // Sent once; the gone one never reached the server as a notice.
  expect(posts).toHaveLength(1);
  expect(await pcnsOnServer(request, adminToken, left)).toBe(0);

  // ---- the admin sees this officer's observations, open and closed ----
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, ADMIN);
  await page.goto('/admin/dashboard');
  const card = page.getByRole('region', { name: 'Observations' });
  await expect(card.locator('tr', { hasText: left })).toContainText('Vehicle gone');
  await expect(card.locator('tr', { hasText: left })).toContainText('Ola Officer');
  await expect(card.locator('tr', { hasText: stayed })).toContainText(/Notice issued \(PCN-\d{8}\)/);
  await card.getByLabel('Status').selectOption({ label: 'Vehicle gone' });
  await expect(card.locator('tr', { hasText: stayed })).toHaveCount(0);
  await expect(card.locator('tr', { hasText: left })).toHaveCount(1);
  await snap(page, testInfo, 'admin-observations');
});

test('the server refuses a stay notice with no photo from after consideration and grace, saying when to photograph again', async ({
  request,
}) => {
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `Refusing ${uniqueSuffix()}`, {
    stayAppliesByDefault: true,
    considerationMinutes: 5,
    graceMinutes: 10,
  });
  const officer = await createOfficer(request, adminToken, 'Rex', [carParkId]);
  const token = await apiToken(request, officer);
  const observedAt = new Date(Date.now() - 30 * 60_000).toISOString();
  const firstVisit = new Date(Date.now() - 29 * 60_000).toISOString();
  const photo = { name: 'plate.jpg', mimeType: 'image/jpeg', buffer: (await import('node:fs')).readFileSync(evidencePhotos()[0]!) };
  const response = await request.post('/api/pcns', {
    headers: { ...bearer(token), 'Idempotency-Key': crypto.randomUUID() },
    multipart: {
      vehicleRegistration: 'RF12USE',
      carParkId,
      offenceType: 'OTHER',
      description: 'Blocking the gate',
      location: 'Gate',
      noticeServedBy: 'AFFIXED',
      observedAt,
      images: photo,
      imageTakenAt: firstVisit,
    },
  });
  expect(response.status()).toBe(422);
  const body = (await response.json()) as { code: string; message: string };
  expect(body.code).toBe('SECOND_VISIT_REQUIRED');
  expect(body.message).toMatch(/^A stay applies: photograph the vehicle again at or after \d{1,2} \w{3}, \d\d:\d\d \(UK time\)/);
});

test('the action bar is solid over a field error, and a focused field sits above it', async ({ page }, testInfo) => {
  await signIn(page);
  await page.goto('/pcn/new');
  const registration = page.getByLabel('Vehicle registration');
  await expect(registration).toBeFocused();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Vehicle registration is required').first()).toBeVisible();
  const bar = page.locator('.wizard-actions');
  // Opaque: its background's alpha is 1, so nothing shows through.
  const background = await bar.evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(background).toMatch(/^rgb\(\d+, \d+, \d+\)$/);
  await snap(page, testInfo, 'action-bar-over-field-error');
  // A short screen, so the form scrolls under the bar: a focused field stops above it.
  await page.setViewportSize({ width: 390, height: 480 });
  await registration.fill('AB12CDE');
  await choose(page, 'Car park', 'Riverside Retail Park');
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseOffence(page, 'Other');
  await page.getByLabel('Location').fill('Gate');
  const description = page.getByLabel('Description');
  await description.focus();
  await expect
    .poll(async () => {
      const [field, barBox] = await Promise.all([description.boundingBox(), bar.boundingBox()]);
      return field && barBox ? field.y + field.height <= barBox.y : false;
    })
    .toBe(true);
  await snap(page, testInfo, 'action-bar-focused-field');
  // 'Other' says nothing of what the driver did: it needs the officer's words.
  await description.fill('Blocking the gate');
  // The step's problem is read in the bar, above its buttons.
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  const problem = bar.locator('.wizard-actions__problem');
  await expect(problem).toBeVisible();
  const [problemBox, buttonsBox] = await Promise.all([problem.boundingBox(), bar.locator('.wizard-actions__buttons').boundingBox()]);
  expect(problemBox!.y + problemBox!.height).toBeLessThanOrEqual(buttonsBox!.y);
  await snap(page, testInfo, 'action-bar-step-problem');
});
