import { ukWallClock } from './uk-clock.ts';

/**
 * An instant as a UK operator reads it, and as a UK spreadsheet takes it for a date and time:
 * the UK clock, day first ('26/11/2026 07:17:36'; '01/06/2026 10:00:00' is 09:00 UTC in summer);
 * '' when not recorded.
 */
export function csvTime(instant: string | null | undefined): string {
  if (!instant) return '';
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return instant;
  const { year, month, day, hour, minute, second } = ukWallClock(date);
  return `${day}/${month}/${year} ${hour}:${minute}:${second}`;
}

/** A calendar day ('2026-11-26') as a UK spreadsheet takes it: '26/11/2026'; '' for none. */
export function csvDate(date: string | null | undefined): string {
  if (!date) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : date;
}
