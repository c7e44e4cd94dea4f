// `npm run bench:web`: the web app as an officer gets it on one bar of signal (decision
// 0011). Bytes are counted as transferred (compressed, headers included) and time until the
// sign-in form is there, in Chromium with the network and CPU throttled through the DevTools
// protocol; Lighthouse (from npm, driving the same Chromium) gives its mobile score. Each figure
// has a budget; the run fails when one is broken.
//
// `node scripts/bench/web-delivery.ts [--tree DIR]` measures another checkout of this project
// (its server and its built web app, e.g. a `git worktree` of an older commit) for a before/after.
// `--bytes` (or WEB_BENCH=bytes) measures only what needs no browser, in well under a minute:
// the officer path's JavaScript, the first install and what two one-screen deploys cost a phone.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { officerFiles, readBuildManifest } from '../../web/build/officer-precache.ts';
import { writeEvidencePhotos } from '../../web/e2e/evidence-photos.ts';
import { lighthouseBin } from './bench-tools.ts';
import { formatTable, root, startProcess, waitForHttp } from './bench-utils.ts';
import { ONE_BAR, startPoorLink, type PoorLink } from './poor-link.ts';
import { measureDeploys, type DeployCosts } from './web-deploys.ts';

export const WEB_BUDGETS = {
  signInKb: 120,
  signInFormMs: 2500,
  installKb: 400,
  officerJsKb: 200,
  lighthouseScore: 95,
  /** The officer opens a four-photo notice from My PCNs: heading and four photos drawn. */
  officerDetailMs: 3000,
  officerDetailKb: 150,
  /** A deploy that changes one officer screen, as a phone that has the app downloads it. */
  officerDeployFiles: 5,
  officerDeployKb: 50,
  /** A deploy that changes one admin screen: nothing an officer has may change. */
  adminDeployOfficerFiles: 0,
};

/** The poor link officers have in car parks, as DevTools makes it (CDP adds the latency per request). */
export const POOR_LINK = {
  offline: false,
  latency: ONE_BAR.roundTripMs,
  downloadThroughput: ONE_BAR.bitsPerSecond / 8,
  uploadThroughput: ONE_BAR.bitsPerSecond / 8,
};
const CPU_SLOWDOWN = 4;
const RUNS = Number(process.env.WEB_RUNS ?? 3);
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
// Screens an officer does not use on patrol, besides admin and the motorist's (which the
// precache list leaves out too): account screens opened once, and the screens of other people
// (landowners, car-park permits, a visitor's page), which an officer's install still keeps.
const NOT_ON_PATROL = /^src\/(features\/(profile|password-reset|access-link|landowner|permits|visit)\/|app\/routes\/landowner-screens)/;

/** `formMs`: the field painted; `takeoverMs`: the app's own form in its place (an upper bound: polled). */
export type SignInVisit = { bytes: number; requests: number; formMs: number; fcpMs: number; cls: number; takeoverMs: number };
/** A signed-in officer opening a four-photo notice in the app on the poor link. */
export type DetailVisit = { bytes: number; requests: number; usableMs: number; photoBytes: number };
export type LighthouseRun = { score: number; lcpMs: number; fcpMs: number; tbtMs: number; totalKb: number };
/** A public screen's first visit each way the poor link is made, and Lighthouse's runs of it. */
export type FirstScreenDelivery = {
  devtools: SignInVisit;
  realLink: SignInVisit;
  /** Lighthouse's default mobile run (its own simulated throttling) against the server itself. */
  lighthouse: LighthouseRun;
  /** The same run with the page fetched through the real poor link, as an outside check throttles. */
  lighthouseRealLink: LighthouseRun;
};
/** The figures that need no browser: files as the server sends them, and builds compared. */
export type WebBytes = {
  installBytes: number;
  installFiles: number;
  officerJsBytes: number;
  officerJsFiles: number;
  deploys: DeployCosts;
};
export type WebDelivery = WebBytes & {
  signIn: FirstScreenDelivery;
  /** The motorist's /charge lookup, measured the same way. */
  chargeLookup: FirstScreenDelivery;
  officerDetail: DetailVisit;
};

