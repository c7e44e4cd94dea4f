import { expect, expectNoSeriousAxeViolations, expectTouchTargets, OFFICER, openNavigation, signIn, snap, test } from './fixtures.ts';
import { changeSessionPair } from './session-support.ts';

test.describe('sign-in', () => {
  test('validates the fields, reports a failed sign-in and clears the error when leaving', async ({ page }, testInfo) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ParkPatrol Self Ticketing');
    await expect(page.getByText('Sign in to your account')).toBeVisible();
    await expect(page).toHaveTitle(/ParkPatrol Self Ticketing/);
    await snap(page, testInfo, 'login');
    await expectNoSeriousAxeViolations(page, 'login');

    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expect(page.getByLabel('Email')).toBeFocused();

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('12345');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid email')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();

    await page.getByLabel('Email').fill(OFFICER.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid email or password');
    await expect(page).toHaveURL(/\/login$/);
    await snap(page, testInfo, 'login-failed');
    await expectNoSeriousAxeViolations(page, 'login with error');

    // Leaving the screen clears the stored error.
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    // Left once the next screen is there (a navigation keeps the current screen until then).
    await expect(page.getByText('Enter the email address of your account')).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test("offers 'Forgot your password?' as a target a thumb can hit, its words unchanged", async ({ page }) => {
    await page.goto('/login');
    const link = page.getByRole('link', { name: 'Forgot your password?' });
    await expect(link).toHaveText('Forgot your password?');
    // Measured once the app has taken over the sign-in form painted before its code.
    await expect(page.locator('#boot')).toHaveCount(0);
    await expect.poll(async () => (await link.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await expect.poll(async () => (await link.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(44);
    await expectTouchTargets(page, 'sign-in');
  });

  test('returns to the page that was asked for, then logs out', async ({ page }) => {
    await page.goto('/pcn?status=SUBMITTED');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Email').fill(OFFICER.email);
    await page.getByLabel('Password').fill(OFFICER.password);
    const button = page.getByRole('button', { name: /Sign(ing)? In/ });
    await button.click();
    await expect(page).toHaveURL(/\/pcn\?status=SUBMITTED$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();

    await page.getByRole('button', { name: /Account menu/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Profile Settings' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('refreshToken')])).toEqual([null, null]);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('refreshes an expired access token without the officer noticing', async ({ page }, testInfo) => {
    await signIn(page);
    // The dashboard's own calls settle first: swapping the token under them would start a
    // refresh that the navigation below aborts after the server has rotated the token.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Olivia!');
    await page.waitForLoadState('networkidle');
    // A well-formed JWT the server did not sign (and long expired): the API answers 401.
    const expired = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4IiwiZXhwIjoxNjAwMDAwMDAwfQ.c2lnbmF0dXJlLW5vdC12YWxpZA';
    const refreshes: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/auth/refresh')) refreshes.push(response.status());
    });
    const readTokens = () => page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('refreshToken')]);

    // On start: the profile call is refused, refreshed once and retried.
    const [, firstRefreshToken] = await readTokens();
    await changeSessionPair(page, { token: expired });
    await page.goto('/pcn');
    await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
    await expect(page).toHaveURL(/\/pcn$/);
    // The screen may show from the kept profile before the refresh's answer is in, and before the
    // new pair is stored.
    await expect.poll(() => refreshes).toEqual([200]);
    await expect.poll(async () => (await readTokens())[0]).not.toBe(expired);
    const [token, secondRefreshToken] = await readTokens();
    expect(token).not.toBe(expired);
    expect(secondRefreshToken).not.toBe(firstRefreshToken);

    // In use: the dashboard's two calls are refused together and share one refresh.
    await changeSessionPair(page, { token: expired });
    const nav = await openNavigation(page, testInfo);
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Olivia!');
    await expect(page.locator('.stat', { hasText: 'Total PCNs' }).locator('dd')).not.toHaveText('–');
    await expect(page.getByText('Loading...')).toHaveCount(0);
    await expect(page.getByText(/Failed|Please sign in/)).toHaveCount(0);
    expect(refreshes).toEqual([200, 200]);
    expect((await readTokens())[1]).not.toBe(secondRefreshToken);
  });

  test('a refused refresh sends the browser to sign in, remembering the page', async ({ page }) => {
    await signIn(page);
    await changeSessionPair(page, { token: 'not-a-token', refreshToken: 'revoked-or-unknown' });
    await page.goto('/pcn');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('refreshToken')])).toEqual([null, null]);
  });
});

test('unknown paths lead to the start page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/dashboard$/);
});
