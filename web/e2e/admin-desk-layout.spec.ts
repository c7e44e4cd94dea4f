import type { Page } from '@playwright/test';
import { ADMIN, expect, OFFICER, signIn, test } from './fixtures.ts';
import {
  apiToken,
  createEvidencePcnThroughApi,
  createPcnThroughApi,
  createUserThroughApi,
  firstCarParkId,
  uniqueSuffix,
} from './admin-support.ts';
import { enterAppealThroughApi } from './entered-appeal.ts';

/**
 * The admin's desk at the widths admins use: every admin table shows all its columns without
 * sideways scroll at 1440 and 1366 px, and becomes cards at 768 px; a notice's review, and an
 * appeal, keep their decision panel in view beside the photos on a desktop and first on a tablet.
 */

const DESKTOPS = [
  { width: 1440, height: 900 },
  { width: 1366, height: 768 },
] as const;
const TABLET = { width: 768, height: 1024 } as const;

const TABLE_SCREENS = [
  { path: '/admin/pcns', name: 'manage-pcns' },
  { path: '/admin/pcns?sort=deadline', name: 'manage-pcns-by-keeper-deadline' },
  { path: '/admin/users', name: 'manage-users' },
  { path: '/admin/car-parks', name: 'manage-car-parks' },
  { path: '/admin/keeper-notices', name: 'keeper-notices' },
  { path: '/admin/appeals', name: 'appeals' },
  { path: '/admin/onboarding', name: 'client-onboarding' },
] as const;

test.describe('the admin desk fits its screens', () => {
  test.skip(({ isMobile }) => isMobile, 'sets its own desktop and tablet sizes');
  /** An open appeal against a notice with four photos: its view has the decision beside photo 4. */
  let appealId = '';

  test.beforeAll(async ({ request }) => {
    // A notice with four photos, so Manage PCNs has a row and the review has photo 4.
    const officerToken = await apiToken(request, OFFICER);
    await createPcnThroughApi(request, officerToken, { registration: 'FT26 DSK' });
    const now = new Date().toISOString();
    const appealed = await createEvidencePcnThroughApi(request, officerToken, {
      registration: `FT${uniqueSuffix().slice(-5)}`,
      carParkId: await firstCarParkId(request, officerToken),
      observedAt: now,
      issuedAt: now,
    });
    appealId = (
      await enterAppealThroughApi(request, await apiToken(request, ADMIN), appealed, { name: 'Dara Desk', email: 'dara@example.com' })
    ).id;
    // Long names and an email with nowhere to break: the users' and onboarding tables must still fit.
    const suffix = uniqueSuffix().toLowerCase();
    await createUserThroughApi(request, await apiToken(request, ADMIN), {
      firstName: 'Bartholomew-Maximilian',
      lastName: `Featherstonehaugh${suffix}`,
      email: `bartholomew.maximilian.featherstonehaugh.${suffix}@parking-enforcement-example.co.uk`,
    });
  });

  for (const size of [...DESKTOPS, TABLET]) {
    test(`every admin table at ${size.width} x ${size.height}: all columns without sideways scroll${size.width <= 768 ? ', rows as cards' : ''}`, async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(size);
      await signIn(page, ADMIN);
      for (const screen of TABLE_SCREENS) {
        await page.goto(screen.path);
        const table = page.getByRole('grid').first();
        await expect(table).toBeVisible();
        await expect(page.locator('.admin-table-scroll[aria-busy="true"]')).toHaveCount(0);
        const widths = await page.evaluate(() => {
          const box = document.querySelector('.admin-table-scroll')!;
          return {
            box: { scroll: box.scrollWidth, client: box.clientWidth },
            page: { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth },
          };
        });
        expect.soft(widths.box.scroll, `${screen.name}: the table's box scrolls sideways`).toBeLessThanOrEqual(widths.box.client);
        expect.soft(widths.page.scroll, `${screen.name}: the page scrolls sideways`).toBeLessThanOrEqual(widths.page.client);
        const headerShown = await page.locator('.admin-table thead').evaluate((head) => head.getBoundingClientRect().height > 1);
        expect
          .soft(headerShown, `${screen.name}: column headers ${size.width <= 768 ? 'hidden for cards' : 'shown'}`)
          .toBe(size.width > 768);
        await page.screenshot({ path: testInfo.outputPath(`${screen.name}-${size.width}x${size.height}.png`), fullPage: true });
      }
    });
  }

  for (const size of [...DESKTOPS, TABLET]) {
    test(`a row opens its review at ${size.width} x ${size.height}; the decision panel is ${size.width <= 768 ? 'first' : 'in view beside photo 4'}`, async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(size);
      await signIn(page, ADMIN);
      await page.goto('/admin/pcns?search=FT26');
      const row = page.getByRole('row').filter({ hasText: 'FT26DSK' }).first();
      await row.getByRole('gridcell').nth(2).click();
      await expect(page).toHaveURL(/[?&]review=/);
      await reviewLayout(page, size.width, testInfo.outputPath(`review-${size.width}x${size.height}.png`));

      // And by keyboard: back to the list, focus the row, Enter.
      await page.goBack();
      const again = page.getByRole('row').filter({ hasText: 'FT26DSK' }).first();
      await again.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/[?&]review=/);
    });
  }

  for (const size of [...DESKTOPS, TABLET]) {
    test(`an appeal at ${size.width} x ${size.height}: the decision panel is ${size.width <= 768 ? 'first' : 'in the first view, and in view beside photo 4'}`, async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(size);
      await signIn(page, ADMIN);
      await page.goto(`/admin/appeals/${appealId}`);
      await expect(page.getByRole('heading', { level: 1, name: /^Appeal APL-/ })).toBeVisible();
      if (size.width > 768) await expect(page.getByRole('region', { name: 'Decision', exact: true })).toBeInViewport();
      await reviewLayout(page, size.width, testInfo.outputPath(`appeal-${size.width}x${size.height}.png`));
    });
  }
});

async function reviewLayout(page: Page, width: number, screenshot: string) {
  const decision = page.getByRole('region', { name: 'Decision', exact: true });
  await expect(decision).toBeVisible();
  const photos = page.locator('.evidence-large img');
  await expect(photos).toHaveCount(4);
  if (width <= 768) {
    const [panel, firstPhoto] = await Promise.all([decision.boundingBox(), photos.first().boundingBox()]);
    expect(panel!.y, 'the decision comes before the photos on a tablet').toBeLessThan(firstPhoto!.y);
  } else {
    await photos.nth(3).scrollIntoViewIfNeeded();
    await expect(photos.nth(3)).toBeInViewport();
    await expect(decision).toBeInViewport();
    const [panel, photo] = await Promise.all([decision.boundingBox(), photos.nth(3).boundingBox()]);
    expect(panel!.x, 'the decision sits beside the photos').toBeGreaterThan(photo!.x + photo!.width - 1);
  }
  await page.screenshot({ path: screenshot });
}
