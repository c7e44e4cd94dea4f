import { UK_LOCALE, UK_TIME_ZONE } from '@parkpatrol/shared';

/**
 * Times as the officer reads them in the evidence components: en-GB on the UK clock, the clock
 * of the notices, whatever the phone is set to. Tests may name another zone to prove it is used.
 */
export type ClockFormat = { locale?: string; timeZone?: string };

const inUk = (format: ClockFormat) => ({ locale: format.locale ?? UK_LOCALE, timeZone: format.timeZone ?? UK_TIME_ZONE });

const DAY_MS = 24 * 60 * 60 * 1000;

function toDate(instant: Date | string | number): Date {
  return instant instanceof Date ? instant : new Date(instant);
}

/** The calendar day of an instant in the time zone, as days since 1970 (for "today"/"tomorrow"). */
function dayNumber(date: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat(UK_LOCALE, { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Math.round(Date.UTC(part('year'), part('month') - 1, part('day')) / DAY_MS);
}

/**
 * A wall-clock time for a moment close to now: '14:32', '00:07 tomorrow', '23:55 yesterday', or
 * with its date ('00:07 on 16 Mar') when further away. The day is the UK day, so a waiting
 * period that crosses midnight says so.
 */
export function formatClockTime(instant: Date | string | number, now: Date | number, given: ClockFormat = {}): string {
  const format = inUk(given);
  const date = toDate(instant);
  const time = new Intl.DateTimeFormat(format.locale, {
    timeZone: format.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
  const days = dayNumber(date, format.timeZone) - dayNumber(toDate(now), format.timeZone);
  if (days === 0) return time;
  if (days === 1) return `${time} tomorrow`;
  if (days === -1) return `${time} yesterday`;
  const day = new Intl.DateTimeFormat(format.locale, { timeZone: format.timeZone, day: 'numeric', month: 'short' }).format(date);
  return `${time} on ${day}`;
}

/** Date and time in full, as the detail pages show them: '14 Mar 2025, 09:26'. */
export function formatDateTimeIn(instant: Date | string | number, given: ClockFormat = {}): string {
  const format = inUk(given);
  const date = toDate(instant);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(format.locale, {
    timeZone: format.timeZone,
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

/**
 * A running time with seconds kept two digits wide, so the line does not jump every second:
 * '0 min 09 s', '7 min 05 s', '1 h 02 min 05 s'. Negative times read as zero. `round: 'up'`
 * is for time left: a wait with 0.4 s to go still shows '0 min 01 s', never '0 min 00 s'.
 */
export function formatRunningTime(ms: number, round: 'down' | 'up' = 'down'): string {
  const seconds = Math.max(0, round === 'up' ? Math.ceil(ms / 1000) : Math.floor(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min ${rest} s`;
  return `${minutes} min ${rest} s`;
}
