import { apiToken, createEvidencePcnThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';
import { expect, expectNoSeriousAxeViolations, expectTouchTargets, OFFICER, snap, test } from './fixtures.ts';

/**
 * The motorist's page on a phone, with no sign-in: a wrong registration is told apart from
 * nothing, the right one shows the charge with its photos, what is due and how to pay and appeal.
 */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the motorist looks their charge up on a phone');
});

test('a motorist looks a charge up by reference and registration and sees its photos and what is due', async ({
  page,
  request,
}, testInfo) => {
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const registration = `MC${uniqueSuffix()}`.slice(0, 7).toUpperCase();
  const now = new Date().toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });

  await page.goto(`/charge?ref=PCN-${pcn.pcnNumber}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your parking charge' })).toBeVisible();
  await expect(page.getByLabel('Charge reference')).toHaveValue(`PCN-${pcn.pcnNumber}`);
  await page.getByLabel('Vehicle registration').fill('ZZ99 ZZZ');
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByRole('alert')).toContainText('No charge matches that reference and registration.');

  await page.getByLabel('Vehicle registration').fill(registration.toLowerCase());
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcn.pcnNumber}` })).toBeVisible();
  const due = page.getByRole('region', { name: 'Amount due today' });
  await expect(due).toContainText('£60');
  await expect(due).toContainText(/The reduced amount of £60 applies until \d+ \w+ \d{4}\. After that the full charge of £100 is due\./);
  const photos = page.getByRole('region', { name: 'Photos' }).getByRole('img');
  await expect(photos).toHaveCount(4);
  // Each photo really loads, through its short-lived URL.
  await expect
    .poll(() => photos.evaluateAll((images) => images.filter((image) => (image as HTMLImageElement).naturalWidth > 0).length))
    .toBe(4);
  const appeal = page.getByRole('region', { name: 'How to appeal' });
  await expect(appeal).toContainText(/appeal to .+ by \d+ \w+ \d{4}, online at/);
  await expect(appeal).toContainText('the independent appeals service');
  await expect(page.getByText('Olivia')).toHaveCount(0);
  await snap(page, testInfo, 'motorist-charge');
  await expectTouchTargets(page, 'the motorist’s charge');
  await expectNoSeriousAxeViolations(page, 'the motorist’s charge');

  // Reloaded, the page keeps the charge for this tab.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcn.pcnNumber}` })).toBeVisible();
});
