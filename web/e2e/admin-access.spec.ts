import { ADMIN, expect, expectNoSeriousAxeViolations, isPhone, OFFICER, signIn, snap, test } from './fixtures.ts';
import { apiToken, bearer, createPcnThroughApi, searchAdminList, uniqueSuffix } from './admin-support.ts';

const ADMIN_SCREENS = [
  { path: '/admin/dashboard', heading: 'Admin Dashboard' },
  { path: '/admin/pcns', heading: 'Manage PCNs' },
  { path: '/admin/users', heading: 'Manage Users' },
  { path: '/admin/car-parks', heading: 'Manage Car Parks' },
  { path: '/admin/onboarding', heading: 'Client Onboarding' },
  { path: '/admin/analytics', heading: 'Analytics Dashboard' },
];

/** Every endpoint only an admin may call (docs/product.md, Who may see what); a USER gets 403 from each. */
const ADMIN_ENDPOINTS: Array<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; data?: unknown }> = [
  { method: 'GET', path: '/api/users' },
  { method: 'POST', path: '/api/users', data: { firstName: 'Eve', lastName: 'Sneak', email: 'eve@example.com' } },
  { method: 'PUT', path: '/api/users/any-id', data: { firstName: 'Eve' } },
  { method: 'DELETE', path: '/api/users/any-id' },
  { method: 'GET', path: '/api/car-parks/all' },
  { method: 'POST', path: '/api/car-parks', data: { name: 'Sneaky', siteCode: 'SNK1' } },
  { method: 'PUT', path: '/api/car-parks/any-id', data: { name: 'Sneaky' } },
  { method: 'DELETE', path: '/api/car-parks/any-id' },
  { method: 'POST', path: '/api/car-parks/any-id/assign-user', data: { userId: 'any-id' } },
  { method: 'DELETE', path: '/api/car-parks/any-id/unassign-user', data: { userId: 'any-id' } },
  { method: 'GET', path: '/api/tracking/admin/analytics' },
  { method: 'GET', path: '/api/tracking/admin/users' },
  { method: 'POST', path: '/api/onboarding/send/any-id', data: {} },
  { method: 'POST', path: '/api/onboarding/send-bulk', data: { userIds: ['any-id'] } },
];

test('a USER gets Access Denied on every admin route and 403 from every admin endpoint', async ({ page }, testInfo) => {
  test.skip(isPhone(testInfo), 'Roles do not depend on the screen size; the desktop run covers it');
  const token = await apiToken(page.request, OFFICER);
  for (const endpoint of ADMIN_ENDPOINTS) {
    const response = await page.request.fetch(endpoint.path, {
      method: endpoint.method,
      headers: bearer(token),
      ...(endpoint.data ? { data: endpoint.data } : {}),
    });
    expect(response.status(), `${endpoint.method} ${endpoint.path}`).toBe(403);
  }

  const requested: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/.*(admin|onboarding|analytics|manage-)/.test(request.url())) requested.push(request.url());
  });
  // The officer's own path never fetches an admin screen's code or styles.
  await signIn(page, OFFICER);
  for (const path of ['/dashboard', '/pcn', '/pcn/new', '/profile']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  expect(requested).toEqual([]);

  for (const screen of [{ path: '/admin' }, ...ADMIN_SCREENS]) {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: 'Access Denied' })).toBeVisible();
    await expect(page.getByText("You don't have permission to access this page.")).toBeVisible();
  }
});

test('every admin screen passes axe and fits a phone', async ({ page }, testInfo) => {
  // Six screens with a full axe run each, on two shared cores.
  test.setTimeout(120_000);
  await signIn(page, ADMIN);
  for (const screen of ADMIN_SCREENS) {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
    // Wait for the screen's data: no spinner or progress bar left.
    await expect(page.locator('.spinner, .progress')).toHaveCount(0);
    if (isPhone(testInfo)) {
      // Wide tables scroll inside their own box; the page itself never scrolls sideways.
      const width = page.viewportSize()!.width;
      expect(await page.evaluate(() => document.documentElement.scrollWidth), screen.path).toBeLessThanOrEqual(width);
      await snap(page, testInfo, screen.path.split('/').pop()!);
    } else {
      await expectNoSeriousAxeViolations(page, screen.heading);
    }
  }
});

test('the admin dialogs and the second analytics tab pass axe', async ({ page }, testInfo) => {
  test.skip(isPhone(testInfo), 'Desktop first: the phone run checks the layout of each screen above');
  await signIn(page, ADMIN);
  await page.goto('/admin/analytics');
  await page.getByRole('tab', { name: 'Recent Activity' }).click();
  await expect(page.getByRole('list', { name: 'Recent Activity' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recent Activity' }).getByText('LOGIN').first()).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'Recent Activity');

  await page.goto('/admin/users');
  // Other specs add users and car parks: each row is found by searching, as an admin would.
  await searchAdminList(page, 'Olivia');
  await page.getByRole('button', { name: 'Actions for Olivia Officer' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit user' });
  await expect(edit.getByLabel('First name')).toHaveValue('Olivia');
  await expectNoSeriousAxeViolations(page, 'edit user dialog');
  await page.keyboard.press('Escape');
  await expect(edit).toHaveCount(0);

  await page.getByRole('button', { name: 'Actions for Olivia Officer' }).click();
  await page.getByRole('menuitem', { name: 'Assign car parks' }).click();
  const carParks = page.getByRole('dialog', { name: 'Car parks for Olivia Officer' });
  await expect(carParks.getByRole('checkbox', { name: /Riverside Retail Park/ })).toBeChecked();
  await expect(carParks.getByRole('checkbox', { name: /Hospital Visitor Car Park/ })).not.toBeChecked();
  await expectNoSeriousAxeViolations(page, 'user car parks dialog');
  await carParks.getByRole('button', { name: 'Cancel' }).click();

  await searchAdminList(page, 'Sam');
  await page.getByRole('button', { name: 'Actions for Sam Steward' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete user' });
  await expect(confirm).toContainText('This cannot be undone.');
  await expectNoSeriousAxeViolations(page, 'delete user confirmation');
  await confirm.getByRole('button', { name: 'Keep user' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'sam@example.com' })).toBeVisible();

  // A car park with PCNs cannot be deleted: the refusal is shown and deactivating is offered.
  const officerToken = await apiToken(page.request, OFFICER);
  const officerParks = (await (await page.request.get('/api/car-parks', { headers: bearer(officerToken) })).json()) as {
    data: Array<{ id: string; name: string }>;
  };
  const used = officerParks.data[0]!;
  await createPcnThroughApi(page.request, officerToken, { registration: `CP${uniqueSuffix()}`.slice(0, 10), carParkId: used.id });
  await page.goto('/admin/car-parks');
  await searchAdminList(page, used.name);
  await page.getByRole('button', { name: `Actions for ${used.name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const deleteCarPark = page.getByRole('alertdialog', { name: 'Delete car park' });
  await deleteCarPark.getByRole('button', { name: 'Delete car park' }).click();
  await expect(deleteCarPark.getByRole('alert')).toHaveText('This car park has PCNs and cannot be deleted. Deactivate it instead.');
  await expect(deleteCarPark.getByRole('button', { name: 'Deactivate instead' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'delete car park refused');
  // Deactivating it would take it from the officer other specs sign in as.
  await deleteCarPark.getByRole('button', { name: 'Keep car park' }).click();
  await expect(page.getByRole('row').filter({ hasText: used.name })).toContainText('Active');
});
