import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.ts';
import { openSqliteDatabase } from '../../test/support/sqlite-database.ts';
import { createSignInLimiter, decideSignInAttempt, type SignInLimiter, type SignInPolicy } from './sign-in-limiter.ts';

const policy: SignInPolicy = {
  failuresPerAccountAddress: 3,
  failuresPerAddress: 5,
  failuresPerAccount: 8,
  windowMs: 60_000,
  backoffBaseMs: 1000,
};
const failed = (at: number) => ({ at, isFailure: true });
const pending = (at: number) => ({ at, isFailure: false });

describe('decideSignInAttempt', () => {
  it('allows a first guess', () => {
    expect(decideSignInAttempt({ pair: [], origin: [], account: null }, 0, policy)).toEqual({ isAllowed: true });
  });

  it('lets the guess after one typo through at once', () => {
    expect(decideSignInAttempt({ pair: [failed(0)], origin: [0], account: null }, 0, policy)).toEqual({ isAllowed: true });
  });

  it('from the second settled failure, doubles the wait after each', () => {
    expect(decideSignInAttempt({ pair: [failed(0), failed(0)], origin: [0, 0], account: null }, 500, policy)).toEqual({
      isAllowed: false,
      retryAfterSeconds: 1,
      needsKnownDevice: false,
    });
    expect(decideSignInAttempt({ pair: [failed(0), failed(0)], origin: [0, 0], account: null }, 1000, policy)).toEqual({ isAllowed: true });
    const policyOfFive = { ...policy, failuresPerAccountAddress: 5, failuresPerAddress: 10 };
    const three = [failed(0), failed(0), failed(1000)];
    expect(decideSignInAttempt({ pair: three, origin: [0, 0, 1000], account: null }, 2000, policyOfFive)).toEqual({
      isAllowed: false,
      retryAfterSeconds: 1,
      needsKnownDevice: false,
    });
    expect(decideSignInAttempt({ pair: three, origin: [0, 0, 1000], account: null }, 3000, policyOfFive)).toEqual({ isAllowed: true });
  });

  it('lets guesses still being checked take slots without backoff, up to the limit', () => {
    expect(decideSignInAttempt({ pair: [pending(0), pending(0)], origin: [0, 0], account: null }, 0, policy)).toEqual({ isAllowed: true });
    expect(decideSignInAttempt({ pair: [pending(0), pending(0), pending(0)], origin: [0, 0, 0], account: null }, 0, policy)).toEqual({
      isAllowed: false,
      retryAfterSeconds: 60,
      needsKnownDevice: false,
    });
  });

  it('locks the account at this address for the rest of the window once the limit is reached', () => {
    const guesses = [failed(0), failed(1000), failed(3000)];
    expect(decideSignInAttempt({ pair: guesses, origin: [], account: null }, 30_000, policy)).toEqual({
      isAllowed: false,
      retryAfterSeconds: 30,
      needsKnownDevice: false,
    });
    expect(decideSignInAttempt({ pair: guesses, origin: [], account: null }, 60_001, policy)).toEqual({ isAllowed: true });
  });

  it('once the account has had its guesses from anywhere, wants a known device until the oldest leave the window', () => {
    const fromEverywhere = [0, 1000, 2000, 3000, 4000, 5000, 6000, 7000];
    expect(decideSignInAttempt({ pair: [], origin: [], account: fromEverywhere.slice(1) }, 10_000, policy)).toEqual({ isAllowed: true });
    expect(decideSignInAttempt({ pair: [], origin: [], account: fromEverywhere }, 10_000, policy)).toEqual({
      isAllowed: false,
      retryAfterSeconds: 50,
      needsKnownDevice: true,
    });
    expect(decideSignInAttempt({ pair: [], origin: [], account: fromEverywhere }, 60_001, policy)).toEqual({ isAllowed: true });
    // A known device is not held by that cap (the caller passes no account count for it).
    expect(decideSignInAttempt({ pair: [], origin: [], account: null }, 10_000, policy)).toEqual({ isAllowed: true });
  });

  it('caps one address over all accounts', () => {
    expect(decideSignInAttempt({ pair: [], origin: [0, 1, 2, 3, 4], account: null }, 10_000, policy)).toEqual({
      isAllowed: false,
      retryAfterSeconds: 50,
      needsKnownDevice: false,
    });
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

  async function reserveOrThrow(limiter: SignInLimiter, account: string, address: string, device: { knownDevice?: string } = {}) {
    const decision = await limiter.reserve(account, { address, ...device });
    if (!decision.isAllowed) throw new Error('expected a slot');
    return decision.attempt;
  }

  it('counts a guess when it is reserved, before anyone knows whether it is right', async () => {
    const { limiter } = limiterAt();
    const decisions = await Promise.all(Array.from({ length: 10 }, () => limiter.reserve('a@example.com', { address: '10.0.0.1' })));
    expect(decisions.filter((d) => d.isAllowed)).toHaveLength(3);
  });

  it('keys the lock on account and address together', async () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < 3; i++) {
      clock.ms += 10_000;
      await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', 'attacker'));
    }
    clock.ms += 10_000;
    expect((await limiter.reserve('a@example.com', { address: 'attacker' })).isAllowed).toBe(false);
    expect((await limiter.reserve('a@example.com', { address: 'the-user' })).isAllowed).toBe(true);
  });

  it('runs the backoff from the wrong answer, not from the request', async () => {
    const { clock, limiter } = limiterAt();
    await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    const slow = await reserveOrThrow(limiter, 'a@example.com', 'x');
    clock.ms = 5000;
    await limiter.fail(slow);
    clock.ms = 5500;
    expect(await limiter.reserve('a@example.com', { address: 'x' })).toEqual({
      isAllowed: false,
      retryAfterSeconds: 1,
      needsKnownDevice: false,
    });
    clock.ms = 6000;
    expect((await limiter.reserve('a@example.com', { address: 'x' })).isAllowed).toBe(true);
  });

  it('a refund frees the slot and forgets the failures at that address', async () => {
    const { clock, limiter } = limiterAt();
    await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    clock.ms += 1000;
    await limiter.refund(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    for (let i = 0; i < 3; i++) expect((await limiter.reserve('a@example.com', { address: 'x' })).isAllowed).toBe(true);
  });

  it('a refund leaves the forgotten guesses counted for the address cap', async () => {
    const { limiter } = limiterAt();
    await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    const otherTab = await reserveOrThrow(limiter, 'a@example.com', 'x');
    await limiter.refund(await reserveOrThrow(limiter, 'a@example.com', 'x'));
    // The other tab's guess, wrong after all, stays forgotten for the account: three slots again.
    await limiter.fail(otherTab);
    for (let i = 0; i < 3; i++) expect((await limiter.reserve('a@example.com', { address: 'x' })).isAllowed).toBe(true);
    // The address still counts the failure and the other tab's guess: 2 + 3 reach its cap of 5.
    expect(await limiter.reserve('b@example.com', { address: 'x' })).toEqual({
      isAllowed: false,
      retryAfterSeconds: 60,
      needsKnownDevice: false,
    });
  });

  it('forgets an account everywhere after a password reset', async () => {
    const { limiter } = limiterAt();
    for (const address of ['x', 'y']) {
      const decision = await limiter.reserve('a@example.com', { address });
      if (decision.isAllowed) await limiter.fail(decision.attempt);
    }
    await limiter.forgetAccount('a@example.com');
    expect((await limiter.reserve('a@example.com', { address: 'x' })).isAllowed).toBe(true);
    expect((await limiter.reserve('a@example.com', { address: 'y' })).isAllowed).toBe(true);
  });

  it('hears only known devices once guesses for the account came from many addresses, each below its own lock', async () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < policy.failuresPerAccount; i++) {
      clock.ms += 100;
      await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', `stranger-${i}`));
    }
    expect(await limiter.reserve('a@example.com', { address: 'stranger-new' })).toMatchObject({ isAllowed: false, needsKnownDevice: true });
    // The owner's phone, even from an address a stranger used, and another account, are heard.
    expect((await limiter.reserve('a@example.com', { address: 'stranger-0', knownDevice: 'phone' })).isAllowed).toBe(true);
    expect((await limiter.reserve('b@example.com', { address: 'stranger-new' })).isAllowed).toBe(true);
  });

  it('limits a known device per device, whatever the address', async () => {
    const { clock, limiter } = limiterAt();
    const phone = { knownDevice: 'phone' };
    for (const address of ['home', 'work', 'car']) {
      clock.ms += 10_000;
      await limiter.fail(await reserveOrThrow(limiter, 'a@example.com', address, phone));
    }
    clock.ms += 10_000;
    expect(await limiter.reserve('a@example.com', { address: 'elsewhere', ...phone })).toMatchObject({
      isAllowed: false,
      needsKnownDevice: false,
    });
    // The addresses' own counts never held the device's guesses back, nor the device theirs.
    expect((await limiter.reserve('a@example.com', { address: 'home' })).isAllowed).toBe(true);
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
