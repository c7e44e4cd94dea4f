import { describe, expect, it } from 'vitest';
import { combineDecisions, createRateLimiter } from './rate-limit.ts';

function clockAt(ms: number) {
  const clock = { ms };
  return { clock, now: () => new Date(clock.ms) };
}

describe('createRateLimiter', () => {
  it('allows events up to the limit and refuses the next', () => {
    const { now } = clockAt(0);
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now });
    for (let i = 0; i < 3; i++) {
      expect(limiter.check('a').isLimited).toBe(false);
      limiter.hit('a');
    }
    expect(limiter.check('a')).toEqual({ isLimited: true, retryAfterSeconds: 60 });
  });

  it('counts each key on its own', () => {
    const { now } = clockAt(0);
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, now });
    limiter.hit('a');
    expect(limiter.check('a').isLimited).toBe(true);
    expect(limiter.check('b').isLimited).toBe(false);
  });

  it('frees the key when the oldest event leaves the window', () => {
    const { clock, now } = clockAt(0);
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, now });
    limiter.hit('a');
    clock.ms = 30_000;
    limiter.hit('a');
    expect(limiter.check('a')).toEqual({ isLimited: true, retryAfterSeconds: 30 });
    clock.ms = 60_001;
    expect(limiter.check('a').isLimited).toBe(false);
    limiter.hit('a');
    expect(limiter.check('a')).toEqual({ isLimited: true, retryAfterSeconds: 30 });
  });

  it('forgets a key on reset', () => {
    const { now } = clockAt(0);
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, now });
    limiter.hit('a');
    limiter.reset('a');
    expect(limiter.check('a').isLimited).toBe(false);
  });
});

describe('combineDecisions', () => {
  it('is limited when any decision is, for the longest wait', () => {
    expect(combineDecisions([{ isLimited: false }, { isLimited: true, retryAfterSeconds: 5 }, { isLimited: true, retryAfterSeconds: 9 }])).toEqual({
      isLimited: true,
      retryAfterSeconds: 9,
    });
    expect(combineDecisions([{ isLimited: false }, { isLimited: false }])).toEqual({ isLimited: false });
  });
});
