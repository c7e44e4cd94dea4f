import { describe, expect, it } from 'vitest';
import { csvDate, csvTime } from './csv-cells.ts';

describe('csvTime: an instant on the UK clock, day first, as a UK spreadsheet reads it', () => {
  it.each([
    ['2026-11-26T07:17:36.134Z', '26/11/2026 07:17:36'],
    ['2026-06-01T09:00:00Z', '01/06/2026 10:00:00'],
    // Clocks go forward at 01:00 GMT on the last Sunday of March...
    ['2026-03-29T00:59:59Z', '29/03/2026 00:59:59'],
    ['2026-03-29T01:00:00Z', '29/03/2026 02:00:00'],
    // ...and back at 01:00 GMT on the last Sunday of October: 01:30 happens twice, as on any UK clock.
    ['2026-10-25T00:30:00Z', '25/10/2026 01:30:00'],
    ['2026-10-25T01:30:00Z', '25/10/2026 01:30:00'],
    // The year's end in winter time, and a summer evening that is the next day in the UK.
    ['2025-12-31T23:59:59Z', '31/12/2025 23:59:59'],
    ['2026-07-31T23:30:00Z', '01/08/2026 00:30:00'],
  ])('%s → %s', (instant, expected) => {
    expect(csvTime(instant)).toBe(expected);
  });

  it('leaves an empty cell for what was not recorded', () => {
    expect(csvTime(null)).toBe('');
    expect(csvTime(undefined)).toBe('');
    expect(csvTime('')).toBe('');
  });
});

describe('csvDate: a calendar day, day first', () => {
  it('writes 2026-11-26 as 26/11/2026 and nothing as an empty cell', () => {
    expect(csvDate('2026-11-26')).toBe('26/11/2026');
    expect(csvDate(null)).toBe('');
    expect(csvDate(undefined)).toBe('');
  });
});
