import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { unzipSync } from 'fflate';
import type { Locator } from '@playwright/test';
import { ukDate } from '@parkpatrol/shared';
import { apiToken, bearer, createEvidencePcnThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';

/**
 * The hand-over to a debt recovery agency as an admin works it (decision 0040): a charge issued
 * through the API (its notice to keeper made and posted today), chosen on the screen, handed over
 * after a confirmation, its batch's ZIP downloaded and read back (the manifest's SHA-256s against
 * the files), then the agency's outcomes checked and applied, a row that does not match listed.
 *
 * The one step not taken through the API: the reminder and the letter before claim are posted
 * weeks apart, and the debtor then has 30 days to answer, so no charge made today can be past its
 * letter before claim. The server runs on the real clock, so the spec writes what posting those
 * letters records (the stage and the days posted, 60 days ago) into the server's database; the API
 * suite (api/test/debt-recovery.test.ts) reaches the stage through the letters themselves.
 */
test.skip(({ isMobile }) => isMobile, 'the back office works at a desk');

const DAY = 24 * 60 * 60 * 1000;

/** react-aria draws its own box over the native checkbox: its label is what a person presses. */
async function select(row: Locator) {
  await row.locator('label.checkbox').click();
  await expect(row.getByRole('checkbox')).toBeChecked();
}

test('an admin hands charges past their letter before claim to the agency and imports its outcomes', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const officerToken = await apiToken(request, OFFICER);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const registration = `DR${suffix}`.slice(0, 7);
  // A ticket fixed 35 days ago: its notice to keeper may go today (paragraph 8).
  const servedAt = new Date(Date.now() - 35 * DAY).toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, {
    registration,
    carParkId,
    observedAt: servedAt,
    issuedAt: servedAt,
  });
  for (const status of ['UNDER_REVIEW', 'APPROVED']) {
    const moved = await request.patch(`/api/pcns/${pcn.id}/status`, { headers: bearer(adminToken), data: { status } });
    expect(moved.status(), await moved.text()).toBe(200);
  }
  const keeper = await request.put(`/api/pcns/${pcn.id}/keeper`, {
    headers: bearer(adminToken),
    data: {
      title: 'Ms',
      firstNames: 'Kira',
      lastName: 'Keeper',
      companyName: '',
      addressLines: ['12 Acacia Avenue', 'Headingley', 'Leeds'],
      postcode: 'LS6 3AA',
      make: 'Ford',
      model: 'Focus',
      colour: 'Blue',
      vehicleConfirmed: true,
    },
  });
  expect(keeper.status(), await keeper.text()).toBe(200);
  const letters = await request.post('/api/keeper-notices/letters', { headers: bearer(adminToken), data: { pcnIds: [pcn.id] } });
  expect(letters.status(), await letters.text()).toBe(200);
  const today = ukDate(new Date());
  const posted = await request.post('/api/keeper-notices/posted', {
    headers: bearer(adminToken),
    data: { pcnIds: [pcn.id], postedOn: today, proofReference: '' },
  });
  expect(posted.status(), await posted.text()).toBe(200);
  const letterBeforeClaimPostedOn = ukDate(new Date(Date.now() - 60 * DAY));
  const database = new Database(join(process.env.PP_DATA_DIR!, 'parkpatrol.sqlite'));
  try {
    database.pragma('busy_timeout = 5000');
    database
      .prepare(
        "update pcns set collection_stage = 'LETTER_BEFORE_CLAIM', reminder_posted_on = ?, letter_before_claim_posted_on = ? where id = ?",
      )
      .run(ukDate(new Date(Date.now() - 80 * DAY)), letterBeforeClaimPostedOn, pcn.id);
  } finally {
    database.close();
  }
  const title = `PCN-${pcn.pcnNumber}`;

  await signIn(page, ADMIN);
  await page.goto('/admin/debt-recovery');
  await expect(page.getByRole('heading', { level: 1, name: 'Debt Recovery' })).toBeVisible();
  const eligible = page.getByRole('grid', { name: 'Charges that can go to the debt recovery agency' });
  const row = eligible.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText(registration);
  await expect(row).toContainText('£100');
  await expect(page.getByRole('grid', { name: 'Batches handed to the debt recovery agency' })).toContainText(
    'No batch has been handed over yet.',
  );
  await snap(page, testInfo, 'debt-recovery-eligible');
  await expectNoSeriousAxeViolations(page, 'debt recovery with a charge to hand over');

  await select(row);
  await page.getByRole('button', { name: 'Hand over to agency (1)' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Hand over to the agency' });
  await expect(dialog).toContainText('1 charge (£100 due) will move to debt recovery');
  await dialog.getByRole('button', { name: 'Hand over' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/1 charge handed over in batch DR-\d{4}-\d{2}-\d{2}-\d+/)).toBeVisible();
  await expect(row).toHaveCount(0);

  const batches = page.getByRole('grid', { name: 'Batches handed to the debt recovery agency' });
  const batchRow = batches
    .getByRole('row')
    .filter({ hasText: /DR-\d{4}-\d{2}-\d{2}-\d+/ })
    .first();
  const reference = (await batchRow.getByRole('rowheader').textContent())!.trim();
  await snap(page, testInfo, 'debt-recovery-handed-over');

  const downloading = page.waitForEvent('download');
  await batchRow.getByRole('button', { name: `Download ${reference}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`debt-recovery-${reference}.zip`);
  const zip = readFileSync(await download.path());
  await expect(batchRow).toContainText(createHash('sha256').update(zip).digest('hex'));
  const files = unzipSync(new Uint8Array(zip));
  expect(Object.keys(files).slice(0, 2)).toEqual(['charges.csv', 'manifest.csv']);
  const manifest = new TextDecoder()
    .decode(files['manifest.csv'])
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(','));
  expect(manifest.map(([path]) => path)).toEqual(Object.keys(files).filter((path) => path !== 'manifest.csv'));
  for (const [path, size, sha256] of manifest) {
    expect(createHash('sha256').update(files[path!]!).digest('hex'), path).toBe(sha256);
    expect(String(files[path!]!.byteLength)).toBe(size);
  }
  expect(Object.keys(files)).toContain(`${title}/${title}-evidence-pack.pdf`);
  expect(new TextDecoder().decode(files['charges.csv'])).toContain('Ms Kira Keeper');

  // The agency's outcomes: checked first (nothing changes), then applied.
  const csv = [
    'reference,vrm,outcome,paid_pence,agency_reference',
    `${title},${registration},PAID,10000,AG-${suffix}`,
    `${title},ZZ99ZZZ,PAID,10000,AG-${suffix}-2`,
  ].join('\n');
  await page.getByRole('textbox', { name: 'Or paste the CSV' }).fill(csv);
  await page.getByRole('button', { name: 'Check outcomes' }).click();
  await expect(page.getByText('Checked: 1 will apply, 1 to look at. Nothing has changed yet.')).toBeVisible();
  const results = page.getByRole('grid', { name: 'Agency outcome results' });
  const resultRow = (n: number) => results.getByRole('row').filter({ has: page.getByRole('gridcell', { name: String(n), exact: true }) });
  await expect(resultRow(1)).toContainText('Will apply');
  await expect(resultRow(2)).toContainText('Does not match the charge');
  await expect(resultRow(2)).toContainText(`The registration ZZ99ZZZ is not the charge's (${registration})`);
  await page.getByRole('button', { name: 'Apply 1 outcome' }).click();
  await expect(page.getByText('1 applied, 0 imported before, 1 to look at.')).toBeVisible();
  await expect(resultRow(1)).toContainText('recorded as paid through the agency');
  await snap(page, testInfo, 'debt-recovery-outcomes');
  await expectNoSeriousAxeViolations(page, 'debt recovery with the agency outcomes applied');

  const paid = await request.get(`/api/pcns/${pcn.id}`, { headers: bearer(adminToken) });
  expect(((await paid.json()) as { data: { status: string } }).data.status).toBe('PAID');
});
