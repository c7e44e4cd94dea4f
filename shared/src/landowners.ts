import type { AppealStatus } from './appeals.ts';
import type { PcnStatus } from './pcn-status.ts';
import {
  CANCELLATION_REASON_LABELS,
  PERMIT_KIND_LABELS,
  type CancellationReason,
  type CancellationRequestStatus,
  type PermitKind,
} from './permits.ts';

/**
 * The landowner's side of the product (decision 0042): their car parks' charges without anything
 * about the motorist, their requests that a charge be cancelled, and the monthly report. Every
 * word the screens, the CSV and the PDF use is here, once.
 */

/** The longest reason or note a cancellation, a request or a decision carries. */
export const CANCELLATION_NOTE_MAX = 500;

export const CANCELLATION_MESSAGES = {
  reasonRequired: 'Choose why the charge is cancelled',
  noteRequired: 'Say why the charge is cancelled',
  requestReasonRequired: 'Say why the charge should be cancelled',
  decisionRequired: 'Approve or decline the request',
  decisionReasonRequired: 'Give the reason for your decision',
  monthInvalid: 'Choose a month like 2026-11',
  alreadyPending: 'A request to cancel this charge is already waiting for an admin',
  notCancellable: 'This charge is closed: it cannot be cancelled',
  requestNotPending: 'This request has already been decided',
  requestNotFound: 'Cancellation request not found',
} as const;

/** The label of a cancellation reason, or of its absence on a charge cancelled before reasons were kept. */
export function cancellationReasonLabel(reason: CancellationReason | null): string {
  return reason === null ? 'Not recorded' : CANCELLATION_REASON_LABELS[reason];
}

/** A landowner's request that a charge be cancelled, and the admin's answer. */
export type CancellationRequest = {
  id: string;
  pcnId: string;
  reason: string;
  status: CancellationRequestStatus;
  requestedByName: string;
  createdAt: string;
  decidedByName: string | null;
  decidedAt: string | null;
  decisionReason: string | null;
};

export const CANCELLATION_REQUEST_STATUS_LABELS: Record<CancellationRequestStatus, string> = {
  PENDING: 'Waiting for an admin',
  APPROVED: 'Approved: charge cancelled',
  DECLINED: 'Declined',
};

/**
 * A charge as its car park's landowner sees it: what happened on their land and where the charge
 * stands, never who the motorist is (no keeper, hirer, named driver or appellant, and no photos,
 * which show people and their cars' surroundings).
 */
export type LandownerCharge = {
  id: string;
  pcnNumber: string;
  vehicleRegistration: string;
  offenceType: string;
  location: string;
  status: PcnStatus;
  /** When the notice was issued (filed, where the officer gave no issue time). */
  issuedAt: string;
  cancellationReason: CancellationReason | null;
  /** Whether a motorist appealed, and how it stands; no word of who or why. */
  appealStatus: AppealStatus | null;
  /** The latest request to cancel it, if any. */
  cancellationRequest: CancellationRequest | null;
};

export type LandownerChargeListResponse = {
  charges: LandownerCharge[];
  pagination: { page: number; limit: number; total: number; pages: number };
};

/**
 * The monthly report for one car park: the notices issued there in a UK calendar month, and
 * where each stands now (cancelled and why, appealed and how it ended, paid or still owed); the
 * permits in force at the end of the month (or now, for the month under way).
 */
export type MonthlyReport = {
  carPark: { id: string; name: string; siteCode: string };
  month: string;
  /** The instant the permits are counted at. */
  permitsCountedAt: string;
  issued: number;
  cancelled: { total: number; byReason: Array<{ reason: CancellationReason | null; count: number }> };
  appeals: { total: number; byStatus: Array<{ status: AppealStatus; count: number }> };
  paid: { count: number; receivedPence: number };
  outstanding: { count: number; duePence: number };
  permitsInForce: { total: number; byKind: Array<{ kind: PermitKind; count: number }> };
};

