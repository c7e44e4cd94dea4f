import { addDays, ukDate } from '@parkpatrol/shared';
import { apiToken, bearer, createPcnThroughApi, firstCarParkId, searchAdminList, uniqueSuffix } from './admin-support.ts';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';

/**
 * A UK product on a browser set to the US: every date reads en-GB on the UK clock, and a date
 * field reads and takes dd/mm/yyyy, whatever the device's language and zone.
 */
test.skip(({ isMobile }) => isMobile, 'Admin screens are desktop first; the phone layout is covered in admin-access.spec.ts');
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

/** What the UK clock reads, computed here apart from the app's own formatting. */
const onUkClock = (at: Date, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hourCycle: 'h23', ...options }).format(at);
const typed = (isoDay: string) => isoDay.split('-').reverse().join('/');

test('an admin on an en-US browser in New York reads the list, the detail and the filter in UK dates', async ({ page }, testInfo) => {
  const registration = `UKD${uniqueSuffix().slice(-5)}`;
  const pcn = await createPcnThroughApi(page.request, await apiToken(page.request, OFFICER), { registration });
  const adminToken = await apiToken(page.request, ADMIN);
  const made = (await (await page.request.get(`/api/pcns/${pcn.id}`, { headers: bearer(adminToken) })).json()) as {
    data: { createdAt: string };
  };
  const at = new Date(made.data.createdAt);
  const day = onUkClock(at, { day: '2-digit', month: 'short', year: 'numeric' });
  const time = onUkClock(at, { hour: '2-digit', minute: '2-digit' });
  const today = ukDate(at);

  await signIn(page, ADMIN);
  // The browser really is American: its own formatting would write 'Nov 28, 2026, 02:55 AM'.
  expect(await page.evaluate(() => [navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone])).toEqual([
    'en-US',
    'America/New_York',
  ]);

  // The list: the day and the UK time, no AM or PM.
  await page.goto('/admin/pcns');
  await searchAdminList(page, registration);
  const row = page.getByRole('row').filter({ hasText: registration });
  await expect(row).toContainText(day);
  await expect(row).toContainText(time);
  await expect(row).not.toContainText(/\b(AM|PM)\b/);

  // The date filter reads and takes dd/mm/yyyy; the address keeps the ISO day.
  const from = page.getByLabel('From');
  await expect(from).toHaveAttribute('placeholder', 'dd/mm/yyyy');
  await expect(from).toHaveAttribute('type', 'text');
  await from.fill(typed(addDays(today, 1)));
  await expect(page).toHaveURL(new RegExp(`from=${addDays(today, 1)}`));
  await expect(row).toHaveCount(0);
  await from.fill(typed(today));
  await expect(page).toHaveURL(new RegExp(`from=${today}`));
  await expect(row).toContainText(day);
  await expect(from).toHaveValue(typed(today));
  // Not a day, or a day in another order: said beside the field once left, and the list unfiltered.
  for (const wrong of ['31/02/2026', '2026-12-31']) {
    await from.fill(wrong);
    await from.blur();
    await expect(from).toHaveValue(wrong);
    await expect(page.getByText('Enter the date as dd/mm/yyyy, like 31/12/2026')).toBeVisible();
    await expect(from).toHaveAttribute('aria-invalid', 'true');
    await expect(page).not.toHaveURL(/from=/);
  }
  await expectNoSeriousAxeViolations(page, 'Manage PCNs with a date filter that is not a day');
  await snap(page, testInfo, 'uk-dates-filter');
  await from.fill(typed(today));
  await expect(page.getByText('Enter the date as dd/mm/yyyy, like 31/12/2026')).toHaveCount(0);
  await expect(row).toContainText(time);

  // The detail: submitted at the UK day and time.
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  const submitted = page.locator('dt', { hasText: /^Submitted$/ }).locator('xpath=following-sibling::dd[1]');
  await expect(submitted).toHaveText(`${day}, ${time}`);
  await snap(page, testInfo, 'uk-dates-detail');
});

test('the last day of a permit is typed dd/mm/yyyy on an en-US browser; the US order is refused beside the field', async ({
  page,
}, testInfo) => {
  const registration = `UKP${uniqueSuffix().slice(-5)}`;
  const carParkId = await firstCarParkId(page.request, await apiToken(page.request, ADMIN));
  await signIn(page, ADMIN);
  await page.goto(`/admin/car-parks/${carParkId}/permits`);
  const form = page.getByRole('form', { name: 'Add a permit' });
  await form.getByLabel('Vehicle registration').fill(registration);
  const until = form.getByLabel('Valid until');
  await expect(until).toHaveAttribute('placeholder', 'dd/mm/yyyy');
  // Month first, as the browser's own date input would take it: not a day here, and nothing is added.
  await until.fill('12/31/2099');
  await form.getByRole('button', { name: 'Add permit' }).click();
  await expect(form.getByText('Enter the date as dd/mm/yyyy, like 31/12/2026')).toBeVisible();
  await expect(page.getByText(registration)).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'a permit with a last day in the US order');
  await until.fill('31/12/2099');
  await form.getByRole('button', { name: 'Add permit' }).click();
  const row = page.getByRole('row').filter({ hasText: registration });
  await expect(row).toContainText('to 31 Dec 2099');
  await snap(page, testInfo, 'uk-dates-permit');
});
