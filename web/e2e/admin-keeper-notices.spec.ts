import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { addDays, formatCalendarDate, ukDate } from '@parkpatrol/shared';
import { readPdfText } from '../../api/test/support/pdf.ts';
import { apiToken, bearer, createEvidencePcnThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';
import { toDateInput } from '../src/lib/format-date.ts';

/**
 * The keeper stage as an admin works it: approved notices with tickets fixed five weeks ago (in
 * their paragraph 8 window today), the DVLA's replies imported from a CSV (one row that does not
 * match is listed and changes nothing), the vehicle confirmed beside the photos, letters made
 * for tomorrow then marked posted today (refused: they are dated tomorrow), made again for today,
 * read back and marked posted; the letters kept with the notice, downloaded with the hash shown.
 * The letters' pages are kept as PNG.
 */
test.skip(({ isMobile }) => isMobile, 'the back office works at a desk');

const DAY = 24 * 60 * 60 * 1000;

/** react-aria draws its own box over the native checkbox: its label is what a person presses. */
async function select(row: Locator) {
  await row.locator('label.checkbox').click();
  await expect(row.getByRole('checkbox')).toBeChecked();
}

/** Generates the selected notices' letters for the posting day shown, and answers the PDF. */
async function generateLetters(page: Page, count: number): Promise<Buffer> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: `Generate notices to keeper (${count})` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^notices-to-keeper-\d{4}-\d{2}-\d{2}\.pdf$/);
  return readFileSync(await download.path());
}

