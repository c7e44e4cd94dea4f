import type { CalendarDate, PaymentMethod } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { selectPcnRows, type PcnRow } from './pcn-rows.ts';

// The money figures of the Admin Dashboard and the payments export: sums and rows read across
// charges, each optionally for one car park.

/** What was paid on each day from `from` on (payments count by the day they were made). */
export async function sumPaymentsByDay(db: Db, input: { from: CalendarDate; carParkId?: string | undefined }) {
  const rows = await db
    .selectFrom('pcn_payments')
    .innerJoin('pcns', 'pcns.id', 'pcn_payments.pcn_id')
    .select(['pcn_payments.paid_on', (eb) => eb.fn.sum<number | string>('pcn_payments.amount_pence').as('pence')])
    .where('pcn_payments.paid_on', '>=', input.from)
    .$if(input.carParkId !== undefined, (query) => query.where('pcns.car_park_id', '=', input.carParkId!))
    .groupBy('pcn_payments.paid_on')
    .execute();
  return rows.map((row) => ({ paidOn: row.paid_on, pence: Number(row.pence) }));
}

/** The refunds that did not fail, made at or after an instant: when each was made, and how much. */
export async function findRefundsSince(db: Db, input: { since: string; carParkId?: string | undefined }) {
  const rows = await db
    .selectFrom('pcn_refunds')
    .innerJoin('pcns', 'pcns.id', 'pcn_refunds.pcn_id')
    .select(['pcn_refunds.created_at', 'pcn_refunds.amount_pence'])
    .where('pcn_refunds.created_at', '>=', input.since)
    .where('pcn_refunds.status', '!=', 'FAILED')
    .$if(input.carParkId !== undefined, (query) => query.where('pcns.car_park_id', '=', input.carParkId!))
    .execute();
  return rows.map((row) => ({ createdAt: String(row.created_at), pence: Number(row.amount_pence) }));
}

/**
 * The charges that may still be owed (ISSUED or APPROVED), a batch at a time by id, so a large
 * operator's charges are never all in memory at once.
 */
export async function* streamOwingCharges(db: Db, input: { carParkId?: string | undefined }, batchSize = 500): AsyncGenerator<PcnRow> {
  let after: string | null = null;
  for (;;) {
    const from: string | null = after;
    const rows: PcnRow[] = await selectPcnRows(db)
      .where('pcns.status', 'in', ['ISSUED', 'APPROVED'])
      .$if(input.carParkId !== undefined, (query) => query.where('pcns.car_park_id', '=', input.carParkId!))
      .$if(from !== null, (query) => query.where('pcns.id', '>', from!))
      .orderBy('pcns.id')
      .limit(batchSize)
      .execute();
    yield* rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.id;
  }
}

export type PaymentExportRow = {
  id: string;
  paid_on: string;
  pcn_number: string;
  car_park_name: string | null;
  method: PaymentMethod;
  reference: string;
  amount_pence: number;
  refunded_pence: number | string | null;
};

/**
 * Every payment in the days asked (by the day paid), oldest first, with its charge, car park and
 * refunds that did not fail, read a batch at a time after the last row seen (keyset on day and
 * id): an export of years of payments never holds them in memory.
 */
export async function* streamPaymentRows(
  db: Db,
  filter: { from?: CalendarDate | undefined; to?: CalendarDate | undefined; carParkId?: string | undefined },
  batchSize = 1000,
): AsyncGenerator<PaymentExportRow> {
  let after: { paidOn: string; id: string } | null = null;
  for (;;) {
    const from: { paidOn: string; id: string } | null = after;
    const rows: PaymentExportRow[] = await db
      .selectFrom('pcn_payments')
      .innerJoin('pcns', 'pcns.id', 'pcn_payments.pcn_id')
      .leftJoin('car_parks', 'car_parks.id', 'pcns.car_park_id')
      .select((eb) => [
        'pcn_payments.id',
        'pcn_payments.paid_on',
        'pcns.pcn_number',
        'car_parks.name as car_park_name',
        'pcn_payments.method',
        'pcn_payments.reference',
        'pcn_payments.amount_pence',
        eb
          .selectFrom('pcn_refunds')
          .select((inner) => inner.fn.sum<number | string>('pcn_refunds.amount_pence').as('n'))
          .whereRef('pcn_refunds.payment_id', '=', 'pcn_payments.id')
          .where('pcn_refunds.status', '!=', 'FAILED')
          .as('refunded_pence'),
      ])
      .$if(filter.from !== undefined, (query) => query.where('pcn_payments.paid_on', '>=', filter.from!))
      .$if(filter.to !== undefined, (query) => query.where('pcn_payments.paid_on', '<=', filter.to!))
      .$if(filter.carParkId !== undefined, (query) => query.where('pcns.car_park_id', '=', filter.carParkId!))
      .$if(from !== null, (query) =>
        query.where((eb) =>
          eb.or([
            eb('pcn_payments.paid_on', '>', from!.paidOn),
            eb.and([eb('pcn_payments.paid_on', '=', from!.paidOn), eb('pcn_payments.id', '>', from!.id)]),
          ]),
        ),
      )
      .orderBy('pcn_payments.paid_on')
      .orderBy('pcn_payments.id')
      .limit(batchSize)
      .execute();
    yield* rows;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { paidOn: last.paid_on, id: last.id };
  }
}
