import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../scripts/test-support.ts';

const rootDir = resolve(import.meta.dirname, '..', '..');

export type DedicatedServer = {
  baseURL: string;
  /** Starts the server on the same port and data folder, and waits until it answers. */
  start(): Promise<void>;
  /** Stops it (SIGKILL to die mid-request, as a crash does) and waits until it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it and removes its data folder and copy of the app. */
  dispose(): Promise<void>;
};

/**
 * A server of a journey's own, on its own port and data folder, for the journeys that stop and
 * start it (the shared one serves every other test): the built app is copied so a later build
 * does not change what it serves.
 */
export async function dedicatedServer(name: string): Promise<DedicatedServer> {
  const tempDir = mkdtempSync(join(tmpdir(), `parkpatrol-e2e-${name}-`));
  const distDir = join(tempDir, 'dist');
  cpSync(join(rootDir, 'web', 'dist'), distDir, { recursive: true });
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;

  async function stop(signal: NodeJS.Signals = 'SIGTERM') {
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise<void>((r) => server!.once('exit', () => r()));
    server.kill(signal);
    await exited;
  }

  async function start() {
    const started = spawn(process.execPath, ['api/src/server.ts'], {
      cwd: rootDir,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: join(tempDir, 'data'),
        WEB_DIST_DIR: distDir,
        APP_URL: baseURL,
        NODE_ENV: 'test',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    server = started;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error('The dedicated API server exited during start-up');
      try {
        if ((await fetch(`${baseURL}/api/health`)).ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error('The dedicated API server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  return {
    baseURL,
    start,
    stop,
    async dispose() {
      await stop();
      rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
