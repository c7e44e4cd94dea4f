import {
  addDays,
  daysFrom,
  endOfUkDay,
  MONEY_CSV_COLUMNS,
  MONEY_CSV_FIGURES,
  moneyCsvFileName,
  OUTSTANDING_AGE_BANDS,
  outstandingAgeBand,
  PAYMENT_METHOD_LABELS,
  PAYMENTS_CSV_COLUMNS,
  paymentsCsvFileName,
  pcnTitle,
  poundsCell,
  ukDate,
  ukWeekStart,
  type MoneyAnalytics,
  type MoneyAnalyticsQuery,
  type OutstandingAgeBand,
  type PaymentsExportQuery,
} from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { amountDueOf } from '../domain/public-charge.ts';
import { findCarParkById } from '../repositories/car-parks.ts';
import { findRefundsSince, streamOwingCharges, streamPaymentRows, sumPaymentsByDay, type PaymentExportRow } from '../repositories/money.ts';
import { csvDate } from '../domain/csv-cells.ts';
import { csvStream, toRecords } from '../services/csv-export.ts';
import { chargeFactsOf } from './look-up-charge.ts';

/**
 * GET /analytics/money: the Admin Dashboard's money at a glance, for every car park or one.
 *
 * - Received by week: the last `weeks` UK weeks (Monday to Sunday), the last the week of today;
 *   a payment counts in the week of the day it was paid, a refund that did not fail in the week
 *   (UK) it was made.
 * - Outstanding by age: each charge ISSUED or APPROVED that an appeal does not hold and that owes
 *   something now, at what it owes now by the same computation as the motorist's page (/charge),
 *   banded by the days since it was issued (UK days).
 */
export async function moneyAnalytics(deps: Pick<AppDeps, 'db' | 'now'>, query: MoneyAnalyticsQuery): Promise<MoneyAnalytics> {
  const now = deps.now();
  const today = ukDate(now);
  const firstWeek = addDays(ukWeekStart(today), -7 * (query.weeks - 1));
  const weeks = Array.from({ length: query.weeks }, (_, index) => ({
    weekStart: addDays(firstWeek, 7 * index),
    receivedPence: 0,
    refundedPence: 0,
  }));
  const weekOf = (day: string) => weeks[Math.floor(daysFrom(firstWeek, day) / 7)];
  for (const { paidOn, pence } of await sumPaymentsByDay(deps.db, { from: firstWeek, carParkId: query.carParkId })) {
    // A payment dated after today (none is accepted, but a clock may differ) falls in no week shown.
    const week = weekOf(paidOn);
    if (week) week.receivedPence += pence;
  }
  const since = endOfUkDay(addDays(firstWeek, -1));
  for (const { createdAt, pence } of await findRefundsSince(deps.db, { since, carParkId: query.carParkId })) {
    const day = ukDate(createdAt);
    if (day < firstWeek) continue;
    const week = weekOf(day);
    if (week) week.refundedPence += pence;
  }

  const bands = new Map<OutstandingAgeBand, { count: number; outstandingPence: number }>(
    OUTSTANDING_AGE_BANDS.map((band) => [band, { count: 0, outstandingPence: 0 }]),
  );
  for await (const row of streamOwingCharges(deps.db, { carParkId: query.carParkId })) {
    const due = amountDueOf(await chargeFactsOf(deps.db, row, () => ''), now);
    if (due.onHold || due.amountDuePence <= 0) continue;
    const band = bands.get(outstandingAgeBand(daysFrom(ukDate(row.issued_at ?? row.created_at), today)))!;
    band.count += 1;
    band.outstandingPence += due.amountDuePence;
  }
  return {
    receivedByWeek: weeks,
    outstandingByAge: OUTSTANDING_AGE_BANDS.map((band) => ({ band, ...bands.get(band)! })),
  };
}

/** GET /analytics/money.csv: the same figures, a row each, for a spreadsheet. */
export async function moneyAnalyticsCsv(deps: Pick<AppDeps, 'db' | 'now'>, query: MoneyAnalyticsQuery) {
  const figures = await moneyAnalytics(deps, query);
  async function* records(): AsyncGenerator<string[]> {
    for (const week of figures.receivedByWeek) {
      yield [
        MONEY_CSV_FIGURES.received,
        csvDate(week.weekStart),
        '',
        '',
        poundsCell(week.receivedPence),
        poundsCell(week.refundedPence),
        '',
      ];
    }
    for (const band of figures.outstandingByAge) {
      yield [MONEY_CSV_FIGURES.outstanding, '', band.band, String(band.count), '', '', poundsCell(band.outstandingPence)];
    }
  }
  const carParkName = query.carParkId ? (await findCarParkById(deps.db, query.carParkId))?.name : undefined;
  return { csv: csvStream(MONEY_CSV_COLUMNS, records()), fileName: moneyCsvFileName(ukDate(deps.now()), carParkName) };
}

/**
 * GET /payments/export: every payment in the days asked, for reconciling with the bank and the
 * card processor: the day paid, the charge, how, its reference, the amount, what was refunded of
 * it and what is kept. Streamed as it is read, like the PCN export.
 */
export async function exportPayments(deps: Pick<AppDeps, 'db' | 'now'>, query: PaymentsExportQuery) {
  const rows = streamPaymentRows(deps.db, query);
  const csv = csvStream(PAYMENTS_CSV_COLUMNS, toRecords(rows, paymentCsvRecord));
  const carParkName = query.carParkId ? (await findCarParkById(deps.db, query.carParkId))?.name : undefined;
  return { csv, fileName: paymentsCsvFileName(ukDate(deps.now()), { ...query, carParkName }) };
}

function paymentCsvRecord(row: PaymentExportRow): string[] {
  const amount = Number(row.amount_pence);
  const refunded = Number(row.refunded_pence ?? 0);
  return [
    csvDate(row.paid_on),
    pcnTitle(row.pcn_number),
    row.car_park_name ?? '',
    PAYMENT_METHOD_LABELS[row.method] ?? row.method,
    row.reference,
    poundsCell(amount),
    poundsCell(refunded),
    poundsCell(amount - refunded),
  ];
}
