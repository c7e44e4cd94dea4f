import { UK_LOCALE, UK_TIME_ZONE } from '@parkpatrol/shared';

/**
 * Every date and time the app shows, in one place: en-GB on the UK clock whatever the device's
 * locale or zone, since the notices, the car parks and the people reading them are all in the UK
 * (an officer's phone set to en-US in New York still reads '28 Nov 2026, 07:55'). Formatters are
 * made when first used: one with a time zone loads the zone's rules, which the first paint need
 * not wait for.
 */
function uk(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat | undefined;
  return () => (format ??= new Intl.DateTimeFormat(UK_LOCALE, { timeZone: UK_TIME_ZONE, hourCycle: 'h23', ...options }));
}

const DATE = uk({ day: '2-digit', month: 'short', year: 'numeric' });
const DATE_TIME = uk({ day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const TIME = uk({ hour: '2-digit', minute: '2-digit' });
const DAY_MONTH = uk({ day: 'numeric', month: 'short' });
const NUMERIC_PARTS = uk({ year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });

type Instant = string | number | Date;

function toDate(instant: Instant | null | undefined): Date | null {
  if (instant === null || instant === undefined || instant === '') return null;
  const date = instant instanceof Date ? instant : new Date(instant);
  return Number.isNaN(date.getTime()) ? null : date;
}

const using = (format: () => Intl.DateTimeFormat) => (instant: Instant | null | undefined) => {
  const date = toDate(instant);
  return date ? format().format(date) : '';
};

/** '28 Nov 2026' */
export const formatDate = using(DATE);
/** '28 Nov 2026, 07:55' */
export const formatDateTime = using(DATE_TIME);
/** '07:55' */
export const formatTime = using(TIME);
/** '28 Nov', for a chart's axis or a day close to today. */
export const formatDayMonth = using(DAY_MONTH);

/** The date, then the time on a line of its own: a narrow table column (no wrap inside either). */
export function formatDateTimeLines(instant: Instant | null | undefined): [date: string, time: string] | null {
  const date = toDate(instant);
  return date ? [DATE().format(date), TIME().format(date)] : null;
}

/**
 * What a UK clock read at an instant, as numbers put together from the formatter's parts (never
 * its string: ICU versions differ in punctuation, and WebKitGTK's ICU 72 writes en-CA as m/d/y).
 */
function ukParts(date: Date) {
  const parts = NUMERIC_PARTS().formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)?.value ?? '';
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute') };
}

/** The UK calendar day of an instant, as an ISO date ('2026-11-28'): what date fields hold. */
export function ukCalendarDay(instant: Instant): string {
  const date = toDate(instant);
  if (!date) return '';
  const { year, month, day } = ukParts(date);
  return `${year}-${month}-${day}`;
}

/** The UK wall-clock reading of an instant, as a date-time field holds it ('2026-11-28T07:55'). */
export function ukWallClockInput(instant: Instant): string {
  const date = toDate(instant);
  if (!date) return '';
  const { year, month, day, hour, minute } = ukParts(date);
  return `${year}-${month}-${day}T${hour}:${minute}`;
}

/**
 * The instant a UK wall-clock reading ('2026-11-28T07:55') names, as an ISO time; null for
 * anything else. The UK is UTC or an hour ahead: of the two candidates, the one whose UK reading
 * is the text is it (in the hour the clocks go back both are, and the earlier is taken; in the
 * hour they skip neither is, and the reading an hour on is taken, as a clock would show it).
 */
export function instantFromUkWallClock(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  if (Number.isNaN(asUtc) || new Date(asUtc).getUTCDate() !== day || hour > 23 || minute > 59) return null;
  const candidates = [asUtc - 3_600_000, asUtc];
  const exact = candidates.find((at) => ukWallClockInput(at) === text);
  return new Date(exact ?? asUtc).toISOString();
}

/** How a date field reads and is written, whatever the browser's locale. */
export const DATE_INPUT_FORMAT = 'dd/mm/yyyy';
/** How a date-and-time field reads and is written: the time is on the UK clock, 24-hour. */
export const DATE_TIME_INPUT_FORMAT = 'dd/mm/yyyy hh:mm';

/** An ISO date ('2026-12-31') as a date field shows it ('31/12/2026'), a UK wall-clock reading ('2026-12-31T07:05') with its time; anything else as it is. */
export function toDateInput(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}:\d{2}))?$/.exec(iso);
  if (!match) return iso;
  const day = `${match[3]}/${match[2]}/${match[1]}`;
  return match[4] ? `${day} ${match[4]}` : day;
}

const DAY_TYPED = String.raw`(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})`;
const DATE_TYPED = new RegExp(`^${DAY_TYPED}$`);
const DATE_TIME_TYPED = new RegExp(`^${DAY_TYPED},?\\s+(\\d{1,2}):(\\d{2})$`);

function isoDay(dayText: string, monthText: string, yearText: string): string | null {
  const [day, month, year] = [Number(dayText), Number(monthText), Number(yearText)];
  const at = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || day < 1 || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return `${yearText}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * A date typed as dd/mm/yyyy ('31/12/2026', '1/2/2026', '01.02.2026', with spaces around) as an
 * ISO date ('2026-12-31'); null when it is not one: the wrong order ('2026-12-31'), a day the
 * month does not have ('31/02/2026'), a two-digit year, or nothing.
 */
export function parseDateInput(text: string): string | null {
  const match = DATE_TYPED.exec(text.trim());
  return match ? isoDay(match[1]!, match[2]!, match[3]!) : null;
}

/**
 * A date and a 24-hour time typed as dd/mm/yyyy hh:mm ('31/12/2026 07:05', '31/12/2026, 7:05') as
 * a UK wall-clock reading ('2026-12-31T07:05'); null when it is not one.
 */
export function parseDateTimeInput(text: string): string | null {
  const match = DATE_TIME_TYPED.exec(text.trim());
  if (!match) return null;
  const day = isoDay(match[1]!, match[2]!, match[3]!);
  const [hour, minute] = [Number(match[4]), Number(match[5])];
  if (!day || hour > 23 || minute > 59) return null;
  return `${day}T${String(hour).padStart(2, '0')}:${match[5]}`;
}