// Paint and layout-shift entries, and the first frame in which the field labelled `label` is on
// screen: a requestAnimationFrame callback runs just before its frame is painted, and none runs
// while a stylesheet still blocks the first paint. The field is found by its label, as a person
// (or an outside check's getByLabel) finds it, not by a selector of ours.
const observers = (label: string) => `
  window.__web = { fcp: 0, cls: 0, form: 0 };
  try { new PerformanceObserver((l) => l.getEntries().forEach((e) => { if (e.name === 'first-contentful-paint') window.__web.fcp = e.startTime; })).observe({ type: 'paint', buffered: true }); } catch {}
  try { new PerformanceObserver((l) => l.getEntries().forEach((e) => { if (!e.hadRecentInput) window.__web.cls += e.value; })).observe({ type: 'layout-shift', buffered: true }); } catch {}
  const tick = () => {
    const field = Array.from(document.querySelectorAll('label')).find((l) => l.textContent.trim() === ${JSON.stringify(label)})?.control;
    if (field && field.getBoundingClientRect().width > 0 && getComputedStyle(field).visibility !== 'hidden') { window.__web.form = performance.now(); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
`;

/** The phone every visit is made with; no service worker, so each visit's bytes are its own. */
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  serviceWorkers: 'block',
} as const;

/** A public screen's first visit: its path and the label of the field a visitor types in first. */
type FirstScreen = { path: string; label: string };

/**
 * How the poor link is made: by Chromium's DevTools throttling, each request delayed on its own,
 * or by a real shared link in front of the server (poor-link.ts), where a page's requests queue
 * behind each other as on a phone. The CPU is slowed by DevTools in both.
 */
export type LinkKind = 'devtools' | 'real link';

/** A first visit to a public screen over the poor link: no cache, no service worker yet. */
async function visitFirstScreen(browser: Browser, base: string, screen: FirstScreen, link: LinkKind): Promise<SignInVisit> {
  const context = await browser.newContext(PHONE);
  await context.addInitScript(observers(screen.label));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (link === 'devtools') await cdp.send('Network.emulateNetworkConditions', POOR_LINK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  let bytes = 0;
  let requests = 0;
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', () => {
    lastActivity = Date.now();
  });
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
    requests += 1;
    lastActivity = Date.now();
  });
  await page.goto(`${base}${screen.path}`, { waitUntil: 'commit' });
  // As an outside check waits: the field found by its label, visible.
  await page.getByLabel(screen.label, { exact: true }).first().waitFor({ state: 'visible', timeout: 120_000 });
  // The app has taken over: its own submit button, inside #root, is there.
  await page.locator('#root button[type=submit]').waitFor({ timeout: 120_000 });
  const takeoverMs = await page.evaluate(() => performance.now());
  // Then until the network has been quiet for 2 s: everything the page fetched by itself.
  while (Date.now() - lastActivity < 2000) await page.waitForTimeout(250);
  const web = (await page.evaluate(() => (window as unknown as { __web: { fcp: number; cls: number; form: number } }).__web)) as {
    fcp: number;
    cls: number;
    form: number;
  };
  await context.close();
  return { bytes, requests, formMs: web.form, fcpMs: web.fcp, cls: web.cls, takeoverMs };
}

/**
 * The officer's detail of a notice with four photos, opened from My PCNs in the running app (its
 * code already loaded, as on patrol): from the tap until the heading and all four photos are
 * drawn, with every byte that moved meanwhile (the notice's JSON, the screen's chunk, the photos).
 */
async function visitOfficerDetail(browser: Browser, base: string, pcn: { id: string; title: string }): Promise<DetailVisit> {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.locator('input[type=email]').fill('officer@example.com');
  await page.locator('input[type=password]').fill('officer123');
  await page.locator('#root button[type=submit]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.goto(`${base}/pcn`);
  const open = page.locator(`a[href="/pcn/${pcn.id}"]`).first();
  await open.waitFor();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', POOR_LINK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  let bytes = 0;
  let requests = 0;
  let photoBytes = 0;
  const urls = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (event: { requestId: string; request: { url: string } }) =>
    urls.set(event.requestId, event.request.url),
  );
  cdp.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
    requests += 1;
    if (urls.get(event.requestId)?.includes('/api/uploads/')) photoBytes += event.encodedDataLength;
  });
  const started = Date.now();
  await open.click();
  await page.getByRole('heading', { name: pcn.title }).waitFor({ timeout: 60_000 });
  await page.waitForFunction(
    () => {
      const images = Array.from(document.querySelectorAll<HTMLImageElement>('.evidence-grid img'));
      return images.length === 4 && images.every((image) => image.complete && image.naturalWidth > 0);
    },
    undefined,
    { timeout: 60_000, polling: 50 },
  );
  const usableMs = Date.now() - started;
  await context.close();
  return { bytes, requests, usableMs, photoBytes };
}

