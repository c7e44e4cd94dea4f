import type { Locator, Page } from '@playwright/test';
import { apiToken, bearer, createEvidencePcnThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';
import { confirmAppealFromEmail } from './appeal-confirmation.ts';
import { waitForEmailTo } from './mail-sink.ts';

/**
 * The motorist's page as they arrive from the windscreen notice's QR code, on a phone: whose
 * charge it is, first; the reference whole however narrow the screen; while an appeal is open,
 * that nothing need be paid until it is decided; and the appeal withdrawn (decision 0044).
 */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the motorist looks their charge up on a phone');
});

/** How many lines an element's text is laid out on. */
const linesOf = (locator: Locator) =>
  locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });

async function lookUp(page: Page, pcnNumber: string, registration: string) {
  await page.goto(`/charge?ref=${encodeURIComponent(`PCN-${pcnNumber}`)}`);
  await page.getByLabel('Vehicle registration').fill(registration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcnNumber}` })).toBeVisible();
}

test('the page names the operator first, and a 320 px phone never breaks the reference at its hyphen', async ({
  page,
  request,
}, testInfo) => {
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const registration = `MW${uniqueSuffix()}`.slice(0, 7).toUpperCase();
  const now = new Date().toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });
  const operator = ((await (await request.get('/api/public/charges/operator')).json()) as { data: { name: string } }).data.name;
  expect(operator).toBeTruthy();

  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/charge');
  const heading = page.getByRole('heading', { level: 1, name: 'Your parking charge' });
  await expect(heading).toBeVisible();
  // The operator's name, above everything else on the lookup.
  const top = page.locator('#main .charge-operator');
  await expect(top).toHaveText(operator);
  expect((await top.boundingBox())!.y).toBeLessThan((await heading.boundingBox())!.y);
  await expectNoSeriousAxeViolations(page, 'the lookup, with the operator named');

  await page.getByLabel('Charge reference').fill(`PCN-${pcn.pcnNumber}`);
  await page.getByLabel('Vehicle registration').fill(registration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  const title = page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcn.pcnNumber}` });
  await expect(title).toBeVisible();
  await expect(top).toHaveText(operator);
  expect((await top.boundingBox())!.y).toBeLessThan((await title.boundingBox())!.y);

  // At 320 px the heading needs two lines: the reference moves down whole, never "PCN-" / "00000003".
  expect(await linesOf(title)).toBeGreaterThan(1);
  const reference = title.locator('.reference');
  await expect(reference).toHaveText(`PCN-${pcn.pcnNumber}`);
  expect(await linesOf(reference)).toBe(1);
  // And in the sentences that quote it.
  const pay = page.getByRole('region', { name: 'How to pay' }).locator('.reference');
  await expect(pay).toHaveText(`PCN-${pcn.pcnNumber}`);
  expect(await linesOf(pay)).toBe(1);
  await snap(page, testInfo, 'motorist-charge-320');
  await expectNoSeriousAxeViolations(page, 'the charge at 320 px');
});

