import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.ts';
import { openSqliteDatabase } from '../../test/support/sqlite-database.ts';
import { createSignInLimiter, decideSignInAttempt, type SignInLimiter, type SignInPolicy } from './sign-in-limiter.ts';

const policy: SignInPolicy = { failuresPerAccountAddress: 3, failuresPerAddress: 5, windowMs: 60_000, backoffBaseMs: 1000 };
const failed = (at: number) => ({ at, isFailure: true });
const pending = (at: number) => ({ at, isFailure: false });

describe('decideSignInAttempt', () => {
  it('allows a first guess', () => {
    expect(decideSignInAttempt([], [], 0, policy)).toEqual({ isAllowed: true });
  });

  it('lets the guess after one typo through at once', () => {
    expect(decideSignInAttempt([failed(0)], [0], 0, policy)).toEqual({ isAllowed: true });
  });

  it('from the second settled failure, doubles the wait after each', () => {
    expect(decideSignInAttempt([failed(0), failed(0)], [0, 0], 500, policy)).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
    expect(decideSignInAttempt([failed(0), failed(0)], [0, 0], 1000, policy)).toEqual({ isAllowed: true });
    const policyOfFive = { ...policy, failuresPerAccountAddress: 5, failuresPerAddress: 10 };
    const three = [failed(0), failed(0), failed(1000)];
    expect(decideSignInAttempt(three, [0, 0, 1000], 2000, policyOfFive)).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
    expect(decideSignInAttempt(three, [0, 0, 1000], 3000, policyOfFive)).toEqual({ isAllowed: true });
  });

  it('lets guesses still being checked take slots without backoff, up to the limit', () => {
    expect(decideSignInAttempt([pending(0), pending(0)], [0, 0], 0, policy)).toEqual({ isAllowed: true });
    expect(decideSignInAttempt([pending(0), pending(0), pending(0)], [0, 0, 0], 0, policy)).toEqual({ isAllowed: false, retryAfterSeconds: 60 });
  });

  it('locks the account at this address for the rest of the window once the limit is reached', () => {
    const guesses = [failed(0), failed(1000), failed(3000)];
    expect(decideSignInAttempt(guesses, [], 30_000, policy)).toEqual({ isAllowed: false, retryAfterSeconds: 30 });
    expect(decideSignInAttempt(guesses, [], 60_001, policy)).toEqual({ isAllowed: true });
  });

  it('caps one address over all accounts', () => {
    expect(decideSignInAttempt([], [0, 1, 2, 3, 4], 10_000, policy)).toEqual({ isAllowed: false, retryAfterSeconds: 50 });
  });
});

// Over a real, migrated SQLite file; api/test/auth-limits-shared.test.ts runs the limiter on
// both engines, with two apps on one database.
describe('createSignInLimiter', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ db, close } = await openSqliteDatabase());
  });
  afterEach(() => close());

  function limiterAt() {
    const clock = { ms: 0 };
    return { clock, limiter: createSignInLimiter({ db, now: () => new Date(clock.ms), policy }) };
  }

  async function reserveOrThrow(limiter: SignInLimiter, account: string, address: string) {
    const decision = await limiter.reserve(account, address);
    if (!decision.isAllowed) throw new Error('expected a slot');
    return decision.attempt;
  }

  it('counts a guess when it is reserved, before anyone knows whether it is right', async () => {
    const { limiter } = limiterAt();
    const decisions = await Promise.all(Array.from({ length: 10 }, () => limiter.reserve('a@example.com', '10.0.0.1')));
    expect(decisions.filter((d) => d.isAllowed)).toHaveLength(3);
  });

  it('keys the lock on account and address together', async () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < 3; i++) {
      clock.ms += 10_000;
      await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', 'attacker'));
    }
    clock.ms += 10_000;
    expect((await limiter.reserve('a@example.com', 'attacker')).isAllowed).toBe(false);
    expect((await limiter.reserve('a@example.com', 'the-user')).isAllowed).toBe(true);
  });

  it('runs the backoff from the wrong answer, not from the request', async () => {
    const { clock, limiter } = limiterAt();
    await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    const slow = await reserveOrThrow(limiter, 'a@example.com', 'x');
    clock.ms = 5000;
    await limiter.fail(slow);
    clock.ms = 5500;
    expect(await limiter.reserve('a@example.com', 'x')).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
    clock.ms = 6000;
    expect((await limiter.reserve('a@example.com', 'x')).isAllowed).toBe(true);
  });

  it('a refund frees the slot and forgets the failures at that address', async () => {
    const { clock, limiter } = limiterAt();
    await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    clock.ms += 1000;
    await limiter.refund(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    for (let i = 0; i < 3; i++) expect((await limiter.reserve('a@example.com', 'x')).isAllowed).toBe(true);
  });

  it('a refund leaves the forgotten guesses counted for the address cap', async () => {
    const { limiter } = limiterAt();
    await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    const otherTab = await reserveOrThrow(limiter, 'a@example.com', 'x');
    await limiter.refund(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    // The other tab's guess, wrong after all, stays forgotten for the account: three slots again.
    await limiter.fail(otherTab);
    for (let i = 0; i < 3; i++) expect((await limiter.reserve('a@example.com', 'x')).isAllowed).toBe(true);
    // The address still counts the failure and the other tab's guess: 2 + 3 reach its cap of 5.
    expect(await limiter.reserve('b@example.com', 'x')).toEqual({ isAllowed: false, retryAfterSeconds: 60 });
  });

  it('forgets an account everywhere after a password reset', async () => {
    const { limiter } = limiterAt();
    for (const address of ['x', 'y']) {
      const decision = await limiter.reserve('a@example.com', address);
      if (decision.isAllowed) await limiter.fail(decision.attempt);
    }
    await limiter.forgetAccount('a@example.com');
    expect((await limiter.reserve('a@example.com', 'x')).isAllowed).toBe(true);
    expect((await limiter.reserve('a@example.com', 'y')).isAllowed).toBe(true);
  });

  it('deletes guesses that have left the window as it counts new ones', async () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < 3; i++) await limiter.fail(await reserveOrThrow(limiter, `made-up-${i}@example.com`, 'x'));
    clock.ms = 60_000;
    await reserveOrThrow(limiter, 'a@example.com', 'y');
    const rows = await db.selectFrom('sign_in_attempts').select('account').execute();
    expect(rows.map((row) => row.account)).toEqual(['a@example.com']);
  });
});
