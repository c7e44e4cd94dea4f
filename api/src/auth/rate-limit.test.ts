import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.ts';
import { openSqliteDatabase } from '../../test/support/sqlite-database.ts';
import { combineDecisions, createRateLimiter, type RateLimitRule } from './rate-limit.ts';

const rule = (limit: number): RateLimitRule => ({ scope: `test-${limit}`, limit, windowMs: 60_000 });

describe('createRateLimiter', () => {
  let db: Db;
  let close: () => Promise<void>;
  const clock = { ms: 0 };
  const limiterAt = (ms: number) => {
    clock.ms = ms;
    return createRateLimiter({ db, now: () => new Date(clock.ms) });
  };
  beforeEach(async () => {
    ({ db, close } = await openSqliteDatabase());
  });
  afterEach(() => close());

  it('allows events up to the limit and refuses the next', async () => {
    const limiter = limiterAt(0);
    for (let i = 0; i < 3; i++) {
      expect((await limiter.check(rule(3), 'a')).isLimited).toBe(false);
      await limiter.hit(rule(3), 'a');
    }
    expect(await limiter.check(rule(3), 'a')).toEqual({ isLimited: true, retryAfterSeconds: 60 });
  });

  it('counts each key and each rule on its own', async () => {
    const limiter = limiterAt(0);
    await limiter.hit(rule(1), 'a');
    expect((await limiter.check(rule(1), 'a')).isLimited).toBe(true);
    expect((await limiter.check(rule(1), 'b')).isLimited).toBe(false);
    expect((await limiter.check({ ...rule(1), scope: 'another' }, 'a')).isLimited).toBe(false);
  });

  it('frees the key when the oldest event leaves the window', async () => {
    const limiter = limiterAt(0);
    await limiter.hit(rule(2), 'a');
    clock.ms = 30_000;
    await limiter.hit(rule(2), 'a');
    expect(await limiter.check(rule(2), 'a')).toEqual({ isLimited: true, retryAfterSeconds: 30 });
    clock.ms = 60_001;
    expect((await limiter.check(rule(2), 'a')).isLimited).toBe(false);
    await limiter.hit(rule(2), 'a');
    expect(await limiter.check(rule(2), 'a')).toEqual({ isLimited: true, retryAfterSeconds: 30 });
  });

  it('takes one event from every key, or from none when any is spent', async () => {
    const limiter = limiterAt(0);
    const both = [
      { rule: rule(1), key: 'account' },
      { rule: rule(2), key: 'address' },
    ];
    expect(await limiter.take(both)).toEqual({ isLimited: false });
    expect(await limiter.take(both)).toEqual({ isLimited: true, retryAfterSeconds: 60 });
    // The refused take counted nothing: the address has one of its two slots left.
    expect(await limiter.take([{ rule: rule(2), key: 'address' }])).toEqual({ isLimited: false });
    expect((await limiter.check(rule(2), 'address')).isLimited).toBe(true);
  });

  it('lets exactly the limit through when takes arrive side by side', async () => {
    const limiter = limiterAt(0);
    const decisions = await Promise.all(Array.from({ length: 10 }, () => limiter.take([{ rule: rule(3), key: 'a' }])));
    expect(decisions.filter((d) => !d.isLimited)).toHaveLength(3);
  });

  it('deletes events that have left the window as it counts new ones', async () => {
    const limiter = limiterAt(0);
    for (const key of ['a', 'b', 'c']) await limiter.hit(rule(5), key);
    clock.ms = 60_000;
    await limiter.hit(rule(5), 'd');
    const rows = await db.selectFrom('rate_limit_events').select('key').execute();
    expect(rows.map((row) => row.key)).toEqual(['d']);
  });
});

describe('combineDecisions', () => {
  it('is limited when any decision is, for the longest wait', () => {
    expect(
      combineDecisions([{ isLimited: false }, { isLimited: true, retryAfterSeconds: 5 }, { isLimited: true, retryAfterSeconds: 9 }]),
    ).toEqual({
      isLimited: true,
      retryAfterSeconds: 9,
    });
    expect(combineDecisions([{ isLimited: false }, { isLimited: false }])).toEqual({ isLimited: false });
  });
});
