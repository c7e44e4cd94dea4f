import { readFileSync } from 'node:fs';
import { apiToken, bearer, createEvidencePcnThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';
import { ADMIN, evidencePhotos, expect, expectNoSeriousAxeViolations, expectTouchTargets, OFFICER, snap, test } from './fixtures.ts';
import { confirmAppealFromEmail, confirmAppealThroughApi } from './appeal-confirmation.ts';
import { waitForEmailTo } from './mail-sink.ts';

/**
 * The motorist's page on a phone, with no sign-in: a wrong registration is told apart from
 * nothing, the right one shows the charge with its photos, what is due and how to pay and appeal.
 */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the motorist looks their charge up on a phone');
});

test('a motorist looks a charge up by reference and registration and sees its photos and what is due', async ({
  page,
  request,
}, testInfo) => {
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const registration = `MC${uniqueSuffix()}`.slice(0, 7).toUpperCase();
  const now = new Date().toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });

  await page.goto(`/charge?ref=PCN-${pcn.pcnNumber}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your parking charge' })).toBeVisible();
  await expect(page.getByLabel('Charge reference')).toHaveValue(`PCN-${pcn.pcnNumber}`);
  await page.getByLabel('Vehicle registration').fill('ZZ99 ZZZ');
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByRole('alert')).toContainText('No charge matches that reference and registration.');

  await page.getByLabel('Vehicle registration').fill(registration.toLowerCase());
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcn.pcnNumber}` })).toBeVisible();
  const due = page.getByRole('region', { name: 'Amount due today' });
  await expect(due).toContainText('£60');
  await expect(due).toContainText(/The reduced amount of £60 applies until \d+ \w+ \d{4}\. After that the full charge of £100 is due\./);
  const photos = page.getByRole('region', { name: 'Photos' }).getByRole('img');
  await expect(photos).toHaveCount(4);
  // Each photo really loads, through its short-lived URL.
  await expect
    .poll(() => photos.evaluateAll((images) => images.filter((image) => (image as HTMLImageElement).naturalWidth > 0).length))
    .toBe(4);
  const appeal = page.getByRole('region', { name: 'How to appeal' });
  await expect(appeal).toContainText(/appeal to .+ by \d+ \w+ \d{4}, online at/);
  await expect(appeal).toContainText('the independent appeals service');
  await expect(page.getByText('Olivia')).toHaveCount(0);
  await snap(page, testInfo, 'motorist-charge');
  await expectTouchTargets(page, 'the motorist’s charge');
  await expectNoSeriousAxeViolations(page, 'the motorist’s charge');

  // Reloaded, the page keeps the charge for this tab.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcn.pcnNumber}` })).toBeVisible();
});

