import { apiToken, createEvidencePcnThroughApi, firstCarParkId, uniqueSuffix } from './admin-support.ts';
import { expect, expectNoSeriousAxeViolations, expectTouchTargets, OFFICER, test } from './fixtures.ts';

/**
 * Paying by card from /charge on a phone: the page's button goes to the card processor's hosted
 * page (the fake Stripe of scripts/fake-stripe.ts, started in global setup), whose Pay sends the
 * signed webhook to the API and comes back to /charge, which then says Paid.
 */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the motorist pays on a phone');
});

test('a motorist pays the reduced amount by card and the page says Paid once the payment is recorded', async ({ page, request }) => {
  const officerToken = await apiToken(request, OFFICER);
  const carParkId = await firstCarParkId(request, officerToken);
  const registration = `CD${uniqueSuffix()}`.slice(0, 7).toUpperCase();
  const now = new Date().toISOString();
  const pcn = await createEvidencePcnThroughApi(request, officerToken, { registration, carParkId, observedAt: now, issuedAt: now });

  await page.goto(`/charge?ref=PCN-${pcn.pcnNumber}`);
  await page.getByLabel('Vehicle registration').fill(registration);
  await page.getByRole('button', { name: 'Find my charge' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcn.pcnNumber}` })).toBeVisible();
  const card = page.getByRole('region', { name: 'Pay by card' });
  const pay = card.getByRole('button', { name: 'Pay £60.00 by card' });
  await expect(pay).toBeVisible();
  // The operator's own way to pay stays beside it.
  await expect(page.getByRole('region', { name: 'How to pay' })).toBeVisible();
  await expectTouchTargets(page, 'the motorist’s charge with card payment');
  await expectNoSeriousAxeViolations(page, 'the motorist’s charge with card payment');

  await pay.click();
  await expect(page).toHaveURL(new RegExp(`^${process.env.PP_FAKE_STRIPE_URL}/checkout/cs_test_`));
  await expect(page.getByText(`PCN-${pcn.pcnNumber}: £60.00`)).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/charge$/);
  await expect(page.getByRole('heading', { level: 1, name: `Parking charge PCN-${pcn.pcnNumber}` })).toBeVisible();
  await expect(card.getByRole('status')).toHaveText('Paid');
  await expect(page.getByText('This charge has been paid. Nothing more is due.')).toBeVisible();
  await expect(card.getByRole('button', { name: /by card/ })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'the motorist’s paid charge');
});
