import type { Page } from '@playwright/test';
import {
  choose,
  chooseOffence,
  evidencePhotos,
  expect,
  expectNoSeriousAxeViolations,
  markChecklistShots,
  signIn,
  snap,
  test,
  uniqueRegistration,
} from './fixtures.ts';

async function expectImagesLoaded(page: Page, count: number) {
  const images = page.locator('.evidence-grid img');
  await expect(images).toHaveCount(count);
  for (let i = 0; i < count; i++) {
    const image = images.nth(i);
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
}

test('an officer files a PCN with four photos, finds it, opens it and edits it while submitted', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const registration = uniqueRegistration(testInfo);
  const photos = evidencePhotos();
  await signIn(page);

  // ---- dashboard before ----
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Olivia!');
  await expect(page.getByText('Manage your PCNs and track their status')).toBeVisible();

  // ---- step 1: vehicle details ----
  await page.getByRole('link', { name: 'Create New PCN' }).click();
  await expect(page).toHaveURL(/\/pcn\/new\?draft=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Submit New PCN');
  await expect(page.getByRole('heading', { level: 2, name: /Vehicle Details/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back' })).toBeDisabled();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Vehicle registration is required')).toBeVisible();
  await expect(page.getByText('Choose a car park').last()).toBeVisible();
  await expect(page.getByLabel('Vehicle registration')).toBeFocused();
  await snap(page, testInfo, 'form-step1-errors');
  await expectNoSeriousAxeViolations(page, 'form step 1 with errors');

  await page.getByLabel('Vehicle registration').fill(`${registration.slice(0, 4)} ${registration.slice(4)}`);
  await choose(page, 'Car park', 'Riverside Retail Park');
  await page.getByRole('button', { name: 'Next' }).click();

  // ---- step 2: offence information ----
  const step2 = page.getByRole('heading', { level: 2, name: /Offence Information/ });
  await expect(step2).toBeFocused();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Choose an offence type').last()).toBeVisible();
  await expect(page.getByText('Location is required')).toBeVisible();
  // 'Other' says nothing of what the driver did: the phone asks for a description before the outbox.
  await chooseOffence(page, 'Other');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Describe what the driver did: an offence of type Other needs a description')).toBeVisible();
  await chooseOffence(page, 'Parking without permit');
  await page.getByLabel('Location').fill('Level 2, bay 14');
  await page.getByLabel('Description').fill('No permit on display. Engine off, nobody in the vehicle.');
  await snap(page, testInfo, 'form-step2');
  await expectNoSeriousAxeViolations(page, 'form step 2');
  await page.getByRole('button', { name: 'Next' }).click();

  // ---- step 3: evidence ----
  await expect(page.getByRole('heading', { level: 2, name: /Upload Evidence/ })).toBeFocused();
  await expect(page.getByText('Please upload at least 4 clear images of the offence from different angles.')).toBeVisible();
  const camera = page.getByLabel('Take photo: Number plate');
  await expect(camera).toHaveAttribute('capture', 'environment');
  await expect(camera).toHaveAttribute('accept', 'image/*');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Add at least 4 photos of the offence')).toBeVisible();
  await camera.setInputFiles(photos[0]!);
  await page.getByLabel('Choose photos').setInputFiles(photos.slice(1));
  const previews = page.locator('.previews img');
  await expect(previews).toHaveCount(4);
  const box = await previews.first().boundingBox();
  expect([Math.round(box!.width), Math.round(box!.height)]).toEqual([120, 120]);
  // The photo taken from the Number plate row is already marked as showing it.
  await expect(page.locator('.preview--evidence', { hasText: 'Shows: Number plate' })).toHaveCount(1);
  // Remove one and add it back: the remove buttons are labelled.
  await page.getByRole('button', { name: /Remove photo 4/ }).click();
  await expect(previews).toHaveCount(3);
  await page.getByLabel('Choose photos').setInputFiles(photos[3]!);
  await expect(previews).toHaveCount(4);
  // The checklist wants each shot the offence needs on some photo.
  await markChecklistShots(page);
  await snap(page, testInfo, 'form-step3');
  await expectNoSeriousAxeViolations(page, 'form step 3');
  await page.getByRole('button', { name: 'Next' }).click();

  // ---- step 4: review ----
  await expect(page.getByRole('heading', { level: 2, name: /Review & Submit/ })).toBeFocused();
  await expect(page.getByText(registration, { exact: true })).toBeVisible();
  await expect(page.getByText('Riverside Retail Park')).toBeVisible();
  await expect(page.getByText('Parking without permit')).toBeVisible();
  await expect(page.locator('.previews img')).toHaveCount(4);
  await snap(page, testInfo, 'form-step4-review');
  await expectNoSeriousAxeViolations(page, 'form step 4');
  // Submit never waits for the network: the notice joins the outbox on the phone and My PCNs
  // shows at once. With the connection lost the outbox says so and keeps the notice; 'Retry now'
  // sends it with the same Idempotency-Key, so it can never become two PCNs.
  const keys: string[] = [];
  // The connection stays lost until 'Retry now' is pressed, and comes back with the press itself:
  // the pointer going down on the button sets a flag in the page (capture phase, before the
  // app's own handler) that the route reads. The outbox's own backoff retries before that keep
  // failing however slow the machine; a flag set from the test before the click left a window
  // in which such a retry went through and the button was gone.
  await page.evaluate(() => {
    document.addEventListener(
      'pointerdown',
      (event) => {
        const button = (event.target as Element | null)?.closest('.pending-item button');
        if (button?.textContent?.includes('Retry now')) (window as unknown as { retryPressed?: boolean }).retryPressed = true;
      },
      { capture: true },
    );
  });
  const isConnected = () => page.evaluate(() => Boolean((window as unknown as { retryPressed?: boolean }).retryPressed)).catch(() => false);
  await page.route('**/api/pcns', async (route) => {
    if (route.request().method() !== 'POST' || (await isConnected())) return route.fallback();
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    await route.abort('internetdisconnected');
  });
  await page.getByRole('radio', { name: 'Fixed to the vehicle' }).check();
  // The period of parking starts at first seen (here, when the notice was begun): the officer may
  // correct it, never to after the service.
  const firstSeen = page.getByLabel('Vehicle first seen');
  // On the UK clock, dd/mm/yyyy hh:mm, whatever the phone's language.
  await expect(firstSeen).toHaveValue(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  // Half-typed, the field keeps the text as it is while the officer types the rest, and says so once left.
  const shown = await firstSeen.inputValue();
  await firstSeen.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await expect(firstSeen).toHaveValue(shown.slice(0, -1));
  await firstSeen.blur();
  await expect(page.getByText('Enter the date and time as dd/mm/yyyy hh:mm, like 31/12/2026 14:05')).toBeVisible();
  await firstSeen.focus();
  await page.keyboard.press('End');
  await page.keyboard.type(shown.slice(-1));
  await expect(firstSeen).toHaveValue(shown);
  await firstSeen.fill('01/01/2099 10:00');
  await page.getByRole('button', { name: 'Submit PCN' }).click();
  await expect(page.getByText('First seen must be no later than the time of service.')).toBeVisible();
  await expect(firstSeen).toHaveAttribute('aria-invalid', 'true');
  // Emptied and left, it follows the default again.
  await firstSeen.fill('');
  await firstSeen.blur();
  await expect(firstSeen).toHaveValue(shown);
  await expect(page.getByText('First seen must be no later than the time of service.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Submit PCN' }).click();
  await expect(page).toHaveURL(/\/pcn$/);
  const outboxRow = page.locator('.pending-item', { hasText: registration });
  await expect(outboxRow).toContainText('Waiting for signal');
  await expect(outboxRow).toContainText('No connection');
  await expect(page.locator('.outbox-pill--unsent')).toHaveText('1 unsent');
  await snap(page, testInfo, 'my-pcns-outbox-waiting');
  await expectNoSeriousAxeViolations(page, 'My PCNs with a notice waiting');

  const created = page.waitForResponse((r) => r.url().endsWith('/api/pcns') && r.request().method() === 'POST');
  const retryNow = outboxRow.getByRole('button', { name: /Retry now/ });
  await expect(retryNow).toBeVisible();
  await retryNow.click();
  const response = await created;
  expect(response.status()).toBe(201);
  const key = response.request().headers()['idempotency-key'];
  expect(key).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys.length).toBeGreaterThan(0);
  expect(new Set(keys)).toEqual(new Set([key]));
  const sent = ((await response.json()) as { data: { pcnNumber: string; firstSeenAt: string } }).data;
  const pcnNumber = sent.pcnNumber;
  expect(Date.parse(sent.firstSeenAt)).toBeLessThan(Date.now());
  const title = `PCN-${pcnNumber}`;
  // Sent, the notice leaves the outbox and is shown once: in the list, with the server's number.
  await expect(outboxRow).toHaveCount(0);
  await expect(page.getByRole('row', { name: new RegExp(title) })).toHaveCount(1);
  await expect(page.locator('.outbox-pill--unsent')).toHaveCount(0);
  await page.unroute('**/api/pcns');

  // ---- My PCNs ----
  await expect(page).toHaveURL(/\/pcn$/);
  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row).toBeVisible();
  await expect(row).toContainText(registration);
  await expect(row).toContainText('Riverside Retail Park');
  await expect(row).toContainText('Submitted');
  await snap(page, testInfo, 'my-pcns');
  await expectNoSeriousAxeViolations(page, 'My PCNs');

  // ---- dashboard recent list and counters ----
  await page.goto('/dashboard');
  const recent = page.getByRole('list', { name: 'Recent PCNs' });
  await expect(recent.getByRole('link', { name: new RegExp(title) })).toContainText(`${registration} · Riverside Retail Park`);
  await expect(page.locator('.stat', { hasText: 'Total PCNs' }).locator('dd')).not.toHaveText('0');
  await expect(page.locator('.stat', { hasText: 'Pending' }).locator('dd')).not.toHaveText('0');
  await snap(page, testInfo, 'dashboard');
  await expectNoSeriousAxeViolations(page, 'dashboard');

  // ---- detail with four images that load ----
  await recent.getByRole('link', { name: new RegExp(title) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  // The detail loads first; focus still lands on its heading once it appears.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await expect(page.getByText('Level 2, bay 14')).toBeVisible();
  await expect(page.getByText('Parking without permit')).toBeVisible();
  await expectImagesLoaded(page, 4);
  await snap(page, testInfo, 'pcn-detail');
  await expectNoSeriousAxeViolations(page, 'PCN detail');

  // ---- edit while SUBMITTED ----
  await page.getByRole('link', { name: 'Edit PCN' }).click();
  await expect(page).toHaveURL(/\/edit$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit PCN');
  await expect(page.getByLabel('Vehicle registration')).toHaveValue(registration);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Location').fill('Level 3, bay 2');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.locator('.previews img')).toHaveCount(4);
  await page.getByRole('button', { name: 'Remove photo 1' }).click();
  await page.getByLabel('Choose photos').setInputFiles(photos[0]!);
  await expect(page.locator('.previews img')).toHaveCount(4);
  await snap(page, testInfo, 'form-edit-photos');
  await page.getByRole('button', { name: 'Next' }).click();
  const updated = page.waitForResponse((r) => r.url().includes('/api/pcns/') && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Submit PCN' }).click();
  expect((await updated).status()).toBe(200);
  await expect(page).toHaveURL(/\/pcn$/);
  await page
    .getByRole('row', { name: new RegExp(title) })
    .getByRole('link', { name: `View ${title}` })
    .click();
  await expect(page.getByText('Level 3, bay 2')).toBeVisible();
  await expectImagesLoaded(page, 4);
});

/** Files a PCN through the API (no photos: the server needs none) for the list tests. */
async function createPcnThroughApi(page: Page, registration: string) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { Authorization: `Bearer ${token}` };
  const carParks = (await (await page.request.get('/api/car-parks', { headers })).json()) as { data: Array<{ id: string }> };
  const form = new FormData();
  form.set('vehicleRegistration', registration);
  form.set('noticeServedBy', 'AFFIXED');
  form.set('carParkId', carParks.data[0]!.id);
  form.set('offenceType', 'PARKING_IN_FIRE_ROUTE');
  form.set('location', 'Entrance');
  const response = await page.request.post('/api/pcns', {
    headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
    multipart: form,
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { pcnNumber: string } }).data.pcnNumber;
}

test('My PCNs searches on the server and filters by status', async ({ page }, testInfo) => {
  await signIn(page);
  const registration = uniqueRegistration(testInfo);
  const pcnNumber = await createPcnThroughApi(page, registration);
  await page.goto('/pcn');
  await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search' });
  await expect(search).toHaveAttribute('placeholder', 'Search PCNs...');

  await search.fill('NOSUCHREG');
  await expect(page.getByText('No PCNs found')).toBeVisible();
  await expect(page.getByText('Try adjusting your search or filter criteria.')).toBeVisible();
  await expect(page).toHaveURL(/search=NOSUCHREG/);
  await snap(page, testInfo, 'my-pcns-empty-filtered');
  await expectNoSeriousAxeViolations(page, 'My PCNs empty');
  // Case- and space-insensitive, on registration or PCN number.
  await search.fill(`${registration.slice(0, 3).toLowerCase()} ${registration.slice(3).toLowerCase()}`);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.getByRole('row', { name: new RegExp(`PCN-${pcnNumber}`) })).toBeVisible();
  await search.fill(pcnNumber);
  await expect(page.getByRole('row', { name: new RegExp(`PCN-${pcnNumber}`) })).toBeVisible();
  await search.clear();
  await expect(page).not.toHaveURL(/search=/);

  const options = page.getByLabel('Status').getByRole('option');
  await expect(options).toHaveText(['All Statuses', 'Submitted', 'Under Review', 'Approved', 'Rejected', 'Issued', 'Paid', 'Cancelled']);
  await choose(page, 'Status', 'Approved');
  await expect(page).toHaveURL(/status=APPROVED/);
  // The notice just filed is still submitted; other journeys running beside may approve theirs.
  await expect(page.getByRole('row', { name: new RegExp(`PCN-${pcnNumber}`) })).toHaveCount(0);
  for (const text of await page.locator('tbody tr .chip').allTextContents()) expect(text).toBe('Approved');

  await choose(page, 'Status', 'Submitted');
  await expect(page).toHaveURL(/status=SUBMITTED/);
  // The address changes before the list is fetched again: the notice just filed, still
  // submitted, shows the filtered list has arrived (the approved rows were read before).
  await expect(page.getByRole('row', { name: new RegExp(`PCN-${pcnNumber}`) })).toBeVisible();
  // Whatever the other journey created, every row shown is SUBMITTED.
  for (const text of await page.locator('tbody tr .chip').allTextContents()) expect(text).toBe('Submitted');
});

test('a new officer sees the empty states, and an unknown PCN says so', async ({ page, request }, testInfo) => {
  // A fresh account with no PCNs, made by the demo admin through the API.
  const login = await request.post('/api/auth/login', { data: { email: 'admin@example.com', password: 'admin123' } });
  const adminToken = ((await login.json()) as { data: { token: string } }).data.token;
  const email = `new-${testInfo.project.name}-${Date.now()}@example.com`;
  const created = await request.post('/api/users', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { firstName: 'Nina', lastName: 'New', email, role: 'USER', password: 'newofficer1' },
  });
  expect(created.status()).toBe(201);

  await signIn(page, { email, password: 'newofficer1' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Nina!');
  await expect(page.getByText('No PCNs submitted yet. Create your first PCN to get started!')).toBeVisible();
  await expect(page.locator('.stat', { hasText: 'Total PCNs' }).locator('dd')).toHaveText('0');

  await page.getByRole('link', { name: 'View All PCNs' }).click();
  await expect(page.getByText('No PCNs found')).toBeVisible();
  await expect(page.getByText("You haven't submitted any PCNs yet.")).toBeVisible();
  await expect(page.getByRole('link', { name: 'Submit Your First PCN' })).toBeVisible();
  await snap(page, testInfo, 'my-pcns-empty');
  await expectNoSeriousAxeViolations(page, 'My PCNs, no PCNs yet');

  await page.goto('/pcn/no-such-pcn');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('PCN not found');
  await snap(page, testInfo, 'pcn-not-found');
  await page.getByRole('link', { name: 'Back to PCN List' }).click();
  await expect(page).toHaveURL(/\/pcn$/);
});
