import Holidays from 'date-holidays';
import type { CalendarDate, WorkingDays } from './keeper-liability.ts';

/**
 * England and Wales's working days as Schedule 4 counts them: not a Saturday, Sunday, Christmas
 * Day, Good Friday or a bank holiday (substitute days included). The holidays come from
 * date-holidays, a maintained library, not a hand-typed list; its 'public' days for England are
 * exactly these (Wales has the same). Imported by the API alone, through
 * '@parkpatrol/shared/working-days', so the web app never carries the holiday data.
 */
export function englandAndWalesWorkingDays(): WorkingDays {
  const holidays = new Holidays('GB', 'ENG', { types: ['public'] });
  const byYear = new Map<number, Set<CalendarDate>>();
  const holidaysOf = (year: number) => {
    let days = byYear.get(year);
    if (!days) {
      days = new Set(holidays.getHolidays(year).map((holiday) => holiday.date.slice(0, 10)));
      byYear.set(year, days);
    }
    return days;
  };
  return {
    isWorkingDay(date) {
      const weekday = new Date(`${date}T00:00:00.000Z`).getUTCDay();
      if (weekday === 0 || weekday === 6) return false;
      return !holidaysOf(Number(date.slice(0, 4))).has(date);
    },
  };
}
