import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase, migrateToLatest, type DatabaseTarget } from '../src/db/database.ts';
import { connectJobQueue } from '../src/jobs/connect-job-queue.ts';
import { createRequestCounter } from '../src/http/requests-in-flight.ts';
import type { JobQueue } from '../src/jobs/job-queue.ts';
import { silentLogger } from '../src/services/logger.ts';
import { createPostgresDatabase } from './support/postgres-database.ts';
import { ON_POSTGRES } from './test-app.ts';
import { IDLE_JOB_HANDLERS } from './support/idle-job-handlers.ts';

/**
 * The job queue of the engine the suite runs on (pg-boss on PostgreSQL, the in-process table on
 * SQLite), each over a database of its own, with handlers of the test's that count what they are
 * given: a job is stored before `send` resolves, worked once, tried again after a failure, and
 * kept for the next process when nobody works it.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freshDatabase(): Promise<DatabaseTarget> {
  if (ON_POSTGRES) {
    const database = await createPostgresDatabase(process.env.TEST_POSTGRES_URL!);
    cleanups.push(database.drop);
    return { engine: 'postgres', url: database.url };
  }
  const dir = mkdtempSync(join(tmpdir(), 'parkpatrol-jobs-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return { engine: 'sqlite', file: join(dir, 'parkpatrol.sqlite') };
}

/** A queue as a process opens it: its own connections to the database. */
async function openQueue(target: DatabaseTarget, options: Parameters<typeof connectJobQueue>[3] = {}): Promise<JobQueue> {
  const { db, close } = connectDatabase(target);
  await migrateToLatest(db);
  const queue = await connectJobQueue(db, target, silentLogger, options);
  cleanups.push(async () => {
    await queue.stop();
    await close();
  });
  return queue;
}

const JOB_PROCESS = join(import.meta.dirname, 'support/job-process.ts');

/** A process working jobs over `target` (support/job-process.ts), and each line it wrote. */
function startJobProcess(target: DatabaseTarget, mode: 'hang' | 'finish') {
  const child = spawn(process.execPath, [JOB_PROCESS, JSON.stringify(target), mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  child.stderr.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  cleanups.push(kill);
  return { lines, kill };
}

async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(25);
  }
}

describe('the job queue', () => {
  it('works a job once, after send has stored it', async () => {
    const queue = await openQueue(await freshDatabase());
    const given: string[][] = [];
    await queue.work({ ...IDLE_JOB_HANDLERS, thumbnails: async ({ fileNames }) => void given.push(fileNames) });
    await queue.send('thumbnails', { fileNames: ['a.jpg', 'b.jpg'] });
    await queue.whenIdle();
    await sleep(300);
    expect(given).toEqual([['a.jpg', 'b.jpg']]);
  });

  it('tries a job that failed again after a wait, and then it is done', async () => {
    const queue = await openQueue(await freshDatabase());
    const tries: number[] = [];
    await queue.work({
      ...IDLE_JOB_HANDLERS,
      thumbnails: async () => {
        tries.push(Date.now());
        if (tries.length === 1) throw new Error('the store blinked');
      },
    });
    await queue.send('thumbnails', { fileNames: ['a.jpg'] });
    await until(() => tries.length === 2);
    // The first wait is about JOB_RETRY.retryDelaySeconds (pg-boss draws it between half and all of it).
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(900);
    await queue.whenIdle();
    await sleep(300);
    expect(tries).toHaveLength(2);
  });

  it('keeps a job nobody worked for the next process that works jobs', async () => {
    const target = await freshDatabase();
    const first = await openQueue(target);
    await first.send('thumbnails', { fileNames: ['kept.jpg'] });
    await first.stop();
    const next = await openQueue(target);
    const given: string[][] = [];
    await next.work({ ...IDLE_JOB_HANDLERS, thumbnails: async ({ fileNames }) => void given.push(fileNames) });
    await until(() => given.length === 1);
    expect(given).toEqual([['kept.jpg']]);
  });

  it('a job whose process is killed while it runs is done once, by the next process', async () => {
    const target = await freshDatabase();
    const sender = await openQueue(target);
    await sender.send('thumbnails', { fileNames: ['crash.jpg'] });
    const dying = startJobProcess(target, 'hang');
    await until(() => dying.lines.includes('started crash.jpg'), 30_000);
    await dying.kill();
    // On PostgreSQL the dead process's claim lapses with its heartbeat: about half a minute.
    const next = startJobProcess(target, 'finish');
    await until(() => next.lines.includes('done crash.jpg'), 90_000);
    await sleep(1_000);
    expect(next.lines.filter((line) => line.startsWith('started'))).toEqual(['started crash.jpg']);
  }, 120_000);

  it.runIf(ON_POSTGRES)(
    'two processes sharing the work never run one job twice',
    async () => {
      const target = await freshDatabase();
      const sender = await openQueue(target);
      const processes = [startJobProcess(target, 'finish'), startJobProcess(target, 'finish')];
      await until(() => processes.every((process) => process.lines.includes('ready')), 30_000);
      const files = Array.from({ length: 40 }, (_, index) => `photo-${index}.jpg`);
      for (const file of files) await sender.send('thumbnails', { fileNames: [file] });
      const done = () => processes.flatMap((process) => process.lines.filter((line) => line.startsWith('done ')));
      await until(() => done().length >= files.length, 60_000);
      await sleep(1_000);
      expect(done().sort()).toEqual(files.map((file) => `done ${file}`).sort());
    },
    120_000,
  );
});

