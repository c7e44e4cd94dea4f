import { describe, expect, it } from 'vitest';
import { createMemorySignInLimiter, decideSignInAttempt, type SignInPolicy } from './sign-in-limiter.ts';

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

describe('createMemorySignInLimiter', () => {
  function limiterAt() {
    const clock = { ms: 0 };
    return { clock, limiter: createMemorySignInLimiter({ now: () => new Date(clock.ms), policy }) };
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
      const decision = await limiter.reserve('a@example.com', 'attacker');
      if (!decision.isAllowed) throw new Error('expected a slot');
      await limiter.fail(decision.attempt);
    }
    clock.ms += 10_000;
    expect((await limiter.reserve('a@example.com', 'attacker')).isAllowed).toBe(false);
    expect((await limiter.reserve('a@example.com', 'the-user')).isAllowed).toBe(true);
  });

  it('a refund frees the slot and forgets the failures at that address', async () => {
    const { clock, limiter } = limiterAt();
    const first = await limiter.reserve('a@example.com', 'x');
    if (!first.isAllowed) throw new Error('expected a slot');
    await limiter.fail(first.attempt);
    clock.ms += 1000;
    const second = await limiter.reserve('a@example.com', 'x');
    if (!second.isAllowed) throw new Error('expected a slot');
    await limiter.refund(second.attempt);
    for (let i = 0; i < 3; i++) expect((await limiter.reserve('a@example.com', 'x')).isAllowed).toBe(true);
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
});
