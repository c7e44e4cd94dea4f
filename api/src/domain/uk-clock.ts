import { UK_TIME_ZONE } from '@parkpatrol/shared';

const UK_CLOCK = new Intl.DateTimeFormat('en-GB', {
  timeZone: UK_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'longOffset',
});

export type UkWallClock = { year: string; month: string; day: string; hour: string; minute: string; second: string; offset: string };

/** What a UK clock read at this instant, two digits a field, and its offset from UTC ('+00:00', '+01:00'). */
export function ukWallClock(instant: number | Date): UkWallClock {
  const part = Object.fromEntries(UK_CLOCK.formatToParts(new Date(instant)).map(({ type, value }) => [type, value]));
  // 'GMT' at no offset, else 'GMT+01:00'.
  const offset = part.timeZoneName === 'GMT' ? '+00:00' : String(part.timeZoneName).replace('GMT', '');
  return { year: part.year!, month: part.month!, day: part.day!, hour: part.hour!, minute: part.minute!, second: part.second!, offset };
}
