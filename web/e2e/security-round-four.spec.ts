import { request as httpRequest } from 'node:http';
import { SCREEN_TEXTS, SERVER_MESSAGES, SUCCESS_MESSAGES } from '@parkpatrol/shared';
import { ADMIN, apiToken, createCarPark, createOfficer, uniqueSuffix } from './admin-support.ts';
import { waitForEmailTo } from './mail-sink.ts';
import { expect, test } from './fixtures.ts';

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

/** The browser side of the fourth outside attack's sign-in findings (docs/security.md). */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'a new laptop: once, as the desktop it is');
});

test("finding 2: after a stranger's guesses, the owner's new laptop is offered an emailed sign-in link and signs in with it", async ({
  browser,
  request,
  baseURL,
}) => {
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `New device ${uniqueSuffix()}`);
  const officer = await createOfficer(request, adminToken, 'Ned', [carParkId]);

  // One wrong guess from each of twenty addresses: the account now hears known devices only.
  const statuses: number[] = [];
  for (let n = 1; n <= 20; n++) statuses.push(await guessFrom(baseURL!, `127.0.4.${n}`, officer.email));
  expect(statuses.every((status) => status === 401)).toBe(true);

  const laptop = await browser.newContext();
  const page = await laptop.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(officer.email);
  await page.getByLabel('Password').fill(officer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  // The refusal's words are kept, and the way in is offered beside them.
  await expect(page.getByRole('alert')).toHaveText(SERVER_MESSAGES.signInNeedsKnownDevice);
  await page.getByRole('button', { name: SCREEN_TEXTS.emailDeviceLink }).click();
  await expect(page.getByRole('status')).toHaveText(SUCCESS_MESSAGES.deviceLinkEmailSent);

  const mail = await waitForEmailTo(officer.email, { subject: /new device/ });
  const link = /https?:\/\/\S+?(\/login\?device-link=[\w-]+)/.exec(mail.text ?? '')?.[1];
  expect(link, mail.text).toBeTruthy();

  // Opened on the laptop: the link leaves the address bar, and the password signs it in.
  await page.goto(link!);
  await expect(page.getByRole('status')).toHaveText(SCREEN_TEXTS.deviceLinkReady);
  await expect(page).not.toHaveURL(/device-link/);
  await page.getByLabel('Email').fill(officer.email);
  await page.getByLabel('Password').fill(officer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Ned!');

  // The laptop is a known device now: signed out, it signs straight in while the cap still holds.
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Email').fill(officer.email);
  await page.getByLabel('Password').fill(officer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Ned!');
  await laptop.close();
});
