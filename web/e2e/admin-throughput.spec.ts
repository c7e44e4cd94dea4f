import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Locator, Page } from '@playwright/test';
import type { PcnAuditResponse } from '@parkpatrol/shared';
import { ADMIN, expect, expectNoSeriousAxeViolations, isPhone, OFFICER, signIn, snap, test } from './fixtures.ts';
import { apiToken, bearer, createPcnThroughApi, createUserThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';

/**
 * Sort by a header (kept in the URL),
 * select across pages and then every matching PCN, change their status in bulk with a result
 * per PCN, export what the table shows, and review three PCNs in a row with Save & next.
 */
const PCN_COUNT = 12;

/** The PCN numbers of the rows shown, in order. */
async function shownTitles(page: Page): Promise<string[]> {
  return (await page.getByRole('rowheader').allTextContents()).map((text) => text.trim());
}

/** Sorts by a column: its header on a desktop; 'Sort by' on a phone, whose cards have no headers. */
async function sortBy(page: Page, phone: boolean, column: string, order: 'ascending' | 'descending') {
  if (phone) await page.getByLabel('Sort by').selectOption({ label: `${column}, ${order}` });
  else await page.getByRole('columnheader', { name: column }).click();
}

/** react-aria draws its own box over the native checkbox, so its label is what a person presses. */
async function toggle(row: Locator) {
  await row.locator('label.checkbox').click();
}

test('an admin sorts, selects across pages, changes status in bulk, exports and reviews with Save & next', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const phone = isPhone(testInfo);
  const prefix = `TP${uniqueSuffix().slice(-6)}`;
  // An officer of this test's own: the decisions below must not touch the shared officer's notices.
  const adminToken = await apiToken(page.request, ADMIN);
  const officer = { email: `throughput-${prefix.toLowerCase()}@example.com`, password: 'officer123' };
  const carParkId = await firstCarParkId(page.request, await apiToken(page.request, OFFICER));
  await createUserThroughApi(page.request, adminToken, { firstName: 'Theo', lastName: 'Throughput', ...officer, carParkIds: [carParkId] });
  const officerToken = await apiToken(page.request, officer);
  const made: Array<{ id: string; title: string; plate: string }> = [];
  for (let n = 1; n <= PCN_COUNT; n++) {
    const plate = `${prefix}${String(n).padStart(2, '0')}`;
    const pcn = await createPcnThroughApi(page.request, officerToken, { registration: plate });
    made.push({ id: pcn.id, title: `PCN-${pcn.pcnNumber}`, plate });
  }
  const byPlate = [...made].sort((a, b) => a.plate.localeCompare(b.plate));

  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?search=${prefix.toLowerCase()}`);
  await expect(page.getByRole('rowheader')).toHaveCount(10);

  if (phone) {
    // The rows come first: the filters fold behind one button, and nothing scrolls sideways.
    await expect(page.getByLabel('Status')).toBeHidden();
    await page.getByRole('button', { name: 'Filters' }).click();
    await expect(page.getByLabel('Status')).toBeVisible();
    await page.getByRole('button', { name: 'Filters' }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }

  // Sort by a header (on a phone, whose cards have no headers, by 'Sort by'): the server orders
  // every matching row, the header says so, the URL keeps it.
  const plateHeader = page.getByRole('columnheader', { name: 'Registration' });
  await sortBy(page, phone, 'Registration', 'ascending');
  await expect(plateHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort=vehicleRegistration&order=asc/);
  await expect.poll(() => shownTitles(page)).toEqual(byPlate.slice(0, 10).map((p) => p.title));
  await sortBy(page, phone, 'Registration', 'descending');
  await expect(plateHeader).toHaveAttribute('aria-sort', 'descending');
  await expect
    .poll(() => shownTitles(page))
    .toEqual(
      [...byPlate]
        .reverse()
        .slice(0, 10)
        .map((p) => p.title),
    );
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Registration' })).toHaveAttribute('aria-sort', 'descending');
  await sortBy(page, phone, 'Registration', 'ascending');
  await expect(plateHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => shownTitles(page)).toEqual(byPlate.slice(0, 10).map((p) => p.title));

  // The export is exactly the sorted, filtered set over both pages.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const records = parse(readFileSync(await (await downloading).path()), { columns: true, bom: true }) as Array<Record<string, string>>;
  const pageOne = await shownTitles(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('rowheader')).toHaveCount(2);
  const pageTwo = await shownTitles(page);
  expect(records.map((record) => record['PCN number'])).toEqual([...pageOne, ...pageTwo]);
  expect(records.map((record) => record['Vehicle registration'])).toEqual(byPlate.map((p) => p.plate));

  // Select across pages: one here on page 2, two on page 1; then every matching PCN.
  await toggle(page.getByRole('row').filter({ hasText: byPlate[11]!.title }));
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByRole('rowheader')).toHaveCount(10);
  await toggle(page.getByRole('row').filter({ hasText: byPlate[0]!.title }));
  await toggle(page.getByRole('row').filter({ hasText: byPlate[1]!.title }));
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(bar.getByRole('status')).toHaveText('3 PCNs selected');
  await bar.getByRole('button', { name: `Select all ${PCN_COUNT} PCNs matching` }).click();
  await expect(bar.getByRole('status')).toHaveText(`${PCN_COUNT} PCNs selected`);
  await expect(page.getByRole('row').filter({ hasText: byPlate[5]!.title })).toHaveAttribute('aria-selected', 'true');
  await snap(page, testInfo, 'manage-pcns-selection');
  await expectNoSeriousAxeViolations(page, 'Manage PCNs with a selection');

  // Another admin cancels one meanwhile: the bulk change reports it and changes the rest.
  const cancelled = await page.request.patch(`/api/pcns/${byPlate[3]!.id}/status`, {
    headers: bearer(adminToken),
    data: { status: 'CANCELLED', cancellationReason: 'DUPLICATE' },
  });
  expect(cancelled.status()).toBe(200);
  const target = bar.getByLabel('Change status to');
  // Approved too: a bulk approval takes Submitted notices through Under Review in one action.
  await expect(target.getByRole('option')).toHaveText(['Choose a status', 'Under Review', 'Approved', 'Rejected', 'Cancelled']);
  await target.selectOption({ label: 'Under Review' });
  await bar.getByRole('button', { name: 'Change status…' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Move ${PCN_COUNT} PCNs to Under Review?` });
  await confirm.getByLabel('Admin notes').fill('Batch picked up for review.');
  await confirm.getByRole('button', { name: `Start review (${PCN_COUNT} PCNs)` }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'moved to Under Review' })).toHaveText(
    `${PCN_COUNT - 1} PCNs moved to Under Review; 1 PCN could not be changed (see the results below).`,
  );
  const results = page.getByRole('region', { name: 'Status change results' });
  await expect(results.getByRole('row').filter({ hasText: 'Success' })).toHaveCount(PCN_COUNT - 1);
  const failure = results.getByRole('row').filter({ hasText: byPlate[3]!.title });
  await expect(failure).toContainText('Failed');
  await expect(page.getByRole('grid', { name: 'PCNs' }).getByRole('row').filter({ hasText: byPlate[0]!.title })).toContainText(
    'Under Review',
  );
  await expect(page.getByRole('region', { name: 'Selection' })).toHaveCount(0);
  // Each change is in that PCN's audit trail, with the admin and the note.
  const audit = (await (await page.request.get(`/api/pcns/${byPlate[0]!.id}/audit`, { headers: bearer(adminToken) })).json()) as {
    data: PcnAuditResponse;
  };
  const bulkEntry = audit.data.entries.find((entry) => entry.action === 'status_changed');
  expect(bulkEntry?.actorName).toBe('Ada Admin');
  expect(bulkEntry?.changes.note?.to).toBe('Batch picked up for review.');
  await snap(page, testInfo, 'manage-pcns-bulk-results');

  // Review without going back: Save & next through three PCNs, by pointer and by keyboard.
  await page.getByRole('link', { name: `Review ${byPlate[0]!.title}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: byPlate[0]!.title })).toBeVisible();
  const position = page.getByRole('navigation', { name: 'Review navigation' });
  await expect(position).toContainText(`1 of ${PCN_COUNT}`);
  const decision = page.getByRole('region', { name: 'Decision' });
  await decision.getByRole('radio', { name: 'Approve (A)' }).check();
  await decision.getByRole('button', { name: 'Save & next' }).click();
  await expect(page.getByRole('heading', { level: 1, name: byPlate[1]!.title })).toBeVisible();
  await expect(position).toContainText(`2 of ${PCN_COUNT}`);
  await snap(page, testInfo, 'pcn-review-save-and-next');
  await expectNoSeriousAxeViolations(page, 'PCN review with Previous and Save & next');
  if (phone) {
    await decision.getByRole('radio', { name: 'Approve (A)' }).check();
    await decision.getByRole('button', { name: 'Save & next' }).click();
  } else {
    // A letter picks the decision, Ctrl+Enter saves it and moves on.
    await page.locator('body').press('a');
    await expect(decision.getByRole('radio', { name: 'Approve (A)' })).toBeChecked();
    await page.keyboard.press('Control+Enter');
  }
  await expect(page.getByRole('heading', { level: 1, name: byPlate[2]!.title })).toBeVisible();
  await expect(position).toContainText(`3 of ${PCN_COUNT}`);
  await decision.getByRole('radio', { name: 'Reject (R)' }).check();
  await decision.getByRole('button', { name: 'Save & next' }).click();
  // Rejected is final: it asks first, then moves on.
  await page.getByRole('alertdialog', { name: 'Reject?' }).getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('heading', { level: 1, name: byPlate[3]!.title })).toBeVisible();

  // Previous steps back through the same list; each decision was kept.
  await page.getByRole('link', { name: 'Previous PCN' }).click();
  await expect(page.getByRole('heading', { level: 1, name: byPlate[2]!.title })).toBeVisible();
  await expect(page.locator('.page-header .chip')).toHaveText('Rejected');
  await page.getByRole('link', { name: 'Previous PCN' }).click();
  await expect(page.getByRole('heading', { level: 1, name: byPlate[1]!.title })).toBeVisible();
  await expect(page.locator('.page-header .chip')).toHaveText('Approved');

  // Back returns to the same list: the search, the sort, and the row last reviewed in focus.
  await page.getByRole('link', { name: 'Back to all PCNs' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(prefix.toLowerCase());
  await expect(page.getByRole('columnheader', { name: 'Registration' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('grid', { name: 'PCNs' }).getByRole('row').filter({ hasText: byPlate[0]!.title })).toContainText('Approved');
  await expect(page.getByRole('link', { name: `Review ${byPlate[1]!.title}` })).toBeFocused();
});

test('the onboarding table shows who needs onboarding and sorts by last sign-in', async ({ page }, testInfo) => {
  await apiToken(page.request, OFFICER);
  await signIn(page, ADMIN);
  await page.goto('/admin/onboarding');
  // The columns (a phone shows them as the labels of each card).
  for (const name of ['Password', 'Last emailed', 'Last sign-in']) await expect(page.getByRole('columnheader', { name })).toHaveCount(1);
  // The admin's own row is left out.
  await expect(page.getByRole('row').filter({ hasText: ADMIN.email })).toHaveCount(0);
  const officerRow = page.getByRole('row').filter({ hasText: OFFICER.email });
  await expect(officerRow.locator('[data-label="Last sign-in"]')).not.toHaveText('Never');

  const lastSignIn = page.getByRole('columnheader', { name: 'Last sign-in' });
  await sortBy(page, isPhone(testInfo), 'Last sign-in', 'descending');
  await expect(lastSignIn).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/sort=lastSignIn&order=desc/);

  // The URL changes in a transition, so the box shows checked a moment after the click.
  await page.getByLabel('Never signed in').click();
  await expect(page.getByLabel('Never signed in')).toBeChecked();
  await expect(page).toHaveURL(/neverSignedIn=true/);
  await expect(officerRow).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel('Never signed in')).toBeChecked();
  await expect(page.getByRole('columnheader', { name: 'Last sign-in' })).toHaveAttribute('aria-sort', 'descending');
  await snap(page, testInfo, 'onboarding-never-signed-in');
  await expectNoSeriousAxeViolations(page, 'Client Onboarding, never signed in');
});
