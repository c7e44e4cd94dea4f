import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
const SERVER_ENTRY = join(REPO_ROOT, 'api/src/server.ts');

export const SERVER_JWT_SECRET = 'crash-test-secret-that-is-long-enough-0123456789';

export type ServerProcess = {
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process wrote, one entry per line (stdout and stderr). */
  output: string[];
  kill: (signal: NodeJS.Signals) => Promise<void>;
};

/**
 * For the tests that read the server's resident memory, a heap that collects before it grows:
 * 96 MB of old space, below what holding a 100 MB upload or a 100,000-row export would take on
 * top of the server's own (about 50 MB live after it starts, read with --trace-gc on Node 24; at
 * 64 MB an export now and then ran out of heap while the start's garbage was still being
 * collected, with nothing held), and a small young generation. V8 on Node 24 sizes its young generation for itself (tens of MB per
 * semi-space under a fast allocation rate, where Node 20 kept it small), and without the caps
 * garbage the collector has not reached yet reads as memory the server holds (an 8 MB-part
 * upload attack: +53 MB uncapped, +18 MB capped; Node 20 uncapped: +12 MB). With them, the
 * reading is what the code under test keeps, and holding the body would kill the process.
 */
export const MEASURED_HEAP = '--max-old-space-size=96 --max-semi-space-size=8';

/**
 * The real server (api/src/server.ts, run by Node as production runs it) as a child process on DATA_DIR and PORT, resolved
 * once /api/health answers. Its output is kept, never printed, so a crash test stays quiet.
 */
export async function startServerProcess(options: {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
  /**
   * Runs the server on another day: Debian's faketime starts the process's clock at this UTC
   * instant ('2027-04-22 09:00:00') and lets it run on from there.
   */
  fakeTime?: string;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(options.port),
      DATA_DIR: options.dataDir,
      JWT_SECRET: SERVER_JWT_SECRET,
      // A folder that does not exist: the API alone, without the built web app.
      WEB_DIST_DIR: join(options.dataDir, 'no-web-app'),
      ...(options.fakeTime && fakeTimeEnv(options.fakeTime)),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const baseUrl = `http://127.0.0.1:${options.port}`;

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output.join('\n')}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer /api/health within 30 s:\n${output.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    baseUrl,
    child,
    output,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * Debian's libfaketime preloaded into the server itself. The `faketime` command would do the same
 * but forks, and the server must be the process we stop. The monotonic clock is left alone, so
 * timers inside the process run as on any day; TZ=UTC makes the timestamp UTC (the server works
 * in Europe/London by itself).
 */
function fakeTimeEnv(instant: string): Record<string, string> {
  const library = ['x86_64-linux-gnu', 'aarch64-linux-gnu']
    .map((multiarch) => `/usr/lib/${multiarch}/faketime/libfaketimeMT.so.1`)
    .find((path) => existsSync(path));
  if (!library) throw new Error("Debian's faketime is not installed: apt-get install faketime");
  return { LD_PRELOAD: library, FAKETIME: `@${instant}`, FAKETIME_DONT_FAKE_MONOTONIC: '1', TZ: 'UTC' };
}

/** One JSON call to a server process's API over a real connection: the status and the parsed envelope. */
export async function callServer(
  server: ServerProcess,
  method: string,
  path: string,
  init: { token?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${server.baseUrl}/api${path}`, {
    method,
    headers: {
      ...(init.token && { authorization: `Bearer ${init.token}` }),
      ...(init.json !== undefined && { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
  });
  return {
    status: res.status,
    json: (await res.json()) as { success: boolean; data: any; message?: string; code?: string; details?: Record<string, unknown> },
  };
}
