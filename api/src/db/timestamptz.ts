/**
 * A PostgreSQL timestamptz as the application keeps every time: ISO-8601 text in UTC with
 * milliseconds, as Date#toISOString() writes it (decision 0035). Sessions run in UTC, so the
 * server sends '2025-11-30 09:32:43.708+00'; that is rewritten in place, without a Date: pg's
 * reading into a Date and toISOString again were an eighth of the keeper queue's time over
 * 2,000,000 notices (its page of 100 and their 400 photos hold about 1,600 times). Anything
 * else (another offset, a year past 9999, BC, infinity) takes pg's own reading.
 */
const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;

export function isoFromTimestamptz(text: string, readDate: (text: string) => unknown): string {
  if (UTC_TIMESTAMP.test(text)) {
    // Beyond milliseconds the digits are cut, as a Date cuts them.
    const milliseconds = `${text.slice(20, -3)}000`.slice(0, 3);
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${milliseconds}Z`;
  }
  return (readDate(text) as Date).toISOString();
}
