import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../scripts/test-support.ts';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { evidencePhotos, expect, signIn, test } from './fixtures.ts';
import {
  addQueuedDrafts,
  apiToken,
  expectOnePcnEach,
  firstCarParkId,
  offlineRegistration,
  readDrafts,
  waitUntilSent,
} from './offline-support.ts';

/**
 * The server dies in the middle of the outbox's queue and comes back on the same data: nothing
 * the phone queued is lost or doubled. This journey needs a server of its own (the shared one
 * serves every other test), on its own port and data folder.
 */
const rootDir = resolve(import.meta.dirname, '..', '..');
const NOTICES = 5;

test.use({ serviceWorkers: 'allow' });

async function startServer(port: number, dataDir: string, distDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['api/src/server.ts'], {
    cwd: rootDir,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST_DIR: distDir,
      APP_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error('The dedicated API server exited during start-up');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('The dedicated API server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stopServer(server: ChildProcess, signal: NodeJS.Signals) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((r) => server.once('exit', () => r()));
  server.kill(signal);
  await exited;
}

test('a server killed mid-queue and restarted on the same data loses and doubles nothing', async ({ browser, request }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'runs once: it starts a server of its own');
  test.setTimeout(120_000);
  const tempDir = mkdtempSync(join(tmpdir(), 'parkpatrol-e2e-restart-'));
  const dataDir = join(tempDir, 'data');
  const distDir = join(tempDir, 'dist');
  cpSync(join(rootDir, 'web', 'dist'), distDir, { recursive: true });
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let server = await startServer(port, dataDir, distDir);
  try {
    const registrations = Array.from({ length: NOTICES }, (_, n) => offlineRegistration('RST', n));
    const token = await apiToken(request, baseURL);
    const context = await browser.newContext({ ...testInfo.project.use, baseURL, serviceWorkers: 'allow' });
    const page = await context.newPage();
    await signIn(page);
    const ids = await addQueuedDrafts(page, registrations, await firstCarParkId(request, baseURL, token), evidencePhotos());

    // The second upload is on its way when the server is killed (no goodbye, no flush): whether
    // it committed or not, the phone must neither lose it nor send it twice.
    let uploads = 0;
    let killed: Promise<void> | null = null;
    await context.route('**/api/pcns', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      uploads++;
      if (uploads === 2) killed = new Promise((r) => setTimeout(r, 15)).then(() => stopServer(server, 'SIGKILL'));
      return route.continue();
    });
    // App start is one of the outbox's triggers.
    await page.goto('/pcn');
    await expect.poll(() => killed !== null, { timeout: 30_000 }).toBe(true);
    await killed;
    // The outbox keeps trying against a dead server: notices wait, none is lost, none failed.
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect
      .poll(async () => JSON.stringify((await readDrafts(page)).filter((d) => ids.includes(d.id)).map((d) => [d.state, d.lastError])))
      .toContain('No connection');
    const midQueue = (await readDrafts(page)).filter((draft) => ids.includes(draft.id));
    expect(midQueue.filter((draft) => draft.state === 'sent').length).toBeLessThan(NOTICES);
    expect(midQueue.filter((draft) => draft.state === 'failed')).toEqual([]);

    server = await startServer(port, dataDir, distDir);
    const drafts = await waitUntilSent(page, ids);
    const onServer = await expectOnePcnEach(request, baseURL, await apiToken(request, baseURL), registrations);
    for (const draft of drafts) expect(draft.serverPcnNumber).toBe(onServer[draft.vehicleRegistration]!.pcnNumber);
    await context.close();
  } finally {
    await stopServer(server, 'SIGTERM');
    rmSync(tempDir, { recursive: true, force: true });
  }
});