export const APPEAL_STATUS_REPORT_LABELS: Record<AppealStatus, string> = {
  OPEN: 'Awaiting a decision',
  ACCEPTED: 'Accepted',
  ACCEPTED_REDUCED: 'Accepted at a reduced amount',
  REJECTED: 'Rejected',
  DECLINED_LATE: 'Declined as late',
  WITHDRAWN: 'Withdrawn',
};

export const MONTHLY_REPORT_SECTIONS = {
  issued: 'Notices issued',
  cancelled: 'Cancelled',
  appeals: 'Appeals',
  paid: 'Paid',
  outstanding: 'Outstanding',
  permits: 'Permits in force',
} as const;

/** One line of the report: the page's table, the CSV and the PDF print exactly these. */
export type MonthlyReportLine = { section: string; item: string; count: number; pence: number | null };

export function monthlyReportLines(report: MonthlyReport): MonthlyReportLine[] {
  const S = MONTHLY_REPORT_SECTIONS;
  return [
    { section: S.issued, item: 'All', count: report.issued, pence: null },
    { section: S.cancelled, item: 'All', count: report.cancelled.total, pence: null },
    ...report.cancelled.byReason.map(({ reason, count }) => ({
      section: S.cancelled,
      item: cancellationReasonLabel(reason),
      count,
      pence: null,
    })),
    { section: S.appeals, item: 'All', count: report.appeals.total, pence: null },
    ...report.appeals.byStatus.map(({ status, count }) => ({
      section: S.appeals,
      item: APPEAL_STATUS_REPORT_LABELS[status],
      count,
      pence: null,
    })),
    { section: S.paid, item: 'Received, less refunds', count: report.paid.count, pence: report.paid.receivedPence },
    { section: S.outstanding, item: 'Owed now', count: report.outstanding.count, pence: report.outstanding.duePence },
    { section: S.permits, item: 'All', count: report.permitsInForce.total, pence: null },
    ...report.permitsInForce.byKind.map(({ kind, count }) => ({ section: S.permits, item: PERMIT_KIND_LABELS[kind], count, pence: null })),
  ];
}

export const MONTHLY_REPORT_CSV_COLUMNS = ['Car park', 'Month', 'Figure', 'Breakdown', 'Count', 'Amount (£)'] as const;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** '2026-11' -> 'November 2026'. */
export function monthTitle(month: string): string {
  const [year, index] = month.split('-');
  return `${MONTH_NAMES[Number(index) - 1] ?? month} ${year}`;
}

/** The month before '2026-01' is '2025-12'. */
export function shiftMonth(month: string, by: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const at = new Date(Date.UTC(year, index - 1 + by, 1));
  return at.toISOString().slice(0, 7);
}

export function monthlyReportTitle(report: Pick<MonthlyReport, 'carPark' | 'month'>): string {
  return `${report.carPark.name}: monthly report, ${monthTitle(report.month)}`;
}

/** The words of the report's PDF, around the lines every copy of the report shares. */
export const MONTHLY_REPORT_PDF = {
  intro: (report: Pick<MonthlyReport, 'carPark' | 'month'>) =>
    `The parking charge notices issued at ${report.carPark.name} (${report.carPark.siteCode}) in ${monthTitle(report.month)}, and where each stands on the day this report was made. It names no motorist.`,
  permitsNote: 'Permits in force are counted at the end of the month, or when the report was made for the month under way.',
} as const;

export function monthlyReportFileName(report: Pick<MonthlyReport, 'carPark' | 'month'>, extension: 'csv' | 'pdf'): string {
  const site = report.carPark.siteCode.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return `monthly-report-${site}-${report.month}.${extension}`;
}

export const LANDOWNER_TEXTS = {
  myCarParks: 'My car parks',
  noCarParks: 'No car parks are assigned to you yet. Ask the operator to assign them.',
  charges: 'Charges',
  permits: 'Permits',
  report: 'Monthly report',
  requestCancellation: 'Request cancellation',
  requestSent: 'Request sent: an admin will decide',
  noCharges: 'No charges have been issued here.',
  requestReasonLabel: 'Why should this charge be cancelled?',
} as const;