describe.skipIf(ON_POSTGRES)('the job queue on SQLite, in the process that answers', () => {
  /** A real server whose answers wait until the test lets them go, its requests counted. */
  async function heldServer() {
    const counter = createRequestCounter();
    const held: Array<() => void> = [];
    const server = createServer((_request, response) => void held.push(() => response.end('ok')));
    counter.watch(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const ask = (signal?: AbortSignal) => fetch(`http://127.0.0.1:${port}/`, { signal }).then((res) => res.text());
    return { counter, held, ask };
  }

  it('works a job once the requests in flight are answered', async () => {
    const { counter, held, ask } = await heldServer();
    const queue = await openQueue(await freshDatabase(), { giveWayTo: counter, giveWayMs: 60_000 });
    const done: string[] = [];
    await queue.work({ ...IDLE_JOB_HANDLERS, thumbnails: async ({ fileNames }) => void done.push(...fileNames) });
    const answered = ask();
    await until(() => held.length === 1);
    await queue.send('thumbnails', { fileNames: ['a.jpg'] });
    await sleep(300);
    expect(counter.count).toBe(1);
    expect(done).toEqual([]);
    held[0]!();
    expect(await answered).toBe('ok');
    await until(() => done.length === 1, 2_000);
    expect(done).toEqual(['a.jpg']);
  });

  it('holds a job back no longer than its give-way time, when the requests never stop', async () => {
    const { counter, held, ask } = await heldServer();
    const queue = await openQueue(await freshDatabase(), { giveWayTo: counter, giveWayMs: 400 });
    const done: string[] = [];
    await queue.work({ ...IDLE_JOB_HANDLERS, thumbnails: async ({ fileNames }) => void done.push(...fileNames) });
    const answered = ask();
    await until(() => held.length === 1);
    const sentAt = Date.now();
    await queue.send('thumbnails', { fileNames: ['b.jpg'] });
    await until(() => done.length === 1, 5_000);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(350);
    expect(counter.count).toBe(1);
    held[0]!();
    await answered;
  });

  it('counts a request whose client went away before its answer as done', async () => {
    const { counter, held, ask } = await heldServer();
    const controller = new AbortController();
    const gone = ask(controller.signal).catch(() => 'aborted');
    await until(() => held.length === 1);
    expect(counter.count).toBe(1);
    let isNone = false;
    const none = counter.whenNone().then(() => (isNone = true));
    await sleep(50);
    expect(isNone).toBe(false);
    controller.abort();
    expect(await gone).toBe('aborted');
    await none;
    expect(counter.count).toBe(0);
  });
});
