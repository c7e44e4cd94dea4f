import type { Page, TestInfo } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { readPdfText } from '../../api/test/support/pdf.ts';
import { ADMIN, apiToken, bearer, createCarPark, createOfficer, uniqueSuffix } from './admin-support.ts';
import { evidencePhotos, expect, expectNoSeriousAxeViolations, signIn, snap, takeShots, test, uniqueRegistration } from './fixtures.ts';

/**
 * The notice to driver on the officer's phone: printed from Review & Submit before the notice
 * is sent (from the draft and the terms kept on the phone, with the API unreachable), and again
 * from the sent notice's detail. The print layout is rendered to PDF by Chromium, as the
 * browser's print would, and its text read back; its pages are kept as PNG for a reviewer.
 */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'printed from the officer’s phone');
});

const OPERATOR = {
  creditorName: 'Riverside Parking Services Ltd',
  creditorAddress: 'PO Box 4321\nLeeds\nLS2 7EE',
  creditorPhone: '0113 496 0101',
  creditorEmail: 'appeals@riverside.example',
  creditorWebsite: 'riverside.example/appeal',
  howToPay: 'Pay online at riverside.example/pay, quoting the reference.',
  appealsService: 'POPLA',
  appealsServiceContact: 'POPLA, PO Box 1270, Warrington, WA4 9RL\nwww.popla.co.uk',
};

/** The notice as the printer gets it: Chromium's print of the page, at the paper's page size. */
async function printToPdf(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  await testInfo.attach(`${name}.pdf`, { body: pdf, contentType: 'application/pdf' });
  // What the paper shows, as a picture for a reviewer: the print media at the roll's width.
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await page.emulateMedia({ media: 'screen' });
  // A line may break after a hyphen ('PCN-' / '000123'): read it as one word again.
  return (await readPdfText(pdf)).flat.replace(/- /g, '-');
}

test('an officer prints the notice to driver from the draft with no signal, and again from the sent notice', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const adminToken = await apiToken(request, ADMIN);
  const operator = await request.put('/api/settings/operator', { headers: bearer(adminToken), data: OPERATOR });
  expect(operator.status(), await operator.text()).toBe(200);
  const carParkName = `Print Yard ${uniqueSuffix()}`;
  const carParkId = await createCarPark(request, adminToken, carParkName, {
    chargePence: 10_000,
    reducedChargePence: 6_000,
    reducedWithinDays: 14,
    signageTerms: 'Customer parking only, 2 hours maximum stay',
  });
  const officer = await createOfficer(request, adminToken, 'Pria', [carParkId]);
  const registration = uniqueRegistration(testInfo);
  await signIn(page, officer);

  await page.goto('/pcn/new');
  await page.getByLabel('Vehicle registration').fill(registration);
  await expect(page.getByLabel('Car park', { exact: true })).toHaveValue(carParkId);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'Parking without permit' }).check();
  await page.getByLabel('Location').fill('Row C, bay 14');
  await page.getByRole('button', { name: 'Next' }).click();
  await takeShots(page, evidencePhotos());
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /Review & Submit/ })).toBeFocused();

  // Nothing to print until the notice is served; then one tap opens it.
  await expect(page.getByRole('button', { name: 'Print notice to driver' })).toHaveCount(0);
  await page.getByRole('radio', { name: 'Fixed to the vehicle' }).click();
  // No signal: the notice prints from the draft and the terms kept on the phone.
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Print notice to driver' }).click();
  const panel = page.getByRole('region', { name: 'Print preview' });
  await expect(panel).toContainText('Parking Charge Notice');
  await expect(panel).toContainText(/Reference D-[0-9A-F]{8}/);
  await expect(panel.getByRole('radio', { name: '80 mm roll' })).toBeChecked();
  await snap(page, testInfo, 'notice-to-driver-preview');
  await expectNoSeriousAxeViolations(page, 'the notice to driver preview');

  const roll = await printToPdf(page, testInfo, 'notice-to-driver-80mm');
  for (const statement of [
    // The title is set in capitals on paper.
    'PARKING CHARGE NOTICE',
    'Notice to driver',
    `Vehicle: ${registration}`,
    `Land: ${carParkName}`,
    'Period of parking:',
    '"Customer parking only, 2 hours maximum stay"',
    'a parking charge of £100',
    'The terms were not kept: Parking without permit.',
    'remains unpaid',
    'the charge is reduced to £60',
    'Pay Riverside Parking Services Ltd, the creditor',
    'Pay online at riverside.example/pay, quoting the reference.',
    'appeal to Riverside Parking Services Ltd within 28 days',
    'you may appeal to POPLA (Parking on Private Land Appeals), the independent appeals service',
    'incurred on private land',
    'PO Box 4321, Leeds, LS2 7EE',
    'by fixing it to the vehicle',
    '/charge, with the reference',
  ]) {
    expect(roll, statement).toContain(statement);
  }
  await panel.getByRole('radio', { name: 'A6' }).check();
  const a6 = await printToPdf(page, testInfo, 'notice-to-driver-a6');
  expect(a6).toContain('This notice was given at');

  // Signal back: the notice is sent, and its detail prints it with its number.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.getByRole('button', { name: 'Submit PCN' }).click();
  await expect(page).toHaveURL(/\/pcn$/);
  const row = page.getByRole('row', { name: new RegExp(registration) });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await row.click();
  await expect(page).toHaveURL(/\/pcn\/[0-9a-f-]{36}$/);
  const number = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
  await page.getByRole('button', { name: 'Print notice to driver' }).click();
  const preview = page.getByRole('region', { name: 'Print preview' });
  await expect(preview).toContainText(`Reference ${number}`);
  // The QR code opens the motorist's page with the reference filled in: read back from its pixels.
  const qr = preview.getByRole('img', { name: /^QR code: / });
  const png = PNG.sync.read(await qr.screenshot());
  expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(
    `${new URL(page.url()).origin}/charge?ref=${encodeURIComponent(number)}`,
  );
  const sent = await printToPdf(page, testInfo, 'notice-to-driver-sent');
  expect(sent).toContain(`Reference ${number}`);
  expect(sent).toContain('quoting the reference ' + number);
});
