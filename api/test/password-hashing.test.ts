import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import argon2 from 'argon2';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { passwordHashOptions, TEST_HASH_COST } from '../src/auth/passwords.ts';
import { loadConfig } from '../src/config.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// The other suites hash at argon2's least cost (PASSWORD_HASH_COST=test); this file signs in at
// the library's defaults, the cost every real account gets. Hoisted above the imports, so the
// password module reads the unset value.
vi.hoisted(() => {
  vi.stubEnv('PASSWORD_HASH_COST', '');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const DEFAULT_PARAMETERS = /^\$argon2id\$v=19\$m=65536,t=3,p=4\$/;

describe('password hashes at the library defaults', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('stores every password as argon2id at the library defaults when PASSWORD_HASH_COST is unset', async () => {
    const user = await t.createUser();
    const row = await t.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(DEFAULT_PARAMETERS);
  });

  it('takes similar time for an unknown email and a wrong password', async () => {
    const user = await t.createUser();
    // Warm the dummy hash so its one-off creation is not measured.
    await t.request('POST', '/auth/login', { json: { email: 'warm@example.com', password: 'whatever1' } });
    const time = async (email: string) => {
      const started = performance.now();
      await t.request('POST', '/auth/login', { json: { email, password: 'wrong-password' } });
      return performance.now() - started;
    };
    const known = (await time(user.email)) + (await time(user.email));
    const unknown = (await time('ghost1@example.com')) + (await time('ghost2@example.com'));
    // Both run one argon2 verification; without the dummy hash the unknown email would be ~100x faster.
    expect(unknown).toBeGreaterThan(known * 0.4);
  });

  it('rehashes a password stored with outdated parameters on sign-in', async () => {
    const user = await t.createUser();
    const weak = await argon2.hash('password123', { type: argon2.argon2id, timeCost: 2, memoryCost: 4096 });
    await t.db.updateTable('users').set({ password_hash: weak }).where('id', '=', user.id).execute();

    await t.login(user.email, 'password123');

    const row = await t.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(DEFAULT_PARAMETERS);
    expect(argon2.needsRehash(row.password_hash ?? '')).toBe(false);
    await t.login(user.email, 'password123');
  });
});

describe('PASSWORD_HASH_COST', () => {
  it('is argon2id at the defaults unset, and at its least cost for the tests', () => {
    expect(passwordHashOptions({})).toEqual({ type: argon2.argon2id });
    expect(passwordHashOptions({ PASSWORD_HASH_COST: TEST_HASH_COST, NODE_ENV: 'test' })).toEqual({
      type: argon2.argon2id,
      memoryCost: 1024,
      timeCost: 1,
      parallelism: 1,
    });
  });

  it('stops the start when it is mistyped or set in production', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'password-cost-'));
    expect(() => loadConfig({ DATA_DIR: dataDir, PASSWORD_HASH_COST: 'cheap' })).toThrow(
      'Invalid configuration: PASSWORD_HASH_COST: leave it unset; only the test suites set it (to test)',
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, PASSWORD_HASH_COST: TEST_HASH_COST, NODE_ENV: 'production' })).toThrow(
      'refused in production',
    );
  });
});
