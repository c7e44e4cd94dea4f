import { readFileSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import type { Appeal, Pcn } from '@parkpatrol/shared';
import { readPdfText } from '../../api/test/support/pdf.ts';
import { apiToken, bearer, createEvidencePcnThroughApi, createPcnThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';
import { enterAppealThroughApi } from './entered-appeal.ts';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';

/**
 * Decisions that cannot be taken back get a second look, at the laptop size the back office is
 * used at: an appeal's decision stays in view beside the evidence and shows its letter, as the
 * server will send it, before anything is recorded; a notice's review says it has an appeal and
 * leads to it; a bulk status change can be undone from its results.
 */
test.skip(({ isMobile }) => isMobile, 'the back office works at a desk');
test.use({ viewport: { width: 1366, height: 768 } });

/** react-aria hides the native radio under its label: the label is what a person presses. */
async function choose(form: Locator, label: string) {
  await form.locator('label.radio-field__option', { hasText: new RegExp(`^${label}$`) }).click();
  await expect(form.getByRole('radio', { name: label, exact: true })).toBeChecked();
}

test('an appeal is decided in view of the evidence, and its letter is read before the decision is recorded', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const adminToken = await apiToken(request, ADMIN);
  const officerToken = await apiToken(request, OFFICER);
  const suffix = uniqueSuffix();
  const now = new Date().toISOString();
  const registration = `D${suffix.slice(-6)}`;
  const pcn = await createEvidencePcnThroughApi(request, officerToken, {
    registration,
    carParkId: await firstCarParkId(request, officerToken),
    observedAt: now,
    issuedAt: now,
  });
  const appeal = await enterAppealThroughApi(request, adminToken, pcn, { name: `Dee Decision ${suffix}`, email: 'dee@example.com' });
  const appealState = async () =>
    ((await (await request.get(`/api/appeals/${appeal.id}`, { headers: bearer(adminToken) })).json()) as { data: Appeal }).data;

  // The review says the notice has an appeal, in its first view, and leads to it.
  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  const appealLink = page.getByRole('link', { name: `Open appeal ${appeal.reference}` });
  await expect(appealLink).toBeInViewport();
  const line = page.locator('.deadline-line').filter({ has: appealLink });
  await expect(line).toContainText('Open');
  await expect(line).toContainText(`Appeal ${appeal.reference}, received`);
  await expect(line).toContainText('respond by');
  await expectNoSeriousAxeViolations(page, 'a review of a notice with an appeal');
  await appealLink.click();

  // The appeal: the decision in the first view, and still in view beside the fourth photo.
  await expect(page.getByRole('heading', { level: 1, name: `Appeal ${appeal.reference}` })).toBeVisible();
  const decisionPanel = page.getByRole('region', { name: 'Decision', exact: true });
  await expect(decisionPanel).toBeInViewport();
  const form = page.getByRole('form', { name: 'Record the decision' });
  await expect(form.getByRole('radiogroup', { name: 'Outcome' })).toBeInViewport();
  const photos = page.locator('.evidence-large img');
  await expect(photos).toHaveCount(4);
  await photos.nth(3).scrollIntoViewIfNeeded();
  await expect(photos.nth(3)).toBeInViewport();
  await expect(decisionPanel).toBeInViewport();
  await snap(page, testInfo, 'appeal-decision-beside-evidence');
  await expectNoSeriousAxeViolations(page, 'an appeal at 1366 x 768');

  // Reject with reasons: first the outcome and the letter as it will be sent, nothing recorded.
  const reasons = 'The permit in the photo had expired the day before.\nThe signs at the entrance say a permit must be valid on the day.';
  await choose(form, 'Reject');
  await form.getByLabel('Reasons').fill(reasons);
  await form.getByRole('button', { name: 'Record decision' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Record the decision on ${appeal.reference}?` });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('Outcome: Rejected.');
  await expect(confirm).toContainText('The letter below is emailed to dee@example.com.');
  await expect(confirm).toContainText('A recorded decision cannot be changed.');
  const letter = confirm.getByRole('region', { name: 'Decision on your appeal' });
  await expect(letter).toContainText(`Dear Dee Decision ${suffix},`);
  await expect(letter).toContainText('Our decision: your appeal is rejected');
  await expect(letter).toContainText('The permit in the photo had expired the day before.');
  await expect(letter).toContainText('Your right to an independent appeal');
  await expect(confirm.getByRole('button', { name: 'Record decision' })).toBeInViewport();
  await snap(page, testInfo, 'appeal-decision-confirm');
  await expectNoSeriousAxeViolations(page, 'the decision and its letter before recording');
  expect((await appealState()).status).toBe('OPEN');

  // The way back keeps the appeal open and what was written.
  await confirm.getByRole('button', { name: 'Keep the appeal open' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(form.getByLabel('Reasons')).toHaveValue(reasons);
  expect((await appealState()).status).toBe('OPEN');

  // Asked once more, and recorded.
  await form.getByRole('button', { name: 'Record decision' }).click();
  await confirm.getByRole('button', { name: 'Record decision' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(decisionPanel).toContainText('Decision recorded. The motorist is emailed the letter.');
  await expect(decisionPanel).toContainText('Rejected');
  const decided = await appealState();
  expect(decided.status).toBe('REJECTED');
  // The letter kept and sent says what the preview said.
  const downloading = page.waitForEvent('download');
  await decisionPanel.getByRole('button', { name: 'Download decision letter' }).click();
  const { flat } = await readPdfText(readFileSync(await (await downloading).path()));
  expect(flat).toContain('Our decision: your appeal is rejected');
  expect(flat).toContain('The permit in the photo had expired the day before.');

  // The review shows the outcome, when it came and when it was decided.
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  const decidedLine = page.locator('.deadline-line').filter({ has: page.getByRole('link', { name: `Open appeal ${appeal.reference}` }) });
  await expect(decidedLine).toBeInViewport();
  await expect(decidedLine).toContainText('Rejected');
  await expect(decidedLine).toContainText('decided');
  const card = page.getByRole('region', { name: 'Appeal', exact: true });
  await expect(card).toContainText('Received');
  await expect(card).toContainText('Decided');
});

test('a bulk status change can be undone from its results; a PCN changed since is reported and left, and a final status says it has no undo', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const adminToken = await apiToken(request, ADMIN);
  const officerToken = await apiToken(request, OFFICER);
  const prefix = `B${uniqueSuffix().slice(-4)}`;
  const made: Array<{ id: string; pcnNumber: string }> = [];
  for (const letter of ['A', 'B', 'C']) made.push(await createPcnThroughApi(request, officerToken, { registration: `${prefix}${letter}` }));
  const statusOf = async (id: string) =>
    ((await (await request.get(`/api/pcns/${id}`, { headers: bearer(adminToken) })).json()) as { data: Pcn }).data.status;

  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?search=${prefix.toLowerCase()}`);
  const grid = page.getByRole('grid', { name: 'PCNs' });
  const rows = grid.getByRole('row').filter({ hasText: prefix });
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) await row.locator('label.checkbox').click();
  const bar = page.getByRole('region', { name: 'Selection' });
  await bar.getByLabel('Change status to').selectOption({ label: 'Approved' });
  await bar.getByRole('button', { name: 'Change status…' }).click();
  await page.getByRole('alertdialog', { name: 'Move 3 PCNs to Approved?' }).getByRole('button', { name: 'Approve (3 PCNs)' }).click();
  const results = page.getByRole('region', { name: 'Status change results' });
  await expect(results.getByRole('row').filter({ hasText: 'Success' })).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Approved' })).toHaveCount(3);
  const undo = results.getByRole('button', { name: 'Undo status change' });
  await expect(undo).toHaveAccessibleDescription(
    'Moves the 3 PCNs changed back to the status each had; any changed since are left as they are.',
  );
  await expectNoSeriousAxeViolations(page, 'Manage PCNs with a bulk change to undo');

  // Meanwhile another admin marks one of them issued: the undo leaves it, and says so.
  const issued = made[2]!;
  const moved = await request.patch(`/api/pcns/${issued.id}/status`, { headers: bearer(adminToken), data: { status: 'ISSUED' } });
  expect(moved.status(), await moved.text()).toBe(200);
  await undo.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Undone' })).toHaveText(
    'Undone: 2 PCNs back to the status each had; 1 PCN could not be moved back (see the results below).',
  );
  const undone = page.getByRole('region', { name: 'Undo results' });
  await expect(undone.getByRole('row').filter({ hasText: `PCN-${issued.pcnNumber}` })).toContainText(
    'Changed again since (now Issued): left as it is',
  );
  await expect(undone.getByRole('button', { name: 'Undo status change' })).toHaveCount(0);
  await expect(rows.filter({ hasText: 'Submitted' })).toHaveCount(2);
  expect([await statusOf(made[0]!.id), await statusOf(made[1]!.id), await statusOf(issued.id)]).toEqual([
    'SUBMITTED',
    'SUBMITTED',
    'ISSUED',
  ]);
  // Each move back is in the audit trail as a status change, with the note that it was an undo.
  const audit = (await (await request.get(`/api/pcns/${made[0]!.id}/audit`, { headers: bearer(adminToken) })).json()) as {
    data: { entries: Array<{ action: string; changes: { status?: { to: string }; note?: { to: string } } }> };
  };
  expect(
    audit.data.entries
      .filter((entry) => entry.action === 'status_changed')
      .map((entry) => [entry.changes.status?.to, entry.changes.note?.to]),
  ).toEqual([
    ['UNDER_REVIEW', undefined],
    ['APPROVED', undefined],
    ['UNDER_REVIEW', 'Undo of a bulk status change'],
    ['SUBMITTED', 'Undo of a bulk status change'],
  ]);
  await snap(page, testInfo, 'manage-pcns-bulk-undone');

  // A move to a final status has no undo: the results say so before anything is pressed.
  const submitted = rows.filter({ hasText: 'Submitted' });
  for (const row of await submitted.all()) await row.locator('label.checkbox').click();
  await bar.getByLabel('Change status to').selectOption({ label: 'Rejected' });
  await bar.getByRole('button', { name: 'Change status…' }).click();
  await page.getByRole('alertdialog', { name: 'Move 2 PCNs to Rejected?' }).getByRole('button', { name: 'Reject (2 PCNs)' }).click();
  const rejected = page.getByRole('region', { name: 'Status change results' });
  await expect(rejected.getByRole('row').filter({ hasText: 'Success' })).toHaveCount(2);
  await expect(rejected).toContainText('No undo: Rejected is a final status, so these 2 PCNs cannot be moved back.');
  await expect(rejected.getByRole('button', { name: 'Undo status change' })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'Manage PCNs after a change to a final status');
});
