import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';
import { apiToken, createPcnThroughApi, uniqueSuffix } from './admin-support.ts';

/**
 * An admin reviews a PCN through SUBMITTED -> UNDER_REVIEW -> APPROVED -> ISSUED with a
 * note at each step, offered exactly the transitions the design allows, and the officer sees
 * the status and the notes on their own detail page.
 */
test.skip(({ isMobile }) => isMobile, 'Admin screens are desktop first; the phone layout is covered in admin-access.spec.ts');

test('an admin moves a PCN to issued with notes and the officer sees it', async ({ page, browser, baseURL }, testInfo) => {
  test.setTimeout(90_000);
  const registration = `RV${uniqueSuffix()}`.slice(0, 10);
  const officerToken = await apiToken(page.request, OFFICER);
  const pcn = await createPcnThroughApi(page.request, officerToken, { registration, description: 'Blue hatchback across two bays' });
  const title = `PCN-${pcn.pcnNumber}`;

  await signIn(page, ADMIN);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Waiting for review' })).toContainText(/\d+ PCNs/);
  // The newest first: this PCN, unless other journeys filed enough newer ones meanwhile that it is off the end.
  const newest = page.getByRole('region', { name: 'Newest submissions' }).getByRole('link', { name: /PCN-\d+/ });
  await expect(newest.first()).toBeVisible();
  const shown = (await newest.allTextContents()).map((text) => Number(/PCN-(\d+)/.exec(text)![1]));
  expect(shown).toEqual([...shown].sort((a, b) => b - a));
  expect(shown.includes(Number(pcn.pcnNumber)) || shown.every((n) => n > Number(pcn.pcnNumber))).toBe(true);
  await expectNoSeriousAxeViolations(page, 'admin dashboard');

  await page.goto('/admin/pcns');
  await page.getByRole('searchbox', { name: 'Search' }).fill(registration.toLowerCase());
  await expect(page).toHaveURL(new RegExp(`search=${registration.toLowerCase()}`));
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('Submitted');
  await expect(row).toContainText('Olivia Officer');
  await expect(page.getByRole('row')).toHaveCount(2);
  await row.getByRole('link', { name: `Review ${title}` }).click();

  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const photos = page.locator('.evidence-large img');
  await expect(photos).toHaveCount(4);
  await expect.poll(() => photos.evaluateAll((images) => images.every((img) => (img as HTMLImageElement).naturalWidth > 0))).toBe(true);
  await expect(page.getByText('Blue hatchback across two bays')).toBeVisible();
  const decision = page.getByRole('region', { name: 'Decision' });
  const notes = decision.getByLabel('Admin notes');

  const choices = decision.getByRole('radiogroup', { name: 'New status' }).getByRole('radio');
  const steps = [
    {
      offered: ['Start review (S)', 'Reject (R)', 'Cancel PCN (C)'],
      choose: 'Start review (S)',
      note: 'Photos checked, plate legible.',
      status: 'Under Review',
    },
    {
      offered: ['Approve (A)', 'Reject (R)', 'Cancel PCN (C)'],
      choose: 'Approve (A)',
      note: 'No permit on record for this vehicle.',
      status: 'Approved',
    },
    {
      offered: ['Mark as issued (M)', 'Cancel PCN (C)'],
      choose: 'Mark as issued (M)',
      note: 'Notice posted to the keeper.',
      status: 'Issued',
    },
  ];
  for (const step of steps) {
    await expect(choices).toHaveCount(step.offered.length);
    for (const [i, label] of step.offered.entries()) await expect(choices.nth(i)).toHaveAccessibleName(label);
    await notes.fill(step.note);
    await decision.getByRole('radio', { name: step.choose }).check();
    await decision.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.locator('.page-header .chip')).toHaveText(step.status);
    await expect(notes).toHaveValue('');
  }
  await expect(choices).toHaveCount(2);
  const history = page.getByRole('region', { name: 'Status history' }).getByRole('listitem');
  await expect(history).toHaveCount(4);
  await expect(history.nth(0)).toContainText('Approved → Issued');
  await expect(history.nth(0)).toContainText('Notice posted to the keeper.');
  await expect(history.nth(0)).toContainText('by Ada Admin');
  await expect(history.nth(2)).toContainText('Photos checked, plate legible.');
  await snap(page, testInfo, 'pcn-review');
  await expectNoSeriousAxeViolations(page, 'PCN review');

  // A cancellation says why before anything else; a final status then asks first, and
  // cancelling the question changes nothing.
  await decision.getByRole('radio', { name: 'Cancel PCN (C)' }).check();
  await decision.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(decision.getByText('Choose why the charge is cancelled')).toBeVisible();
  await decision.getByLabel('Cancellation reason').selectOption({ label: 'Operator error' });
  await decision.getByRole('button', { name: 'Save', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel PCN?' });
  await expect(confirm).toContainText('a final status');
  // Never 'Cancel' beside 'Cancel PCN': the way out says what it keeps.
  await expect(confirm.getByRole('button')).toHaveText(['Keep PCN', 'Cancel PCN']);
  await confirm.getByRole('button', { name: 'Keep PCN' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.locator('.page-header .chip')).toHaveText('Issued');

  // Back keeps the filters.
  await page.getByRole('link', { name: 'Back to all PCNs' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(registration.toLowerCase());
  await expect(page.getByRole('row').filter({ hasText: title })).toContainText('Issued');

  // The officer, on their own device, sees the status and the latest note.
  const officerContext = await browser.newContext({ baseURL, serviceWorkers: 'block', locale: 'en-GB', timezoneId: 'Europe/London' });
  const officer = await officerContext.newPage();
  await signIn(officer, OFFICER);
  await officer.goto(`/pcn/${pcn.id}`);
  await expect(officer.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(officer.locator('.chip').first()).toHaveText('Issued');
  await expect(officer.getByText('Notice posted to the keeper.')).toBeVisible();
  await officerContext.close();
});

test('an admin corrects how the notice to driver was served, saying why, and the route follows', async ({ page }) => {
  const registration = `SV${uniqueSuffix()}`.slice(0, 10);
  const officerToken = await apiToken(page.request, OFFICER);
  const pcn = await createPcnThroughApi(page.request, officerToken, { registration, description: 'Served by the book' });
  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  const observation = page.getByRole('region', { name: 'Observation' });
  await expect(observation).toContainText('Fixed to the vehicle');
  await expect(observation).toContainText(/Paragraph 8 \(after a notice to driver\): post between/);

  await page.getByRole('button', { name: 'Correct the service' }).click();
  const dialog = page.getByRole('dialog', { name: 'Correct the service' });
  await dialog.getByRole('radio', { name: 'Driver left before it could be served' }).check();
  await dialog.getByRole('button', { name: 'Save the correction' }).click();
  // The reason is asked for, beside its field, and takes the focus.
  await expect(dialog.getByLabel('Why is it corrected?')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Why is it corrected?')).toBeFocused();
  await dialog.getByLabel('Why is it corrected?').fill('The officer tapped the wrong choice; the driver left first');
  await dialog.getByRole('button', { name: 'Save the correction' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(observation).toContainText('Driver left before it could be served');
  await expect(observation).toContainText(/Paragraph 9 \(no notice to driver\): post between \d+ \w{3} \d{4} and \d+ \w{3} \d{4}/);
  await expect(page.getByRole('region', { name: 'Audit trail' })).toContainText(
    'The officer tapped the wrong choice; the driver left first',
  );
  await expectNoSeriousAxeViolations(page, 'service corrected');
});

test('a row of Manage PCNs opens its review by a click anywhere on it and by Enter; its checkbox still only selects', async ({ page }) => {
  const registration = `RO${uniqueSuffix()}`.slice(0, 10);
  const officerToken = await apiToken(page.request, OFFICER);
  const pcn = await createPcnThroughApi(page.request, officerToken, { registration });
  const title = `PCN-${pcn.pcnNumber}`;
  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?search=${registration.toLowerCase()}`);
  const row = page.getByRole('row').filter({ hasText: title });

  // react-aria draws its own box over the native checkbox: its label is what a person presses.
  await row.locator('label.checkbox').click();
  await expect(row.getByRole('checkbox')).toBeChecked();
  await expect(page).not.toHaveURL(/review=/);
  await row.locator('label.checkbox').click();
  await expect(row.getByRole('checkbox')).not.toBeChecked();

  await row.getByText(registration).click();
  await expect(page).toHaveURL(new RegExp(`review=${pcn.id}`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(title) })).toBeVisible();

  await page.goBack();
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`review=${pcn.id}`));
});
