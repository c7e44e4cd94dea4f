import { readFileSync } from 'node:fs';
import { readPdfText } from '../../api/test/support/pdf.ts';
import {
  apiToken,
  bearer,
  createCarPark,
  createEvidencePcnThroughApi,
  firstCarParkId,
  searchAdminList,
  uniqueSuffix,
} from './admin-support.ts';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';
import { toDateInput } from '../src/lib/format-date.ts';

/**
 * A named driver as an admin records one (decision 0027): on the review, the keeper's reply names
 * the driver with an address; the notice to the named driver is made for today, read back, and
 * marked posted; the keeper is no longer pursued.
 */
test.skip(({ isMobile }) => isMobile, 'the back office works at a desk');

const DAY = 24 * 60 * 60 * 1000;

test('an admin names the driver, makes the notice to the named driver and marks it posted', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  const officerToken = await apiToken(request, OFFICER);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await firstCarParkId(request, officerToken);
  const servedAt = new Date(Date.now() - 35 * DAY).toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, {
    registration: `ND${uniqueSuffix()}`.slice(0, 7),
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
    data: { title: 'Ms', lastName: 'Keeper', addressLines: ['12 Acacia Avenue', 'Leeds'], postcode: 'LS6 3AA', vehicleConfirmed: true },
  });
  expect(keeper.status(), await keeper.text()).toBe(200);

  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  const card = page.getByRole('region', { name: 'Hirer, driver and other letters' });
  await card.getByRole('button', { name: 'Name the driver' }).click();
  const dialog = page.getByRole('dialog', { name: 'The named driver' });
  // Saved with nothing filled in: each field says what it needs, beside it.
  await dialog.getByRole('button', { name: 'Save the driver' }).click();
  await expect(dialog).toContainText('Give the first line of the address');
  await dialog.getByRole('radio', { name: 'The keeper’s reply' }).check();
  await dialog.getByLabel('First names').fill('Dana');
  await dialog.getByLabel('Last name').fill('Driver');
  await dialog.getByLabel('Address line 1').fill('9 Mill Lane');
  await dialog.getByLabel('Town or city').fill('York');
  await dialog.getByLabel('Postcode').fill('YO1 7HH');
  await dialog.getByRole('button', { name: 'Save the driver' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('Dana Driver');
  await expect(card).toContainText('The keeper is no longer pursued.');
  await expectNoSeriousAxeViolations(page, 'the review with a named driver');

  const downloading = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Make the notice to the named driver' }).click();
  const download = await downloading;
  const { flat } = await readPdfText(new Uint8Array(readFileSync(await download.path())));
  expect(flat).toContain('Dana Driver 9 Mill Lane York YO1 7HH');
  expect(flat).toContain('Notice to the Driver');
  await expect(card.getByRole('status')).toContainText('made and kept with the notice');

  await card.getByRole('button', { name: 'Mark posted' }).click();
  await expect(card).toContainText('Notice to the named driver posted on');
  await snap(page, testInfo, 'named-driver-posted');
});

test('an admin marks a car park as byelaw land: not relevant land under Schedule 4', async ({ page, request }) => {
  const adminToken = await apiToken(request, ADMIN);
  const name = `Byelaw Station ${uniqueSuffix()}`;
  const carParkId = await createCarPark(request, adminToken, name);

  await signIn(page, ADMIN);
  await page.goto('/admin/car-parks');
  await searchAdminList(page, name);
  const row = page.getByRole('row').filter({ hasText: name });
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit car park' });
  const relevant = dialog.getByRole('checkbox', { name: 'Relevant land under Schedule 4' });
  // Relevant land unless the admin says otherwise.
  await expect(relevant).toBeChecked();
  await dialog.locator('label.checkbox', { hasText: 'Relevant land under Schedule 4' }).click();
  await expect(relevant).not.toBeChecked();
  await expectNoSeriousAxeViolations(page, 'car park form with relevant land');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();

  const all = await request.get(`/api/car-parks/all?search=${encodeURIComponent(name)}`, { headers: bearer(adminToken) });
  const saved = ((await all.json()) as { data: { items?: Array<{ id: string; relevantLand: boolean }> } }).data;
  expect(JSON.stringify(saved)).toContain(carParkId);
  expect(JSON.stringify(saved)).toContain('"relevantLand":false');
});

test('an admin records the hirer a lease company named, with its three documents', async ({ page, request }) => {
  test.setTimeout(90_000);
  const officerToken = await apiToken(request, OFFICER);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await firstCarParkId(request, officerToken);
  const servedAt = new Date(Date.now() - 35 * DAY).toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, {
    registration: `HR${uniqueSuffix()}`.slice(0, 7),
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
      companyName: 'Swift Vehicle Leasing Ltd',
      addressLines: ['Fleet House', 'Reading'],
      postcode: 'RG1 1AA',
      keeperType: 'HIRE_COMPANY',
      vehicleConfirmed: true,
    },
  });
  expect(keeper.status(), await keeper.text()).toBe(200);
  // The lease company's notice to keeper goes today.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const made = await request.post('/api/keeper-notices/letters', { headers: bearer(adminToken), data: { pcnIds: [pcn.id] } });
  expect(made.status(), await made.text()).toBe(200);
  const posted = await request.post('/api/keeper-notices/posted', {
    headers: bearer(adminToken),
    data: { pcnIds: [pcn.id], postedOn: today },
  });
  expect(posted.status(), await posted.text()).toBe(200);

  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  await expect(page.getByRole('region', { name: 'Registered keeper' })).toContainText('Hire or lease company');
  const card = page.getByRole('region', { name: 'Hirer, driver and other letters' });
  await card.getByRole('button', { name: 'Record the hirer' }).click();
  const dialog = page.getByRole('dialog', { name: 'The hirer' });
  await dialog.getByLabel('Last name').fill('Hirer');
  await dialog.getByLabel('Address line 1').fill('3 Rental Row');
  await dialog.getByLabel('Postcode').fill('BS1 4DJ');
  await dialog.getByLabel('Day the documents were received').fill(toDateInput(today));
  // Without the hirer's statement of liability, liability does not pass (paragraph 13(2)(c)).
  await dialog.locator('label.checkbox', { hasText: 'A statement signed for the hire firm' }).click();
  await dialog.locator('label.checkbox', { hasText: 'A copy of the hire agreement' }).click();
  await dialog.getByRole('button', { name: 'Save the hirer' }).click();
  await expect(dialog).toContainText('A copy of the hirer’s signed statement of liability is needed (paragraph 13(2)(c))');
  await dialog.locator('label.checkbox', { hasText: 'A copy of the statement of liability' }).click();
  await expectNoSeriousAxeViolations(page, 'the hirer form');
  await dialog.getByRole('button', { name: 'Save the hirer' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('Hirer');
  await expect(card).toContainText(/Post the notice to hirer between \d+ \w+ \d{4} and \d+ \w+ \d{4}\./);
  await expect(card.getByRole('button', { name: 'Make the notice to hirer' })).toBeVisible();
});
