import type { Page, Route } from '@playwright/test';
import { apiToken, createEvidencePcnThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';
import { expect, OFFICER, signIn, test } from './fixtures.ts';

/**
 * Delivery in the browser: the sign-in screen paints from index.html before any of the app's
 * code arrives, keeps what was typed when the app takes over, and downloads neither Dexie nor
 * the outbox. Once on the phone is enough: it is about the first visit over a poor link.
 */
test.skip(({ isMobile }) => !isMobile, 'The first visit of an officer on a phone');
test.use({ serviceWorkers: 'block' });

/** Holds every script of the app until `release` is called: the page as it is before its code arrives. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

test("the sign-in form paints before the app's code, and what was typed there stays, in place", async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const painted = page.locator('#boot-sign-in');
  await expect(painted.getByLabel('Email')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'ParkPatrol Self Ticketing' })).toBeVisible();
  await expect(page).toHaveTitle('ParkPatrol Self Ticketing');
  const before = await painted.getByLabel('Email').boundingBox();
  await painted.getByLabel('Email').fill(OFFICER.email);
  await painted.getByLabel('Password').fill(OFFICER.password.slice(0, -1));

  release();
  await expect(page.locator('#boot')).toHaveCount(0);
  const email = page.getByLabel('Email');
  await expect(email).toHaveValue(OFFICER.email);
  await expect(page.getByLabel('Password')).toHaveValue(OFFICER.password.slice(0, -1));
  // Nothing moved, and the caret is still in the password.
  expect(await email.boundingBox()).toEqual(before);
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(OFFICER.password.slice(-1));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("Sign In pressed before the app's code arrives signs in once it does, and never posts the password as a form", async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const painted = page.locator('#boot-sign-in');
  await painted.getByLabel('Email').fill(OFFICER.email);
  await painted.getByLabel('Password').fill(OFFICER.password);
  await painted.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  release();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(page.url()).not.toContain(OFFICER.password);
});

test('Sign In pressed on the painted form and released after the app took over still signs in', async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const painted = page.locator('#boot-sign-in');
  await painted.getByLabel('Email').fill(OFFICER.email);
  await painted.getByLabel('Password').fill(OFFICER.password);
  const button = await painted.getByRole('button', { name: 'Sign In' }).boundingBox();
  await page.mouse.move(button!.x + button!.width / 2, button!.y + button!.height / 2);
  await page.mouse.down();
  release();
  // The app's code runs and renders while the finger is still on the painted button...
  await expect(page.locator('#root form')).toBeAttached();
  await expect(painted.getByRole('button', { name: 'Sign In' })).toBeVisible();
  // ...and lifting it there is the press it began.
  await page.mouse.up();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the motorist's lookup paints at /charge before the app's code, with the QR code's reference, and a Find pressed meanwhile finds the charge", async ({
  page,
  request,
}) => {
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const registration = `BT${uniqueSuffix()}`.slice(0, 7).toUpperCase();
  const now = new Date().toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });
  const release = await holdScripts(page);
  await page.goto(`/charge?ref=PCN-${pcn.pcnNumber}`, { waitUntil: 'commit' });
  const painted = page.locator('#boot-charge-lookup');
  await expect(painted.getByLabel('Charge reference')).toHaveValue(`PCN-${pcn.pcnNumber}`);
  await expect(page.locator('#boot-sign-in')).toBeHidden();
  const before = await painted.getByLabel('Vehicle registration').boundingBox();
  await painted.getByLabel('Vehicle registration').fill(registration);
  await painted.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page).toHaveURL(/\/charge\?ref=/);
  release();
  await expect(page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcn.pcnNumber}` })).toBeVisible();
  await expect(page.locator('#boot')).toHaveCount(0);
  expect(before).not.toBeNull();
});

test('what the motorist types in the painted lookup stays when the app takes over, in place, the caret where it was', async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto('/charge', { waitUntil: 'commit' });
  const painted = page.locator('#boot-charge-lookup');
  await painted.getByLabel('Charge reference').fill('PCN-00000001');
  const field = painted.getByLabel('Vehicle registration');
  const before = await field.boundingBox();
  await field.fill('AB12');
  release();
  await expect(page.locator('#boot')).toHaveCount(0);
  await expect(page.getByLabel('Charge reference')).toHaveValue('PCN-00000001');
  const registration = page.getByLabel('Vehicle registration');
  await expect(registration).toHaveValue('AB12');
  await expect(registration).toBeFocused();
  expect(await registration.boundingBox()).toEqual(before);
});

test('a signed-in officer sees the loading screen, never the sign-in form, while the app starts', async ({ page }) => {
  await signIn(page);
  const release = await holdScripts(page);
  await page.goto('/dashboard', { waitUntil: 'commit' });
  await expect(page.locator('#boot').getByRole('status')).toHaveText('Loading...');
  await expect(page.locator('#boot-sign-in')).toBeHidden();
  release();
  await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${OFFICER.firstName}!` })).toBeVisible();
  await expect(page.locator('#boot')).toHaveCount(0);
});

// Dexie's own error class, and a message of the outbox engine (features/outbox/outbox-sync.ts).
const DEXIE = 'DatabaseClosedError';
const OUTBOX = 'Another officer signed in on this device';

async function scriptsLoadedBy(page: Page, action: () => Promise<void>): Promise<string[]> {
  const bodies: Array<Promise<string>> = [];
  const onResponse = (response: import('@playwright/test').Response) => {
    if (response.url().endsWith('.js')) bodies.push(response.text());
  };
  page.on('response', onResponse);
  await action();
  page.off('response', onResponse);
  return Promise.all(bodies);
}

test('the sign-in page downloads no Dexie and no outbox; signing in brings them', async ({ page }) => {
  const signInScripts = await scriptsLoadedBy(page, async () => {
    await page.goto('/login', { waitUntil: 'load' });
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    await expect(page.locator('#boot')).toHaveCount(0);
  });
  expect(signInScripts.length).toBeGreaterThan(0);
  expect(
    signInScripts.filter((body) => body.includes(DEXIE)),
    'Dexie on the sign-in page',
  ).toHaveLength(0);
  expect(
    signInScripts.filter((body) => body.includes(OUTBOX)),
    'the outbox on the sign-in page',
  ).toHaveLength(0);

  const signedInScripts = await scriptsLoadedBy(page, async () => {
    await page.getByLabel('Email').fill(OFFICER.email);
    await page.getByLabel('Password').fill(OFFICER.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${OFFICER.firstName}!` })).toBeVisible();
  });
  // The markers are real: the signed-in app does load both.
  expect(signedInScripts.some((body) => body.includes(DEXIE))).toBe(true);
  expect(signedInScripts.some((body) => body.includes(OUTBOX))).toBe(true);
});
