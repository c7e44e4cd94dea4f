import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const OWN_MODULES = ['test/password-hashing.test.ts', 'src/db/timestamptz.test.ts'];

/** The API's suite, on SQLite or (with TEST_POSTGRES_URL) PostgreSQL: `--project 'api*'` runs it whole. */
const api = {
  root: './api',
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  setupFiles: ['../scripts/vitest-setup.ts', './test/node-server-globals.ts'],
  // Each engine's schema migrated once per run, copied for every test app.
  globalSetup: ['./test/global-setup.ts'],
  // argon2 at its least cost (auth/passwords.ts): at the defaults it was nearly half the
  // suite's time. The servers the tests start inherit it; password-hashing.test.ts unsets it.
  env: { PASSWORD_HASH_COST: 'test' },
  testTimeout: 30_000,
  hookTimeout: 30_000,
};

export default defineConfig({
  test: {
    // Vitest's default keeps a core for itself, which on two cores runs one file at a time. The
    // API files spend much of their time waiting (on fsync, timers, PostgreSQL and child
    // servers): a file per core halved the run (726 s to 350 s on SQLite, 918 s to 449 s on
    // PostgreSQL), and one file more than cores keeps them busy (decision 0054: 199 s to 181 s
    // on SQLite, 310 s to 265 s on PostgreSQL). VITEST_MAX_WORKERS still overrides it.
    maxWorkers: availableParallelism() + 1,
    projects: [
      // The repository's own rules (lint fixtures), over the project's config.
      { test: { name: 'tooling', root: '.', include: ['scripts/**/*.test.ts'] } },
      { test: { name: 'shared', root: './shared', include: ['src/**/*.test.ts'], setupFiles: ['../scripts/vitest-setup.ts'] } },
      // The API's files share their modules within a worker (isolate: false): each test app has its
      // own database and folder, so nothing of a file's is left for the next, and importing the
      // app afresh for every file was a third of the suite's time (248 s to 186 s on SQLite).
      { test: { ...api, name: 'api', exclude: OWN_MODULES, isolate: false } },
      // Files that need modules of their own: they set the environment before the app is
      // imported, or read pg's parsers before database.ts replaces them.
      { test: { ...api, name: 'api-isolated', include: OWN_MODULES } },
      {
        test: {
          name: 'web',
          root: './web',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'build/**/*.test.ts'],
          setupFiles: ['../scripts/vitest-setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
