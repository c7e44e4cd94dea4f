import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { readPdfText } from '../../api/test/support/pdf.ts';
import { confirmationsSoFar, confirmAppealThroughApi } from './appeal-confirmation.ts';
import { apiToken, createEvidencePcnThroughApi, firstCarParkId, searchAdminList, uniqueSuffix } from './admin-support.ts';
import { ADMIN, evidencePhotos, expect, expectNoSeriousAxeViolations, OFFICER, openNavigation, signIn, snap, test } from './fixtures.ts';

/**
 * The appeals handler's desk: two motorists appeal their charges on the public API (one with a
 * photo of a permit), the admin finds both in the queue, reads the first beside the charge's
 * photos, is told a rejection needs reasons, rejects it with reasons (a POPLA verification code,
 * the letter read back), accepts the second, and finds it among the accepted ones.
 */
test.skip(({ isMobile }) => isMobile, 'the back office works at a desk');

type Appellant = { name: string; wasDriver: 'yes' | 'no'; driverName?: string; text: string };

/** The motorist's way: the lookup's token, then the multipart appeal with its key (the demo car park has the operator's terms). */
async function appealThroughApi(
  request: APIRequestContext,
  pcn: { pcnNumber: string },
  registration: string,
  appellant: Appellant,
  attachment: Uint8Array<ArrayBuffer>,
) {
  const lookup = await request.post('/api/public/charges/lookup', { data: { reference: `PCN-${pcn.pcnNumber}`, registration } });
  expect(lookup.status(), await lookup.text()).toBe(200);
  const { accessToken } = ((await lookup.json()) as { data: { accessToken: string } }).data;
  const form = new FormData();
  form.set('name', appellant.name);
  form.set('email', 'motorist@example.com');
  form.set('address', '4 Mill Lane\nLeeds\nLS1 4AB');
  form.set('wasDriver', appellant.wasDriver);
  if (appellant.driverName) {
    form.set('driverName', appellant.driverName);
    form.set('driverAddress', '9 Quarry Hill, Leeds');
  }
  form.set('reason', 'VALID_PERMIT');
  form.set('text', appellant.text);
  form.append('attachments', new Blob([attachment], { type: 'image/jpeg' }), 'permit.jpg');
  const before = await confirmationsSoFar('motorist@example.com', pcn.pcnNumber);
  const sent = await request.post('/api/public/charges/current/appeal', {
    headers: { Authorization: `Bearer ${accessToken}`, 'Idempotency-Key': crypto.randomUUID() },
    multipart: form,
  });
  // Filed, then confirmed from the link emailed to the address it gives (decision 0032).
  expect(sent.status(), await sent.text()).toBe(202);
  const confirmed = await confirmAppealThroughApi(request, 'motorist@example.com', pcn.pcnNumber, before + 1);
  expect(confirmed.status(), await confirmed.text()).toBe(201);
  return ((await confirmed.json()) as { data: { reference: string } }).data.reference;
}

/** react-aria hides the native radio under its label: the label is what a person presses. */
async function choose(form: Locator, label: string) {
  await form.locator('label.radio-field__option', { hasText: new RegExp(`^${label}$`) }).click();
  await expect(form.getByRole('radio', { name: label, exact: true })).toBeChecked();
}

