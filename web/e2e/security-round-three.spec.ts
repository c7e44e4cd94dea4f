import { request as httpRequest } from 'node:http';
import { SERVER_MESSAGES } from '@parkpatrol/shared';
import { ADMIN, apiToken, createCarPark, createOfficer, uniqueSuffix } from './admin-support.ts';
import { expect, signIn, test } from './fixtures.ts';

/** A wrong password sent from another loopback address, as a stranger with many addresses would. */
function guessFrom(baseUrl: string, localAddress: string, email: string): Promise<number> {
  const payload = JSON.stringify({ email, password: `stranger-${localAddress}` });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}/api/auth/login`,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The browser findings of the third outside attack (docs/security.md). */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the shared phone: once, as the phone it is');
});

test("finding 8: on a shared phone, the next officer opening the first one's draft link gets a fresh draft", async ({ page, request }) => {
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `Shared ${uniqueSuffix()}`);
  const first = await createOfficer(request, adminToken, 'Fay', [carParkId]);
  const second = await createOfficer(request, adminToken, 'Gil', [carParkId]);

  await signIn(page, first);
  await page.goto('/pcn/new');
  await expect(page).toHaveURL(/\?draft=/);
  const draftUrl = page.url();
  await page.getByLabel('Vehicle registration').fill('FAY123');
  await expect(page.getByText('Unfinished drafts')).toHaveCount(0);
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);

  await signIn(page, second);
  await page.goto(draftUrl);
  // A fresh draft of their own: another id, an empty registration.
  await expect(page).not.toHaveURL(draftUrl);
  await expect(page).toHaveURL(/\?draft=/);
  await expect(page.getByLabel('Vehicle registration')).toHaveValue('');
  await page.goto('/dashboard');
  await expect(page.getByText('FAY123')).toHaveCount(0);
});

test("finding 6: after a stranger's guesses from many addresses, the officer's own phone still signs in and a new browser is sent to the reset", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `Known device ${uniqueSuffix()}`);
  const officer = await createOfficer(request, adminToken, 'Hal', [carParkId]);
  await signIn(page, officer);
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);

  // One wrong guess from each of twenty addresses: no address reaches its own lock.
  const statuses: number[] = [];
  for (let n = 1; n <= 20; n++) statuses.push(await guessFrom(baseURL!, `127.0.3.${n}`, officer.email));
  expect(statuses.every((status) => status === 401)).toBe(true);

  // A browser that never signed in (another device) is not heard, even with the right password...
  const stranger = await browser.newContext();
  const newDevice = await stranger.newPage();
  await newDevice.goto('/login');
  await newDevice.getByLabel('Email').fill(officer.email);
  await newDevice.getByLabel('Password').fill(officer.password);
  await newDevice.getByRole('button', { name: 'Sign In' }).click();
  await expect(newDevice.getByRole('alert')).toHaveText(SERVER_MESSAGES.signInNeedsKnownDevice);
  await expect(newDevice).toHaveURL(/\/login/);
  await expect(newDevice.getByRole('link', { name: 'Forgot your password?' })).toBeVisible();
  await stranger.close();

  // ...while the officer's own phone, which kept its device token through the sign-out, is.
  await signIn(page, officer);
});
