import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isoFromTimestamptz } from './timestamptz.ts';

const readDate = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);
const throughDate = (text: string) => (readDate(text) as Date).toISOString();

describe('isoFromTimestamptz', () => {
  it('reads what a UTC session sends as pg and toISOString read it, without a Date', () => {
    const sent = [
      '2025-11-30 09:32:43.708+00',
      '2025-11-30 09:32:43+00',
      '2025-11-30 09:32:43.7+00',
      '2025-11-30 09:32:43.07+00',
      '2026-03-29 01:00:00.000001+00',
      '2026-10-25 00:59:59.999999+00',
      '2024-02-29 23:59:59.999+00',
      '1999-12-31 23:59:59.5+00',
      '0999-01-01 00:00:00+00',
    ];
    for (const text of sent) expect(isoFromTimestamptz(text, () => expect.unreachable(text))).toBe(throughDate(text));
  });

  it('leaves to pg what is not a UTC time of four-digit years', () => {
    for (const text of [
      '2025-11-30 10:32:43.708+01',
      '2025-11-30 15:02:43+05:30',
      '0044-03-15 12:00:00+00 BC',
      '12025-01-01 00:00:00+00',
    ]) {
      expect(isoFromTimestamptz(text, readDate)).toBe(throughDate(text));
    }
  });
});
