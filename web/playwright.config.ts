import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

/**
 * Browser journeys against the real built app served by the real API on a fresh database
 * (e2e/global-setup.ts). Chromium comes from Debian (or CHROMIUM_PATH): never downloaded.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without it, setOffline and routes do not reach the service worker's own fetches (its Background
// Sync sends), and the offline journeys would test the page alone. Tests that block service
// workers (the default below) are not affected.
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS ??= '1';

const launchOptions = {
  executablePath: chromiumPath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

export default defineConfig({
  testDir: './e2e',
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? './test-results',
  globalSetup: './e2e/global-setup.ts',
  // One more than the cores (decision 0054): a journey waits much of its time (a throttled link,
  // a server it starts, a reminder falling due), so at one a core the cores idled.
  workers: process.env.PLAYWRIGHT_WORKERS ? Number(process.env.PLAYWRIGHT_WORKERS) : availableParallelism() + 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list']],
  use: {
    launchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'phone',
      use: { browserName: 'chromium', viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
    },
    {
      name: 'desktop',
      use: { browserName: 'chromium', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
    },
  ],
});