/** 'Record decision' shows the outcome and the letter first (admin-decisions.spec.ts reads them); recorded once confirmed. */
async function recordDecision(page: Page, form: Locator, reference: string) {
  await form.getByRole('button', { name: 'Record decision' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Record the decision on ${reference}?` });
  await confirm.getByRole('button', { name: 'Record decision' }).click();
  await expect(confirm).toHaveCount(0);
}

test('an admin reads appeals beside the evidence, rejects one with reasons and accepts another', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const photo = readFileSync(evidencePhotos()[0]!);
  const photoSha256 = createHash('sha256').update(photo).digest('hex');
  const now = new Date().toISOString();
  const appellants: Appellant[] = [
    {
      name: `Ava Appellant ${suffix}`,
      wasDriver: 'yes',
      // Markup in a motorist's words is text: React escapes it.
      text: 'My permit was on the dashboard.\nIt is in the photo: <b>permit 4471</b> & valid until June.',
    },
    { name: `Ben Appellant ${suffix}`, wasDriver: 'no', driverName: 'Cara Driver', text: 'My daughter had the permit in her bag.' },
  ];
  const appeals = [];
  for (const [index, appellant] of appellants.entries()) {
    const registration = `A${index}${suffix}`.slice(0, 7);
    const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });
    appeals.push({ pcn, reference: await appealThroughApi(request, pcn, registration, appellant, photo) });
  }
  const [first, second] = appeals as [(typeof appeals)[number], (typeof appeals)[number]];

  await signIn(page, ADMIN);
  const nav = await openNavigation(page, testInfo);
  await nav.getByRole('link', { name: 'Appeals', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Appeals' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Appeals', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByLabel('Status')).toHaveValue('OPEN');
  await searchAdminList(page, suffix);
  const queue = page.getByRole('grid', { name: 'Appeals' });
  const rows = queue.getByRole('row').filter({ hasText: suffix });
  await expect(rows).toHaveCount(2);
  // Nearest respond-by first: the column says so, and the dates never go back.
  await expect(queue.getByRole('columnheader', { name: /Respond by/ })).toHaveAttribute('aria-sort', 'ascending');
  const respondBy = await rows.locator('[data-label="Respond by"]').allInnerTexts();
  const days = respondBy.map((text) => Date.parse(text.split('\n')[0]!));
  expect(
    days.every((day, index) => index === 0 || day >= days[index - 1]!),
    respondBy.join(' | '),
  ).toBe(true);
  const firstRow = rows.filter({ hasText: first.reference });
  await expect(firstRow).toContainText(`PCN-${first.pcn.pcnNumber}`);
  await expect(firstRow).toContainText('I had a valid ticket or permit');
  await expect(firstRow).toContainText(/\d+ days left/);
  await expect(firstRow).toContainText('Open');
  await snap(page, testInfo, 'appeals-queue');
  await expectNoSeriousAxeViolations(page, 'the appeals queue');

  // The first appeal: the motorist's words and photo beside the charge's four.
  await firstRow.getByRole('link', { name: first.reference }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Appeal ${first.reference}` })).toBeVisible();
  const charge = page.getByRole('region', { name: 'Charge' });
  await expect(charge.getByRole('link', { name: `PCN-${first.pcn.pcnNumber}` })).toHaveAttribute(
    'href',
    `/admin/pcns?review=${first.pcn.id}`,
  );
  const evidence = page.getByRole('region', { name: 'Evidence' }).getByRole('img');
  await expect(evidence).toHaveCount(4);
  const motorist = page.getByRole('region', { name: "The motorist's appeal" });
  await expect(motorist).toContainText(appellants[0]!.name);
  await expect(motorist).toContainText('Yes, the appellant was the driver');
  await expect(motorist).toContainText('It is in the photo: <b>permit 4471</b> & valid until June.');
  await expect(motorist.locator('b')).toHaveCount(0);
  const attachment = motorist.getByRole('img', { name: 'Attachment 1: permit.jpg' });
  await expect.poll(() => attachment.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect(motorist).toContainText(photoSha256);
  await expect(page.getByText(/Respond by \d+ \w+ \d{4}/)).toBeVisible();
  await snap(page, testInfo, 'appeal-open');
  await expectNoSeriousAxeViolations(page, 'an open appeal');

  // A rejection without reasons is refused beside the reasons, and the focus goes there.
  const decision = page.getByRole('form', { name: 'Record the decision' });
  await choose(decision, 'Reject');
  await decision.getByRole('button', { name: 'Record decision' }).click();
  const reasons = decision.getByLabel('Reasons');
  await expect(reasons).toBeFocused();
  await expect(reasons).toHaveAttribute('aria-invalid', 'true');
  await expect(reasons).toHaveAccessibleDescription(/Give the reasons for rejecting the appeal/);
  await reasons.fill('The permit in the photo expired in May.\nThe signs at the entrance say permits must be valid on the day.');
  await recordDecision(page, decision, first.reference);

  const record = page.getByRole('region', { name: 'Decision' });
  await expect(record).toContainText('Decision recorded');
  await expect(record).toContainText('Rejected');
  await expect(record).toContainText('The permit in the photo expired in May.');
  await expect(record).toContainText(/Reduced rate held until\s*\d+ \w+ \d{4}/);
  const code = (await record.locator('code').innerText()).trim();
  expect(code).toMatch(/^\d{10}$/);

  const downloading = page.waitForEvent('download');
  await record.getByRole('button', { name: 'Download decision letter' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`appeal-${first.reference}-decision.pdf`);
  const pdf = readFileSync(await download.path());
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const { flat } = await readPdfText(pdf);
  expect(flat).toContain(first.reference);
  expect(flat).toContain(code);
  await snap(page, testInfo, 'appeal-rejected');

  // Back to the same queue (the search kept): the rejected one has left the open appeals.
  await page.getByRole('link', { name: 'Back to appeals' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(suffix);
  await expect(rows).toHaveCount(1);
  await rows.getByRole('link', { name: second.reference }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Appeal ${second.reference}` })).toBeVisible();
  await expect(page.getByRole('region', { name: "The motorist's appeal" })).toContainText('Cara Driver');
  const secondForm = page.getByRole('form', { name: 'Record the decision' });
  // Nothing chosen: the group says so and its first choice takes the focus.
  await secondForm.getByRole('button', { name: 'Record decision' }).click();
  await expect(secondForm.getByRole('radiogroup', { name: 'Outcome' })).toHaveAccessibleDescription(/Choose the outcome/);
  await expect(secondForm.getByRole('radio', { name: 'Accept', exact: true })).toBeFocused();
  await choose(secondForm, 'Accept');
  await recordDecision(page, secondForm, second.reference);
  const accepted = page.getByRole('region', { name: 'Decision' });
  await expect(accepted).toContainText('Accepted');
  await expect(accepted.locator('code')).toHaveCount(0);
  // Accepting cancels the charge; the charge's review shows its appeal and leads back to it.
  await expect(page.getByRole('region', { name: 'Charge' })).toContainText('Cancelled');
  await page
    .getByRole('region', { name: 'Charge' })
    .getByRole('link', { name: `PCN-${second.pcn.pcnNumber}` })
    .click();
  const onReview = page.getByRole('region', { name: 'Appeal' });
  await expect(onReview).toContainText(second.reference);
  await expect(onReview).toContainText('Accepted');
  await expect(onReview.getByRole('link', { name: 'Open the appeal' })).toHaveAttribute('href', /^\/admin\/appeals\/[0-9a-f-]{36}$/);
  // Back where the review was opened from, with the queue's search kept.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: `Appeal ${second.reference}` })).toBeVisible();

  await page.getByRole('link', { name: 'Back to appeals' }).click();
  await page.getByLabel('Status').selectOption({ label: 'Accepted' });
  await expect(page).toHaveURL(/status=ACCEPTED/);
  await expect(rows).toHaveCount(1);
  await expect(rows.filter({ hasText: second.reference })).toContainText('Accepted');
  await snap(page, testInfo, 'appeals-accepted');
});

test('a late appeal is marked late in the queue, and taken into consideration puts the charge on hold and leaves declining behind', async ({
  page,
  request,
}, testInfo) => {
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const registration = `LA${suffix}`.slice(0, 7);
  // Fixed 40 days ago: the 28 days to appeal have passed.
  const fixed = new Date(Date.now() - 40 * 86_400_000).toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: fixed, issuedAt: fixed });
  const reference = await appealThroughApi(
    request,
    pcn,
    registration,
    { name: `Lou Late ${suffix}`, wasDriver: 'yes', text: 'I was in hospital when the notice came.' },
    readFileSync(evidencePhotos()[0]!),
  );

  await signIn(page, ADMIN);
  await page.goto('/admin/appeals');
  await searchAdminList(page, suffix);
  const row = page.getByRole('grid', { name: 'Appeals' }).getByRole('row').filter({ hasText: reference });
  await expect(row).toContainText('Open, late');
  await row.getByRole('link', { name: reference }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Appeal ${reference}` })).toBeVisible();
  const card = page.getByRole('region', { name: 'Decision' });
  await expect(card).toContainText('Made after the appeal period: the charge is not on hold.');
  const decision = page.getByRole('form', { name: 'Record the decision' });
  await expect(decision.getByRole('radio', { name: 'Decline as out of time' })).toHaveCount(1);
  await expectNoSeriousAxeViolations(page, 'a late appeal');
  await snap(page, testInfo, 'appeal-late');

  await card.getByRole('button', { name: 'Take into consideration' }).click();
  await expect(card).toContainText(/taken into consideration on .*: the charge is on hold/);
  await expect(decision.getByRole('radio', { name: 'Decline as out of time' })).toHaveCount(0);
  await choose(decision, 'Accept');
  await recordDecision(page, decision, reference);
  await expect(page.getByRole('region', { name: 'Decision' })).toContainText('Accepted');
});

