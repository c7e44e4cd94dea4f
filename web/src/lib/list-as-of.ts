import { formatDayMonth, formatTime, ukCalendarDay } from './format-date.ts';

/**
 * What an officer's list says when the server could not be reached and the screen shows the
 * phone's last copy (docs/product.md, My PCNs and Dashboard): the time it was fetched on the UK
 * clock, which is the clock of the notices themselves, whatever zone the phone is set to.
 */

/** 'No signal: your list as of 07:49', with the day ('27 Nov, 07:49') when the copy is from an earlier UK day. */
export function listAsOfNote(asOf: number, now: number): string {
  const sameDay = ukCalendarDay(asOf) === ukCalendarDay(now);
  return `No signal: your list as of ${sameDay ? formatTime(asOf) : `${formatDayMonth(asOf)}, ${formatTime(asOf)}`}`;
}

/** No answer, and no copy on the phone to show instead. */
export const NO_LIST_KEPT_NOTE = 'No signal: no list kept on this phone yet';
