import type { Page } from '@playwright/test';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, test } from './fixtures.ts';
import { apiToken, bearer, createCarPark, createPcnThroughApi, searchAdminList, uniqueSuffix } from './admin-support.ts';

/**
 * The back office at a glance on a laptop's screen (1366 x 768): each car park's charge, land and
 * stay rules in its row, its terms' history, an admin's whole navigation without scrolling it
 * (groups that fold, remembered), and table checkboxes big enough to hit.
 */

const LAPTOP = { width: 1366, height: 768 } as const;
const UK_DATE_TIME = /^\d{2}:\d{2} on (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day \d{1,2} [A-Z][a-z]+ \d{4}$/;

test.describe('the back office at 1366 x 768', () => {
  test.skip(({ isMobile }) => isMobile, 'a laptop screen');
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(LAPTOP);
  });

  test("Manage Car Parks shows each car park's terms, and its terms' history newest first", async ({ page, request }, testInfo) => {
    const token = await apiToken(request, ADMIN);
    const name = `Harbour Quay ${uniqueSuffix()}`;
    const id = await createCarPark(request, token, name, { chargePence: 10_000, reducedChargePence: 6_000, reducedWithinDays: 14 });
    const moved = await request.put(`/api/car-parks/${id}`, {
      headers: bearer(token),
      data: { jurisdiction: 'SCOTLAND', graceMinutes: 15, stayAppliesByDefault: true },
    });
    expect(moved.status(), await moved.text()).toBe(200);

    await signIn(page, ADMIN);
    await page.goto('/admin/car-parks');
    await searchAdminList(page, name);
    const grid = page.getByRole('grid', { name: 'Car parks' });
    for (const column of ['Name', 'Site code', 'Status', 'Charge', 'Where the land is', 'Stay rules', 'Assigned users']) {
      await expect(grid.getByRole('columnheader', { name: column })).toBeVisible();
    }
    const row = grid.getByRole('row').filter({ hasText: name });
    await expect(row.getByRole('gridcell').filter({ hasText: '£100' })).toContainText('£60 if paid within 14 days');
    await expect(row.getByRole('gridcell').filter({ hasText: 'Scotland' })).toContainText('Relevant land');
    const stay = row.getByRole('gridcell').filter({ hasText: 'consideration' });
    await expect(stay).toContainText('5 min consideration + 15 min grace');
    await expect(stay).toContainText('Stay applies by default');
    const widths = await page.evaluate(() => {
      const box = document.querySelector('.admin-table-scroll')!;
      return { box: box.scrollWidth - box.clientWidth, page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
    });
    expect(widths, 'no sideways scroll').toEqual({ box: 0, page: 0 });
    await expectNoSeriousAxeViolations(page, 'Manage Car Parks');

    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Terms history' }).click();
    const dialog = page.getByRole('dialog', { name: `Terms history: ${name}` });
    const changes = dialog.locator('.terms-history > li');
    // Created, then the charge set, then the land and the stay rules: newest first.
    await expect(changes).toHaveCount(3);
    await expect(changes.nth(0)).toContainText('Where the land is: England and Wales → Scotland');
    await expect(changes.nth(0)).toContainText('Grace period: 10 min → 15 min');
    await expect(changes.nth(0)).toContainText('A stay applies by default: No → Yes');
    await expect(changes.nth(1)).toContainText('Charge: set to £100');
    await expect(changes.nth(1)).toContainText('Reduced if paid within: set to 14 days');
    await expect(changes.nth(2)).toContainText('Where the land is: set to England and Wales');
    for (const change of await changes.all()) {
      await expect(change.locator('p')).toContainText(' by Ada Admin');
      expect(await change.locator('p strong').textContent()).toMatch(UK_DATE_TIME);
    }
    await page.screenshot({ path: testInfo.outputPath('terms-history-1366x768.png') });
    await expectNoSeriousAxeViolations(page, 'the terms history');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test("an admin's whole navigation fits without scrolling it; its groups fold, stay folded and keep the current entry", async ({
    page,
  }, testInfo) => {
    await signIn(page, ADMIN);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = nav.getByRole('link');
    await expect(links).toHaveCount(15);
    await expect(links.last()).toBeInViewport({ ratio: 1 });
    const sidebar = await page.locator('.shell__sidebar').evaluate((aside) => ({ scroll: aside.scrollHeight, client: aside.clientHeight }));
    expect(sidebar.scroll, 'the navigation does not scroll').toBeLessThanOrEqual(sidebar.client);
    await page.screenshot({ path: testInfo.outputPath('navigation-1366x768.png') });
    await expectNoSeriousAxeViolations(page, 'the navigation');

    // Folded by keyboard: a disclosure button says whether its group is open.
    const after = nav.getByRole('button', { name: 'After the notice' });
    await expect(after).toHaveAttribute('aria-expanded', 'true');
    await after.focus();
    await page.keyboard.press('Enter');
    await expect(after).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Notices to Keeper' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Appeals' })).toHaveCount(0);

    // Remembered on the device; the current screen's entry still shows in its folded group.
    await page.goto('/admin/appeals');
    await expect(after).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Appeals' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Appeals' })).toBeInViewport();
    await expect(nav.getByRole('link', { name: 'Debt recovery' })).toHaveCount(0);

    const administration = nav.getByRole('button', { name: 'Administration' });
    await administration.click();
    await expect(administration).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Manage Users' })).toHaveCount(0);
    await expectNoSeriousAxeViolations(page, 'the navigation folded');

    await after.click();
    await administration.click();
    await page.reload();
    await expect(administration).toHaveAttribute('aria-expanded', 'true');
    await expect(links).toHaveCount(15);
  });

  test('the row checkboxes of Manage PCNs and Manage Users are at least 24 x 24 px to hit', async ({ page, request }) => {
    await createPcnThroughApi(request, await apiToken(request, OFFICER), { registration: `CB${uniqueSuffix().slice(-5)}` });
    await signIn(page, ADMIN);
    for (const path of ['/admin/pcns', '/admin/users']) {
      await page.goto(path);
      await expect(page.locator('.admin-table-scroll[aria-busy="true"]')).toHaveCount(0);
      await expectCheckboxTargets(page, path);
    }
  });

  test('a search typed the moment a filter is chosen keeps the filter', async ({ page }) => {
    await signIn(page, ADMIN);
    await page.goto('/admin/appeals');
    await expect(page.locator('.admin-table-scroll[aria-busy="true"]')).toHaveCount(0);
    const status = await page.getByLabel('Status').elementHandle();
    const search = await page.getByRole('searchbox', { name: 'Search' }).elementHandle();
    // Both in one task, before the router has drawn the first: a fast typist, or a busy phone.
    await page.evaluate(
      ([select, input]) => {
        if (!(select instanceof HTMLSelectElement) || !(input instanceof HTMLInputElement)) throw new Error('not the fields');
        select.value = 'any';
        select.dispatchEvent(new Event('change', { bubbles: true }));
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, 'ZZ99');
        input.dispatchEvent(new Event('input', { bubbles: true }));
      },
      [status, search] as const,
    );
    await expect(page).toHaveURL(/[?&]status=any(&|$)/);
    await expect(page).toHaveURL(/[?&]search=ZZ99(&|$)/);
    await expect(page.getByLabel('Status')).toHaveValue('any');
  });
});

/** Every selection checkbox of the table, by the label a click lands on (the input itself is hidden). */
async function expectCheckboxTargets(page: Page, screen: string) {
  const checkboxes = page.getByRole('grid').first().getByRole('checkbox');
  // 'Select all' and at least one row's, once the rows are drawn.
  await expect(checkboxes.nth(1), `${screen}: checkboxes`).toBeAttached();
  const boxes = await checkboxes.evaluateAll((inputs) =>
    inputs.map((input) => {
      const box = (input.closest('label') ?? input).getBoundingClientRect();
      return { name: input.getAttribute('aria-label'), width: Math.round(box.width), height: Math.round(box.height) };
    }),
  );
  expect(
    boxes.filter((box) => box.width < 24 || box.height < 24),
    `${screen}: checkboxes smaller than 24 x 24`,
  ).toEqual([]);
}