test('an admin records an appeal that came by post, without an email, and decides it under the Appeals Charter', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const registration = `PB${suffix}`.slice(0, 7);
  const now = new Date().toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });
  const reference = `APL-${pcn.pcnNumber}`;

  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  const onReview = page.getByRole('region', { name: 'Appeal' });
  await expect(onReview).toContainText('No appeal yet');
  await onReview.getByRole('link', { name: 'Record an appeal' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Record an appeal' })).toBeVisible();

  const form = page.getByRole('form', { name: 'Appeal by email, post or phone' });
  await form.getByRole('radio', { name: 'Email' }).check();
  await form.getByLabel('Appellant’s name').fill(`Pat Post ${suffix}`);
  await form.getByLabel('Appellant’s postal address').fill('7 Canal Street\nLeeds\nLS2 7AB');
  await form.getByRole('radio', { name: 'Yes, the appellant was driving' }).check();
  await form.getByLabel('Reason').selectOption({ label: 'I had a Blue Badge on display' });
  await form.getByLabel('The appeal').fill('My Blue Badge slipped off the dashboard. A copy of both sides is enclosed.');
  // By email, an email address is needed: the field says so and takes the focus.
  await form.getByRole('button', { name: 'Record appeal' }).click();
  const email = form.getByLabel(/^Appellant’s email/);
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/only an appeal by post may have none/);
  // It came by post, without one.
  await form.getByRole('radio', { name: 'Post' }).check();
  await expect(form.getByLabel('Appellant’s email (optional for post)')).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'recording an appeal');
  await snap(page, testInfo, 'appeal-record-post');
  await form.getByRole('button', { name: 'Record appeal' }).click();

  await expect(page.getByRole('heading', { level: 1, name: `Appeal ${reference}` })).toBeVisible();
  const motorist = page.getByRole('region', { name: "The motorist's appeal" });
  await expect(motorist).toContainText('None given: letters go by post');
  await expect(motorist).toContainText('Post');

  // The Charter's case for the reason, and the registration's earlier charges (none).
  const decision = page.getByRole('form', { name: 'Record the decision' });
  await expect(decision).toContainText('None: this is the first charge for this registration.');
  await decision.getByRole('button', { name: 'Follow the Charter: A valid Blue Badge was held but not displayed' }).click();
  await expect(decision.getByRole('radio', { name: 'Accept at a reduced amount' })).toBeChecked();
  await expect(decision.getByLabel('Reduced amount (£)')).toHaveValue('20.00');
  await decision.getByLabel('Reasons').fill('The copy of your Blue Badge shows it was valid on the day.');
  await expectNoSeriousAxeViolations(page, 'an appeal beside the Appeals Charter');
  await snap(page, testInfo, 'appeal-charter');
  await recordDecision(page, decision, reference);

  const record = page.getByRole('region', { name: 'Decision' });
  await expect(record).toContainText('There is no email address: download the letter and post it.');
  await expect(record).toContainText('Accepted at a reduced amount');
  await expect(record).toContainText(/Reduced amount payable until\s*\d+ \w+ \d{4}/);
  await expect(record).toContainText('A valid Blue Badge was held but not displayed');
  const code = (await record.locator('code').innerText()).trim();
  expect(code).toMatch(/^\d{10}$/);
  const downloading = page.waitForEvent('download');
  await record.getByRole('button', { name: 'Download decision letter' }).click();
  const { flat } = await readPdfText(readFileSync(await (await downloading).path()));
  expect(flat).toContain('7 Canal Street');
  expect(flat).toContain('Our decision: your appeal is accepted in part');
  expect(flat).toContain(`verification code: ${code}`);

  // The queue shows how it came.
  await page.getByRole('link', { name: 'Back to appeals' }).click();
  await page.getByLabel('Status').selectOption({ label: 'All Statuses' });
  await searchAdminList(page, registration);
  const row = page.getByRole('grid', { name: 'Appeals' }).getByRole('row').filter({ hasText: reference });
  await expect(row.locator('[data-label="Channel"]')).toHaveText('Post');
});

