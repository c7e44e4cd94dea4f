import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type Pcn } from '@parkpatrol/shared';
import { signAccessToken } from '../src/auth/access-token.ts';
import { DEMO_ACCOUNTS } from '../src/db/seed.ts';
import { isThumbnailFileName } from '../src/services/thumbnails.ts';
import { makeJpeg } from './fixtures.ts';
import { checkEvidence, countWaitingJobs, whenJobsDone } from './support/evidence-check.ts';
import { freePort } from '../../scripts/test-support.ts';
import { callServer, SERVER_JWT_SECRET, startServerProcess, type ServerProcess } from './support/server-process.ts';

/**
 * Against the real server process: SIGKILL in the middle of 50 concurrent
 * uploads, then a restart on the same DATA_DIR; and a soak of officers submitting in a loop.
 * "Never lost, never sent twice" is checked on the files and rows themselves.
 */

const started: ServerProcess[] = [];
const dataDirs: string[] = [];

afterEach(async () => {
  for (const server of started.splice(0)) await server.kill('SIGKILL');
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parkpatrol-crash-'));
  dataDirs.push(dir);
  return dir;
}

async function start(dataDir: string, port: number): Promise<ServerProcess> {
  const server = await startServerProcess({ dataDir, port });
  started.push(server);
  return server;
}

async function callJson(server: ServerProcess, method: string, path: string, init: { token?: string; json?: unknown } = {}) {
  const { status, json } = await callServer(server, method, path, init);
  if (status >= 300) throw new Error(`${method} ${path}: ${status} ${json.message}`);
  return json.data;
}

async function signIn(server: ServerProcess, email: string, password: string): Promise<string> {
  return (await callJson(server, 'POST', '/auth/login', { json: { email, password } })).token as string;
}

/** One notice as the phone's outbox holds it: its draft id is the Idempotency-Key. */
type QueuedNotice = { key: string; registration: string; carParkId: string; photos: Uint8Array[] };

function noticeForm(notice: QueuedNotice): FormData {
  const form = new FormData();
  form.append('vehicleRegistration', notice.registration);
  form.append('noticeServedBy', 'AFFIXED');
  form.append('carParkId', notice.carParkId);
  form.append('offenceType', 'PARKING_WITHOUT_PERMIT');
  form.append('location', 'Bay 3');
  form.append('description', 'Crash and soak test');
  notice.photos.forEach((photo, index) => form.append('images', new Blob([photo], { type: 'image/jpeg' }), `photo-${index}.jpg`));
  return form;
}

type SendResult = { status: number; pcn?: Pcn; error?: string; ms: number };

/**
 * One send as the outbox makes it. The server takes a few uploads per user at a time (issue
 * 13) and answers the rest 429 or 503 with Retry-After; like the outbox, this waits and sends
 * again, so a burst of 50 queued notices still goes through.
 */
async function sendNotice(server: ServerProcess, token: string, notice: QueuedNotice): Promise<SendResult> {
  const startedAt = performance.now();
  try {
    for (;;) {
      const res = await fetch(`${server.baseUrl}/api/pcns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, [IDEMPOTENCY_KEY_HEADER]: notice.key },
        body: noticeForm(notice),
      });
      const json = (await res.json()) as { data?: Pcn; message?: string };
      if (res.status === 429 || res.status === 503) {
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      return { status: res.status, ms: performance.now() - startedAt, ...(res.ok ? { pcn: json.data! } : { error: json.message ?? '' }) };
    }
  } catch (error) {
    return {
      status: 0,
      error: `${String(error)} ${String((error as { cause?: unknown }).cause ?? '')}`,
      ms: performance.now() - startedAt,
    };
  }
}

/**
 * What the outbox does on a network failure: send again with the same key. Under a saturated
 * server Node drops the odd reused keep-alive connection mid-upload (EPIPE); the retry is what
 * makes that harmless, and the count of such retries is reported.
 */
async function sendUntilAnswered(
  server: ServerProcess,
  token: string,
  notice: QueuedNotice,
  onRetry: () => void = () => {},
): Promise<SendResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await sendNotice(server, token, notice);
    if (result.status !== 0 || attempt === 5) return result;
    onRetry();
  }
}

describe('a server killed during uploads', () => {
  it('restarts with every PCN complete, no stray file, and clients retrying their keys end with exactly one PCN each', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    let server = await start(dataDir, port);
    const token = await signIn(server, DEMO_ACCOUNTS.officer.email, DEMO_ACCOUNTS.officer.password);
    const carParkId = ((await callJson(server, 'GET', '/car-parks', { token })) as Array<{ id: string }>)[0]!.id;

    const notices: QueuedNotice[] = Array.from({ length: 50 }, (_, index) => ({
      key: randomUUID(),
      registration: `CR${index}X`,
      carParkId,
      photos: [1, 2, 3, 4].map((n) => makeJpeg(index * 4 + n, 48)),
    }));

    // All 50 at once; once ten are answered the rest are somewhere between parsing, writing
    // photos, committing and answering, and the process is killed.
    const inFlight = notices.map((notice) => sendNotice(server, token, notice));
    let answered = 0;
    await Promise.race([
      new Promise<void>((resolve) =>
        inFlight.forEach((attempt) => void attempt.then((r) => r.status === 201 && ++answered === 10 && resolve())),
      ),
      Promise.all(inFlight),
    ]);
    await server.kill('SIGKILL');
    const firstRound = await Promise.all(inFlight);
    const answeredBeforeKill = new Map(firstRound.flatMap((r, i) => (r.pcn ? [[notices[i]!.key, r.pcn.id] as const] : [])));
    const leftByCrash = checkEvidence(dataDir);
    const jobsLeftByCrash = countWaitingJobs(dataDir);
    // Photos are durable before their rows commit: even before the restart no row lacks its file.
    expect(leftByCrash.brokenRows).toEqual([]);

    server = await start(dataDir, port);
    // The thumbnail jobs the kill left are worked as soon as the server is up: their own writes,
    // half made, are not what this looks for.
    await whenJobsDone(dataDir);
    const afterRestart = checkEvidence(dataDir);
    expect(afterRestart.integrity).toBe('ok');
    expect(afterRestart.brokenRows).toEqual([]);
    expect(afterRestart.orphanFiles).toEqual([]);
    expect(afterRestart.tempFiles).toEqual([]);
    if (leftByCrash.orphanFiles.length + leftByCrash.tempFiles.length > 0) {
      expect(server.output.join('\n')).toContain('removed evidence files left by an interrupted upload');
    }
    // A PCN is committed with its photos or not at all.
    expect(afterRestart.images).toBe(afterRestart.pcns * 4);

    // The outbox sends every notice again with its key until it gets a 2xx.
    const retried = await Promise.all(notices.map((notice) => sendUntilAnswered(server, token, notice)));
    for (const [index, result] of retried.entries()) {
      expect(result.status, result.error).toBe(201);
      const earlier = answeredBeforeKill.get(notices[index]!.key);
      if (earlier) expect(result.pcn!.id).toBe(earlier);
    }
    expect(new Set(retried.map((r) => r.pcn!.id)).size).toBe(50);

    await whenJobsDone(dataDir);
    const final = checkEvidence(dataDir);
    expect(final).toMatchObject({ pcns: 50, images: 200, brokenRows: [], orphanFiles: [], tempFiles: [], integrity: 'ok' });
    // The thumbnail jobs the kill interrupted, those it left waiting, and the retried uploads' are all done.
    expect(readdirSync(join(dataDir, 'uploads')).filter(isThumbnailFileName)).toHaveLength(200);
    console.log(
      `crash: SIGKILL with ${answeredBeforeKill.size}/50 answered; on disk before restart ${leftByCrash.pcns} PCNs ` +
        `(${leftByCrash.pcns - answeredBeforeKill.size} committed but unanswered), ${leftByCrash.orphanFiles.length} stray files, ` +
        `${leftByCrash.tempFiles.length} temp files, ${jobsLeftByCrash} thumbnail jobs unfinished; ` +
        'after restart and retries 50 PCNs, 200 photos with their thumbnails, nothing lost or doubled',
    );
  }, 180_000);
});

const SOAK_OFFICERS = Number(process.env.SOAK_OFFICERS ?? 20);
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 10);

describe('soak', () => {
  it(
    `${SOAK_OFFICERS} officers submitting for ${SOAK_SECONDS} s: no error, every answered PCN stored with its photos, counts match`,
    async () => {
      const dataDir = newDataDir();
      const server = await start(dataDir, await freePort());
      const adminToken = await signIn(server, DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);

      // Each officer is a real account with a car park of their own, made through the API. Their
      // access tokens are signed with the server's secret instead of two argon2 runs each (signing
      // in is not what the soak measures, and 100 of them would take most of a minute here).
      const officers = await Promise.all(
        Array.from({ length: SOAK_OFFICERS }, async (_, index) => {
          const carPark = await callJson(server, 'POST', '/car-parks', {
            token: adminToken,
            json: { name: `Soak Site ${index}`, siteCode: `SOAK${index}` },
          });
          const email = `soak-officer-${index}@example.com`;
          const user = await callJson(server, 'POST', '/users', {
            token: adminToken,
            // With a password: an account without one may only choose it.
            json: {
              firstName: 'Soak',
              lastName: `Officer ${index}`,
              email,
              role: 'USER',
              carParkIds: [carPark.id],
              password: 'soak-password-1',
            },
          });
          const token = await signAccessToken(SERVER_JWT_SECRET, { id: user.id, role: 'USER' }, randomUUID(), new Date());
          return { email, token, carParkId: carPark.id as string };
        }),
      );

      const photos = [1, 2, 3, 4].map((n) => makeJpeg(n, 32));
      const deadline = Date.now() + SOAK_SECONDS * 1000;
      const failures: string[] = [];
      let retries = 0;
      const latencies: number[] = [];
      const stored = new Map<string, Pcn>();
      await Promise.all(
        officers.map(async (officer, index) => {
          let sent = 0;
          while (Date.now() < deadline) {
            const notice = { key: randomUUID(), registration: `SK${index}N${sent++}`.slice(0, 10), carParkId: officer.carParkId, photos };
            const result = await sendUntilAnswered(server, officer.token, notice, () => retries++);
            latencies.push(result.ms);
            if (result.status !== 201 || !result.pcn) failures.push(`${officer.email}: ${result.status} ${result.error}`);
            else stored.set(result.pcn.id, result.pcn);
          }
        }),
      );

      expect(failures).toEqual([]);
      await whenJobsDone(dataDir);
      const report = checkEvidence(dataDir);
      expect(report).toMatchObject({
        pcns: stored.size,
        images: stored.size * 4,
        brokenRows: [],
        orphanFiles: [],
        tempFiles: [],
        integrity: 'ok',
      });
      // Every 2xx answer names a PCN the database holds, with the photos the answer listed.
      const admin = await callJson(server, 'GET', '/pcns?scope=all&limit=1', { token: adminToken });
      expect(admin.pagination.total).toBe(stored.size);
      for (const pcn of [...stored.values()].slice(0, 25)) {
        const fetched = (await callJson(server, 'GET', `/pcns/${pcn.id}`, { token: adminToken })) as Pcn;
        expect(fetched.images.map((i) => i.sha256)).toEqual(pcn.images.map((i) => i.sha256));
      }

      latencies.sort((a, b) => a - b);
      const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
      console.log(
        `soak: ${SOAK_OFFICERS} officers x ${SOAK_SECONDS} s: ${stored.size} PCNs (${stored.size * 4} photos) stored, ` +
          `${failures.length} errors, ${retries} resends after a dropped connection, ${(stored.size / SOAK_SECONDS).toFixed(1)} PCN/s, latency p50 ${at(0.5)} ms p99 ${at(0.99)} ms`,
      );
    },
    60_000 + SOAK_SECONDS * 1000 + SOAK_OFFICERS * 1000,
  );
});
