import { ADMIN, expect, expectNoSeriousAxeViolations, isPhone, openNavigation, signIn, snap, test } from './fixtures.ts';

// Sign-in lands on the dashboard, so it is visited last to see a real navigation to it.
const MAIN_ENTRIES = [
  { label: 'New PCN', path: '/pcn/new', heading: 'Submit New PCN' },
  { label: 'My PCNs', path: '/pcn', heading: 'My PCNs' },
  // The profile screen has its own journeys; only its presence is checked here.
  { label: 'Profile', path: '/profile', heading: null },
  { label: 'Dashboard', path: '/dashboard', heading: 'Welcome back, Olivia!' },
];

test('every menu entry leads to its screen, with its title and the entry highlighted', async ({ page }, testInfo) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  const nav = await openNavigation(page, testInfo);
  await expect(nav.getByText('ParkPatrol Self Ticketing')).toBeVisible();
  await expect(nav.getByText('Administration')).toHaveCount(0);
  if (isPhone(testInfo)) await page.keyboard.press('Escape');

  for (const entry of MAIN_ENTRIES) {
    const navigation = await openNavigation(page, testInfo);
    await navigation.getByRole('link', { name: entry.label }).click();
    // A new notice gets its draft id in the URL at once, so a reload resumes it.
    await expect(page).toHaveURL(new RegExp(`${entry.path}(\\?draft=[0-9a-f-]{36})?$`));
    if (isPhone(testInfo)) {
      // The drawer closes after navigating.
      await expect(page.getByRole('dialog', { name: 'Navigation' })).toHaveCount(0);
    }
    await expect(page.locator('.topbar__title')).toHaveText(entry.label);
    if (entry.heading) await expect(page.getByRole('heading', { level: 1 })).toHaveText(entry.heading);
    // Focus moves to the new screen's heading; a new notice's to its first field, the
    // registration, with the keyboard up (its label says where the officer is).
    if (entry.path === '/pcn/new') await expect(page.getByLabel('Vehicle registration')).toBeFocused();
    else await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    const again = await openNavigation(page, testInfo);
    await expect(again.getByRole('link', { name: entry.label })).toHaveAttribute('aria-current', 'page');
    if (isPhone(testInfo)) {
      await snap(page, testInfo, 'drawer');
      await page.getByRole('button', { name: 'Close navigation' }).click();
    }
  }
  // The account menu by keyboard: focus goes in, arrows move, Escape gives it back.
  const accountButton = page.getByRole('button', { name: /Account menu/ });
  await accountButton.focus();
  await page.keyboard.press('Enter');
  await expect(accountButton).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('menuitem', { name: 'Profile Settings' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(accountButton).toBeFocused();
  await accountButton.click();
  await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await snap(page, testInfo, 'profile');
  await expectNoSeriousAxeViolations(page, 'profile');
});

test('an officer sees Access Denied on the admin area', async ({ page }, testInfo) => {
  await signIn(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText("You don't have permission to access this page.")).toBeVisible();
  await snap(page, testInfo, 'access-denied');
  await expectNoSeriousAxeViolations(page, 'access denied');
  await page.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an admin sees the Administration group and the admin area', async ({ page }, testInfo) => {
  await signIn(page, ADMIN);
  // Signed in with nowhere asked for, an admin lands on the Admin Dashboard (docs/decisions/0020).
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const fullLabels = await page
    .locator('.side-nav__link span')
    .evaluateAll((spans) =>
      spans.filter((span) => span.getClientRects().length > 0 && span.scrollWidth > span.clientWidth).map((span) => span.textContent),
    );
  expect(fullLabels, 'navigation labels shown whole').toEqual([]);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.locator('.topbar__title')).toHaveText('Admin Dashboard');
  const nav = await openNavigation(page, testInfo);
  await expect(nav.getByText('Administration')).toBeVisible();
  for (const label of ['Admin Dashboard', 'Manage PCNs', 'Manage Users', 'Manage Car Parks']) {
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  }
  await nav.getByRole('link', { name: 'Manage Users' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.locator('.topbar__title')).toHaveText('Manage Users');

  // My PCNs is the admin's own (they filed none), whoever else filed notices.
  await page.goto('/pcn');
  await expect(page.getByText("You haven't submitted any PCNs yet.")).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.locator('.stat', { hasText: 'Total PCNs' }).locator('dd')).toHaveText('0');
});