test('a motorist who mistypes is told what happened and what to do, keeps what was typed, and gets in once it is right', async ({
  page,
  request,
}) => {
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const registration = `MT${uniqueSuffix()}`.slice(0, 7).toUpperCase();
  const now = new Date().toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });
  // Two slips a family makes: an O for a 0 in the reference, then one letter of the plate.
  // (Few: every wrong lookup of the run counts against this machine's one address.)
  const mistypedReference = `PCN-${pcn.pcnNumber.replace(/0/, 'O')}`;
  const mistypedRegistration = `${registration.slice(0, -1)}${registration.endsWith('X') ? 'Y' : 'X'}`;

  await page.goto('/charge');
  const reference = page.getByLabel('Charge reference');
  const plate = page.getByLabel('Vehicle registration');
  await reference.fill(mistypedReference);
  await plate.fill(registration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('No charge matches that reference and registration. Check both against your notice.');
  await expect(alert).toContainText('What you typed is still in the boxes below, so you only need to correct it.');
  await expect(alert).toContainText('the letter O and the number 0');
  await expect(reference).toHaveValue(mistypedReference);
  await expect(plate).toHaveValue(registration);
  await expectNoSeriousAxeViolations(page, 'a mistyped lookup');

  await reference.fill(`PCN-${pcn.pcnNumber}`);
  await plate.fill(mistypedRegistration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(alert).toContainText('No charge matches that reference and registration.');
  await expect(reference).toHaveValue(`PCN-${pcn.pcnNumber}`);
  await expect(plate).toHaveValue(mistypedRegistration);

  await plate.fill(registration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcn.pcnNumber}` })).toBeVisible();
});

test('a motorist appeals with two photos, sees it on hold, then the rejection with its reasons, code and letter; another accepted charge shows cancelled', async ({
  page,
  request,
}, testInfo) => {
  const officerToken = await apiToken(request, OFFICER);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const registration = `MA${suffix}`.slice(0, 7).toUpperCase();
  const email = `dana.${suffix}@example.com`.toLowerCase();
  const now = new Date().toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });

  // From the notice's QR code: the page with the reference filled in.
  await page.goto(`/charge?ref=${encodeURIComponent(`PCN-${pcn.pcnNumber}`)}`);
  await page.getByLabel('Vehicle registration').fill(registration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await page.getByRole('button', { name: 'Appeal online' }).click();
  const form = page.getByRole('form', { name: 'Appeal this charge' });
  await form.getByRole('button', { name: 'Send appeal' }).click();
  await expect(form.getByLabel('Your name')).toBeFocused();
  await expect(form.getByText('Give your name')).toBeVisible();

  await form.getByLabel('Your name').fill('Dana Driver');
  await form.getByLabel('Your email').fill(email);
  await form.getByLabel('Your postal address').fill('4 Mill Lane\nLeeds\nLS1 4AB');
  await form.getByText('Yes, I was driving').click();
  await form.getByLabel('Reason').selectOption({ label: 'I had a valid ticket or permit' });
  await form.getByLabel('Your appeal').fill('My permit was on the dashboard all afternoon. Photos attached.');
  await form.getByLabel('Photos or documents (optional)').setInputFiles(evidencePhotos().slice(0, 2));
  await expect(form.getByRole('list', { name: 'Files to send' }).getByRole('listitem')).toHaveCount(2);
  await expectNoSeriousAxeViolations(page, 'the appeal form');
  await form.getByRole('button', { name: 'Send appeal' }).click();

  const reference = `APL-${pcn.pcnNumber}`;
  // Not received until confirmed from the email it gives (decision 0032).
  await confirmAppealFromEmail(page, email, pcn.pcnNumber);
  const status = page.getByRole('region', { name: 'Your appeal' });
  await expect(status).toContainText('Open');
  await expect(page.getByText('This charge is on hold while we consider your appeal.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Appeal online' })).toHaveCount(0);
  const ack = await waitForEmailTo(email, { subject: /received/ });
  expect(ack.subject).toBe(`Appeal ${reference} received`);

  // The appeals handler rejects it, with reasons.
  const listed = await request.get(`/api/appeals?search=${reference}`, { headers: bearer(adminToken) });
  const appealId = ((await listed.json()) as { data: { items: Array<{ id: string }> } }).data.items[0]!.id;
  const appealRes = await request.get(`/api/appeals/${appealId}`, { headers: bearer(adminToken) });
  expect(((await appealRes.json()) as { data: { attachments: unknown[] } }).data.attachments).toHaveLength(2);
  const reasons = 'The permit in your photos expired the day before. The signs at the entrance say a valid permit must be shown.';
  const decided = await request.post(`/api/appeals/${appealId}/decision`, {
    headers: bearer(adminToken),
    data: { outcome: 'REJECTED', reasons },
  });
  expect(decided.status()).toBe(200);

  await page.reload();
  await expect(status).toContainText('Rejected');
  await expect(status).toContainText(reasons);
  const code = (await status.locator('.appeal-status__code').textContent())!;
  expect(code).toMatch(/^\d{10}$/);
  await expect(status).toContainText(/You may appeal to .+ by \d+ \w+ \d{4}\./);
  const download = page.waitForEvent('download');
  await status.getByRole('button', { name: 'Download the decision letter' }).click();
  const letter = await download;
  expect(letter.suggestedFilename()).toBe(`appeal-${reference}-decision.pdf`);
  const bytes = readFileSync((await letter.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const decision = await waitForEmailTo(email, { subject: /Decision/ });
  expect(decision.text).toContain(code);
  expect(decision.attachments.map((attachment) => attachment.contentType)).toEqual(['application/pdf']);
  await snap(page, testInfo, 'motorist-appeal-rejected');
  await expectNoSeriousAxeViolations(page, 'the rejected appeal');

  // A second charge, appealed and accepted, shows cancelled.
  const otherRegistration = `MB${suffix}`.slice(0, 7).toUpperCase();
  const other = await createEvidencePcnThroughApi(request, officerToken, {
    registration: otherRegistration,
    carParkId,
    observedAt: now,
    issuedAt: now,
  });
  const found = await request.post('/api/public/charges/lookup', { data: { reference: other.pcnNumber, registration: otherRegistration } });
  const token = ((await found.json()) as { data: { accessToken: string } }).data.accessToken;
  const sent = await request.post('/api/public/charges/current/appeal', {
    headers: { ...bearer(token), 'Idempotency-Key': crypto.randomUUID() },
    multipart: {
      name: 'Dana Driver',
      email,
      address: '4 Mill Lane, Leeds',
      wasDriver: 'yes',
      reason: 'BLUE_BADGE',
      text: 'My Blue Badge was on display.',
    },
  });
  expect(sent.status()).toBe(202);
  expect((await confirmAppealThroughApi(request, email, other.pcnNumber)).status()).toBe(201);
  const second = await request.get(`/api/appeals?search=APL-${other.pcnNumber}`, { headers: bearer(adminToken) });
  const secondId = ((await second.json()) as { data: { items: Array<{ id: string }> } }).data.items[0]!.id;
  await request.post(`/api/appeals/${secondId}/decision`, {
    headers: bearer(adminToken),
    data: { outcome: 'ACCEPTED', reasons: 'Your Blue Badge was on display.' },
  });
  await page.getByRole('button', { name: 'Look up another charge' }).click();
  await page.getByLabel('Charge reference').fill(`PCN-${other.pcnNumber}`);
  await page.getByLabel('Vehicle registration').fill(otherRegistration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByText('This charge has been cancelled. Nothing is due.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your appeal' })).toContainText('Accepted');
});

test('after the appeal period a motorist can still appeal, is told it is late and not on hold, and sees it declined as out of time', async ({
  page,
  request,
}) => {
  const officerToken = await apiToken(request, OFFICER);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const registration = `LT${suffix}`.slice(0, 7).toUpperCase();
  const email = `late.${suffix}@example.com`.toLowerCase();
  // The ticket was fixed 40 days ago: the 28 days to appeal ended 12 days ago.
  const fixed = new Date(Date.now() - 40 * 86_400_000).toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: fixed, issuedAt: fixed });

  await page.goto(`/charge?ref=${encodeURIComponent(`PCN-${pcn.pcnNumber}`)}`);
  await page.getByLabel('Vehicle registration').fill(registration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByText(/The time to appeal this charge has passed\. You can still send an appeal/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Appeal online' }).click();
  const form = page.getByRole('form', { name: 'Appeal this charge' });
  await expect(form).toContainText('it is marked late, the charge is not put on hold');
  await form.getByLabel('Your name').fill('Lee Late');
  await form.getByLabel('Your email').fill(email);
  await form.getByLabel('Your postal address').fill('7 Canal Street\nLeeds\nLS2 7AA');
  await form.getByText('Yes, I was driving').click();
  await form.getByLabel('Reason').selectOption({ label: 'Mitigating circumstances' });
  await form.getByLabel('Your appeal').fill('I was abroad when the notice came and have only now seen it.');
  await form.getByRole('button', { name: 'Send appeal' }).click();

  const reference = `APL-${pcn.pcnNumber}`;
  await confirmAppealFromEmail(page, email, pcn.pcnNumber);
  const status = page.getByRole('region', { name: 'Your appeal' });
  await expect(status).toContainText('Your appeal came after the time to appeal had ended, so the charge is not on hold.');
  await expect(page.getByText('This charge is on hold while we consider your appeal.')).toHaveCount(0);
  const ack = await waitForEmailTo(email, { subject: /received/ });
  expect(ack.text).toContain('the charge is not on hold');

  // The operator declines it as out of time: the page says so, and the charge stands.
  const listed = await request.get(`/api/appeals?search=${reference}`, { headers: bearer(adminToken) });
  const appealId = ((await listed.json()) as { data: { items: Array<{ id: string; isLate: boolean }> } }).data.items[0]!;
  expect(appealId.isLate).toBe(true);
  const declined = await request.post(`/api/appeals/${appealId.id}/decision`, {
    headers: bearer(adminToken),
    data: { outcome: 'DECLINED_LATE' },
  });
  expect(declined.status(), await declined.text()).toBe(200);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Your appeal' })).toContainText('Declined: made out of time');
  await expect(page.getByRole('region', { name: 'Your appeal' })).toContainText('we decided not to consider it. The charge stands.');
  await expectNoSeriousAxeViolations(page, 'a charge whose late appeal was declined');
});

test('a keeper who received a notice to keeper after a windscreen ticket appeals in time from /charge, and the charge is held', async ({
  page,
  request,
}) => {
  const officerToken = await apiToken(request, OFFICER);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const registration = `KP${suffix}`.slice(0, 7).toUpperCase();
  const email = `keeper.${suffix}@example.com`.toLowerCase();
  // The ticket was fixed 35 days ago, so the 28 days from it have passed; the notice to keeper
  // (paragraph 8) is posted today, and the keeper's 28 days run from the day it is given.
  const fixed = new Date(Date.now() - 35 * 86_400_000).toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: fixed, issuedAt: fixed });
  for (const status of ['UNDER_REVIEW', 'APPROVED']) {
    const moved = await request.patch(`/api/pcns/${pcn.id}/status`, { headers: bearer(adminToken), data: { status } });
    expect(moved.status(), await moved.text()).toBe(200);
  }
  const keeper = await request.put(`/api/pcns/${pcn.id}/keeper`, {
    headers: bearer(adminToken),
    data: {
      title: 'Mr',
      firstNames: 'Kit',
      lastName: 'Keeper',
      companyName: '',
      addressLines: ['3 Beck Road', 'Leeds'],
      postcode: 'LS7 1AA',
      make: 'Ford',
      model: 'Fiesta',
      colour: 'Red',
      vehicleConfirmed: true,
    },
  });
  expect(keeper.status(), await keeper.text()).toBe(200);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const letters = await request.post('/api/keeper-notices/letters', { headers: bearer(adminToken), data: { pcnIds: [pcn.id] } });
  expect(letters.status(), await letters.text()).toBe(200);
  const posted = await request.post('/api/keeper-notices/posted', {
    headers: bearer(adminToken),
    data: { pcnIds: [pcn.id], postedOn: today },
  });
  expect(posted.status(), await posted.text()).toBe(200);

  await page.goto(`/charge?ref=${encodeURIComponent(`PCN-${pcn.pcnNumber}`)}`);
  await page.getByLabel('Vehicle registration').fill(registration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByText(/The time to appeal this charge has passed/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Appeal online' }).click();
  const form = page.getByRole('form', { name: 'Appeal this charge' });
  await expect(form).not.toContainText('it is marked late');
  await form.getByLabel('Your name').fill('Kit Keeper');
  await form.getByLabel('Your email').fill(email);
  await form.getByLabel('Your postal address').fill('3 Beck Road\nLeeds\nLS7 1AA');
  await form.getByText('No, I am the keeper or another person').click();
  await form.getByLabel('Reason').selectOption({ label: 'Mitigating circumstances' });
  await form.getByLabel('Your appeal').fill('The notice to keeper reached me this week; I was not the driver.');
  await form.getByRole('button', { name: 'Send appeal' }).click();

  await confirmAppealFromEmail(page, email, pcn.pcnNumber);
  await expect(page.getByText('This charge is on hold while we consider your appeal.').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your appeal' })).not.toContainText('after the time to appeal had ended');
});