/** Files a notice with four camera-sized photos through the API, as the officer's phone does. */
async function fileFourPhotoNotice(base: string, scratch: string): Promise<{ id: string; title: string }> {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'officer@example.com', password: 'officer123' }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const headers = { authorization: `Bearer ${token}` };
  const carParks = (await (await fetch(`${base}/api/car-parks`, { headers })).json()) as { data: Array<{ id: string }> };
  const form = new FormData();
  form.set('vehicleRegistration', 'BN26 DTL');
  form.set('carParkId', carParks.data[0]!.id);
  form.set('offenceType', 'PARKING_WITHOUT_PERMIT');
  form.set('location', 'Row C, bay 14');
  form.set('description', 'No permit on display');
  form.set('noticeServedBy', 'AFFIXED');
  for (const file of writeEvidencePhotos(join(scratch, 'photos'))) {
    form.append('images', new Blob([readFileSync(file)], { type: 'image/jpeg' }), 'photo.jpg');
  }
  const filed = await fetch(`${base}/api/pcns`, {
    method: 'POST',
    headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
    body: form,
  });
  if (filed.status !== 201) throw new Error(`filing the bench notice failed: ${filed.status} ${await filed.text()}`);
  const pcn = ((await filed.json()) as { data: { id: string; pcnNumber: string } }).data;
  return { id: pcn.id, title: `PCN-${pcn.pcnNumber}` };
}

/** Bytes as received for one GET (status line, headers and the body as sent, not decoded). */
function wireBytes(url: string): Promise<{ bytes: number; body: Buffer; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const headerBytes = 17 + res.rawHeaders.reduce((sum, part) => sum + part.length + 2, 0) + 2;
        resolve({ bytes: body.length + headerBytes, body, encoding: res.headers['content-encoding'] });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The service worker's precache list (vite-plugin-pwa's injected manifest), read from sw.js as served. */
