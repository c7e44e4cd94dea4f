// `npm run bench:vitals`: Core Web Vitals of the sign-in, dashboard and form screens in Chromium
// with mobile CPU (4x slower) and network (slow 4G) throttling through CDP, on a first visit
// (empty cache, no service worker yet), median of three runs per screen.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { root, startProcess, waitForHttp, formatTable } from './bench-utils.ts';

const PORT = 8102;
const RUNS = Number(process.env.VITALS_RUNS ?? 3);
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

export type VitalsRow = { screen: string; fcp: number; lcp: number; cls: number; tbt: number; inp: number };

// Collects paint, layout-shift, long-task and event-timing entries from the first byte on.
const OBSERVERS = `
  window.__vitals = { lcp: 0, cls: 0, fcp: 0, tbt: 0, inp: 0 };
  const observe = (type, onEntry, extra = {}) => {
    try { new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true, ...extra }); } catch {}
  };
  observe('largest-contentful-paint', (e) => { window.__vitals.lcp = e.startTime; });
  observe('paint', (e) => { if (e.name === 'first-contentful-paint') window.__vitals.fcp = e.startTime; });
  observe('layout-shift', (e) => { if (!e.hadRecentInput) window.__vitals.cls += e.value; });
  observe('longtask', (e) => { window.__vitals.tbt += Math.max(0, e.duration - 50); });
  observe('event', (e) => { window.__vitals.inp = Math.max(window.__vitals.inp, e.duration); }, { durationThreshold: 16 });
`;

async function measure(
  browser: Browser,
  base: string,
  screen: { name: string; path: string; ready: string; interact?: string; signIn: boolean },
  tokens: Record<string, string>,
) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 2.6,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  if (screen.signIn) {
    await context.addInitScript((stored) => {
      for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
    }, tokens);
  }
  await context.addInitScript(OBSERVERS);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${base}${screen.path}`);
  await page.locator(screen.ready).first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1500);
  if (screen.interact) {
    await page.locator(screen.interact).first().click();
    await page.waitForTimeout(800);
  }
  const vitals = (await page.evaluate(() => (window as unknown as { __vitals: Omit<VitalsRow, 'screen'> }).__vitals)) as Omit<
    VitalsRow,
    'screen'
  >;
  await context.close();
  return vitals;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function runVitalsBench(): Promise<VitalsRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-vitals-'));
  const server = startProcess('api/src/server.ts', { PORT: String(PORT), DATA_DIR: dataDir, WEB_DIST_DIR: join(root, 'web', 'dist') });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await waitForHttp(`${base}/api/health`);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'officer@example.com', password: 'officer123' }),
    });
    const session = ((await login.json()) as { data: { token: string; refreshToken: string } }).data;
    const tokens = { token: session.token, refreshToken: session.refreshToken };
    const screens = [
      { name: 'sign-in (/login)', path: '/login', ready: 'button[type=submit]', interact: 'button[type=submit]', signIn: false },
      { name: 'dashboard (/dashboard)', path: '/dashboard', ready: 'h1', signIn: true },
      { name: 'PCN form (/pcn/new)', path: '/pcn/new', ready: 'h1', interact: 'button:has-text("Next")', signIn: true },
    ];
    const rows: VitalsRow[] = [];
    for (const screen of screens) {
      const runs = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await measure(browser, base, screen, tokens));
      rows.push({
        screen: screen.name,
        fcp: median(runs.map((r) => r.fcp)),
        lcp: median(runs.map((r) => r.lcp)),
        cls: median(runs.map((r) => r.cls)),
        tbt: median(runs.map((r) => r.tbt)),
        inp: median(runs.map((r) => r.inp)),
      });
    }
    return rows;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatVitalsRows(rows: VitalsRow[]): string {
  return formatTable(
    ['screen (first visit, 4x CPU, slow 4G)', 'FCP ms', 'LCP ms', 'CLS', 'TBT ms', 'INP ms (one tap)'],
    rows.map((r) => [r.screen, Math.round(r.fcp), Math.round(r.lcp), r.cls.toFixed(3), Math.round(r.tbt), r.inp ? Math.round(r.inp) : '-']),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatVitalsRows(await runVitalsBench()));
}
