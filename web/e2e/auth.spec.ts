import { expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';

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
    await page.goBack();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
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

  test('refreshes an expired access token without the officer noticing', async ({ page }) => {
    await signIn(page);
    const before = await page.evaluate(() => localStorage.getItem('refreshToken'));
    // A well-formed JWT the server did not sign (and long expired): the API answers 401.
    const expired =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4IiwiZXhwIjoxNjAwMDAwMDAwfQ.c2lnbmF0dXJlLW5vdC12YWxpZA';
    await page.evaluate((token) => localStorage.setItem('token', token), expired);
    const refreshes: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/auth/refresh')) refreshes.push(response.status());
    });
    await page.goto('/pcn');
    await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
    await expect(page).toHaveURL(/\/pcn$/);
    await expect(page.getByText(/Failed|Please sign in/)).toHaveCount(0);
    expect(refreshes).toEqual([200]);
    const after = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('refreshToken')]);
    expect(after[0]).not.toBe(expired);
    expect(after[1]).not.toBe(before);
  });

  test('a refused refresh sends the browser to sign in, remembering the page', async ({ page }) => {
    await signIn(page);
    await page.evaluate(() => {
      localStorage.setItem('token', 'not-a-token');
      localStorage.setItem('refreshToken', 'revoked-or-unknown');
    });
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
