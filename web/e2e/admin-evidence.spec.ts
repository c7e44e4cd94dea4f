import { describePostingWindow, SECTOR_LIMIT_MESSAGES } from '@parkpatrol/shared';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';
import { apiToken, bearer, createEvidencePcnThroughApi, firstCarParkId, searchAdminList, uniqueSuffix } from './admin-support.ts';

/**
 * Evidence, the admins' side: the keeper-notice queue on the dashboard, the capture facts,
 * checklist coverage, clock-skew warning, duplicates and audit trail on the review view, and
 * the car park's stay settings. PCNs are made through the API with the phone's evidence fields.
 */
test.skip(({ isMobile }) => isMobile, 'Admin screens are desktop first; the phone layout is covered in admin-access.spec.ts');

/** The time left to the last posting day: how many days depends on the weekends and bank holidays between. */
const DAYS_LEFT = /\d+ days? left|Less than a day left/;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

test('admins see deadlines, capture facts, coverage, clock skew, duplicates and the audit trail', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const suffix = uniqueSuffix();
  const plate = (prefix: string) => `${prefix}${suffix}`.slice(0, 10);
  const officerToken = await apiToken(page.request, OFFICER);
  const carParkId = await firstCarParkId(page.request, officerToken);
  const now = Date.now();

  // Near: seen 2.5 days ago, and the driver left before the notice could be served: paragraph 9,
  // posted within about 14 days of the parking. Its phone clock was 3 min 12 s fast.
  const nearObservedAt = now - 2.5 * DAY;
  const near = await createEvidencePcnThroughApi(page.request, officerToken, {
    registration: plate('EVN'),
    noticeServedBy: 'DRIVE_OFF',
    carParkId,
    observedAt: new Date(nearObservedAt).toISOString(),
    issuedAt: new Date(nearObservedAt + 22 * MINUTE).toISOString(),
    stayApplies: true,
    deviceTime: new Date(now + 3 * MINUTE + 12_500).toISOString(),
    photos: [
      {
        takenAt: new Date(nearObservedAt + MINUTE).toISOString(),
        takenAtSource: 'camera',
        latitude: 51.50135,
        longitude: -0.14189,
        accuracyM: 12,
        shots: ['number-plate'],
      },
      { takenAt: new Date(nearObservedAt + 2 * MINUTE).toISOString(), takenAtSource: 'added', shots: ['vehicle-in-context'] },
      { shots: ['number-plate', 'signage'] },
      // The second visit: the vehicle still there after consideration and grace.
      { takenAt: new Date(nearObservedAt + 20 * MINUTE).toISOString(), takenAtSource: 'camera' },
    ],
  });
  // Far: a ticket fixed to the windscreen 5 days ago: paragraph 8, posted from day 29 to about day 54.
  const far = await createEvidencePcnThroughApi(page.request, officerToken, {
    registration: plate('EVF'),
    carParkId,
    observedAt: new Date(now - 5 * DAY + 60 * MINUTE).toISOString(),
    // Issued then: a first sighting is within the day of its notice.
    issuedAt: new Date(now - 5 * DAY + 65 * MINUTE).toISOString(),
  });
  // A second notice for the near one's parking event: same plate, car park and UTC day.
  const sameDayOffset = new Date(nearObservedAt).getUTCHours() < 12 ? 20 * MINUTE : -20 * MINUTE;
  const duplicate = await createEvidencePcnThroughApi(page.request, officerToken, {
    registration: plate('EVN'),
    carParkId,
    observedAt: new Date(nearObservedAt + sameDayOffset).toISOString(),
    issuedAt: new Date(nearObservedAt + sameDayOffset + 5 * MINUTE).toISOString(),
    duplicateReason: 'Driver came back and parked again in another bay',
  });
  const nearTitle = `PCN-${near.pcnNumber}`;
  const farTitle = `PCN-${far.pcnNumber}`;
  const duplicateTitle = `PCN-${duplicate.pcnNumber}`;

  await signIn(page, ADMIN);
  await page.goto('/admin/dashboard');
  const queue = page.getByRole('region', { name: 'Keeper notice deadlines' });
  const queueRows = queue.getByRole('row');
  const nearRow = queueRows.filter({ hasText: nearTitle });
  expect(near.keeperNotice.route).toBe('PARAGRAPH_9');
  expect(far.keeperNotice.route).toBe('PARAGRAPH_8');
  await expect(nearRow).toContainText(describePostingWindow(near.keeperNotice));
  await expect(nearRow).toContainText(DAYS_LEFT);
  await expect(nearRow).toContainText(plate('EVN'));
  await expect(nearRow).toContainText('Submitted');
  // Nearest last posting day first: the drive-off's 14 days end weeks before the ticket's 56, so
  // the far notice comes after the near one (the API suite checks the order itself; the queue
  // shows the nearest ten, which other specs' notices may fill).
  expect(near.keeperNotice.lastPostingDate! < far.keeperNotice.lastPostingDate!).toBe(true);
  await expect(page.getByRole('region', { name: 'Possible duplicates' })).toContainText(/[1-9]\d* PCNs share a vehicle, car park and day/);
  await snap(page, testInfo, 'admin-evidence-dashboard');
  await expectNoSeriousAxeViolations(page, 'admin dashboard with the deadline queue');

  // "View all" opens Manage PCNs in the same order, with the deadline as a column.
  await queue.getByRole('link', { name: 'View all PCNs by keeper notice deadline' }).click();
  await expect(page).toHaveURL(/sort=deadline/);
  await expect(page.getByRole('columnheader', { name: 'Keeper deadline' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: nearTitle })).toContainText(describePostingWindow(near.keeperNotice));
  await searchAdminList(page, plate('EVF'));
  await expect(page.getByRole('row').filter({ hasText: farTitle })).toContainText(describePostingWindow(far.keeperNotice));
  await page.goto('/admin/dashboard');

  await nearRow.getByRole('link', { name: nearTitle }).click();
  await expect(page.getByRole('heading', { level: 1, name: nearTitle })).toBeVisible();
  await expect(page.locator('.deadline-line')).toContainText(describePostingWindow(near.keeperNotice));
  await expect(page.locator('.deadline-line')).toContainText(DAYS_LEFT);
  await expect(page.getByRole('note', { name: 'Device clock warning' })).toContainText(
    /The officer's device clock was 3 min 1[12] s fast when this notice was sent\./,
  );

  const evidence = page.getByRole('region', { name: 'Evidence' });
  const firstPhoto = evidence.getByRole('listitem', { name: 'Photo 1' });
  await expect(firstPhoto).toContainText('(camera)');
  await expect(firstPhoto).toContainText('51.50135, -0.14189');
  await expect(firstPhoto).toContainText('(within 12 m)');
  await expect(firstPhoto).toContainText(near.photoSha256[0]!);
  await expect(evidence.getByRole('listitem', { name: 'Photo 2' })).toContainText('(added on device)');
  await expect(evidence.getByText('Verified: matches the server')).toHaveCount(4);

  const checklist = page.getByRole('region', { name: 'Photo checklist' });
  await expect(checklist).toContainText('3 of 4 shots covered');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Number plate' })).toContainText('Photo 1, Photo 3');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Windscreen, no permit' })).toContainText('Missing');

  const observation = page.getByRole('region', { name: 'Observation' });
  await expect(observation).toContainText('22 min after the first sighting');
  await expect(observation).toContainText('A stay applied');

  const duplicates = page.getByRole('region', { name: 'Possible duplicates' });
  await expect(duplicates.getByRole('link', { name: duplicateTitle })).toBeVisible();

  // A status change appears in the audit trail, with who made it and what changed.
  await page.getByRole('region', { name: 'Decision' }).getByRole('radio', { name: 'Start review (S)' }).check();
  await page.getByRole('region', { name: 'Decision' }).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('.page-header .chip')).toHaveText('Under Review');
  const audit = page.getByRole('region', { name: 'Audit trail' }).getByRole('listitem');
  await expect(audit).toHaveCount(2);
  await expect(audit.nth(0)).toContainText('Created');
  await expect(audit.nth(0)).toContainText('by Olivia Officer');
  await expect(audit.nth(1)).toContainText('Status changed');
  await expect(audit.nth(1)).toContainText('by Ada Admin');
  await expect(audit.nth(1).getByRole('definition')).toHaveText(/Submitted\s*→?\s*changed to\s*Under Review/);
  await audit
    .nth(0)
    .getByRole('button', { name: /Show the \d+ recorded fields/ })
    .click();
  await expect(audit.nth(0).getByRole('term').filter({ hasText: 'Vehicle registration' })).toBeVisible();
  await expect(audit.nth(0)).toContainText('Device clock');
  await snap(page, testInfo, 'admin-evidence-review');
  await expectNoSeriousAxeViolations(page, 'PCN review with evidence facts and audit trail');

  // The duplicate filter finds the second notice for the same parking event, with its reason.
  await page.goto(`/admin/pcns?search=${plate('EVN').toLowerCase()}`);
  // react-aria draws its own box over the native input, so the label is what a person clicks.
  await page.locator('label.checkbox', { hasText: 'Possible duplicates' }).click();
  await expect(page.getByRole('checkbox', { name: 'Possible duplicates' })).toBeChecked();
  await expect(page).toHaveURL(/flagged=duplicates/);
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: duplicateTitle })).toContainText('Possible duplicate');
  await expect(rows.filter({ hasText: nearTitle })).toBeVisible();
  await expect(rows.filter({ hasText: farTitle })).toHaveCount(0);
  await snap(page, testInfo, 'admin-evidence-duplicates');
  await expectNoSeriousAxeViolations(page, 'PCN list filtered to possible duplicates');
  await rows
    .filter({ hasText: duplicateTitle })
    .getByRole('link', { name: `Review ${duplicateTitle}` })
    .click();
  const duplicatePanel = page.getByRole('region', { name: 'Possible duplicates' });
  await expect(duplicatePanel.getByRole('link', { name: nearTitle })).toBeVisible();
  await expect(duplicatePanel).toContainText('Driver came back and parked again in another bay');

  // The new panels fit a phone: the page itself never scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/admin/dashboard', `/admin/pcns?review=${near.id}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('.spinner')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
  }
});

