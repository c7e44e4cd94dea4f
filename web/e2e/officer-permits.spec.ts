import type { Page } from '@playwright/test';
import { dedicatedServer } from './dedicated-server.ts';
import { ADMIN, choose, chooseOffence, evidencePhotos, expect, markChecklistShots, signIn, snap, test } from './fixtures.ts';
import {
  apiToken,
  expectOnePcnEach,
  offlineRegistration,
  readDrafts,
  readStoreRows,
  waitForServiceWorker,
  waitUntilSent,
} from './offline-support.ts';

/**
 * Permits on the officer's phone (decision 0041): a permit added while the officer is online
 * reaches the phone; with the server really gone (its process stopped, not the browser told it is
 * offline) the officer who enters that registration is told before any photo, and a notice filed
 * with a reason reaches the server once when it is back. A server of its own, on its own port and
 * data folder (dedicated-server.ts), since this one is stopped and started.
 */

test.use({ serviceWorkers: 'allow' });

type StoredPermits = { permits: Array<{ vehicleRegistration: string; kind: string }>; syncedAt: string };

/** The permits the phone keeps (lib/permits-offline.ts), read from the app's own database. */
async function phonePermits(page: Page): Promise<StoredPermits | null> {
  const rows = await readStoreRows<{ key: string; value: StoredPermits }>(page, 'cache');
  return rows.find((row) => row.key.endsWith(':permits'))?.value ?? null;
}

test('a permit added online reaches the phone; with the server gone the officer is told before any photo, and a notice with a reason reaches the server once', async ({
  browser,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'runs once, as the phone it is for: it starts a server of its own');
  test.setTimeout(180_000);
  const server = await dedicatedServer('permits');
  const baseURL = server.baseURL;
  await server.start();
  try {
    const officerToken = await apiToken(request, baseURL);
    const carParks = (await (
      await request.get(`${baseURL}/api/car-parks`, { headers: { Authorization: `Bearer ${officerToken}` } })
    ).json()) as {
      data: Array<{ id: string; name: string }>;
    };
    // The car park the other offline journeys file at: no stay applies there by default.
    const carPark = carParks.data.find((each) => each.name === 'Riverside Retail Park')!;
    const context = await browser.newContext({ ...testInfo.project.use, baseURL, serviceWorkers: 'allow' });
    const page = await context.newPage();
    await signIn(page);
    await waitForServiceWorker(page);
    // The list arrives at sign-in with the car parks.
    await expect.poll(async () => (await phonePermits(page)) !== null, { timeout: 30_000 }).toBe(true);

    // ---- an admin adds a permit while the officer is online: the next sync brings it ----
    const registration = offlineRegistration('PMT', 0);
    const added = await request.post(`${baseURL}/api/car-parks/${carPark.id}/permits`, {
      headers: { Authorization: `Bearer ${await apiToken(request, baseURL, ADMIN)}` },
      data: { vehicleRegistration: registration, kind: 'STAFF', validUntil: '2099-12-31', note: 'Reception' },
    });
    expect(added.status()).toBe(201);
    const syncedBefore = (await phonePermits(page))!.syncedAt;
    // The app coming back to the front (here a fresh start) asks for the changes since the last sync.
    await page.goto('/pcn');
    await expect
      .poll(async () => (await phonePermits(page))?.permits.map((permit) => permit.vehicleRegistration) ?? [], { timeout: 30_000 })
      .toContain(registration);
    expect((await phonePermits(page))!.syncedAt > syncedBefore).toBe(true);

    // ---- the server is gone for real: the phone's own list answers ----
    await server.stop();
    await page.goto('/pcn/new');
    await expect(page.getByRole('heading', { level: 2, name: /Vehicle Details/ })).toBeVisible();
    // Typed as an officer types it, spaces and lower case.
    await page.getByLabel('Vehicle registration').fill(`${registration.slice(0, 4).toLowerCase()} ${registration.slice(4).toLowerCase()}`);
    await choose(page, 'Car park', carPark.name);
    const warning = page.getByRole('alert').filter({ hasText: 'Staff permit, valid until 31 Dec 2099: do not issue' });
    await expect(warning).toBeVisible();
    // Before any photo: still the first step, nothing taken.
    expect(await page.locator('.previews img').count()).toBe(0);
    await snap(page, testInfo, 'permit-warning-offline');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Give a reason to issue despite the permit, or do not issue')).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /Vehicle Details/ })).toBeVisible();
    await page.getByLabel('Reason to issue despite the permit').fill('Parked outside the permitted bays');
    await page.getByRole('button', { name: 'Next' }).click();
    await chooseOffence(page, 'Parking without permit');
    await page.getByLabel('Location').fill('Loading bay, outside the permitted bays');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Choose photos').setInputFiles(evidencePhotos());
    await expect(page.locator('.previews img')).toHaveCount(4);
    await markChecklistShots(page);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('radio', { name: 'Fixed to the vehicle' }).check();
    await page.getByRole('button', { name: 'Submit PCN' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
    await expect(page.locator('.pending-item', { hasText: registration })).toContainText('Waiting for signal');

    // ---- the server is back on the same data: the notice goes, once, with its reason ----
    await server.start();
    const ids = (await readDrafts(page))
      .filter((draft) => draft.vehicleRegistration.replace(/\s+/g, '').toUpperCase() === registration)
      .map((d) => d.id);
    expect(ids).toHaveLength(1);
    await waitUntilSent(page, ids);
    const token = await apiToken(request, baseURL);
    const onServer = await expectOnePcnEach(request, baseURL, token, [registration]);
    const detail = await request.get(`${baseURL}/api/pcns/${onServer[registration]!.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(((await detail.json()) as { data: { permitOverrideReason: string | null } }).data.permitOverrideReason).toBe(
      'Parked outside the permitted bays',
    );
    await context.close();
  } finally {
    await server.dispose();
  }
});
