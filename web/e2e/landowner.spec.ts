import type { Page } from '@playwright/test';
import { ADMIN, expect, signIn, snap, test } from './fixtures.ts';
import { apiToken, bearer, createCarPark, createOfficer, createPcnThroughApi, uniqueSuffix } from './admin-support.ts';

/**
 * A landowner's screens (decision 0042): the landowner adds a permit to their car park and asks
 * that one of its charges be cancelled; the admin approves it from the review; the monthly
 * report's figures are those of the notices.
 */
test.skip(({ isMobile }) => isMobile, 'The desktop journey; the screens are the same on a phone');

async function reportFigure(page: Page, label: string) {
  return page.locator(`dd[data-figure="${label}"]`);
}

test('a landowner adds a permit and requests a cancellation, the admin approves it, and the report counts the notices', async ({
  page,
  browser,
}, testInfo) => {
  const adminToken = await apiToken(page.request, ADMIN);
  const carParkName = `Quayside ${uniqueSuffix()}`;
  const carParkId = await createCarPark(page.request, adminToken, carParkName);
  const officer = await createOfficer(page.request, adminToken, 'Lando', [carParkId]);
  const officerToken = await apiToken(page.request, officer);
  const landowner = { email: `landowner-${uniqueSuffix().toLowerCase()}@example.com`, password: 'landowner-pass-1' };
  const created = await page.request.post('/api/users', {
    headers: bearer(adminToken),
    data: { ...landowner, firstName: 'Lena', lastName: 'Land', role: 'LANDOWNER', carParkIds: [carParkId] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const first = await createPcnThroughApi(page.request, officerToken, { registration: `LA${uniqueSuffix()}`.slice(0, 10), carParkId });
  const second = await createPcnThroughApi(page.request, officerToken, { registration: `LB${uniqueSuffix()}`.slice(0, 10), carParkId });

  // The landowner lands on their car parks; an officer's address takes them back there.
  await signIn(page, landowner);
  await expect(page).toHaveURL(/\/landowner$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My car parks' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['My car parks', 'Profile']);
  await page.goto('/pcn/new');
  await expect(page).toHaveURL(/\/landowner$/);
  await page.getByRole('link', { name: carParkName }).click();
  await expect(page.getByRole('heading', { level: 1, name: carParkName })).toBeVisible();

  // A permit, with P1's panel in the landowner's screen.
  await page.getByRole('tab', { name: 'Permits' }).click();
  const permitRegistration = `PM${uniqueSuffix()}`.slice(0, 8);
  await page.getByLabel('Vehicle registration').fill(permitRegistration);
  await page.getByLabel('Kind').selectOption({ label: 'Staff' });
  await page.getByRole('button', { name: 'Add permit' }).click();
  await expect(page.getByText(permitRegistration).first()).toBeVisible();

  // Both charges, without the motorist; a request to cancel the first.
  await page.getByRole('tab', { name: 'Charges' }).click();
  const charges = page.getByRole('list', { name: 'Charges' });
  await expect(charges.getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: `Request cancellation of PCN-${first.pcnNumber}` }).click();
  const dialog = page.getByRole('dialog', { name: `Request cancellation: PCN-${first.pcnNumber}` });
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog.getByText('Say why the charge should be cancelled')).toBeVisible();
  await dialog.getByLabel('Why should this charge be cancelled?').fill('Our new tenant, not yet on the permit list');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Request sent: an admin will decide' })).toBeVisible();
  await expect(charges.locator(`[data-pcn="${first.pcnNumber}"]`)).toContainText('Waiting for an admin');
  await snap(page, testInfo, 'landowner-charges');

  // The admin approves it from the review.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, ADMIN);
  // The admin's dashboard says a request waits, and leads to the charges it waits on.
  await adminPage.goto('/admin/dashboard');
  const waiting = adminPage.getByRole('region', { name: 'Cancellation requests' });
  await expect(waiting.locator('.highlight-stat__value')).not.toHaveText('0');
  await waiting.getByRole('link', { name: 'Answer cancellation requests' }).click();
  await expect(adminPage).toHaveURL(/cancellationRequest=PENDING/);
  await expect(adminPage.getByRole('main')).toContainText(first.pcnNumber);
  await adminPage.goto(`/admin/pcns?review=${first.id}`);
  const requests = adminPage.getByRole('region', { name: 'Cancellation requests' });
  await expect(requests).toContainText('Our new tenant, not yet on the permit list');
  await requests.getByRole('button', { name: 'Approve and cancel the charge' }).click();
  await expect(requests.getByText('Give the reason for your decision')).toBeVisible();
  await requests.getByLabel('Reason for your decision').fill('Tenant confirmed by the landowner');
  await requests.getByRole('button', { name: 'Approve and cancel the charge' }).click();
  await expect(requests).toContainText('Approved: charge cancelled');
  await expect(adminPage.getByRole('region', { name: 'Details' })).toContainText(
    'Landowner request: Our new tenant, not yet on the permit list',
  );
  await adminContext.close();

  // The landowner sees the answer, and the month's report counts the notices as they stand.
  await page.reload();
  await expect(charges.locator(`[data-pcn="${first.pcnNumber}"]`)).toContainText(
    'Approved: charge cancelled: Tenant confirmed by the landowner',
  );
  await expect(charges.locator(`[data-pcn="${second.pcnNumber}"]`).getByRole('button', { name: /Request cancellation/ })).toBeVisible();
  await page.getByRole('tab', { name: 'Monthly report' }).click();
  const landownerToken = await apiToken(page.request, landowner);
  const listed = (await (
    await page.request.get(`/api/car-parks/${carParkId}/charges?page=1&limit=50`, { headers: bearer(landownerToken) })
  ).json()) as { data: { charges: Array<{ status: string }> } };
  await expect(await reportFigure(page, 'Notices issued')).toHaveText(String(listed.data.charges.length));
  await expect(await reportFigure(page, 'Notices issued')).toHaveText('2');
  await expect(await reportFigure(page, 'Cancelled')).toHaveText(
    String(listed.data.charges.filter((c) => c.status === 'CANCELLED').length),
  );
  await expect(await reportFigure(page, 'Cancelled')).toHaveText('1');
  await expect(await reportFigure(page, 'Permits in force')).toHaveText('1');
  const cancelledChart = page.getByRole('region', { name: 'Cancelled, and why' });
  await expect(cancelledChart.getByRole('img')).toContainText('Landowner request');
  await page.getByRole('button', { name: 'Show as table' }).click();
  await expect(page.getByRole('row', { name: /Cancelled Landowner request 1/ })).toBeVisible();
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^monthly-report-.+-\d{4}-\d{2}\.csv$/);
  await snap(page, testInfo, 'landowner-report');
});