/** Each page of the PDF as a PNG for a reviewer, where poppler is installed; the text checks need only pdfjs. */
function keepPagesAsPng(pdf: Buffer, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.pdf`);
  writeFileSync(file, pdf);
  try {
    execFileSync('pdftoppm', ['-r', '70', '-png', file, testInfo.outputPath(name)]);
  } catch {
    testInfo.annotations.push({ type: 'note', description: 'pdftoppm is not installed: the letters are kept as PDF only' });
  }
}

test('an admin imports keeper replies, confirms the vehicle, generates letters and marks them posted', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const officerToken = await apiToken(request, OFFICER);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const plates = [`KA${suffix}`.slice(0, 7), `KB${suffix}`.slice(0, 7)];
  // A ticket fixed to each windscreen 35 days ago: paragraph 8 lets the letter go from day 29.
  const servedAt = new Date(Date.now() - 35 * DAY).toISOString();
  const pcns = [];
  for (const registration of plates) {
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
    pcns.push(pcn);
  }
  const [first, second] = pcns as [(typeof pcns)[number], (typeof pcns)[number]];
  const title = (pcn: { pcnNumber: string }) => `PCN-${pcn.pcnNumber}`;

  await signIn(page, ADMIN);
  await page.goto('/admin/keeper-notices');
  await expect(page.getByRole('heading', { level: 1, name: 'Notices to Keeper' })).toBeVisible();
  const queue = page.getByRole('grid', { name: 'Approved notices waiting for a notice to keeper' });
  const rowOf = (pcn: { pcnNumber: string }) => queue.getByRole('row').filter({ hasText: title(pcn) });
  await expect(rowOf(first)).toContainText('No keeper yet');
  await expect(rowOf(first)).toContainText(/Post between \d+ \w+ and \d+ \w+/);

  // The DVLA's replies: both notices' keepers, and a row whose registration is another car's.
  const csv = [
    'reference,registration,event_date,title,first_names,last_name,company_name,address_line_1,address_line_2,address_line_3,address_line_4,postcode,make,model,colour,no_keeper_reason',
    `${title(first)},${plates[0]},,Ms,Kira,Keeper,,12 Acacia Avenue,Headingley,Leeds,,LS6 3AA,Ford,Focus,Blue,`,
    `${title(second)},${plates[1]},,,,,Lease Co Ltd,1 Fleet Street,,London,,EC4A 2AB,Vauxhall,Corsa,Silver,`,
    `${title(second)},ZZ99ZZZ,,Mr,Wrong,Car,,2 Road,,Leeds,,LS1 1AA,VW,Golf,Black,`,
  ].join('\n');
  await page.getByLabel('Keeper replies (CSV)').setInputFiles({ name: 'replies.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import replies' }).click();
  await expect(page.getByRole('status').filter({ hasText: '2 recorded, 0 already recorded, 1 to look at.' })).toBeVisible();
  const results = page.getByRole('grid', { name: 'Keeper reply results' });
  await expect(results.getByRole('row').filter({ hasText: 'Does not match the notice' })).toContainText(
    `The registration ZZ99ZZZ is not the notice's (${plates[1]})`,
  );
  await expect(rowOf(first)).toContainText('Vehicle to confirm');
  await snap(page, testInfo, 'keeper-notices-imported');
  await expectNoSeriousAxeViolations(page, 'notices to keeper with imported replies');

  // Letters wait for the vehicle to be confirmed: asking now names the notice and why.
  await select(rowOf(first));
  await page.getByRole('button', { name: /^Generate notices to keeper/ }).click();
  await expect(page.getByRole('list', { name: 'Notices that cannot have a letter' })).toContainText(
    `${title(first)}: The DVLA's vehicle has not been confirmed against the photos`,
  );

  // The review shows the DVLA's vehicle beside the photos; the admin confirms it.
  await rowOf(first)
    .getByRole('link', { name: title(first) })
    .click();
  const keeperCard = page.getByRole('region', { name: 'Registered keeper' });
  await expect(keeperCard).toContainText('Ms Kira Keeper');
  await expect(keeperCard).toContainText('DVLA vehicle: Blue Ford Focus');
  await keeperCard.getByRole('button', { name: 'The photos show a Blue Ford Focus' }).click();
  await expect(keeperCard).toContainText('Matches the photos: confirmed by');
  await snap(page, testInfo, 'keeper-on-review');
  const confirmed = await request.get(`/api/pcns/${second.id}`, { headers: bearer(adminToken) });
  const keeper = ((await confirmed.json()) as { data: { keeper: Record<string, unknown> } }).data.keeper;
  const { source: _s, vehicleConfirmedAt: _a, vehicleConfirmedBy: _b, updatedAt: _u, ...details } = keeper;
  expect(
    (
      await request.put(`/api/pcns/${second.id}/keeper`, { headers: bearer(adminToken), data: { ...details, vehicleConfirmed: true } })
    ).status(),
  ).toBe(200);

  await page.goto('/admin/keeper-notices');
  await expect(rowOf(first)).toContainText('Keeper ready');
  await expect(rowOf(second)).toContainText('Keeper ready');
  await select(rowOf(first));
  await select(rowOf(second));
  // Made for tomorrow's post: dated tomorrow, so they cannot be marked posted today.
  const today = ukDate(new Date());
  const tomorrow = addDays(today, 1);
  const postingDay = page.getByLabel('Posting day');
  await expect(postingDay).toHaveValue(toDateInput(today));
  await postingDay.fill(toDateInput(tomorrow));
  const early = await readPdfText(await generateLetters(page, 2));
  expect(early.flat).toContain(`Date sent: ${formatCalendarDate(tomorrow)}`);
  await expect(
    page.getByText(`2 letters dated ${formatCalendarDate(tomorrow)}, ready to print and post on ${formatCalendarDate(tomorrow)}`),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Mark posted' }).click();
  const refused = page.getByRole('dialog', { name: 'Mark posted' });
  await expect(refused.getByLabel('Posted on')).toHaveValue(toDateInput(today));
  await refused.getByRole('button', { name: 'Mark posted' }).click();
  const mismatched = refused.getByRole('list', { name: 'Letters to make again' });
  await expect(mismatched).toContainText(
    `${title(first)}: Its letter is dated ${formatCalendarDate(tomorrow)}, not ${formatCalendarDate(today)}`,
  );
  await expect(mismatched).toContainText(title(second));
  await expect(refused).toContainText('Nothing was marked posted.');
  await snap(page, testInfo, 'keeper-notices-letter-date-mismatch');
  await expectNoSeriousAxeViolations(page, 'marking posted letters dated another day');
  await refused.getByRole('button', { name: 'Cancel' }).click();

  // Made again for today's post.
  await postingDay.fill(toDateInput(today));
  const pdf = await generateLetters(page, 2);
  keepPagesAsPng(pdf, testInfo, 'notices-to-keeper');
  // The letters were made as a batch off the request: listed, newest first, and downloaded again as made.
  const batches = page.getByRole('list', { name: 'Recent batches of letters' });
  await expect(batches.getByRole('listitem').first()).toContainText(`2 letters dated ${formatCalendarDate(today)}`);
  await expect(batches.getByRole('listitem').first()).toContainText('Ready');
  const again = page.waitForEvent('download');
  await batches.getByRole('button', { name: `Download the 2 letters dated ${formatCalendarDate(today)}` }).click();
  expect(readFileSync(await (await again).path()).equals(pdf)).toBe(true);
  const { flat } = await readPdfText(pdf);
  expect(flat).toContain(`Date sent: ${formatCalendarDate(today)}`);
  for (const statement of [
    'NOTICE TO KEEPER',
    'Protection of Freedoms Act 2012, Schedule 4, paragraph 8',
    'Ms Kira Keeper',
    'Lease Co Ltd',
    `Reference: ${title(first)}`,
    `Reference: ${title(second)}`,
    'A notice to driver for this period of parking was given at',
    'does not know both the name of the driver and a current address for service for the driver',
    'have the right to recover from you, the keeper, so much of that amount as remains unpaid',
    'the independent appeals service',
    'This notice was sent by post on',
  ]) {
    expect(flat, statement).toContain(statement);
  }
  await expect(
    page
      .getByRole('status')
      .or(page.getByRole('alert'))
      .filter({ hasText: `2 letters dated ${formatCalendarDate(today)}, ready to print and post today` }),
  ).toBeVisible();

  // Posted today: both to Issued, and off the queue.
  await page.getByRole('button', { name: 'Mark posted' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mark posted' });
  await dialog.getByLabel('Proof of posting reference').fill('CP-E2E-0001');
  await dialog.getByRole('button', { name: 'Mark posted' }).click();
  await expect(page.getByText(/2 notices marked posted and issued\. Presumed given on \d{4}-\d{2}-\d{2}\./)).toBeVisible();
  await expect(rowOf(first)).toHaveCount(0);
  const issued = await request.get(`/api/pcns/${first.id}`, { headers: bearer(adminToken) });
  const data = ((await issued.json()) as { data: { status: string; keeperNotice: { postedOn: string | null } } }).data;
  expect(data.status).toBe('ISSUED');
  expect(data.keeperNotice.postedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await snap(page, testInfo, 'keeper-notices-posted');

  // What was sent is kept: both letters, each with its hash; the one posted downloads as those bytes.
  await page.goto(`/admin/pcns?review=${first.id}`);
  const documents = page.getByRole('region', { name: 'Documents sent' });
  await expect(documents.getByRole('listitem').filter({ hasText: 'Notice to keeper' })).toHaveCount(2);
  const posted = documents.getByRole('listitem').filter({ hasText: `dated ${formatCalendarDate(today)}` });
  const shownHash = (await posted.locator('code').textContent())?.trim();
  expect(shownHash).toMatch(/^[0-9a-f]{64}$/);
  const keptDownload = page.waitForEvent('download');
  await posted.getByRole('button', { name: `Download the notice to keeper, dated ${formatCalendarDate(today)}` }).click();
  const kept = readFileSync(await (await keptDownload).path());
  expect(createHash('sha256').update(kept).digest('hex')).toBe(shownHash);
  expect((await readPdfText(kept)).flat).toContain(`Reference: ${title(first)}`);
  await snap(page, testInfo, 'review-documents-sent');

  // The keeper pays the full £100 (the reduction lapsed weeks ago): the charge is paid.
  const payments = page.getByRole('region', { name: 'Payments' });
  await payments.getByLabel('Amount (£)').fill('100');
  await payments.getByLabel('Method').selectOption('CARD');
  await payments.getByLabel('Payment reference').fill('CARD-0001');
  await payments.getByRole('button', { name: 'Record payment' }).click();
  await expect(payments).toContainText(/£100 by card on \d+ \w+ \d{4} \(CARD-0001\)/);
  await expect(page.getByRole('region', { name: 'Status history' })).toContainText('Paid in full: £100 received');
  await expectNoSeriousAxeViolations(page, 'the review with a payment');
});
