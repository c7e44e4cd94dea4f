import type { Page } from '@playwright/test';
import { ADMIN, apiToken, bearer, createCarPark, createOfficer, createUserThroughApi, uniqueSuffix } from './admin-support.ts';
import {
  choose,
  clockStartWithinOneDay,
  chooseOffence,
  evidencePhotos,
  expect,
  expectNoSeriousAxeViolations,
  markChecklistShots,
  markShot,
  signIn,
  snap,
  test,
  uniqueRegistration,
} from './fixtures.ts';

/**
 * Evidence on the officer's phone, end to end: a stay's observation needs a second visit's photo
 * after consideration + grace before Submit issues it, the photo checklist marks coverage, each photo keeps its
 * capture facts to the detail page, and a second notice for the same parking event asks why.
 * The page's clock is Playwright's: the server measures the wait against the X-Device-Time the
 * page sends, so moving the page clock forward is what a real wait would be.
 */

const POSITION = { latitude: 51.501364, longitude: -0.14189, accuracy: 12 };

test.use({ permissions: ['geolocation'], geolocation: POSITION });

async function fillVehicleStep(page: Page, registration: string, carParkName: string) {
  await page.getByLabel('Vehicle registration').fill(registration);
  await choose(page, 'Car park', carParkName);
}

test('a stay needs a second visit after consideration + grace; checklist, capture facts and the duplicate warning', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  // Set-up through the admin API: a car park where a stay applies, and an officer assigned to it.
  const adminToken = await apiToken(request, ADMIN);
  const suffix = uniqueSuffix();
  const carParkName = `Stay Car Park ${suffix}`;
  const created = await request.post('/api/car-parks', {
    headers: bearer(adminToken),
    data: { name: carParkName, siteCode: `ST${suffix}`.slice(0, 12) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const carParkId = ((await created.json()) as { data: { id: string } }).data.id;
  const updated = await request.put(`/api/car-parks/${carParkId}`, {
    headers: bearer(adminToken),
    data: { stayAppliesByDefault: true, considerationMinutes: 5, graceMinutes: 10 },
  });
  expect(updated.status(), await updated.text()).toBe(200);
  const officer = { email: `stay-${testInfo.project.name}-${suffix.toLowerCase()}@example.com`, password: 'stayofficer1' };
  await createUserThroughApi(request, adminToken, { firstName: 'Sam', lastName: 'Stay', ...officer, carParkIds: [carParkId] });

  // Time flows from now (earlier near midnight); fastForward jumps it the way a real wait would.
  await page.clock.install({ time: clockStartWithinOneDay(30) });
  await signIn(page, officer);
  const registration = uniqueRegistration(testInfo);

  // ---- step 1: a stay applies, so the first sighting is required, under the car park ----
  await page.goto('/pcn/new');
  await fillVehicleStep(page, registration, carParkName);
  await expect(page.getByRole('switch', { name: 'A stay applies' })).toBeChecked();
  await expect(page.getByText("This car park's setting: a stay applies.")).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Record when the vehicle was first seen: a stay applies' })).toBeVisible();
  await page.getByRole('button', { name: 'Vehicle first seen', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Observation' }).getByRole('timer').first()).toHaveText(/^Observed for /);
  const explanation = page.getByRole('region', { name: 'Observation' }).locator('.observation__explanation');
  await expect(explanation).toHaveText(
    /5 minutes' consideration and 10 minutes' grace must pass after first sighting\. You can issue this notice at \d\d:\d\d/,
  );
  await snap(page, testInfo, 'evidence-timer-running');
  await expectNoSeriousAxeViolations(page, 'vehicle step with the observation timer');
  await page.getByRole('button', { name: 'Next' }).click();

  // ---- step 2 ----
  await expect(page.getByRole('heading', { level: 2, name: /Offence Information/ })).toBeFocused();
  await chooseOffence(page, 'Parking without permit');
  await page.getByLabel('Location').fill('Row C, bay 14');
  await page.getByRole('button', { name: 'Next' }).click();

  // ---- step 3: the checklist marks coverage as photos are tagged ----
  await expect(page.getByRole('heading', { level: 2, name: /Upload Evidence/ })).toBeFocused();
  await page.getByLabel('Choose photos').setInputFiles(evidencePhotos());
  await expect(page.locator('.previews img')).toHaveCount(4);
  const shotsNeeded = page.getByRole('list', { name: 'Shots needed' });
  await expect(
    page.getByText('0 of 4 shots covered. Missing: Number plate, Vehicle in context, Signage and Windscreen, no permit.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Mark which photo shows each shot this offence needs.' })).toBeVisible();
  await markChecklistShots(page, ['Number plate']);
  await expect(shotsNeeded.getByRole('listitem').filter({ hasText: 'Number plate' })).toContainText('Number plate: Photo 1');
  await expect(page.getByText('1 of 4 shots covered. Missing: Vehicle in context, Signage and Windscreen, no permit.')).toBeVisible();
  // One photo may show several shots.
  await markShot(page, 2, 'Number plate');
  await expect(shotsNeeded.getByRole('listitem').filter({ hasText: 'Number plate' })).toContainText('Number plate: Photos 1 and 2');
  await markChecklistShots(page);
  await expect(page.getByText('All 4 shots covered.')).toBeVisible();
  await expect(shotsNeeded.getByText('Missing')).toHaveCount(0);
  await snap(page, testInfo, 'evidence-checklist-covered');
  await expectNoSeriousAxeViolations(page, 'evidence step with the checklist');
  await page.getByRole('button', { name: 'Next' }).click();

  // ---- step 4: a stay is an observation with two visits (docs/decisions/0012): inside
  // consideration + grace Submit says when to come back, and nothing is held to send itself ----
  await expect(page.getByRole('heading', { level: 2, name: /Review & Submit/ })).toBeFocused();
  const secondVisit = page.getByRole('region', { name: /^Second visit/ });
  await expect(secondVisit.getByRole('heading')).toHaveText(/^Second visit at \d\d:\d\d$/);
  await expect(secondVisit.getByRole('status')).toContainText(
    /^Come back at \d\d:\d\d: a stay applies, so photograph the vehicle again then/,
  );
  await expect(page.getByRole('button', { name: /^Send at/ })).toHaveCount(0);
  await expect(page.getByLabel('Vehicle still here')).toHaveCount(0);
  // Submit looks blocked and says why, once, beside it.
  await expect(page.getByRole('button', { name: 'Submit PCN' })).toHaveAttribute('aria-disabled', 'true');
  await expect(
    page.getByRole('alert').filter({
      hasText:
        /A stay applies: photograph the vehicle again \('Vehicle still here'\) at or after \d\d:\d\d before you submit this notice\./,
    }),
  ).toHaveCount(1);
  await expect(page).toHaveURL(/\/pcn\/new/);
  await snap(page, testInfo, 'evidence-submit-too-early');

  // Ten minutes on: still inside the fifteen.
  await page.clock.fastForward('10:00');
  await expect(page.getByLabel('Vehicle still here')).toHaveCount(0);

  // Fifteen minutes after first sighting: the second visit, a photo of the vehicle still there.
  await page.clock.fastForward('05:01');
  await expect(secondVisit.getByRole('heading')).toHaveText('Second visit due now');
  await page.getByLabel('Vehicle still here').setInputFiles(evidencePhotos()[0]!);
  await expect(secondVisit.getByRole('status')).toHaveText(/^Second visit recorded at \d\d:\d\d: the vehicle was still here\./);
  await expect(
    page.getByText(/The consideration and grace periods have passed \(since \d\d:\d\d\): you can issue this notice\./),
  ).toBeVisible();
  const posted = page.waitForResponse((r) => r.url().endsWith('/api/pcns') && r.request().method() === 'POST');
  await page.getByRole('radio', { name: 'Handed to the driver' }).check();
  await page.getByRole('button', { name: 'Submit PCN' }).click();
  await expect(page).toHaveURL(/\/pcn$/);
  const response = await posted;
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as {
    data: { id: string; pcnNumber: string; observedAt: string; issuedAt: string; stayApplies: boolean };
  };
  const pcn = body.data;
  expect(pcn.stayApplies).toBe(true);
  expect(Date.parse(pcn.issuedAt) - Date.parse(pcn.observedAt)).toBeGreaterThanOrEqual(15 * 60_000);
  const title = `PCN-${pcn.pcnNumber}`;
  await expect(page.getByRole('row', { name: new RegExp(title) })).toContainText(registration);

  // ---- detail: each photo's capture facts ----
  await page.goto(`/pcn/${pcn.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const facts = page.getByRole('list', { name: 'Capture facts of each photo' }).getByRole('listitem');
  // Four from the first visit, the fifth from the second.
  await expect(facts).toHaveCount(5);
  for (let index = 0; index < 5; index++) {
    const photo = facts.nth(index);
    await expect(photo).toContainText(`Photo ${index + 1}`);
    await expect(photo).toContainText(/(Taken by the camera|Added) at \d{1,2} \w{3} \d{4}, \d\d:\d\d/);
    await expect(photo).toContainText('51.501364, -0.141890 (accurate to 12 m)');
    await expect(photo).toContainText('verified by the server');
  }
  await expect(facts.nth(0)).toContainText('Shows');
  await expect(facts.nth(3)).toContainText('Windscreen, no permit');
  await snap(page, testInfo, 'evidence-capture-facts');
  await expectNoSeriousAxeViolations(page, 'PCN detail with capture facts');

  // ---- a second notice for the same vehicle, car park and day ----
  await page.goto('/pcn/new');
  await fillVehicleStep(page, registration, carParkName);
  const warning = page.getByRole('status').filter({ hasText: 'One charge per parking event.' });
  await expect(warning).toContainText(`${title} (Submitted) was already issued for this vehicle at this car park today.`);
  await page.getByRole('button', { name: 'Next' }).click();
  const reason = page.getByRole('textbox', { name: /Reason for a second notice/ });
  await expect(page.getByText('Give a reason for a second notice for this parking event')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /Vehicle Details/ })).toBeVisible();
  await snap(page, testInfo, 'evidence-duplicate-warning');
  await expectNoSeriousAxeViolations(page, 'vehicle step with the duplicate warning');
  await reason.fill('The vehicle left at 10:05 and came back at 11:20: a new parking event.');
  await page.getByRole('button', { name: 'Vehicle first seen', exact: true }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /Offence Information/ })).toBeFocused();
});

test('choosing a car park with a stay asks when the vehicle was first seen at once, in the first screen of a phone', async ({
  page,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the first screen of a phone: what the officer sees with no scrolling');
  const adminToken = await apiToken(request, ADMIN);
  const suffix = uniqueSuffix();
  const stayCarPark = `Stay First ${suffix}`;
  const plainId = await createCarPark(request, adminToken, `No Stay ${suffix}`);
  const stayId = await createCarPark(request, adminToken, stayCarPark, {
    stayAppliesByDefault: true,
    considerationMinutes: 5,
    graceMinutes: 10,
  });
  await signIn(page, await createOfficer(request, adminToken, 'Fern', [plainId, stayId]));

  await page.goto('/pcn/new');
  await page.getByLabel('Vehicle registration').fill(uniqueRegistration(testInfo));
  // Two car parks and no last one: none is chosen yet, and there is nothing to observe.
  await expect(page.getByRole('region', { name: 'Observation' })).toHaveCount(0);
  await choose(page, 'Car park', stayCarPark);

  const firstSeen = page.getByRole('button', { name: 'Vehicle first seen', exact: true });
  // The step's main action while the stay waits on it.
  await expect(firstSeen).toHaveClass(/button--primary/);
  // Before anything else is asked: the next control after the car park is the observation's.
  const nextControlIsObservation = await page.evaluate(() => {
    const controls = [...document.querySelectorAll('form .card :is(input, select, textarea, button)')];
    const carPark = controls.findIndex((control) => control.tagName === 'SELECT');
    return carPark >= 0 && Boolean(controls[carPark + 1]?.closest('.observation'));
  });
  expect(nextControlIsObservation).toBe(true);
  // In the first viewport, with no scrolling, and above the actions fixed to the bottom.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const button = (await firstSeen.boundingBox())!;
  const actions = (await page.locator('.wizard-actions').boundingBox())!;
  expect(button.y).toBeGreaterThanOrEqual(0);
  expect(button.y + button.height).toBeLessThanOrEqual(actions.y);
  await snap(page, testInfo, 'evidence-stay-first');
  await expectNoSeriousAxeViolations(page, 'vehicle step at a car park with a stay');

  await firstSeen.click();
  await expect(page.getByRole('region', { name: 'Observation' }).getByRole('timer').first()).toHaveText(/^Observed for /);
});
