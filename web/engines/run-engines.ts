// `npm run test:engines`: the officer's core journeys in WebKitGTK and Firefox ESR, against the
// real built app and API, with the server made unreachable by cutting a loopback proxy the run
// owns. Debian's webkit2gtk-driver, firefox-esr and xvfb; no browser is downloaded.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Engine } from './engine.ts';
import { launchFirefox } from './firefox.ts';
import { signInAdmin } from './admin-api.ts';
import { JOURNEYS, STAY_PERIODS, type JourneyContext } from './journeys.ts';
import { startLoopbackProxy } from './loopback-proxy.ts';
import { freePort } from '../../scripts/test-support.ts';
import { stopProcess, waitForPort } from './processes.ts';
import { launchWebKit } from './webkit.ts';
import { writeEvidencePhotos } from '../e2e/evidence-photos.ts';

const rootDir = resolve(import.meta.dirname, '..', '..');
const distDir = join(rootDir, 'web', 'dist');
/**
 * Where the page was when a journey failed, to tell a wrong screen from a slow one or a stuck
 * one: its address and text, the Web Locks held and waited for, and whether IndexedDB answers.
 */
const PAGE_STATE = `
  const locks = await navigator.locks?.query().then((q) => ({ held: q.held.map((l) => l.name), pending: q.pending.map((l) => l.name) }), String);
  const idb = await Promise.race([
    new Promise((resolve) => {
      const open = indexedDB.open('parkpatrol');
      open.onsuccess = () => {
        const read = open.result.transaction('drafts', 'readonly').objectStore('drafts').count();
        read.onsuccess = () => { resolve('answers (' + read.result + ' drafts)'); open.result.close(); };
        read.onerror = () => resolve('read failed: ' + read.error);
      };
      open.onerror = () => resolve('open failed: ' + open.error);
      open.onblocked = () => resolve('open blocked');
    }),
    new Promise((resolve) => setTimeout(() => resolve('no answer in 5 s'), 5000)),
  ]);
  const written = await Promise.race([
    new Promise((resolve) => {
      const open = indexedDB.open('parkpatrol');
      open.onsuccess = () => {
        const tx = open.result.transaction(['drafts', 'photos', 'auth', 'cache'], 'readwrite');
        tx.objectStore('cache').put({ key: 'engines-probe', storedAt: Date.now(), value: null });
        tx.oncomplete = () => { resolve('writes'); open.result.close(); };
        tx.onerror = () => resolve('write failed: ' + tx.error);
      };
    }),
    new Promise((resolve) => setTimeout(() => resolve('no write in 5 s'), 5000)),
  ]);
  const started = Date.now();
  const health = await Promise.race([
    fetch('/api/health', { cache: 'no-store' }).then((r) => 'HTTP ' + r.status, (e) => 'fails (' + e + ')'),
    new Promise((resolve) => setTimeout(() => resolve('no answer in 5 s'), 5000)),
  ]);
  const worker = await navigator.serviceWorker?.getRegistration().then((r) => r ? { active: r.active?.state, waiting: Boolean(r.waiting), installing: Boolean(r.installing), controlled: Boolean(navigator.serviceWorker.controller) } : 'none');
  const alerts = [...document.querySelectorAll('[role=alert], .field__error, [aria-invalid=true]')].map((e) => e.textContent?.trim() || e.getAttribute('name') || e.tagName).filter(Boolean);
  return location.href + ' | alerts ' + JSON.stringify(alerts) + ' | locks ' + JSON.stringify(locks) + ' | IndexedDB ' + idb + ', ' + written + ' | /api/health ' + health + ' after ' + (Date.now() - started) + ' ms | worker ' + JSON.stringify(worker) + ' | ' + (document.body?.innerText ?? '').replace(/\\s+/g, ' ').slice(0, 400);`;

const ENGINES: Record<string, () => Promise<Engine>> = { webkit: launchWebKit, firefox: launchFirefox };

async function main(): Promise<number> {
  if (!existsSync(join(distDir, 'index.html'))) throw new Error('web/dist has no build: run npm run build first');
  const wanted = process.argv.slice(2).filter((name) => name in ENGINES);
  const names = wanted.length > 0 ? wanted : Object.keys(ENGINES);
  const tempDir = mkdtempSync(join(tmpdir(), 'parkpatrol-engines-'));
  const servedDist = join(tempDir, 'dist');
  cpSync(distDir, servedDist, { recursive: true });
  const apiPort = await freePort();
  const photos = writeEvidencePhotos(join(tempDir, 'photos'));
  // Registrations unique to this run: ENG + 3 letters, then the engine's two and a number.
  const runTag = Date.now().toString(36).slice(-3).toUpperCase();
  const failures: string[] = [];
  let server: ReturnType<typeof spawn> | null = null;
  try {
    // The app's one origin, through the proxy (each engine has its own profile: one phone each).
    const proxyPort = await freePort();
    const baseUrl = `http://127.0.0.1:${proxyPort}`;
    server = spawn(process.execPath, ['api/src/server.ts'], {
      cwd: rootDir,
      env: {
        ...process.env,
        PORT: String(apiPort),
        DATA_DIR: join(tempDir, 'data'),
        WEB_DIST_DIR: servedDist,
        APP_URL: baseUrl,
        NODE_ENV: 'test',
        // argon2 at its least cost (api/src/auth/passwords.ts): the journeys sign in again and again.
        PASSWORD_HASH_COST: 'test',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForPort(apiPort, 60_000);
    const admin = await signInAdmin(`http://127.0.0.1:${apiPort}`);
    for (const name of names) {
      const proxy = await startLoopbackProxy(apiPort, proxyPort);
      const started = Date.now();
      const tag = `${name.slice(0, 2).toUpperCase()}${runTag}`;
      let engine: Engine | null = null;
      try {
        // Before the officer signs in, so the phone keeps it with the other car parks.
        const stayCarPark = `Stay ${tag}`;
        await admin.stayCarParkFor('officer@example.com', stayCarPark, STAY_PERIODS);
        engine = await ENGINES[name]!();
        const context: JourneyContext = { engine, baseUrl, proxy, admin, servedDist, photos, tag, stayCarPark, shift: {} };
        for (const journey of JOURNEYS) {
          const at = Date.now();
          try {
            await journey.run(context);
            console.log(`  ok    ${engine.name}: ${journey.name} (${Date.now() - at} ms)`);
          } catch (error) {
            // Where the page was, to tell a wrong screen from a slow one.
            const page = await engine.evaluate<string>(PAGE_STATE).catch((reason: unknown) => `(page unreadable: ${String(reason)})`);
            failures.push(
              `${engine.name}: ${journey.name}: ${error instanceof Error ? error.message : String(error)}\n        page: ${page}`,
            );
            console.log(`  FAIL  ${engine.name}: ${journey.name}\n        ${failures.at(-1)}`);
            break;
          }
        }
      } catch (error) {
        failures.push(`${name}: could not start: ${error instanceof Error ? error.message : String(error)}`);
        console.log(`  FAIL  ${failures.at(-1)}`);
      } finally {
        await engine?.close().catch(() => undefined);
        await proxy.close();
        console.log(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    }
  } finally {
    if (server) await stopProcess(server);
    rmSync(tempDir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.log(`\n${failures.length} journey(s) failed:\n${failures.map((line) => `- ${line}`).join('\n')}`);
    return 1;
  }
  console.log(`\nEvery journey passed in ${names.join(' and ')}.`);
  return 0;
}

process.exitCode = await main();