async function precacheUrls(base: string): Promise<string[]> {
  const sw = await fetch(`${base}/sw.js`);
  const text = await sw.text();
  return [...text.matchAll(/\{"revision":(?:null|"[^"]*"),"url":"([^"]+)"\}/g)].map((m) => m[1]!);
}

/** Everything an officer's phone downloads to install the app: sw.js and each precached file. */
async function measureInstall(base: string) {
  const urls = ['sw.js', ...(await precacheUrls(base))];
  let bytes = 0;
  for (const url of urls) bytes += (await wireBytes(`${base}/${url}`)).bytes;
  return { bytes, files: urls.length };
}

/** The JavaScript of the signed-in officer path (sign-in, dashboard, My PCNs, detail, form, photos). */
function officerScripts(distDir: string): string[] {
  const manifest = readBuildManifest(distDir);
  return [...officerFiles(manifest, (source) => NOT_ON_PATROL.test(source))].filter((file) => file.endsWith('.js'));
}

async function measureOfficerJs(base: string, distDir: string) {
  const files = officerScripts(distDir);
  let bytes = 0;
  for (const file of files) bytes += (await wireBytes(`${base}/${file}`)).bytes;
  return { bytes, files: files.length };
}

/**
 * Lighthouse's default mobile performance run (its own simulated throttling), median of the runs.
 * Run as a child without blocking this process: the real poor link it may load through is a
 * proxy in this process (poor-link.ts).
 */
async function runLighthouse(url: string): Promise<LighthouseRun> {
  const runs: LighthouseRun[] = [];
  const lighthouse = () =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        lighthouseBin(),
        [
          url,
          '--quiet',
          '--output=json',
          '--output-path=stdout',
          '--only-categories=performance',
          `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
        ],
        { encoding: 'utf8', env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  for (let i = 0; i < RUNS; i += 1) {
    let result = await lighthouse();
    // Lighthouse now and then loses its own trace (NO_NAVSTART, NO_FCP): that run is repeated
    // once rather than failing the whole benchmark; a second failure is reported.
    if (result.status !== 0 && /Please run Lighthouse again/.test(result.stderr)) result = await lighthouse();
    if (result.status !== 0) throw new Error(`lighthouse failed: ${result.stderr.slice(-2000)}`);
    const report = JSON.parse(result.stdout) as {
      categories: { performance: { score: number } };
      audits: Record<string, { numericValue?: number }>;
    };
    runs.push({
      score: Math.round(report.categories.performance.score * 100),
      lcpMs: report.audits['largest-contentful-paint']?.numericValue ?? 0,
      fcpMs: report.audits['first-contentful-paint']?.numericValue ?? 0,
      tbtMs: report.audits['total-blocking-time']?.numericValue ?? 0,
      totalKb: (report.audits['total-byte-weight']?.numericValue ?? 0) / 1024,
    });
  }
  return runs.sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)]!;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The server as a newcomer's `npm start` runs it: no NODE_ENV, the built web app, demo data. */
function newcomerEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_ENV;
  return env;
}

/** The server of `tree` with its built web app, on a port of its own, and a data folder to drop. */
function startServer(tree: string) {
  const distDir = join(tree, 'web', 'dist');
  if (!existsSync(join(distDir, 'index.html'))) throw new Error(`${distDir} has no build: run npm run build there first`);
  const port = 8120 + Math.floor(Math.random() * 50);
  const dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-web-'));
  const server = startProcess('api/src/server.ts', { PORT: String(port), DATA_DIR: dataDir, WEB_DIST_DIR: distDir }, tree, {
    env: newcomerEnvironment(),
  });
  const stop = () => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { port, base: `http://127.0.0.1:${port}`, distDir, dataDir, stop };
}

async function measureBytes(tree: string, base: string, distDir: string): Promise<WebBytes> {
  const install = await measureInstall(base);
  const officerJs = await measureOfficerJs(base, distDir);
  return {
    installBytes: install.bytes,
    installFiles: install.files,
    officerJsBytes: officerJs.bytes,
    officerJsFiles: officerJs.files,
    deploys: measureDeploys(tree),
  };
}

/** The figures of `--bytes`: the server started for the officer path and the install only. */
export async function runWebBytesBench(tree = root): Promise<WebBytes> {
  const { base, distDir, stop } = startServer(tree);
  try {
    await waitForHttp(`${base}/api/health`);
    return await measureBytes(tree, base, distDir);
  } finally {
    stop();
  }
}

export async function runWebDeliveryBench(tree = root): Promise<WebDelivery> {
  const { port, base, distDir, dataDir, stop } = startServer(tree);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  let link: PoorLink | undefined;
  try {
    await waitForHttp(`${base}/api/health`);
    link = await startPoorLink(port);
    const medianVisit = async (origin: string, screen: FirstScreen, kind: LinkKind): Promise<SignInVisit> => {
      const visits: SignInVisit[] = [];
      for (let i = 0; i < RUNS; i += 1) visits.push(await visitFirstScreen(browser, origin, screen, kind));
      return {
        bytes: median(visits.map((v) => v.bytes)),
        requests: median(visits.map((v) => v.requests)),
        formMs: median(visits.map((v) => v.formMs)),
        fcpMs: median(visits.map((v) => v.fcpMs)),
        cls: median(visits.map((v) => v.cls)),
        takeoverMs: median(visits.map((v) => v.takeoverMs)),
      };
    };
    const firstScreen = async (screen: FirstScreen): Promise<FirstScreenDelivery> => ({
      devtools: await medianVisit(base, screen, 'devtools'),
      realLink: await medianVisit(link!.url, screen, 'real link'),
      lighthouse: await runLighthouse(`${base}${screen.path}`),
      lighthouseRealLink: await runLighthouse(`${link!.url}${screen.path}`),
    });
    const signIn = await firstScreen({ path: '/login', label: 'Email' });
    // The motorist's lookup: a stranger's first visit, from a notice's QR code, on the same budget.
    const chargeLookup = await firstScreen({ path: '/charge', label: 'Charge reference' });
    const notice = await fileFourPhotoNotice(base, dataDir);
    const details: DetailVisit[] = [];
    for (let i = 0; i < RUNS; i += 1) details.push(await visitOfficerDetail(browser, base, notice));
    const officerDetail: DetailVisit = {
      bytes: median(details.map((v) => v.bytes)),
      requests: median(details.map((v) => v.requests)),
      usableMs: median(details.map((v) => v.usableMs)),
      photoBytes: median(details.map((v) => v.photoBytes)),
    };
    return { signIn, chargeLookup, officerDetail, ...(await measureBytes(tree, base, distDir)) };
  } finally {
    await link?.close();
    await browser.close();
    stop();
  }
}

const kb = (bytes: number) => bytes / 1024;

/** name, figure, budget, unit, whether the budget is a minimum */
type Check = [string, number, number, string, boolean];
type Judged = { rows: Array<[string, string, string, string]>; broken: string[] };

function judge(checks: Check[]): Judged {
  const rows = checks.map(([name, value, budget, unit, isMinimum]): [string, string, string, string] => {
    const ok = isMinimum ? value >= budget : value <= budget;
    const shown = unit === 'KB' ? value.toFixed(1) : String(Math.round(value));
    return [name, `${shown} ${unit}`, `${isMinimum ? '>=' : '<='} ${budget} ${unit}`, ok ? 'met' : '**broken**'];
  });
  return { rows, broken: rows.filter((r) => r[3] !== 'met').map((r) => r[0]) };
}

const bytesChecks = (d: WebBytes): Check[] => [
  ['first install of the officer app (sw.js + precache) on the wire', kb(d.installBytes), WEB_BUDGETS.installKb, 'KB', false],
  ['signed-in officer path JavaScript on the wire', kb(d.officerJsBytes), WEB_BUDGETS.officerJsKb, 'KB', false],
  [
    'a deploy changing one officer screen: files a phone downloads',
    d.deploys.officerScreen.files.length,
    WEB_BUDGETS.officerDeployFiles,
    'files',
    false,
  ],
  [
    'a deploy changing one officer screen: bytes a phone downloads',
    kb(d.deploys.officerScreen.bytes),
    WEB_BUDGETS.officerDeployKb,
    'KB',
    false,
  ],
  [
    'a deploy changing one admin screen: officer files that change',
    d.deploys.adminScreen.files.length,
    WEB_BUDGETS.adminDeployOfficerFiles,
    'files',
    false,
  ],
];

const bytesDetail = (d: WebBytes): Array<[string, string]> => [
  ['first install: files', String(d.installFiles)],
  ['officer path: JavaScript files', String(d.officerJsFiles)],
  ['a deploy changing one officer screen: files a phone downloads', d.deploys.officerScreen.files.join(', ') || 'none'],
  [
    'a deploy changing one officer screen: bytes, against the whole app',
    `${kb(d.deploys.officerScreen.bytes).toFixed(1)} KB of ${kb(d.deploys.wholeAppBytes).toFixed(1)} KB`,
  ],
  [
    'a deploy changing one admin screen: officer files that change (KB)',
    `${d.deploys.adminScreen.files.join(', ') || 'none'} (${kb(d.deploys.adminScreen.bytes).toFixed(1)} KB)`,
  ],
];

export const judgeWebBytes = (d: WebBytes): Judged => judge(bytesChecks(d));

export function formatWebBytes(d: WebBytes): string {
  return `${formatTable(['figure', 'measured', 'budget', ''], judgeWebBytes(d).rows)}\n\n${formatTable(['detail', 'value'], bytesDetail(d))}`;
}

/** Each budget with its figure; `broken` lists those over. */
export function judgeWebDelivery(d: WebDelivery): Judged {
  const screenChecks = (name: string, screen: FirstScreenDelivery): Array<[string, number, number, string, boolean]> => [
    [`${name}, first visit, all bytes on the wire`, kb(screen.devtools.bytes), WEB_BUDGETS.signInKb, 'KB', false],
    [`${name}: field visible by its label, DevTools throttling`, screen.devtools.formMs, WEB_BUDGETS.signInFormMs, 'ms', false],
    [`${name}: field visible by its label, through a real poor link`, screen.realLink.formMs, WEB_BUDGETS.signInFormMs, 'ms', false],
    [`${name}: Lighthouse mobile performance`, screen.lighthouse.score, WEB_BUDGETS.lighthouseScore, 'score', true],
    [
      `${name}: Lighthouse mobile performance, through a real poor link`,
      screen.lighthouseRealLink.score,
      WEB_BUDGETS.lighthouseScore,
      'score',
      true,
    ],
  ];
  return judge([
    ...screenChecks('sign-in (/login)', d.signIn),
    ...screenChecks('charge lookup (/charge)', d.chargeLookup),
    ...bytesChecks(d),
    ['officer opens a four-photo notice: heading and photos drawn', d.officerDetail.usableMs, WEB_BUDGETS.officerDetailMs, 'ms', false],
    ['officer opens a four-photo notice: bytes on the wire', kb(d.officerDetail.bytes), WEB_BUDGETS.officerDetailKb, 'KB', false],
  ]);
}

const lighthouseDetail = (run: LighthouseRun) =>
  `${Math.round(run.fcpMs)} ms / ${Math.round(run.lcpMs)} ms / ${Math.round(run.tbtMs)} ms / ${run.totalKb.toFixed(0)} KiB`;

export function formatWebDelivery(d: WebDelivery): string {
  const { rows } = judgeWebDelivery(d);
  const budgets = formatTable(['figure (first visit: no cache, no service worker)', 'measured', 'budget', ''], rows);
  const screenDetail = (name: string, screen: FirstScreenDelivery): Array<[string, string]> => [
    [
      `${name}: requests / first contentful paint / layout shift / app's own form in place (DevTools)`,
      `${screen.devtools.requests} / ${Math.round(screen.devtools.fcpMs)} ms / ${screen.devtools.cls.toFixed(3)} / ${Math.round(screen.devtools.takeoverMs)} ms`,
    ],
    [
      `${name}: first contentful paint / app's own form in place (real link)`,
      `${Math.round(screen.realLink.fcpMs)} ms / ${Math.round(screen.realLink.takeoverMs)} ms`,
    ],
    [`${name}: Lighthouse FCP / LCP / TBT / total weight`, lighthouseDetail(screen.lighthouse)],
    [`${name}: Lighthouse FCP / LCP / TBT / total weight (real link)`, lighthouseDetail(screen.lighthouseRealLink)],
  ];
  const detail = formatTable(
    ['detail', 'value'],
    [
      ...screenDetail('sign-in', d.signIn),
      ...screenDetail('charge lookup', d.chargeLookup),
      [
        'four-photo notice: requests / of which photo bytes',
        `${d.officerDetail.requests} / ${kb(d.officerDetail.photoBytes).toFixed(1)} KB`,
      ],
      ...bytesDetail(d),
    ],
  );
  const link = `${ONE_BAR.bitsPerSecond / 1000} kbit/s each way, ${ONE_BAR.roundTripMs} ms round trip`;
  return `Throttling: ${link}, CPU ${CPU_SLOWDOWN}x slower, either by Chromium's DevTools protocol (each request delayed on its own) or through a real shared link in front of the server (scripts/bench/poor-link.ts; CPU still by DevTools); median of ${RUNS} visits. Lighthouse: its default mobile run, median of ${RUNS}, against the server and through the real link.\n\n${budgets}\n\n${detail}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--tree');
  const tree = at > 0 ? process.argv[at + 1]! : root;
  if (tree === root && !existsSync(join(root, 'web', 'dist', 'index.html')))
    execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  const bytesOnly = process.argv.includes('--bytes') || process.env.WEB_BENCH === 'bytes';
  let broken: string[];
  if (bytesOnly) {
    const bytes = await runWebBytesBench(tree);
    console.log(formatWebBytes(bytes));
    broken = judgeWebBytes(bytes).broken;
  } else {
    const delivery = await runWebDeliveryBench(tree);
    console.log(formatWebDelivery(delivery));
    broken = judgeWebDelivery(delivery).broken;
  }
  if (broken.length > 0) {
    console.log(`\nBudgets broken: ${broken.join('; ')}`);
    process.exitCode = 1;
  }
}
