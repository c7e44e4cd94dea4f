import { addDays, type CalendarDate } from './keeper-liability.ts';

/**
 * Money at a glance on the Admin Dashboard: what came in each week (and went back out as
 * refunds), and what is still owed, by how long ago each charge was issued.
 */
export const OUTSTANDING_AGE_BANDS = ['0-28', '29-56', '57-90', '90+'] as const;
export type OutstandingAgeBand = (typeof OUTSTANDING_AGE_BANDS)[number];

export const OUTSTANDING_AGE_BAND_LABELS: Record<OutstandingAgeBand, string> = {
  '0-28': '0 to 28 days',
  '29-56': '29 to 56 days',
  '57-90': '57 to 90 days',
  '90+': 'Over 90 days',
};

export type MoneyAnalytics = {
  /** Oldest week first, each a UK week from its Monday; the last is the week of today. */
  receivedByWeek: Array<{ weekStart: CalendarDate; receivedPence: number; refundedPence: number }>;
  /** Every band, in order, with the charges owing and what they owe now. */
  outstandingByAge: Array<{ band: OutstandingAgeBand; count: number; outstandingPence: number }>;
};

export const MONEY_WEEKS = { default: 12, most: 52 } as const;

/** The band of a charge issued `days` days ago: within four weeks, eight weeks, about three months, or older. */
export function outstandingAgeBand(days: number): OutstandingAgeBand {
  if (days <= 28) return '0-28';
  if (days <= 56) return '29-56';
  if (days <= 90) return '57-90';
  return '90+';
}

/** The Monday that starts the UK week of a day (a UK week runs Monday to Sunday). */
export function ukWeekStart(day: CalendarDate): CalendarDate {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** Whole days from one calendar day to another. */
export function daysFrom(from: CalendarDate, to: CalendarDate): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / 86_400_000);
}

/** Pence as a spreadsheet reads pounds: '60.00', '-5.50'. */
export function poundsCell(pence: number): string {
  return (pence / 100).toFixed(2);
}

export const MONEY_CSV_COLUMNS = [
  'Figure',
  'Week starting',
  'Age (days)',
  'Charges',
  'Received (£)',
  'Refunded (£)',
  'Outstanding (£)',
] as const;
export const MONEY_CSV_FIGURES = { received: 'Received by week', outstanding: 'Outstanding by age' } as const;

export const PAYMENTS_CSV_COLUMNS = [
  'Date paid',
  'PCN number',
  'Car park',
  'Method',
  'Reference',
  'Amount (£)',
  'Refunded (£)',
  'Net (£)',
] as const;

/** The downloads' names: what they hold, and for when. */
export function moneyCsvFileName(today: CalendarDate, carParkName?: string): string {
  return `money-${carParkName ? `${slug(carParkName)}-` : ''}${today}.csv`;
}

export function paymentsCsvFileName(
  today: CalendarDate,
  query: { from?: string | undefined; to?: string | undefined; carParkName?: string | undefined },
): string {
  const parts = [
    'payments',
    query.carParkName ? slug(query.carParkName) : null,
    query.from ? `from-${query.from}` : null,
    query.to ? `to-${query.to}` : null,
  ];
  return `${parts.filter(Boolean).join('-')}-${today}.csv`;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'car-park'
  );
}

export const MONEY_TEXTS = {
  heading: 'Money',
  receivedHeading: 'Received by week',
  outstandingHeading: 'Outstanding by age',
  fetchFailed: 'Failed to fetch the money figures',
  csvFailed: 'Failed to download the money figures',
  paymentsExportFailed: 'Failed to export the payments',
  allCarParks: 'All car parks',
} as const;
