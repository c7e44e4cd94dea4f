import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ADMIN, expect, OFFICER, signIn, snap, test } from './fixtures.ts';
import { apiToken, bearer, createPcnThroughApi, uniqueSuffix } from './admin-support.ts';

/**
 * The evidence pack in the browser: the admin downloads the evidence pack from the review view, and once
 * the retention policy has removed a closed notice's photos, both the review view and the
 * officer's detail page say so instead of showing broken images.
 */
test.skip(({ isMobile }) => isMobile, 'Admin screens are desktop first; the phone layout is covered in admin-access.spec.ts');

const rootDir = resolve(import.meta.dirname, '../..');
const PURGED_NOTICE = /Photos removed under the retention policy on \d{2} \w{3} \d{4}\./;

test('the admin downloads the evidence pack from the review view', async ({ page }, testInfo) => {
  const officerToken = await apiToken(page.request, OFFICER);
  const pcn = await createPcnThroughApi(page.request, officerToken, { registration: `EP${uniqueSuffix()}`.slice(0, 10) });

  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `PCN-${pcn.pcnNumber}` })).toBeVisible();
  const button = page.getByRole('button', { name: 'Download evidence pack' });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe(`PCN-${pcn.pcnNumber}-evidence-pack.pdf`);
  const bytes = readFileSync(await download.path());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(100_000); // four photos, embedded as they are stored
  await expect(page.getByRole('status').filter({ hasText: 'Evidence pack downloaded.' })).toHaveCount(1);
  await expect(button).toBeEnabled();
  await snap(page, testInfo, 'evidence-pack-button');
});

test('photos removed under the retention policy are announced, not shown broken', async ({ page, browser, baseURL }, testInfo) => {
  const officerToken = await apiToken(page.request, OFFICER);
  const adminToken = await apiToken(page.request, ADMIN);
  const pcn = await createPcnThroughApi(page.request, officerToken, { registration: `RP${uniqueSuffix()}`.slice(0, 10) });
  const cancelled = await page.request.patch(`/api/pcns/${pcn.id}/status`, {
    headers: bearer(adminToken),
    data: { status: 'CANCELLED', cancellationReason: 'OPERATOR_ERROR' },
  });
  expect(cancelled.status()).toBe(200);

  // The real command, against the running server's data, with no waiting period.
  const output = execFileSync(process.execPath, ['scripts/retention.ts'], {
    cwd: rootDir,
    env: { ...process.env, DATA_DIR: process.env.PP_DATA_DIR, EVIDENCE_RETENTION_DAYS: '0' },
    encoding: 'utf8',
  });
  expect(output).toContain(`Removed 4 photos of PCN-${pcn.pcnNumber}`);

  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  const evidence = page.getByRole('region', { name: 'Evidence' });
  await expect(evidence.getByText(PURGED_NOTICE)).toBeVisible();
  await expect(evidence.getByRole('img')).toHaveCount(0);
  // The facts stay: four photos, each with its checksum.
  await expect(evidence.getByRole('heading', { name: /^Photo \d$/ })).toHaveCount(4);
  await snap(page, testInfo, 'review-photos-removed');

  const officerContext = await browser.newContext({ baseURL, serviceWorkers: 'block', locale: 'en-GB', timezoneId: 'Europe/London' });
  const officer = await officerContext.newPage();
  await signIn(officer, OFFICER);
  await officer.goto(`/pcn/${pcn.id}`);
  const images = officer.getByRole('region', { name: 'Evidence Images' });
  await expect(images.getByText(PURGED_NOTICE)).toBeVisible();
  await expect(images.getByRole('img')).toHaveCount(0);
  await officerContext.close();
});
