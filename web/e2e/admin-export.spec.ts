import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';
import { apiToken, createPcnThroughApi, uniqueSuffix } from './admin-support.ts';

/** 'Export CSV' downloads exactly what Manage PCNs shows, every page of it. */
test.skip(({ isMobile }) => isMobile, 'Admin screens are desktop first; the phone layout is covered in admin-access.spec.ts');

test('an admin exports the filtered PCNs as CSV and the file equals the table', async ({ page }, testInfo) => {
  const prefix = `XP${uniqueSuffix().slice(-5)}`;
  const officerToken = await apiToken(page.request, OFFICER);
  const made = [];
  for (const n of [1, 2, 3])
    made.push(
      await createPcnThroughApi(page.request, officerToken, {
        registration: `${prefix}${n}`,
        description: n === 2 ? '=cmd|calc' : 'Across two bays',
      }),
    );

  await signIn(page, ADMIN);
  await page.goto('/admin/pcns');
  await page.getByRole('searchbox', { name: 'Search' }).fill(prefix.toLowerCase());
  await expect(page).toHaveURL(new RegExp(`search=${prefix.toLowerCase()}`));
  const rows = page.getByRole('row').filter({ hasText: prefix });
  await expect(rows).toHaveCount(3);
  const shown = (await rows.allTextContents()).map((text) => /PCN-\d+/.exec(text)?.[0]);
  await expectNoSeriousAxeViolations(page, 'Manage PCNs with Export CSV');
  await snap(page, testInfo, 'manage-pcns-export');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^pcns-\d{4}-\d{2}-\d{2}\.csv$/);
  const records = parse(readFileSync(await download.path()), { columns: true, bom: true }) as Array<Record<string, string>>;
  expect(records.map((record) => record['PCN number'])).toEqual(shown);
  expect(new Set(records.map((record) => record['Vehicle registration']))).toEqual(new Set(made.map((_, i) => `${prefix}${i + 1}`)));
  // A spreadsheet never runs a cell as a formula.
  expect(records.find((record) => record['Vehicle registration'] === `${prefix}2`)?.Description).toBe("'=cmd|calc");
});
