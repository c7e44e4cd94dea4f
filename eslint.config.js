import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * What a web feature may take from another feature: only these modules, its public face. The
 * app shell (web/src/app) composes features and may import any of them.
 */
const FEATURE_ENTRY_POINTS = ['auth/adopt-session.ts', 'auth/session-store.ts'];
const features = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Dependencies point one way: web and api import shared; shared imports neither; features keep to themselves. */
const boundaries = [
  { target: './shared', from: ['./api', './web'], message: 'shared is imported by web and api, and imports neither.' },
  { target: './api', from: './web', message: 'The API does not import the web app; share code through shared/.' },
  { target: './web', from: './api', message: 'The web app talks to the API over HTTP only; share code through shared/.' },
  ...features.map((feature) => ({
    target: `./web/src/features/${feature}`,
    from: './web/src/features',
    except: [`./${feature}`, ...FEATURE_ENTRY_POINTS.map((entry) => `./${entry}`)],
    message: `A feature imports another only through ${FEATURE_ENTRY_POINTS.join(' or ')}; the app shell composes features.`,
  })),
  // Layers inside the API: a route reads input, calls one workflow and answers; a workflow
  // composes repositories, domain rules and services. Domain rules are pure, and repositories
  // only read and write rows, so neither reaches up into the layers that use them.
  {
    target: './api/src/routes',
    from: ['./api/src/repositories', './api/src/db'],
    message: 'A route calls a workflow; reading and writing the database belongs in a workflow or repository.',
  },
  {
    target: './api/src/domain',
    from: ['./api/src/repositories', './api/src/services'],
    message: 'Domain rules are pure: they take values, not repositories or services.',
  },
  {
    target: './api/src/repositories',
    from: ['./api/src/services', './api/src/workflows'],
    message: 'A repository reads and writes rows; services and workflows use repositories, not the other way round.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist.next/**',
      '**/dist.old/**',
      '**/dev-dist/**',
      '**/source-maps/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'data/**',
      // Code that must fail lint: scripts/lint-rules.test.ts places each where its rule applies.
      'scripts/lint-fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Test helpers parse arbitrary JSON answers; production code keeps to typed shapes.
      '@typescript-eslint/no-explicit-any': 'off',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: boundaries }],
    },
  },
  {
    // A cycle makes module start-up order matter (a value read before its module has run).
    files: ['api/src/**/*.ts', 'shared/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    // The rule parses every module it follows: without these it cannot read TypeScript and sees no imports.
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    // Type-aware: a promise nobody awaits loses its error (a failed save the officer never hears of).
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise where a function's result is ignored (an event handler) or a condition is tested.
      // React's own event props take async handlers on purpose: the handler reports its own errors.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // The outbox's integration tests run it against the real API in the same process.
    files: ['web/src/**/*.api.test.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    // The browser tests ship nothing: they read PDFs back with the API tests' reader (pdfjs-dist).
    files: ['web/e2e/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
