import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default keeps a core for itself, which on two cores runs one file at a time. The
    // API files spend much of their time waiting (on fsync, argon2, timers and child servers), so
    // a file per core halved the run (726 s to 350 s on SQLite, 918 s to 449 s on PostgreSQL).
    // VITEST_MAX_WORKERS still overrides it.
    maxWorkers: availableParallelism(),
    projects: [
      // The repository's own rules (lint fixtures), over the project's config.
      { test: { name: 'tooling', root: '.', include: ['scripts/**/*.test.ts'] } },
      { test: { name: 'shared', root: './shared', include: ['src/**/*.test.ts'], setupFiles: ['../scripts/vitest-setup.ts'] } },
      {
        test: {
          name: 'api',
          root: './api',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          setupFiles: ['../scripts/vitest-setup.ts'],
          // Each engine's schema migrated once per run, copied for every test app.
          globalSetup: ['./test/global-setup.ts'],
          // argon2 at its least cost (auth/passwords.ts): at the defaults it was nearly half the
          // suite's time. The servers the tests start inherit it; sign-in-timing.test.ts unsets it.
          env: { PASSWORD_HASH_COST: 'test' },
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
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
