import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LINK_TTL_MS, issueOneTimeToken } from '../src/auth/one-time-tokens.ts';
import { createRateLimiter } from '../src/auth/rate-limit.ts';
import { createSignInLimiter, type SignInPolicy } from '../src/auth/sign-in-limiter.ts';
import type { Db } from '../src/db/database.ts';
import { ACCESS_LINK_FAILURES_PER_ADDRESS, RESET_REQUESTS_PER_ACCOUNT } from '../src/workflows/auth-limits.ts';
import { createTestApp, ON_POSTGRES, type TestApp } from './test-app.ts';

/**
 * Stateless API processes: the password-guess limiter and the reset-email and
 * dead-link counters live in the database, so two apps on one database (two API processes
 * behind a load balancer) count the same guesses. Runs on SQLite and, with TEST_POSTGRES_URL,
 * on PostgreSQL, where the apps are separate connection pools.
 */
describe('auth limits shared by two apps on one database', () => {
  let one: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    one = await createTestApp();
    other = await createTestApp({ sharingDatabaseOf: one });
  });
  afterAll(async () => {
    await other?.close();
    await one?.close();
  });

  /** Both processes read the same wall clock. */
  function advance(ms: number) {
    one.clock.offsetMs += ms;
    other.clock.offsetMs += ms;
  }

  it('counts wrong passwords sent through both apps against one lock of the account at the address', async () => {
    const user = await one.createUser();
    const guess = (app: TestApp, password = 'wrong-password') =>
      app.request('POST', '/auth/login', { json: { email: user.email, password } });
    // One typo each costs nothing; the backoff after the second failure holds at either app.
    expect((await guess(one)).status).toBe(401);
    expect((await guess(other)).status).toBe(401);
    expect((await guess(one, user.password ?? '')).status).toBe(429);
    // A patient attacker alternating between the apps reaches the limit of 5 all the same.
    for (const app of [other, one, other]) {
      advance(60_000);
      expect((await guess(app)).status).toBe(401);
    }
    advance(60_000);
    for (const app of [one, other]) {
      const locked = await guess(app, user.password ?? '');
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(5 * 60);
    }
  });

  it('counts dead access links and dead reset links tried through both apps against one limit', async () => {
    const { limit } = ACCESS_LINK_FAILURES_PER_ADDRESS;
    for (let i = 0; i < limit; i++) {
      const res =
        i % 2 === 0
          ? await one.request('POST', '/auth/access-link', { json: { token: `guess-${i}` } })
          : await other.request('POST', '/auth/reset-password/check', { json: { token: `guess-${i}` } });
      expect(res.status).toBe(400);
    }
    const user = await one.createUser();
    const token = await issueOneTimeToken(one.db, {
      userId: user.id,
      purpose: 'access-link',
      ttlMs: ACCESS_LINK_TTL_MS,
      now: one.deps.now(),
    });
    for (const app of [one, other]) {
      const limited = await app.request('POST', '/auth/access-link', { json: { token } });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  });

  it('counts reset emails asked for through both apps against one limit per account', async () => {
    const ask = (app: TestApp) => app.request('POST', '/auth/forgot-password', { json: { email: 'nobody-shared@example.com' } });
    for (let i = 0; i < RESET_REQUESTS_PER_ACCOUNT.limit; i++) expect((await ask(i % 2 === 0 ? one : other)).status).toBe(200);
    expect((await ask(one)).status).toBe(429);
    expect((await ask(other)).status).toBe(429);
  });

  describe.skipIf(!ON_POSTGRES)('on PostgreSQL, with guesses racing each other', () => {
    const policy: SignInPolicy = {
      failuresPerAccountAddress: 3,
      failuresPerAddress: 100,
      failuresPerAccount: 20,
      windowMs: 60_000,
      backoffBaseMs: 1000,
    };

    /** Opens several connections of each pool first, so the guesses below really run side by side. */
    async function warm(...dbs: Db[]) {
      await Promise.all(dbs.flatMap((db) => Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`.execute(db))));
    }

    it('lets at most the limit of guesses sent at once for one account and address through, across both apps', async () => {
      await warm(one.db, other.db);
      const limiters = [one, other].map((app) => createSignInLimiter({ db: app.db, now: app.deps.now, policy }));
      const decisions = await Promise.all(
        Array.from({ length: 16 }, (_, i) => limiters[i % 2]!.reserve('race@example.com', { address: '198.51.100.7' })),
      );
      expect(decisions.filter((decision) => decision.isAllowed)).toHaveLength(policy.failuresPerAccountAddress);
    });

    it('sends at most the limit of reset emails asked for at once, across both apps', async () => {
      await warm(one.db, other.db);
      const limiters = [one, other].map((app) => createRateLimiter({ db: app.db, now: app.deps.now }));
      const decisions = await Promise.all(
        Array.from({ length: 16 }, (_, i) => limiters[i % 2]!.take([{ rule: RESET_REQUESTS_PER_ACCOUNT, key: 'race@example.com' }])),
      );
      expect(decisions.filter((decision) => !decision.isLimited)).toHaveLength(RESET_REQUESTS_PER_ACCOUNT.limit);
    });
  });
});
