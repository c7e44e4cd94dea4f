import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONEY_CSV_FIGURES, pcnTitle, type MoneyAnalytics, type PaymentMethod, type PcnStatus } from '@parkpatrol/shared';
import { appealForm, chargeToken } from './support/appeals.ts';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { insertPcnsDirectly } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/** A CSV's day ('23/02/2026', as a UK spreadsheet reads it) as the JSON's ('2026-02-23'). */
const fromCsvDate = (cell: string | undefined) => cell?.split('/').reverse().join('-');

/**
 * The Admin Dashboard's money, on a clock frozen at noon on Tuesday 3 March 2026: the UK week of
 * today began on Monday 2 March, the one before ran from 23 February across the month end to
 * Sunday 1 March.
 */
describe('money at a glance and the payments export', () => {
  let t: TestApp;
  let admin: Session;
  let officer: Session;
  let carParkId: string;
  let otherCarParkId: string;
  const NOW = Date.parse('2026-03-03T12:00:00.000Z');
  const charges = new Map<string, { id: string; pcnNumber: string }>();
  let plates = 0;

  /** A charge issued (and its notice to driver fixed) at noon on a day: £100, or £60 within 14 days. */
  const charge = async (name: string, issuedOn: string, options: { status?: PcnStatus; carPark?: string } = {}) => {
    const at = `${issuedOn}T12:00:00.000Z`;
    const [made] = await insertPcnsDirectly(t, 1, () => ({
      createdBy: officer.id,
      carParkId: options.carPark ?? carParkId,
      vehicleRegistration: `MN${String(++plates).padStart(2, '0')}EYS`,
      createdAt: at,
    }));
    await t.db
      .updateTable('pcns')
      .set({ status: options.status ?? 'ISSUED', issued_at: at })
      .where('id', '=', made!.id)
      .execute();
    charges.set(name, made!);
    return made!;
  };
  const payment = async (pcnId: string, paidOn: string, amountPence: number, method: PaymentMethod = 'BANK_TRANSFER', reference = '') => {
    const id = randomUUID();
    await t.db
      .insertInto('pcn_payments')
      .values({
        id,
        pcn_id: pcnId,
        amount_pence: amountPence,
        paid_on: paidOn,
        method,
        reference,
        recorded_by: admin.id,
        created_at: `${paidOn}T13:00:00.000Z`,
        idempotency_key: null,
        overpaid_pence: 0,
      })
      .execute();
    return id;
  };
  const refund = async (
    pcnId: string,
    paymentId: string,
    amountPence: number,
    createdAt: string,
    status: 'SUCCEEDED' | 'FAILED' = 'SUCCEEDED',
  ) => {
    await t.db
      .insertInto('pcn_refunds')
      .values({
        id: randomUUID(),
        pcn_id: pcnId,
        payment_id: paymentId,
        amount_pence: amountPence,
        reason: 'Test',
        method: 'BY_HAND',
        status,
        stripe_refund_id: null,
        idempotency_key: null,
        created_by: admin.id,
        created_by_name: 'Ada Admin',
        created_at: createdAt,
      })
      .execute();
  };
  const money = async (query = '') => {
    const res = await t.request('GET', `/analytics/money${query}`, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    return res.json.data as MoneyAnalytics;
  };
  const csv = async (path: string) => {
    const res = await t.request('GET', path, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    return {
      rows: parse(res.text, { columns: true, bom: true }) as Array<Record<string, string>>,
      disposition: res.headers.get('content-disposition'),
    };
  };

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    admin = await t.signedInUser('ADMIN');
    officer = await t.signedInUser('USER');
    carParkId = (await t.createCarPark({ name: 'Station Road', assignTo: [officer.id] })).id;
    otherCarParkId = (await t.createCarPark({ name: 'Quay Street', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
    await termsSinceLongAgo(t, otherCarParkId);

    // Outstanding, by days since issue on 3 March (February 2026 has 28 days).
    await charge('today', '2026-03-03'); // 0 days, £60 within the discount
    await charge('day28', '2026-02-03'); // 28 days, £100
    const day29 = await charge('day29', '2026-02-02'); // 29 days, £100 less £30 paid
    await charge('day56', '2026-01-06', { status: 'APPROVED' }); // 56 days
    await charge('day57', '2026-01-05'); // 57 days
    await charge('day90', '2025-12-03'); // 90 days
    await charge('day91', '2025-12-02'); // 91 days
    await charge('submitted', '2026-02-20', { status: 'SUBMITTED' }); // not yet a charge: not counted
    await charge('cancelled', '2026-02-20', { status: 'CANCELLED' }); // nothing owed
    const paid = await charge('paid', '2026-02-16', { status: 'PAID' });
    await charge('elsewhere', '2026-02-25', { carPark: otherCarParkId });
    // An appeal made in time holds its charge: not counted while it does.
    const held = await charge('held', '2026-02-27');
    const appealed = await t.fileAndConfirmAppeal(chargeToken(t, held.id), appealForm({ email: 'held@example.com' }));
    expect(appealed.status, appealed.text).toBe(201);

    // Received: one before the weeks shown (Sunday 8 February), then across the month end.
    await payment(day29.id, '2026-02-08', 1000);
    await payment(day29.id, '2026-02-20', 2000, 'CHEQUE', 'CHQ 100');
    const saturday = await payment(paid.id, '2026-02-28', 6000, 'CARD', 'pi_123');
    await payment(paid.id, '2026-03-01', 500, 'CASH');
    await payment(charges.get('elsewhere')!.id, '2026-03-02', 4000);
    // Refunds by the UK week they were made: 23:30 on Sunday 1 March (GMT) is still that week.
    await refund(paid.id, saturday, 500, '2026-03-01T23:30:00.000Z');
    await refund(paid.id, saturday, 700, '2026-03-02T00:30:00.000Z');
    await refund(paid.id, saturday, 900, '2026-03-02T09:00:00.000Z', 'FAILED');
  });
  afterAll(() => t.close());

  it('adds up what came in by UK week, from Monday, across the month end', async () => {
    const figures = await money('?weeks=4');
    expect(figures.receivedByWeek).toEqual([
      { weekStart: '2026-02-09', receivedPence: 0, refundedPence: 0 },
      { weekStart: '2026-02-16', receivedPence: 2000, refundedPence: 0 },
      { weekStart: '2026-02-23', receivedPence: 6500, refundedPence: 500 },
      { weekStart: '2026-03-02', receivedPence: 4000, refundedPence: 700 },
    ]);
    // Twelve weeks unless asked: the first on Monday 15 December 2025.
    const twelve = await money();
    expect(twelve.receivedByWeek).toHaveLength(12);
    expect(twelve.receivedByWeek[0]!.weekStart).toBe('2025-12-15');
    expect(twelve.receivedByWeek.find((week) => week.weekStart === '2026-02-02')).toEqual({
      weekStart: '2026-02-02',
      receivedPence: 1000,
      refundedPence: 0,
    });
  });

  it('bands what is owed now by the days since each charge was issued', async () => {
    expect((await money()).outstandingByAge).toEqual([
      { band: '0-28', count: 3, outstandingPence: 6000 + 10_000 + (6000 - 4000) },
      { band: '29-56', count: 2, outstandingPence: 10_000 - 3000 + 10_000 },
      { band: '57-90', count: 2, outstandingPence: 20_000 },
      { band: '90+', count: 1, outstandingPence: 10_000 },
    ]);
    // One car park's: the charge elsewhere (issued 25 February, £60 until 11 March, £40 paid) alone.
    const elsewhere = await money(`?carParkId=${otherCarParkId}`);
    expect(elsewhere.outstandingByAge[0]).toEqual({ band: '0-28', count: 1, outstandingPence: 2000 });
    expect(elsewhere.outstandingByAge.slice(1).every((band) => band.count === 0 && band.outstandingPence === 0)).toBe(true);
    expect(elsewhere.receivedByWeek.at(-1)).toEqual({ weekStart: '2026-03-02', receivedPence: 4000, refundedPence: 0 });
  });

  it('gives the same figures as a CSV', async () => {
    const figures = await money(`?weeks=6&carParkId=${carParkId}`);
    const { rows, disposition } = await csv(`/analytics/money.csv?weeks=6&carParkId=${carParkId}`);
    expect(disposition).toBe('attachment; filename="money-station-road-2026-03-03.csv"');
    const pence = (cell: string | undefined) => Math.round(Number(cell) * 100);
    expect(
      rows
        .filter((row) => row.Figure === MONEY_CSV_FIGURES.received)
        .map((row) => ({
          weekStart: fromCsvDate(row['Week starting']),
          receivedPence: pence(row['Received (£)']),
          refundedPence: pence(row['Refunded (£)']),
        })),
    ).toEqual(figures.receivedByWeek);
    expect(
      rows
        .filter((row) => row.Figure === MONEY_CSV_FIGURES.outstanding)
        .map((row) => ({ band: row['Age (days)'], count: Number(row.Charges), outstandingPence: pence(row['Outstanding (£)']) })),
    ).toEqual(figures.outstandingByAge);
    expect(rows.find((row) => row['Week starting'] === '23/02/2026')).toMatchObject({ 'Received (£)': '65.00', 'Refunded (£)': '5.00' });
  });

  it('exports each payment with its refunds for reconciliation, by the days and car park asked', async () => {
    const all = await csv('/payments/export');
    expect(all.rows.map((row) => row['Date paid'])).toEqual(['08/02/2026', '20/02/2026', '28/02/2026', '01/03/2026', '02/03/2026']);
    expect(all.rows[2]).toEqual({
      'Date paid': '28/02/2026',
      'PCN number': pcnTitle(charges.get('paid')!.pcnNumber),
      'Car park': 'Station Road',
      Method: 'Card',
      Reference: 'pi_123',
      'Amount (£)': '60.00',
      'Refunded (£)': '12.00',
      'Net (£)': '48.00',
    });
    expect(all.rows[1]).toMatchObject({ Method: 'Cheque', Reference: 'CHQ 100', 'Refunded (£)': '0.00', 'Net (£)': '20.00' });

    const some = await csv(`/payments/export?from=2026-02-20&to=2026-03-01&carParkId=${carParkId}`);
    expect(some.rows.map((row) => row['Date paid'])).toEqual(['20/02/2026', '28/02/2026', '01/03/2026']);
    expect(some.disposition).toBe('attachment; filename="payments-station-road-from-2026-02-20-to-2026-03-01-2026-03-03.csv"');

    const wrong = await t.request('GET', '/payments/export?from=2026-03-01&to=2026-02-01', { token: admin.token });
    expect(wrong.status).toBe(400);
  });

  it('is for admins only', async () => {
    for (const path of ['/analytics/money', '/analytics/money.csv', '/payments/export']) {
      expect((await t.request('GET', path, { token: officer.token })).status).toBe(403);
    }
  });
});
