import type { Browser, Page } from '@playwright/test';
import { ADMIN, expect, expectNoSeriousAxeViolations, signIn, snap, test } from './fixtures.ts';
import { apiToken, createPcnThroughApi, createUserThroughApi, searchAdminList, uniqueSuffix } from './admin-support.ts';
import { decodeQrAttachment, readEmailsTo, waitForEmailTo } from './mail-sink.ts';

/**
 * An admin creates a car park and a user in the browser,
 * assigns them, sends the onboarding email (individually, then in bulk with a user who cannot
 * get one), the test reads the emails from the real SMTP server, decodes the QR code and opens
 * the link in a fresh browser context, where the new user sets a password and files against the
 * assigned car park. Analytics then shows their sign-in and PCN.
 */
test.skip(({ isMobile }) => isMobile, 'Admin screens are desktop first; the phone layout is covered in admin-access.spec.ts');

async function freshContext(browser: Browser, baseURL: string) {
  return browser.newContext({
    baseURL,
    serviceWorkers: 'block',
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    viewport: { width: 1280, height: 800 },
  });
}

async function rowMenu(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('an admin onboards a new officer who signs in from the QR code and sees their car park', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  // The longest journey of the suite: three browser contexts, two emails, two shared cores.
  test.setTimeout(120_000);
  const suffix = uniqueSuffix();
  const carParkName = `Harbour Car Park ${suffix}`;
  const siteCode = `H${suffix}`.slice(0, 12);
  const newUser = { firstName: 'Nia', lastName: `Newton${suffix}`, email: `nia.${suffix.toLowerCase()}@example.com` };
  const fullName = `${newUser.firstName} ${newUser.lastName}`;
  const inactive = { firstName: 'Ivo', lastName: `Idle${suffix}`, email: `ivo.${suffix.toLowerCase()}@example.com` };
  const adminToken = await apiToken(page.request, ADMIN);
  await createUserThroughApi(page.request, adminToken, { ...inactive, isActive: false });

  await signIn(page, ADMIN);

  // A car park, created in the browser.
  await page.goto('/admin/car-parks');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Car Parks' })).toBeVisible();
  await page.getByRole('button', { name: 'Create car park' }).click();
  const carParkDialog = page.getByRole('dialog', { name: 'Create car park' });
  await carParkDialog.getByRole('button', { name: 'Create car park' }).click();
  await expect(carParkDialog.getByText('Name is required')).toBeVisible();
  await expect(carParkDialog.getByText('Site code is required')).toBeVisible();
  // Forgiving: an error goes as soon as its field is valid, before the next press; the others stay.
  await carParkDialog.getByLabel('Name', { exact: true }).fill('Abc');
  await expect(carParkDialog.getByText('Name is required')).toHaveCount(0);
  await expect(carParkDialog.getByLabel('Name', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
  await expect(carParkDialog.getByText('Site code is required')).toBeVisible();
  await carParkDialog.getByLabel('Name', { exact: true }).fill(carParkName);
  await carParkDialog.getByLabel('Site code').fill(siteCode.toLowerCase());
  await carParkDialog.getByLabel('Address').fill('1 Quay Street, Whitby');
  await carParkDialog.getByLabel('Postcode').fill('yo21 1aa');
  await carParkDialog.getByRole('button', { name: 'Create car park' }).click();
  await expect(carParkDialog).toHaveCount(0);
  await expect(page.getByText(`${carParkName} was created.`)).toBeVisible();
  const carParkRow = page.getByRole('row').filter({ hasText: carParkName });
  await expect(carParkRow).toContainText(siteCode.toUpperCase());
  await expect(carParkRow).toContainText('YO21 1AA');

  // A user, created without a password.
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Create user' }).click();
  const userDialog = page.getByRole('dialog', { name: 'Create user' });
  await userDialog.getByLabel('First name').fill(newUser.firstName);
  await userDialog.getByLabel('Last name').fill(newUser.lastName);
  await userDialog.getByLabel('Email').fill('not-an-email');
  await userDialog.getByRole('button', { name: 'Create user' }).click();
  await expect(userDialog.getByText('Invalid email')).toBeVisible();
  await userDialog.getByLabel('Email').fill(newUser.email.toUpperCase());
  await expect(userDialog.getByText('Invalid email')).toHaveCount(0);
  await expect(userDialog.getByLabel('Password')).toHaveCount(0);
  await userDialog.getByRole('button', { name: 'Create user' }).click();
  await expect(userDialog).toHaveCount(0);
  await expect(page.getByText(`${fullName} was created.`, { exact: false })).toBeVisible();
  await searchAdminList(page, suffix);
  const userRow = page.getByRole('row').filter({ hasText: newUser.email });
  await expect(userRow).toContainText('User');
  await expect(userRow).toContainText('Active');
  await expect(userRow).toContainText('None');

  // Assigned from the car park's side.
  await page.goto('/admin/car-parks');
  await rowMenu(page, carParkName, 'Assign users');
  const usersDialog = page.getByRole('dialog', { name: `Users of ${carParkName}` });
  await expect(usersDialog.getByText('Nobody is assigned to this car park yet.')).toBeVisible();
  await usersDialog.getByRole('searchbox', { name: 'Find a user' }).fill(newUser.email);
  await usersDialog.getByRole('button', { name: `Assign ${fullName}` }).click();
  await expect(usersDialog.getByRole('button', { name: `Unassign ${fullName}` })).toBeVisible();
  await usersDialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row').filter({ hasText: carParkName })).toContainText(fullName);

  // Client Onboarding: an individual send keeps the selection, then a bulk send with one failure.
  await page.goto('/admin/onboarding');
  await expect(page.getByRole('heading', { level: 1, name: 'Client Onboarding' })).toBeVisible();
  // This server's APP_URL is a loopback address: the admin is told a phone cannot open the links.
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `The links in these emails point at ${baseURL}, which only this server's own machine can open` }),
  ).toBeVisible();
  const sendButton = page.getByRole('button', { name: /^Send Onboarding Emails \(\d+\)$/ });
  await expect(sendButton).toHaveText('Send Onboarding Emails (0)');
  await expect(sendButton).toBeDisabled();
  const newRow = page.getByRole('row').filter({ hasText: newUser.email });
  const inactiveRow = page.getByRole('row').filter({ hasText: inactive.email });
  await expect(newRow).toContainText(fullName);
  await expect(inactiveRow).toContainText('Inactive');
  // Who needs onboarding: no password, never emailed, never signed in; the
  // admin's own row is not offered.
  await expect(newRow).toContainText('Not set');
  await expect(newRow.getByRole('gridcell').filter({ hasText: /^Never$/ })).toHaveCount(2);
  await expect(page.getByRole('row').filter({ hasText: ADMIN.email })).toHaveCount(0);
  // The filter is the server's: wait for its list, then every row's last sign-in says Never.
  const lastSignIns = page.locator('[role="gridcell"][data-label="Last sign-in"]');
  await page.getByText('Never signed in', { exact: true }).click();
  await expect(page).toHaveURL(/neverSignedIn=true/);
  await expect(page.locator('.admin-table-scroll')).toHaveAttribute('aria-busy', 'false');
  await expect(newRow).toBeVisible();
  await expect.poll(async () => (await lastSignIns.allTextContents()).every((text) => text === 'Never')).toBe(true);
  await page.getByText('Never signed in', { exact: true }).click();
  await expect(page).not.toHaveURL(/neverSignedIn/);
  await expect(page.locator('.admin-table-scroll')).toHaveAttribute('aria-busy', 'false');
  // The visible box is what a person clicks; the input inside it is visually hidden.
  await newRow.locator('label.checkbox').click();
  await inactiveRow.locator('label.checkbox').click();
  await expect(newRow.getByRole('checkbox')).toBeChecked();
  await expect(sendButton).toHaveText('Send Onboarding Emails (2)');
  const selectAll = page.getByRole('columnheader').getByRole('checkbox');
  await expect.poll(() => selectAll.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);

  await newRow.getByRole('button', { name: `Send individual onboarding email to ${fullName}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Onboarding email sent successfully to ${fullName}.` })).toBeVisible();
  await expect(newRow.getByRole('gridcell').filter({ hasText: /^Never$/ })).toHaveCount(1);
  await expect(sendButton).toHaveText('Send Onboarding Emails (2)');
  const firstEmail = await waitForEmailTo(newUser.email);
  expect(firstEmail.subject).toBe('Welcome to ParkPatrol Self Ticketing');

  await sendButton.click();
  const bulkDialog = page.getByRole('dialog', { name: 'Send Onboarding Emails' });
  await expect(bulkDialog.getByText('You are about to send onboarding emails to 2 user(s).')).toBeVisible();
  // One of the two was emailed a moment ago: the dialog says that earlier link stops working.
  await expect(
    bulkDialog.getByText(
      '1 of them was sent an onboarding email before: sending again stops the earlier link working; only the newest link signs in.',
    ),
  ).toBeVisible();
  const notes = bulkDialog.getByLabel('Admin Notes (Optional)');
  await expect(notes).toHaveAttribute('placeholder', 'Add any specific instructions or information for the users...');
  for (const item of [
    'Welcome message and account details',
    'Unique access URL and QR code',
    'System features and capabilities',
    'Assigned car parks (if any)',
    'Help and support information',
  ]) {
    await expect(bulkDialog.getByText(item)).toBeVisible();
  }
  await expect(bulkDialog.getByText('Your custom notes')).toHaveCount(0);
  await notes.fill('  Report to the Harbour office on Monday at 8.  ');
  await expect(bulkDialog.getByText('Your custom notes')).toBeVisible();
  await snap(page, testInfo, 'onboarding-dialog');
  await expectNoSeriousAxeViolations(page, 'onboarding dialog');
  await bulkDialog.getByRole('button', { name: 'Send Emails' }).click();
  await expect(bulkDialog).toHaveCount(0);
  await expect(page.getByText('Onboarding emails sent: 1 succeeded, 1 failed')).toBeVisible();
  const results = page.getByRole('grid', { name: 'Onboarding Results' });
  // The spec's columns, letter for letter.
  await expect(results.getByRole('columnheader')).toHaveText(['User', 'Status', 'Message']);
  await expect(results.getByRole('row').filter({ hasText: fullName })).toContainText('SuccessEmail sent successfully');
  await expect(results.getByRole('row').filter({ hasText: `${inactive.firstName} ${inactive.lastName}` })).toContainText('Failed');
  await expect(results.getByRole('row').filter({ hasText: `${inactive.firstName} ${inactive.lastName}` })).toContainText(
    'This user is inactive',
  );
  // After a successful bulk send the selection is cleared.
  await expect(sendButton).toHaveText('Send Onboarding Emails (0)');
  await snap(page, testInfo, 'onboarding-results');
  await page.getByRole('button', { name: 'Dismiss message' }).click();
  await expect(page.getByText('Onboarding emails sent: 1 succeeded, 1 failed')).toHaveCount(0);

  const bulkEmail = await waitForEmailTo(newUser.email, { count: 2 });
  expect(bulkEmail.text).toContain('Report to the Harbour office on Monday at 8.');
  expect(bulkEmail.text).toContain(carParkName);
  expect(await readEmailsTo(inactive.email)).toHaveLength(0);
  const link = decodeQrAttachment(bulkEmail);
  expect(link).toMatch(new RegExp(`^${baseURL}/u/[A-Za-z0-9_-]+$`));
  expect(bulkEmail.text).toContain(link);
  // Each send voids the link before it.
  const voidedLink = decodeQrAttachment(firstEmail);
  expect(voidedLink).not.toBe(link);

  // The new officer opens the QR code's link on their own device.
  const officerContext = await freshContext(browser, baseURL!);
  const officer = await officerContext.newPage();
  // The link's answer is held until the waiting text has been seen: a fixed delay raced it.
  let answerLink!: () => void;
  const linkHeld = new Promise<void>((resolve) => (answerLink = resolve));
  await officerContext.route('**/api/auth/access-link', async (route) => {
    await linkHeld;
    await route.continue();
  });
  await officer.goto(link);
  await expect(officer.getByText('Authenticating...')).toBeVisible();
  answerLink();
  await expect(officer.getByRole('heading', { name: `Welcome, ${newUser.firstName}! Choose your password` })).toBeVisible();
  await officer.getByLabel('New password', { exact: true }).fill('short');
  await officer.getByLabel('Confirm new password').fill('short');
  await officer.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(officer.getByText('Password must be at least 6 characters')).toBeVisible();
  await officer.getByLabel('New password', { exact: true }).fill('harbour-2024');
  await officer.getByLabel('Confirm new password').fill('harbour-2025');
  await officer.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(officer.getByText('Passwords do not match')).toBeVisible();
  await officer.getByLabel('Confirm new password').fill('harbour-2024');
  await officer.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(officer).toHaveURL(/\/dashboard$/);
  await expect(officer.getByRole('heading', { level: 1, name: `Welcome back, ${newUser.firstName}!` })).toBeVisible();
  await officer.goto('/pcn/new');
  // The officer's choice is exactly the one car park assigned, already chosen for them.
  await expect(officer.getByLabel('Car park').getByRole('option')).toHaveText([carParkName]);
  const officerToken = await officer.evaluate(() => localStorage.getItem('token'));
  await officerContext.close();

  // The password works for a normal sign-in; the used link and the voided one do not.
  const again = await freshContext(browser, baseURL!);
  const againPage = await again.newPage();
  await signIn(againPage, { email: newUser.email, password: 'harbour-2024' });
  await again.close();
  const stranger = await (await freshContext(browser, baseURL!)).newPage();
  for (const dead of [link, voidedLink]) {
    await stranger.goto(dead);
    await expect(stranger).toHaveURL(/\/login$/);
    await expect(stranger.getByRole('alert')).toHaveText(
      'This access link is invalid, has expired or has already been used. Ask your administrator for a new one.',
    );
  }
  await stranger.context().close();

  // Their PCN, filed through the API with the session the link gave them.
  await createPcnThroughApi(page.request, officerToken!, { registration: `NW${suffix}`.slice(0, 10) });

  // Analytics: the sign-ins (link, then password) and the PCN.
  await page.goto('/admin/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics Dashboard' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'User Statistics' })).toHaveAttribute('aria-selected', 'true');
  const statsRow = page.getByRole('row').filter({ hasText: newUser.email });
  const cells = statsRow.getByRole('gridcell');
  // User, Role, Logins, PCNs Submitted, PCNs Viewed, Time on Site, Last Activity
  await expect(statsRow.getByRole('rowheader')).toContainText(fullName);
  await expect(cells.nth(0)).toHaveText('User');
  await expect(cells.nth(1)).toHaveText('2');
  await expect(cells.nth(2)).toHaveText('1');
  await expect(cells.nth(3)).toHaveText('0');
  await expect(cells.nth(4)).toHaveText(/^\d+m$|^\d+h \d+m$/);
  await expect(cells.nth(5)).not.toHaveText('Never');
  const headers = await page.getByRole('grid', { name: 'User Statistics' }).getByRole('columnheader').allTextContents();
  expect(headers).toEqual(['User', 'Role', 'Logins', 'PCNs Submitted', 'PCNs Viewed', 'Time on Site', 'Last Activity']);
  await snap(page, testInfo, 'analytics');
});