test('an admin sets aside an appeal filed from the windscreen notice alone, and the motorist then appeals', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const photo = readFileSync(evidencePhotos()[0]!);
  const now = new Date().toISOString();
  const registration = `S${suffix}`.slice(0, 7);
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });
  const squat = { name: `Sam Squatter ${suffix}`, wasDriver: 'no' as const, driverName: 'Someone', text: 'I read the ticket first.' };
  const reference = await appealThroughApi(request, pcn, registration, squat, photo);
  const adminToken = await apiToken(request, ADMIN);
  const listed = await request.get(`/api/appeals?search=${reference}`, { headers: { Authorization: `Bearer ${adminToken}` } });
  const appealId = ((await listed.json()) as { data: { items: Array<{ id: string }> } }).data.items[0]!.id;

  await signIn(page, ADMIN);
  await page.goto(`/admin/appeals/${appealId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Appeal ${reference}` })).toBeVisible();
  await page.getByRole('button', { name: 'Set aside', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Set aside appeal ${reference}` });
  await expect(dialog).toBeVisible();
  // No reason: said beside the field, and nothing is set aside.
  await dialog.getByRole('button', { name: 'Set aside the appeal' }).click();
  const reason = dialog.getByRole('textbox', { name: /Why is it set aside/ });
  await expect(reason).toHaveAttribute('aria-invalid', 'true');
  await expect(reason).toHaveAccessibleDescription(/Say why the appeal is set aside/);
  await snap(page, testInfo, 'appeal-set-aside-dialog');
  await expectNoSeriousAxeViolations(page, 'the set-aside dialog');
  await reason.fill('The keeper wrote to us: they did not make this appeal.');
  await dialog.getByRole('button', { name: 'Set aside the appeal' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Appeal ${reference} set aside` })).toBeVisible();
  await expect(page.getByText(/the charge is free for the motorist’s own appeal/)).toBeVisible();

  // The charge's one appeal is free again: the motorist's own is taken.
  const real = { name: `Dana Driver ${suffix}`, wasDriver: 'yes' as const, text: 'I was parked with a valid permit.' };
  expect(await appealThroughApi(request, pcn, registration, real, photo)).toBe(reference);
});