test('an admin sets a car park’s stay periods and default, checked by the shared rules', async ({ page }) => {
  const adminToken = await apiToken(page.request, ADMIN);
  const siteCode = `EV${uniqueSuffix()}`.slice(0, 12);
  const name = `Evidence Car Park ${siteCode}`;
  const created = await page.request.post('/api/car-parks', { headers: bearer(adminToken), data: { name, siteCode } });
  expect(created.status(), await created.text()).toBe(201);

  await signIn(page, ADMIN);
  await page.goto('/admin/car-parks');
  await searchAdminList(page, siteCode);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('5 min consideration + 10 min grace');
  await expect(row).toContainText('Stay only when the officer says so');

  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit car park' });
  await dialog.getByLabel('Grace period (minutes)').fill('ten');
  await dialog.locator('label.checkbox', { hasText: 'A stay applies by default' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'A stay applies by default' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('Enter whole minutes from 0 to 240')).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'car park form with stay settings');
  await dialog.getByLabel('Grace period (minutes)').fill('12');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText('5 min consideration + 12 min grace');
  await expect(row).toContainText('Stay applies by default');

  // Shorter than the Single Code's minimum only with a reason, asked for beside the periods and shown on the row.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(dialog.getByLabel('Reason for shorter periods')).toHaveCount(0);
  await dialog.getByLabel('Consideration period (minutes)').fill('0');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText(SECTOR_LIMIT_MESSAGES.minimumsOverrideReason)).toBeVisible();
  await dialog.getByLabel('Reason for shorter periods').fill('No-stopping zone: no consideration period applies');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText('0 min consideration + 12 min grace');
  await expect(row).toContainText('No-stopping zone: no consideration period applies');
});
