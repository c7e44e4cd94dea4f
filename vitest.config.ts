import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
