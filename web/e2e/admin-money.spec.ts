import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { IDEMPOTENCY_KEY_HEADER, MONEY_CSV_FIGURES, type MoneyAnalytics } from '@parkpatrol/shared';
import { ADMIN, expect, expectNoSeriousAxeViolations, OFFICER, signIn, snap, test } from './fixtures.ts';
import { apiToken, bearer, createPcnThroughApi, uniqueSuffix } from './admin-support.ts';

/** The Admin Dashboard's money: charts with their tables, and the same figures as a CSV. */
test.skip(({ isMobile }) => isMobile, 'Admin screens are desktop first; the phone layout is covered in admin-access.spec.ts');

test('an admin sees money received and outstanding as charts, reads them as tables, and downloads the CSV', async ({ page }, testInfo) => {
  const adminToken = await apiToken(page.request, ADMIN);
  const officerToken = await apiToken(page.request, OFFICER);
  // A payment taken today, by hand: this week's bar has it.
  const pcn = await createPcnThroughApi(page.request, officerToken, { registration: `MY${uniqueSuffix().slice(-5)}` });
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const paid = await page.request.post(`/api/pcns/${pcn.id}/payments`, {
    headers: { ...bearer(adminToken), [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID() },
    data: { amountPence: 2500, paidOn: today, method: 'CASH', reference: 'Till 3' },
  });
  expect(paid.status(), await paid.text()).toBe(200);

  await signIn(page, ADMIN);
  await page.goto('/admin/dashboard');
  const money = page.getByRole('region', { name: 'Money' });
  await expect(money.getByRole('img', { name: 'Received by week' })).toBeVisible();
  await expect(money.getByRole('img', { name: 'Outstanding by age' })).toBeVisible();
  await expect(money.getByText(/received and .* refunded over 12 weeks/)).toBeVisible();

  // The same figures as a table, on request.
  const receivedTable = money.getByRole('table', { name: 'Received by week' });
  const toggle = money.getByRole('button', { name: 'Show as table' }).first();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(money.getByRole('button', { name: 'Hide the table' })).toHaveAttribute('aria-expanded', 'true');
  await expect(receivedTable).toHaveClass(/money__table/);
  await expect(receivedTable.getByRole('row')).toHaveCount(13);
  await expectNoSeriousAxeViolations(page, 'Admin Dashboard with money at a glance');
  await snap(page, testInfo, 'admin-dashboard-money');

  const figures = (
    (await (await page.request.get('/api/analytics/money', { headers: bearer(adminToken) })).json()) as { data: MoneyAnalytics }
  ).data;
  expect(figures.receivedByWeek.at(-1)!.receivedPence).toBeGreaterThanOrEqual(2500);

  const downloading = page.waitForEvent('download');
  await money.getByRole('button', { name: 'Download the money figures as CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^money-\d{4}-\d{2}-\d{2}\.csv$/);
  const records = parse(readFileSync(await download.path()), { columns: true, bom: true }) as Array<Record<string, string>>;
  const pence = (cell: string | undefined) => Math.round(Number(cell) * 100);
  expect(
    records
      .filter((record) => record.Figure === MONEY_CSV_FIGURES.received)
      .map((record) => ({
        // Day first, as a UK spreadsheet reads it ('23/02/2026'); the JSON's days are ISO.
        weekStart: record['Week starting']?.split('/').reverse().join('-'),
        receivedPence: pence(record['Received (£)']),
        refundedPence: pence(record['Refunded (£)']),
      })),
  ).toEqual(figures.receivedByWeek);
  expect(records.filter((record) => record.Figure === MONEY_CSV_FIGURES.outstanding).map((record) => record['Age (days)'])).toEqual([
    '0-28',
    '29-56',
    '57-90',
    '90+',
  ]);

  // The payments export holds today's payment.
  const exporting = page.waitForEvent('download');
  await money.getByRole('button', { name: 'Export payments' }).click();
  const exported = parse(readFileSync(await (await exporting).path()), { columns: true, bom: true }) as Array<Record<string, string>>;
  expect(exported.find((record) => record['PCN number']?.endsWith(pcn.pcnNumber) && record.Reference === 'Till 3')).toMatchObject({
    'Date paid': today.split('-').reverse().join('/'),
    Method: 'Cash',
    'Amount (£)': '25.00',
    'Net (£)': '25.00',
  });
});

test('an admin refunds a payment by hand from the review, with the reason beside its field', async ({ page }, testInfo) => {
  const adminToken = await apiToken(page.request, ADMIN);
  const officerToken = await apiToken(page.request, OFFICER);
  const pcn = await createPcnThroughApi(page.request, officerToken, { registration: `RF${uniqueSuffix().slice(-5)}` });
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const paid = await page.request.post(`/api/pcns/${pcn.id}/payments`, {
    headers: { ...bearer(adminToken), [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID() },
    data: { amountPence: 2500, paidOn: today, method: 'BANK_TRANSFER', reference: 'BACS 9' },
  });
  expect(paid.status(), await paid.text()).toBe(200);

  await signIn(page, ADMIN);
  await page.goto(`/admin/pcns?review=${pcn.id}`);
  const payments = page.getByRole('region', { name: 'Payments' });
  await payments.getByRole('button', { name: /^Refund the payment of £25\.00/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund a payment' });
  await expect(dialog.getByRole('textbox', { name: 'Amount to refund (£)' })).toHaveValue('25.00');
  await dialog.getByRole('textbox', { name: 'Amount to refund (£)' }).fill('10');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  const reason = dialog.getByRole('textbox', { name: 'Reason' });
  await expect(reason).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Give the reason for the refund')).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'The refund dialog');
  await snap(page, testInfo, 'refund-dialog');
  await reason.fill('Paid twice by transfer');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(payments.getByRole('list', { name: 'Refunds of this payment' })).toContainText('Refunded £10.00 (recorded by hand)');
  await expect(payments.getByText('Paid twice by transfer')).toBeVisible();
  await expect(payments.getByText('Paid so far: £15')).toBeVisible();
});
