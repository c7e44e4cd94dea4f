import { describe, expect, it } from 'vitest';
import { computeBackoffDelay, computeNextAttemptAt, DEFAULT_BACKOFF, parseRetryAfter } from './backoff.ts';

const options = { baseMs: 1_000, capMs: 60_000, minMs: 100 };

describe('computeBackoffDelay', () => {
  it('doubles the ceiling with each attempt up to the cap', () => {
    const almostOne = () => 0.999_999;
    expect(computeBackoffDelay(1, almostOne, options)).toBe(999);
    expect(computeBackoffDelay(2, almostOne, options)).toBe(1_999);
    expect(computeBackoffDelay(3, almostOne, options)).toBe(3_999);
    expect(computeBackoffDelay(7, almostOne, options)).toBe(59_999);
    expect(computeBackoffDelay(50, almostOne, options)).toBe(59_999);
    expect(computeBackoffDelay(10_000, almostOne, options)).toBe(59_999);
  });

  it('spreads delays over the whole range from zero to the ceiling (full jitter)', () => {
    expect(computeBackoffDelay(4, () => 0.5, options)).toBe(4_000);
    expect(computeBackoffDelay(4, () => 0.25, options)).toBe(2_000);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(Math.floor(computeBackoffDelay(7, Math.random, options) / 6_000));
    // Ten buckets over 0..60 s: full jitter fills nearly all of them, equal jitter would not.
    expect(seen.size).toBeGreaterThanOrEqual(8);
  });

  it('never returns less than the floor', () => {
    expect(computeBackoffDelay(1, () => 0, options)).toBe(100);
    expect(computeBackoffDelay(0, () => 0, DEFAULT_BACKOFF)).toBe(DEFAULT_BACKOFF.minMs);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T12:00:00Z');

  it('reads delta seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores a missing or unreadable header', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});

describe('computeNextAttemptAt', () => {
  it('waits at least as long as Retry-After asks', () => {
    expect(computeNextAttemptAt(1, 1_000, () => 0.5, 90_000, options)).toBe(91_000);
  });

  it('keeps the backoff when it is longer than Retry-After', () => {
    expect(computeNextAttemptAt(7, 0, () => 0.5, 1_000, options)).toBe(30_000);
  });
});
