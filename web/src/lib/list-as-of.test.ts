import { describe, expect, it } from 'vitest';
import { listAsOfNote } from './list-as-of.ts';

describe('the note of a list shown from the phone', () => {
  it('gives the time on the UK clock, in summer an hour ahead of UTC', () => {
    const asOf = Date.parse('2026-07-14T06:49:30Z');
    expect(listAsOfNote(asOf, Date.parse('2026-07-14T09:00:00Z'))).toBe('No signal: your list as of 07:49');
  });

  it('gives the time on the UK clock in winter, when it is UTC', () => {
    expect(listAsOfNote(Date.parse('2026-11-29T07:49:00Z'), Date.parse('2026-11-29T08:00:00Z'))).toBe('No signal: your list as of 07:49');
  });

  it('names the day when the copy is from an earlier UK day, midnight taken in London', () => {
    // 23:30 UTC on 13 July is 00:30 on 14 July in London: the same UK day as 09:00 on the 14th.
    expect(listAsOfNote(Date.parse('2026-07-13T23:30:00Z'), Date.parse('2026-07-14T09:00:00Z'))).toBe('No signal: your list as of 00:30');
    expect(listAsOfNote(Date.parse('2026-11-27T18:05:00Z'), Date.parse('2026-11-29T08:00:00Z'))).toBe(
      'No signal: your list as of 27 Nov, 18:05',
    );
  });
});
