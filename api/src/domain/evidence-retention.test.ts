import { describe, expect, it } from 'vitest';
import { purgeDueAt, retentionCutoff } from './evidence-retention.ts';

describe('evidence retention', () => {
  it('puts the cutoff the retention period before now', () => {
    expect(retentionCutoff(new Date('2026-07-01T12:00:00.000Z'), 180)).toBe('2026-01-02T12:00:00.000Z');
  });

  it('with 0 days, everything closed up to now is due', () => {
    const now = new Date('2026-07-01T12:00:00.000Z');
    expect(retentionCutoff(now, 0)).toBe(now.toISOString());
  });

  it('counts days as 24 hours of elapsed time across a clock change', () => {
    // The clocks went forward in the UK on 29 March 2026; a day is still 24 h.
    expect(purgeDueAt('2026-03-28T12:00:00.000Z', 2)).toBe('2026-03-30T12:00:00.000Z');
  });

  it('agrees with itself: a notice due exactly now is at the cutoff', () => {
    const closedAt = '2026-01-01T00:00:00.000Z';
    const due = purgeDueAt(closedAt, 30);
    expect(retentionCutoff(new Date(due), 30)).toBe(closedAt);
  });
});
