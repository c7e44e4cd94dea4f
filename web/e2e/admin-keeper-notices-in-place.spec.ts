import { readFileSync } from 'node:fs';
import {
  describePostingWindow,
  formatCalendarDate,
  KEEPER_REPLY_COLUMNS,
  KEEPER_REPLY_DATE_FORMAT,
  KEEPER_STATE_LABELS,
  ukDate,
  VEHICLE_MISMATCH_REASON,
  type KeeperNotice,
} from '@parkpatrol/shared';
import { apiToken, bearer, createEvidencePcnThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';
import { toDateInput } from '../src/lib/format-date.ts';

/**
 * Notices to Keeper at a desk (1366 x 768), the work of a DVLA batch without leaving the screen:
 * the keeper reply template downloaded and filled in for three approved charges, imported, each
 * vehicle confirmed or refused beside its number plate photo one after another (by mouse, then by
 * keyboard), the refusal recorded and the refused charge given no letter, and the queue showing each window whole, a paragraph 9 notice too early for today's
 * post marked 'Not yet' and left out of a selection until the posting day is inside its window.
 */
test.skip(({ isMobile }) => isMobile, 'the back office works at a desk');
test.use({ viewport: { width: 1366, height: 768 } });

const DAY = 24 * 60 * 60 * 1000;
const SHOTS = [['vehicle-in-context'], ['number-plate'], ['signage'], ['windscreen-no-permit']] as const;

/** The day in the DVLA's order (DD/MM/YYYY), as the template's example writes it. */
function dvlaDay(isoDay: string): string {
  const [year, month, day] = isoDay.split('-');
  return `${day}/${month}/${year}`;
}

test('an admin fills the template, confirms each vehicle in place and sees each window whole', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const officerToken = await apiToken(request, OFFICER);
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await firstCarParkId(request, officerToken);
  const suffix = uniqueSuffix();
  const file = async (registration: string, servedAt: string, noticeServedBy: 'AFFIXED' | 'DRIVE_OFF') => {
    const pcn = await createEvidencePcnThroughApi(request, officerToken, {
      registration,
      carParkId,
      observedAt: servedAt,
      issuedAt: servedAt,
      noticeServedBy,
      photos: SHOTS.map((shots) => ({ shots: [...shots] })),
    });
    for (const status of ['UNDER_REVIEW', 'APPROVED']) {
      const moved = await request.patch(`/api/pcns/${pcn.id}/status`, { headers: bearer(adminToken), data: { status } });
      expect(moved.status(), await moved.text()).toBe(200);
    }
    return { ...pcn, registration, servedOn: ukDate(servedAt) };
  };
  // A drive-off a minute ago: paragraph 9, its window opening on the next working day. Two
  // tickets fixed 40 days ago: paragraph 8, inside their windows today (nearer the deadline than
  // any other spec's 35-day-old notices, so they come first in the queue's order).
  const driveOff = await file(`KD${suffix}`.slice(0, 7), new Date(Date.now() - 60 * 1000).toISOString(), 'DRIVE_OFF');
  const fixedA = await file(`KE${suffix}`.slice(0, 7), new Date(Date.now() - 40 * DAY).toISOString(), 'AFFIXED');
  const fixedB = await file(`KF${suffix}`.slice(0, 7), new Date(Date.now() - 40 * DAY).toISOString(), 'AFFIXED');
  const title = (pcn: { pcnNumber: string }) => `PCN-${pcn.pcnNumber}`;
  const window9 = driveOff.keeperNotice as KeeperNotice;
  expect(window9.route).toBe('PARAGRAPH_9');

  await signIn(page, ADMIN);
  await page.goto('/admin/keeper-notices');
  await expect(page.getByRole('heading', { level: 1, name: 'Notices to Keeper' })).toBeVisible();

  // The template: the import's columns and one example row, as the page shows them, with the date format said.
  const replies = page.getByRole('region', { name: 'Import keeper replies' });
  await expect(replies).toContainText(KEEPER_REPLY_DATE_FORMAT);
  const downloading = page.waitForEvent('download');
  await replies.getByRole('button', { name: 'Download the template (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('keeper-replies-template.csv');
  const template = readFileSync(await download.path(), 'utf8');
  const [header, example, ...rest] = template.split('\r\n');
  expect(rest).toEqual(['']);
  expect(header).toBe(KEEPER_REPLY_COLUMNS.join(','));
  await expect(replies.getByRole('region', { name: 'Example keeper replies file' })).toHaveText(`${header}\n${example}`);
  const exampleCells = example!.split(',');
  expect(exampleCells).toHaveLength(KEEPER_REPLY_COLUMNS.length);

  // The DVLA's replies, written over the example row: the third charge's car is not the one photographed.
  const cellsFor = (pcn: typeof driveOff, vehicle: { make: string; model: string; colour: string }) => {
    const cells = [...exampleCells];
    const set = (column: (typeof KEEPER_REPLY_COLUMNS)[number], value: string) => (cells[KEEPER_REPLY_COLUMNS.indexOf(column)] = value);
    set('reference', title(pcn));
    set('registration', pcn.registration);
    set('event_date', dvlaDay(pcn.servedOn));
    set('make', vehicle.make);
    set('model', vehicle.model);
    set('colour', vehicle.colour);
    return cells.join(',');
  };
  const csv = [
    header,
    cellsFor(driveOff, { make: 'Ford', model: 'Focus', colour: 'Blue' }),
    cellsFor(fixedA, { make: 'Toyota', model: 'Yaris', colour: 'Red' }),
    cellsFor(fixedB, { make: 'Vauxhall', model: 'Corsa', colour: 'Silver' }),
  ].join('\r\n');
  await page.getByLabel('Keeper replies (CSV)').setInputFiles({ name: 'replies.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import replies' }).click();
  await expect(page.getByRole('status').filter({ hasText: '3 recorded, 0 already recorded, 0 to look at.' })).toBeVisible();

  // Each vehicle in turn, its plate photo beside the DVLA's make, model and colour: one press each.
  const checks = page.getByRole('region', { name: 'Vehicles to confirm' });
  // 'of 3' unless another spec's replies came in meanwhile (theirs come later: further from their deadline).
  const card = (position: number, pcn: { pcnNumber: string }) =>
    checks.getByRole('region', { name: new RegExp(`^Vehicle ${position} of \\d+: ${title(pcn)}$`) });
  let presses = 0;

  const first = card(1, driveOff);
  await expect(first.getByRole('img', { name: `Number plate photo of ${title(driveOff)}` })).toBeVisible();
  await expect(first.getByRole('img')).toHaveCount(1);
  const dvla = first.getByRole('definition');
  await expect(dvla).toHaveText([driveOff.registration, 'Ford', 'Focus', 'Blue']);
  await expect(
    first.getByRole('link', { name: `Open the number plate photo of ${title(driveOff)} full size in a new tab` }),
  ).toHaveAttribute('href', /\/api\//);
  await snap(page, testInfo, 'keeper-vehicle-check');
  await expectNoSeriousAxeViolations(page, 'a vehicle to confirm on Notices to Keeper');
  await first.getByRole('button', { name: 'Matches' }).click();
  presses++;

  // The next card takes the focus (its heading, read out first); after its photo, its two answers are the next stops of the Tab key.
  const second = card(2, fixedA);
  await expect(second.getByRole('heading', { name: new RegExp(`^Vehicle 2 of \\d+: ${title(fixedA)}$`) })).toBeFocused();
  await expect(second.getByRole('definition')).toHaveText([fixedA.registration, 'Toyota', 'Yaris', 'Red']);
  await page.keyboard.press('Tab');
  await expect(second.getByRole('link', { name: /^Open the number plate photo/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(second.getByRole('button', { name: 'Matches' })).toBeFocused();
  await page.keyboard.press('Enter');
  presses++;

  const third = card(3, fixedB);
  await expect(third.getByRole('heading', { name: new RegExp(`^Vehicle 3 of \\d+: ${title(fixedB)}$`) })).toBeFocused();
  await expect(third.getByRole('definition')).toHaveText([fixedB.registration, 'Vauxhall', 'Corsa', 'Silver']);
  for (let stop = 0; stop < 3; stop++) await page.keyboard.press('Tab');
  await expect(third.getByRole('button', { name: 'Does not match' })).toBeFocused();
  await page.keyboard.press('Enter');
  presses++;

  await expect(
    checks.getByText('All 3 vehicles are checked.').or(checks.getByRole('heading', { name: /^Vehicle 4 of \d+:/ })),
  ).toBeFocused();
  await expect(checks).toContainText('2 confirmed, 1 does not match.');
  const checked = checks.getByRole('list', { name: 'Vehicles checked' });
  await expect(checked.getByRole('listitem')).toHaveText([
    `${title(driveOff)} (${driveOff.registration}): Matches: keeper ready`,
    `${title(fixedA)} (${fixedA.registration}): Matches: keeper ready`,
    `${title(fixedB)} (${fixedB.registration}): Does not match: no letter goes. Open the review to correct the registration or the keeper`,
  ]);
  // Three vehicles, three presses: no trip to the review and back.
  expect(presses).toBe(3);
  for (const [pcn, state] of [
    [driveOff, 'CONFIRMED'],
    [fixedA, 'CONFIRMED'],
    [fixedB, 'MISMATCH'],
  ] as const) {
    const detail = await request.get(`/api/pcns/${pcn.id}`, { headers: bearer(adminToken) });
    expect(((await detail.json()) as { data: { keeperState: string } }).data.keeperState, title(pcn)).toBe(state);
  }
  // 'Does not match' is recorded: who answered, and the charge's audit trail says so.
  const refused = (await (await request.get(`/api/pcns/${fixedB.id}`, { headers: bearer(adminToken) })).json()) as {
    data: { keeper: { vehicleMismatchAt: string | null; vehicleMismatchBy: string | null } };
  };
  expect(refused.data.keeper.vehicleMismatchAt).not.toBeNull();
  expect(refused.data.keeper.vehicleMismatchBy).toBeTruthy();
  const trail = (await (await request.get(`/api/pcns/${fixedB.id}/audit`, { headers: bearer(adminToken) })).json()) as {
    data: { entries: Array<{ action: string; changes: Record<string, unknown> }> };
  };
  expect(trail.data.entries.filter((entry) => entry.action === 'keeper_changed').at(-1)?.changes).toMatchObject({
    vehicleMismatch: { from: false, to: true },
  });

  // The queue: every window whole, the drive-off's too, and marked 'Not yet' for today's post.
  const queue = page.getByRole('grid', { name: 'Approved notices waiting for a notice to keeper' });
  const rowOf = (pcn: { pcnNumber: string }) => queue.getByRole('row').filter({ hasText: title(pcn) });
  await expect(rowOf(driveOff)).toContainText(describePostingWindow(window9));
  await expect(rowOf(driveOff)).toContainText(/Post between \d+ \w{3} and \d+ \w{3}/);
  const firstDay = formatCalendarDate(window9.firstPostingDate!).replace(/ \d{4}$/, '');
  await expect(rowOf(driveOff)).toContainText(`Not yet: from ${firstDay}`);
  await expect(rowOf(driveOff)).toContainText('Keeper ready');
  await expect(rowOf(fixedA)).toContainText(/Post between \d+ \w{3} and \d+ \w{3}/);
  await expect(rowOf(fixedA)).not.toContainText('Not yet');
  await expect(rowOf(fixedB)).toContainText(KEEPER_STATE_LABELS.MISMATCH);
  await expect(rowOf(driveOff).getByRole('checkbox')).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: /marked 'Not yet': too early to post on/ })).toBeVisible();

  // Selecting every notice leaves it out, and says so.
  const selectAll = queue
    .getByRole('columnheader')
    .getByRole('checkbox', { name: 'Select every notice that can be posted on the day chosen' });
  await expect(selectAll).toHaveCount(1);
  // The visible box is what a person clicks; the input inside it is visually hidden.
  await queue.getByRole('columnheader').locator('label.checkbox').click();
  await expect(rowOf(fixedA).getByRole('checkbox')).toBeChecked();
  await expect(rowOf(driveOff).getByRole('checkbox')).not.toBeChecked();
  await expect(
    page.getByRole('status').filter({ hasText: /is selected; \d+ not yet in (its window is|their windows are) left out\./ }),
  ).toBeVisible();
  await snap(page, testInfo, 'keeper-queue-not-yet');
  await expectNoSeriousAxeViolations(page, 'the queue with a notice not yet postable');

  // The refused vehicle gets no notice to keeper: the batch is refused, naming it and why.
  await expect(rowOf(fixedB).getByRole('checkbox')).toBeChecked();
  await page.getByRole('button', { name: /^Generate notices to keeper/ }).click();
  await expect(
    page
      .getByRole('list', { name: 'Notices that cannot have a letter' })
      .getByRole('listitem')
      .filter({ hasText: title(fixedB) }),
  ).toHaveText(`${title(fixedB)}: ${VEHICLE_MISMATCH_REASON}`);
  await rowOf(fixedB).locator('label.checkbox').click();
  await expect(rowOf(fixedB).getByRole('checkbox')).not.toBeChecked();

  // Posted on the first day of its window, it can be chosen.
  await page.getByLabel('Posting day').fill(toDateInput(window9.firstPostingDate!));
  await expect(rowOf(driveOff)).not.toContainText('Not yet');
  await expect(rowOf(driveOff).getByRole('checkbox')).toBeEnabled();
  await rowOf(driveOff).locator('label.checkbox').click();
  await expect(rowOf(driveOff).getByRole('checkbox')).toBeChecked();

  // The refused charge's review says so beside its keeper, from the row's link.
  await rowOf(fixedB)
    .getByRole('link', { name: title(fixedB) })
    .click();
  await expect(page.getByRole('note', { name: KEEPER_STATE_LABELS.MISMATCH })).toContainText(/^Does not match the photos: answered by /);
  await expectNoSeriousAxeViolations(page, 'the review of a charge whose vehicle does not match');
});
