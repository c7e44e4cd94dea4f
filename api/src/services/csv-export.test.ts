import { describe, expect, it } from 'vitest';
import { csvTime } from './csv-export.ts';

describe('csvTime: an instant on the UK clock with its offset', () => {
  it.each([
    ['2026-11-26T07:17:36.134Z', '2026-11-26T07:17:36+00:00'],
    ['2026-06-01T09:00:00Z', '2026-06-01T10:00:00+01:00'],
    // Clocks go forward at 01:00 GMT on the last Sunday of March...
    ['2026-03-29T00:59:59Z', '2026-03-29T00:59:59+00:00'],
    ['2026-03-29T01:00:00Z', '2026-03-29T02:00:00+01:00'],
    // ...and back at 01:00 GMT on the last Sunday of October: 01:30 happens twice, told apart by the offset.
    ['2026-10-25T00:30:00Z', '2026-10-25T01:30:00+01:00'],
    ['2026-10-25T01:30:00Z', '2026-10-25T01:30:00+00:00'],
    // The year's end in winter time, and a summer evening that is the next day in the UK.
    ['2025-12-31T23:59:59Z', '2025-12-31T23:59:59+00:00'],
    ['2026-07-31T23:30:00Z', '2026-08-01T00:30:00+01:00'],
  ])('%s → %s', (instant, expected) => {
    expect(csvTime(instant)).toBe(expected);
    expect(Date.parse(expected)).toBe(Math.floor(Date.parse(instant) / 1000) * 1000);
  });

  it('leaves an empty cell for what was not recorded', () => {
    expect(csvTime(null)).toBe('');
    expect(csvTime(undefined)).toBe('');
    expect(csvTime('')).toBe('');
  });
});
