import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
// A relative import so the config bundles the shared source (the package entry is TypeScript).
import { DEFAULT_PRODUCT_NAME, productNameProblem, productTitle, WORKER_SCRIPT_PREFIX } from '../shared/src/limits.ts';
import { CHUNK_SOURCES_FILE, keepOfficerFiles, readBuildManifest } from './build/officer-precache.ts';
import { escapeHtml, withBootScreen } from './build/boot-screen.ts';
import { paintFromHtmlAlone, type StyleBundle } from './build/first-paint.ts';
import { startChunkName } from './build/start-chunk.ts';
import { zodWithoutJsonSchema } from './build/zod-without-json-schema.ts';
import { ADMIN_SCREENS_CHUNK, SCREENS_CHUNK } from './src/config/fixed-chunks.ts';

// The product name is branded at build time (PRODUCT_NAME, default ParkPatrol).
const productName = process.env.PRODUCT_NAME ?? DEFAULT_PRODUCT_NAME;
const productNameRefusal = productNameProblem(productName);
if (productNameRefusal) throw new Error(productNameRefusal);

/**
 * Which build this is: BUILD_ID when the deploy sets one, else the commit, else the time. Its
 * source maps are kept under web/source-maps/<id>. Not written into the app (lib/report-errors.ts).
 */
