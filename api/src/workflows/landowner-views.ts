import {
  addDays,
  CANCELLATION_REASONS,
  endOfUkDay,
  monthlyReportFileName,
  MONTHLY_REPORT_CSV_COLUMNS,
  monthlyReportLines,
  PERMIT_KINDS,
  SERVER_MESSAGES,
  poundsCell,
  shiftMonth,
  APPEAL_STATUSES,
  type AppealStatus,
  type CancellationReason,
  type LandownerCharge,
  type LandownerChargeListResponse,
  type MonthlyReport,
  type PcnStatus,
  type PermitKind,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';
import { amountDueOf } from '../domain/public-charge.ts';
import { findLatestCancellationRequests } from '../repositories/cancellation-requests.ts';
import { selectPcnRows } from '../repositories/pcn-rows.ts';
import { csvStream } from '../services/csv-export.ts';
import { renderMonthlyReportPdf } from '../services/monthly-report-pdf.ts';
import { chargeFactsOf } from './look-up-charge.ts';
import { assertMayManagePermits } from './permit-access.ts';

type Deps = Pick<AppDeps, 'db' | 'now'>;

/**
 * A car park's own screens are for admins and for the landowners assigned to it (the permits'
 * rule of assignment, so both agree on what is a landowner's); an officer gets 403, and a car park
 * that is not the landowner's is the 404 of one that does not exist (decision 0042).
 */
export async function assertOwnCarPark(deps: Deps, user: AuthUser, carParkId: string) {
  await assertMayManagePermits(deps.db, user, carParkId);
  const carPark = await deps.db.selectFrom('car_parks').select(['id', 'name', 'site_code']).where('id', '=', carParkId).executeTakeFirst();
  if (!carPark) throw new AppError('NOT_FOUND', SERVER_MESSAGES.carParkNotFound);
  return carPark;
}

/** The latest appeal of each charge: how it stands, never who made it or why. */
async function latestAppealStatuses(deps: Deps, pcnIds: readonly string[]): Promise<Map<string, AppealStatus>> {
  const statuses = new Map<string, AppealStatus>();
  if (pcnIds.length === 0) return statuses;
  const rows = await deps.db
    .selectFrom('appeals')
    .select(['pcn_id', 'status'])
    .where('pcn_id', 'in', pcnIds)
    .orderBy('received_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  for (const row of rows) statuses.set(row.pcn_id, row.status);
  return statuses;
}

/**
 * GET /car-parks/{id}/charges: the charges issued at the car park, newest first, as its landowner
 * sees them. Only the notice's own columns are read: no keeper, hirer, named driver or appellant
 * table is touched, so none of them can reach the answer.
 */
export async function listCarParkCharges(
  deps: Deps,
  user: AuthUser,
  carParkId: string,
  query: { page: number; limit: number; status?: PcnStatus | undefined },
): Promise<LandownerChargeListResponse> {
  await assertOwnCarPark(deps, user, carParkId);
  let base = deps.db.selectFrom('pcns').where('pcns.car_park_id', '=', carParkId);
  if (query.status) base = base.where('pcns.status', '=', query.status);
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const total = Number(counted.total);
  const rows = await base
    .select([
      'pcns.id',
      'pcns.pcn_number',
      'pcns.vehicle_registration',
      'pcns.offence_type',
      'pcns.location',
      'pcns.status',
      'pcns.issued_at',
      'pcns.created_at',
      'pcns.cancellation_reason',
    ])
    .orderBy('pcns.created_at', 'desc')
    .orderBy('pcns.id', 'desc')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const ids = rows.map((row) => row.id);
  const [appeals, requests] = await Promise.all([latestAppealStatuses(deps, ids), findLatestCancellationRequests(deps.db, ids)]);
  const charges = rows.map((row): LandownerCharge => ({
    id: row.id,
    pcnNumber: row.pcn_number,
    vehicleRegistration: row.vehicle_registration,
    offenceType: row.offence_type,
    location: row.location,
    status: row.status,
    issuedAt: row.issued_at ?? row.created_at,
    cancellationReason: row.cancellation_reason,
    appealStatus: appeals.get(row.id) ?? null,
    cancellationRequest: requests.get(row.id) ?? null,
  }));
  return { charges, pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } };
}

function countBy<K>(keys: readonly K[], values: readonly K[]): Array<{ key: K; count: number }> {
  return keys.map((key) => ({ key, count: values.filter((value) => value === key).length })).filter((entry) => entry.count > 0);
}

/**
 * GET /car-parks/{id}/reports/monthly: the notices issued at the car park in a UK calendar month
 * (issued at the officer's issue time, else when filed; a notice belongs to the UK day it was
 * issued on) and where each stands when the report is made:
 * - cancelled, by the reason each carries (those cancelled before reasons were kept: null);
 * - appeals against them, by how each stands;
 * - paid (status PAID) and the money received on them less refunds that did not fail;
 * - outstanding: ISSUED or APPROVED, not held by an appeal, owing something now, at what it owes
 *   now by the motorist's page's own computation (the Admin Dashboard's outstanding, per notice);
 * - the permits in force at the end of the month, or now for the month under way.
 */
export async function monthlyReport(deps: Deps, user: AuthUser, carParkId: string, month: string): Promise<MonthlyReport> {
  const carPark = await assertOwnCarPark(deps, user, carParkId);
  const now = deps.now();
  const firstDay = `${month}-01`;
  const lastDay = addDays(`${shiftMonth(month, 1)}-01`, -1);
  const after = endOfUkDay(addDays(firstDay, -1));
  const until = endOfUkDay(lastDay);
  const rows = await selectPcnRows(deps.db)
    .where('pcns.car_park_id', '=', carParkId)
    .where((eb) =>
      eb.and([
        eb(eb.fn.coalesce('pcns.issued_at', 'pcns.created_at'), '>', after),
        eb(eb.fn.coalesce('pcns.issued_at', 'pcns.created_at'), '<=', until),
      ]),
    )
    .orderBy('pcns.created_at')
    .execute();
  const ids = rows.map((row) => row.id);

  const cancelledReasons = rows.filter((row) => row.status === 'CANCELLED').map((row) => row.cancellation_reason);
  const reasonKeys: Array<CancellationReason | null> = [...CANCELLATION_REASONS, null];
  const appealStatuses =
    ids.length === 0
      ? []
      : (await deps.db.selectFrom('appeals').select('status').where('pcn_id', 'in', ids).execute()).map((row) => row.status);

  let receivedPence = 0;
  if (ids.length > 0) {
    const paid = await deps.db
      .selectFrom('pcn_payments')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_pence'), eb.lit(0)).as('pence'))
      .where('pcn_id', 'in', ids)
      .executeTakeFirstOrThrow();
    const refunded = await deps.db
      .selectFrom('pcn_refunds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_pence'), eb.lit(0)).as('pence'))
      .where('pcn_id', 'in', ids)
      .where('status', '!=', 'FAILED')
      .executeTakeFirstOrThrow();
    receivedPence = Number(paid.pence) - Number(refunded.pence);
  }

  const outstanding = { count: 0, duePence: 0 };
  for (const row of rows) {
    if (row.status !== 'ISSUED' && row.status !== 'APPROVED') continue;
    const due = amountDueOf(await chargeFactsOf(deps.db, row, () => ''), now);
    if (due.onHold || due.amountDuePence <= 0) continue;
    outstanding.count += 1;
    outstanding.duePence += due.amountDuePence;
  }

  const permitsAt = until < now.toISOString() ? until : now.toISOString();
  const permits = await deps.db
    .selectFrom('permits')
    .select('kind')
    .where('car_park_id', '=', carParkId)
    .where('valid_from', '<=', permitsAt)
    .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', permitsAt)]))
    .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', permitsAt)]))
    .execute();
  const permitKinds = permits.map((permit) => permit.kind as PermitKind);

  return {
    carPark: { id: carPark.id, name: carPark.name, siteCode: carPark.site_code },
    month,
    permitsCountedAt: permitsAt,
    issued: rows.length,
    cancelled: {
      total: cancelledReasons.length,
      byReason: countBy(reasonKeys, cancelledReasons).map(({ key, count }) => ({ reason: key, count })),
    },
    appeals: {
      total: appealStatuses.length,
      byStatus: countBy(APPEAL_STATUSES, appealStatuses).map(({ key, count }) => ({ status: key, count })),
    },
    paid: { count: rows.filter((row) => row.status === 'PAID').length, receivedPence },
    outstanding,
    permitsInForce: {
      total: permitKinds.length,
      byKind: countBy(PERMIT_KINDS, permitKinds).map(({ key, count }) => ({ kind: key, count })),
    },
  };
}

/** The report's CSV: the page's lines, one row each, the same figures. */
export async function monthlyReportCsv(deps: Deps, user: AuthUser, carParkId: string, month: string) {
  const report = await monthlyReport(deps, user, carParkId, month);
  async function* records(): AsyncGenerator<string[]> {
    for (const line of monthlyReportLines(report)) {
      yield [
        report.carPark.name,
        report.month,
        line.section,
        line.item,
        String(line.count),
        line.pence === null ? '' : poundsCell(line.pence),
      ];
    }
  }
  return { csv: csvStream(MONTHLY_REPORT_CSV_COLUMNS, records()), fileName: monthlyReportFileName(report, 'csv') };
}

/** The report's PDF: the same lines, for a landowner's files. */
export async function monthlyReportPdf(deps: Deps & Pick<AppDeps, 'config'>, user: AuthUser, carParkId: string, month: string) {
  const report = await monthlyReport(deps, user, carParkId, month);
  const bytes = await renderMonthlyReportPdf(report, { generatedAt: deps.now(), productName: deps.config.productName });
  return { bytes, fileName: monthlyReportFileName(report, 'pdf') };
}
