/**
 * The one clock the product reads: every notice, list, filter and export states UK time, whatever
 * zone the phone, the browser or the server is set to. Every formatter names this zone.
 */
export const UK_TIME_ZONE = 'Europe/London';

/** The one locale dates are written in: '28 Nov 2026, 07:55', '28/11/2026', whatever the device's locale. */
export const UK_LOCALE = 'en-GB';