const buildId = process.env.BUILD_ID ?? commitId() ?? `local-${Date.now().toString(36)}`;
function commitId(): string | undefined {
  try {
    return (
      execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/** The shared modules only admin screens and the motorist's page use (the 'office-shared' chunk). */
const OFFICE_SHARED =
  /[\\/]shared[\\/]src[\\/](activity-sentences|admin-texts|appeals|collection|debt-recovery|evidence-pack|evidence-texts|keeper|keeper-notice|list-sorting|money|payments|public-charge|refunds|sector-limits|sent-documents)\.ts$/;

/** Where this build writes (`--outDir` included): the precache list reads its Vite manifest there. */
let outDir = resolve(import.meta.dirname, 'dist');
let root = import.meta.dirname;

export default defineConfig({
  plugins: [
    react(),
    zodWithoutJsonSchema(),
    {
      name: 'out-dir',
      configResolved: (config) => {
        root = config.root;
        outDir = resolve(config.root, config.build.outDir);
      },
      writeBundle: (_, bundle) => {
        mkdirSync(resolve(outDir, '.vite'), { recursive: true });
        // For scripts/move-source-maps.mjs, which files the maps under this id.
        writeFileSync(resolve(outDir, '.vite/build-id'), buildId);
        // Which sources each chunk holds, named as the manifest names them: the precache list
        // judges a shared chunk loaded lazily by them (build/officer-precache.ts).
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const sources = Object.fromEntries(
          chunks.map((chunk) => [
            chunk.fileName,
            chunk.moduleIds.filter((id) => !id.startsWith('\0')).map((id) => relative(root, id).replaceAll('\\', '/')),
          ]),
        );
        writeFileSync(resolve(outDir, CHUNK_SOURCES_FILE), JSON.stringify(sources));
      },
    },
    // The title and a first screen are there before any JavaScript runs (build/boot-screen.ts).
    {
      name: 'product-title',
      transformIndexHtml: (html) =>
        withBootScreen(html.replace('%PRODUCT_TITLE%', escapeHtml(productTitle(productName))), productTitle(productName)),
    },
    // The first paint needs index.html alone (build/first-paint.ts).
    {
      name: 'paint-from-html-alone',
      apply: 'build',
      enforce: 'post',
      generateBundle: (_, bundle) => {
        const page = bundle['index.html'];
        if (page?.type !== 'asset') return;
        page.source = paintFromHtmlAlone(String(page.source), bundle as unknown as StyleBundle);
      },
    },
    // The service worker (injectManifest, src/sw.ts) and the web app manifest.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      // Never swap versions under an officer mid-form: pwa-update-prompt.tsx offers 'Reload'.
      registerType: 'prompt',
      // The prompt component registers the worker (virtual:pwa-register/react); no inline script.
      injectRegister: false,
      // The glob below already precaches the icons; listing them twice only adds noise.
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: `${productName} Self Ticketing`,
        short_name: productName,
        description: 'Submit and track parking charge notices, even with no signal.',
        lang: 'en-GB',
        theme_color: '#c62828',
        background_color: '#f5f6f8',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        shortcuts: [
          {
            name: 'New PCN',
            short_name: 'New PCN',
            description: 'Start a new parking charge notice',
            url: '/pcn/new',
            icons: [{ src: '/icons/shortcut-new-pcn-96.png', sizes: '96x96', type: 'image/png' }],
          },
        ],
      },
      injectManifest: {
        // The whole shell, the photo compressor's worker and the icons: after one visit the
        // app must start and file notices with no network at all.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,woff2}'],
        // Admin screens are for admins on desktop: an officer's install does not download them
        //. They load when an admin opens them, and sw.ts keeps what was opened.
        manifestTransforms: [
          (entries) => {
            return { manifest: keepOfficerFiles(entries, readBuildManifest(outDir)), warnings: [] };
          },
        ],
      },
    }),
  ],
  // The photo compressor's worker is an ES module like the app (lib/photos/compress-worker.ts),
  // named so the server knows to send it the security policy (WORKER_SCRIPT_PREFIX). Its
  // exports are kept: where a worker cannot decode, the page imports the same file.
  worker: {
    format: 'es',
    // Vite builds workers without their exports; this plugin runs after it has said so.
    plugins: () => [{ name: 'keep-worker-exports', options: (options) => ({ ...options, preserveEntrySignatures: 'exports-only' }) }],
    rolldownOptions: { output: { entryFileNames: `${WORKER_SCRIPT_PREFIX}[name]-[hash].js` } },
  },
  define: {
    'import.meta.env.VITE_PRODUCT_NAME': JSON.stringify(productName),
  },
  server: {
    proxy: { '/api': 'http://localhost:8000' },
  },
  build: {
    // dist/.vite/manifest.json maps each source module to its chunks: the bundle benchmark
    // follows it to size the officer path and the admin screens separately.
    manifest: true,
    rolldownOptions: {
      output: {
        // The lists of screens (src/app/screen-chunks.ts) under fixed names: whatever imports
        // them keeps its hash when a screen changes.
        chunkFileNames: (chunk) =>
          chunk.name === 'screens' ? SCREENS_CHUNK : chunk.name === 'admin-screen-chunks' ? ADMIN_SCREENS_CHUNK : 'assets/[name]-[hash].js',
        codeSplitting: {
          groups: [
            {
              name: 'screens',
              test: /[\\/]web[\\/]src[\\/]app[\\/]screen-chunks\.ts$/,
              priority: 5,
              includeDependenciesRecursively: false,
            },
            // React and the router change only when we upgrade them: kept apart from our own code,
            // a deploy that changes one screen does not make phones download them again. Vite's
            // preload helper too, which every page loads: a request fewer on the first visit.
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|zustand|use-sync-external-store)[\\/]|^\0vite[\\/]preload-helper/,
              priority: 4,
            },
            // The shared texts and rules in two files: the office's (letters, appeals, money,
            // collection: admin screens and the motorist's page) apart from the rest, so an
            // officer's phone does not download them. A hint, not a rule: an officer screen that
            // imports one of them still works, and the bytes benchmark shows what it costs.
            { name: 'office-shared', test: OFFICE_SHARED, priority: 3, includeDependenciesRecursively: false },
            {
              name: 'shared',
              test: (id: string) =>
                /[\\/]shared[\\/]src[\\/]/.test(id) &&
                !OFFICE_SHARED.test(id) &&
                !/[\\/](schemas|patrol-schemas|index|password-forms)\.ts$/.test(id),
              priority: 3,
              includeDependenciesRecursively: false,
            },
            { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 2 },
            { name: startChunkName(resolve(import.meta.dirname, 'src/main.tsx')), priority: 1, includeDependenciesRecursively: false },
            // The small helpers two or more signed-in screens share (up to 10,000 bytes of source
            // each), in one file rather than a dozen of a few hundred bytes: each request on one
            // bar of signal costs a round trip and its headers. Screens themselves stay apart, so
            // a deploy that changes one screen still sends only that screen.
            {
              name: 'screens-common',
              test: /[\\/]web[\\/]src[\\/](lib|app|features[\\/](pcns|dashboard|outbox))[\\/]/,
              minShareCount: 2,
              maxModuleSize: 10000,
              priority: 0,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
    // Written for reading error reports, never served: 'hidden' names no map in the files, and
    // scripts/move-source-maps.mjs takes them out of dist.
    sourcemap: 'hidden',
    target: 'es2022',
  },
});
