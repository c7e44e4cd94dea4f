import { ukDate } from './keeper-liability.ts';
import { VALIDATION_MESSAGES } from './messages.ts';
/** Time on site as 'Xh Ym' at 60 minutes or more, else 'Ym': short enough for a table cell. */
export function formatTimeOnSite(totalMinutes: number): string {
  const minutes = Math.max(0, Math.floor(totalMinutes));
  if (minutes >= 60) return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
  return `${minutes}m`;
}

/** First letter of first name and of last name, as the account button shows. */
export function initialsOf(user: { firstName?: string | null; lastName?: string | null }): string {
  return `${user.firstName?.trim().charAt(0) ?? ''}${user.lastName?.trim().charAt(0) ?? ''}`.toUpperCase();
}

/** Registrations are stored upper-case without spaces, so a search or a lookup matches however it was typed. */
export function normaliseRegistration(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** A registration as stored (normalised): 2 to 10 letters and digits. */
export const REGISTRATION_PATTERN = /^[A-Z0-9]{2,10}$/;

/**
 * What is wrong with a registration as typed, or null: the same rule as the schemas', for a
 * public page that would otherwise download every schema to check one field.
 */
export function registrationProblem(value: string): string | null {
  const registration = normaliseRegistration(value);
  if (registration === '') return VALIDATION_MESSAGES.registrationRequired;
  return REGISTRATION_PATTERN.test(registration) ? null : VALIDATION_MESSAGES.registrationInvalid;
}

/** PCN numbers are sequential, zero-padded to 8 digits. */
export function formatPcnNumber(sequence: number): string {
  return String(sequence).padStart(8, '0');
}

/** Activity types show with underscores as spaces (docs/product.md, Analytics). */
export function formatActivityType(type: string): string {
  return type.replace(/_/g, ' ');
}

/** Letters and digits of a filter's value, for a file name: 'North Lot' → 'north-lot'. */
function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

/** What a PCN export was filtered by, as its file name says it. */
export type PcnExportFilter = {
  status?: string | null;
  carParkName?: string | null;
  search?: string | null;
  from?: string | null;
  to?: string | null;
  flagged?: string | null;
};

/**
 * An export's file name: what it holds, the filters that chose it, and the day it was made on
 * the operator's (UK) calendar, e.g. 'pcns-submitted-north-lot-from-2026-11-01-2026-11-27.csv'.
 * Two exports of one day with different filters never share a name.
 */
function exportFileName(kind: string, parts: ReadonlyArray<string | null | undefined>, now: Date): string {
  const named = parts
    .filter((part): part is string => Boolean(part))
    .map(slug)
    .filter(Boolean);
  return `${[kind, ...named, ukDate(now)].join('-')}.csv`;
}

/** The Manage PCNs export's file name (see exportFileName). */
export function pcnExportFileName(now: Date, filter: PcnExportFilter = {}): string {
  return exportFileName(
    'pcns',
    [
      filter.status,
      filter.flagged,
      filter.carParkName,
      filter.search ? `search ${filter.search}` : undefined,
      filter.from ? `from ${filter.from}` : undefined,
      filter.to ? `to ${filter.to}` : undefined,
    ],
    now,
  );
}

/** The Manage Users export's file name (see exportFileName). */
export function userExportFileName(
  now: Date,
  filter: { role?: string | null; isActive?: boolean | null; search?: string | null } = {},
): string {
  return exportFileName(
    'users',
    [
      filter.role,
      filter.isActive === undefined || filter.isActive === null ? undefined : filter.isActive ? 'active' : 'inactive',
      filter.search ? `search ${filter.search}` : undefined,
    ],
    now,
  );
}

/** The Appeals queue's export file name (see exportFileName). */
export function appealExportFileName(now: Date, filter: { status?: string | null; search?: string | null } = {}): string {
  return exportFileName('appeals', [filter.status, filter.search ? `search ${filter.search}` : undefined], now);
}

/** A list's total as the screens say it: '1,234', or '1,000+' when the server stopped counting. */
export function formatListTotal(pagination: { total: number; totalCapped?: boolean }): string {
  return `${pagination.total.toLocaleString('en-GB')}${pagination.totalCapped ? '+' : ''}`;
}
