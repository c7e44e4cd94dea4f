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
  // The file says what it holds: the search, and the day on the UK calendar.
  expect(download.suggestedFilename()).toMatch(new RegExp(`^pcns-search-${prefix.toLowerCase()}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const bytes = readFileSync(await download.path());
  // A UTF-8 byte order mark, so Excel reads 'café' as written.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records = parse(bytes, { columns: true, bom: true }) as Array<Record<string, string>>;
  for (const record of records) {
    // UK local time, day first as a UK spreadsheet reads it; the photo count, the officer's email and the keeper deadline.
    expect(record.Submitted).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(record).toMatchObject({ Photos: '4', 'Officer email': OFFICER.email });
    expect(record['Keeper notice post by']).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  }
  expect(records.map((record) => record['PCN number'])).toEqual(shown);
  expect(new Set(records.map((record) => record['Vehicle registration']))).toEqual(new Set(made.map((_, i) => `${prefix}${i + 1}`)));
  // A spreadsheet never runs a cell as a formula.
  expect(records.find((record) => record['Vehicle registration'] === `${prefix}2`)?.Description).toBe("'=cmd|calc");
});
