import { ADMIN, apiToken, createCarPark, createOfficer, uniqueSuffix } from './admin-support.ts';
import { expect, signIn, test } from './fixtures.ts';

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