test('while the appeal is open the motorist is told they need not pay until it is decided; they withdraw it and the charge is payable again', async ({
  page,
  request,
}, testInfo) => {
  const officerToken = await apiToken(request, OFFICER);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const registration = `MX${suffix}`.slice(0, 7).toUpperCase();
  const email = `wendy.${suffix}@example.com`.toLowerCase();
  const now = new Date().toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });
  const reference = `APL-${pcn.pcnNumber}`;

  await lookUp(page, pcn.pcnNumber, registration);
  await page.getByRole('button', { name: 'Appeal online' }).click();
  const form = page.getByRole('form', { name: 'Appeal this charge' });
  await form.getByLabel('Your name').fill('Wendy Withdraw');
  await form.getByLabel('Your email').fill(email);
  await form.getByLabel('Your postal address').fill('9 Canal Street\nLeeds\nLS2 7AA');
  await form.getByText('Yes, I was driving').click();
  await form.getByLabel('Reason').selectOption({ label: 'The signs were not clear' });
  await form.getByLabel('Your appeal').fill('The sign by the entrance was hidden behind a hedge.');
  await form.getByRole('button', { name: 'Send appeal' }).click();
  await confirmAppealFromEmail(page, email, pcn.pcnNumber);

  // Open: on hold, and 'How to pay' says first that nothing need be paid until it is decided.
  await expect(page.getByText('This charge is on hold while we consider your appeal.')).toBeVisible();
  const howToPay = page.getByRole('region', { name: 'How to pay' });
  await expect(howToPay).toContainText('You do not need to pay this charge while we consider your appeal. We will email you our decision.');
  await expect(howToPay).toContainText('If we accept your appeal, the charge is cancelled and nothing is due.');
  // Appealed the day of the notice: the reduced £60 stays 14 days after a rejection, then £100.
  await expect(howToPay).toContainText(
    'You appealed while the reduced amount applied, so you may still pay £60 for 14 days after our decision',
  );
  await expect(howToPay).toContainText(/When you pay, pay .+, quoting PCN-/);
  await expectNoSeriousAxeViolations(page, 'the charge with an appeal open');

  // The step before: what withdrawing does, from when; kept, then taken.
  const status = page.getByRole('region', { name: 'Your appeal' });
  await status.getByRole('button', { name: 'Withdraw appeal' }).click();
  const step = page.getByRole('form', { name: 'Withdraw your appeal?' });
  await expect(step.getByRole('heading', { name: 'Withdraw your appeal?' })).toBeFocused();
  await expect(step).toContainText(/it is payable again from today, \d+ \w+ \d{4}\./);
  await expect(step).toContainText(/£60 is due, the reduced amount, until \d+ \w+ \d{4}; after that the full charge of £100\./);
  await expect(step).toContainText('You cannot appeal this charge again afterwards.');
  await expectNoSeriousAxeViolations(page, 'the step before withdrawing an appeal');
  await step.getByRole('button', { name: 'Keep my appeal' }).click();
  await expect(status.getByRole('button', { name: 'Withdraw appeal' })).toBeFocused();
  await expect(status).toContainText('Open');

  await status.getByRole('button', { name: 'Withdraw appeal' }).click();
  // Only the email the appeal gave withdraws it: the windscreen's details open this page to anyone.
  await step.getByLabel('Your email').fill(`someone.${suffix}@example.com`);
  await step.getByRole('button', { name: 'Withdraw my appeal' }).click();
  await expect(step.getByText('This is not the email address your appeal gave. Enter that one.')).toBeVisible();
  await step.getByLabel('Your email').fill(email);
  await step.getByRole('button', { name: 'Withdraw my appeal' }).click();

  await expect(status.getByRole('heading', { name: 'Your appeal', exact: true })).toBeFocused();
  await expect(status).toContainText('Withdrawn');
  await expect(status).toContainText('You withdrew your appeal, so we will not decide it.');
  await expect(status.getByRole('button', { name: 'Withdraw appeal' })).toHaveCount(0);
  await expect(page.getByText('This charge is on hold while we consider your appeal.')).toHaveCount(0);
  await expect(howToPay).not.toContainText('You do not need to pay');
  await expect(page.getByRole('region', { name: 'Amount due today' })).toContainText('£60');
  await expect(page.getByRole('button', { name: 'Appeal online' })).toHaveCount(0);
  const record = await waitForEmailTo(email, { subject: /withdrawn/ });
  expect(record.subject).toBe(`Appeal ${reference} withdrawn`);
  await snap(page, testInfo, 'motorist-appeal-withdrawn');
  await expectNoSeriousAxeViolations(page, 'the charge after the appeal was withdrawn');

  // Withdrawn twice is refused, plainly.
  const charge = await request.post('/api/public/charges/lookup', { data: { reference: `PCN-${pcn.pcnNumber}`, registration } });
  const token = ((await charge.json()) as { data: { accessToken: string } }).data.accessToken;
  const again = await request.post('/api/public/charges/current/appeal/withdraw', { headers: bearer(token), data: { email } });
  expect(again.status()).toBe(409);
  expect(((await again.json()) as { message: string }).message).toBe('This appeal has already been withdrawn.');

  // The admin sees it withdrawn, in the queue's own filter and on the appeal, with nothing to decide.
  const listed = await request.get(`/api/appeals?status=WITHDRAWN&search=${reference}`, { headers: bearer(adminToken) });
  const appealId = ((await listed.json()) as { data: { items: Array<{ id: string }> } }).data.items[0]!.id;
  // The back office works at a desk.
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN);
  await page.goto(`/admin/appeals?status=WITHDRAWN&search=${reference}`);
  await expect(page.getByRole('grid', { name: 'Appeals' }).getByRole('row').filter({ hasText: reference })).toContainText('Withdrawn');
  await page.goto(`/admin/appeals/${appealId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Appeal ${reference}` })).toBeVisible();
  const decision = page.getByRole('region', { name: 'Decision' });
  await expect(decision).toContainText('Withdrawn by the motorist on');
  await expect(decision.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Set aside' })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'the withdrawn appeal, as the admin sees it');
});
