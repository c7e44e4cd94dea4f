import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type Pcn } from '@parkpatrol/shared';
import { DEMO_ACCOUNTS } from '../src/db/seed.ts';
import { makeJpeg } from './fixtures.ts';
import { createPostgresDatabase, type PostgresDatabase } from './support/postgres-database.ts';
import { useS3Server, type S3Server } from './support/s3-server.ts';
import { freePort } from '../../scripts/test-support.ts';
import { callServer, startServerProcess, type ServerProcess } from './support/server-process.ts';
import { ON_POSTGRES } from './test-app.ts';

/**
 * Two real API processes on one PostgreSQL database and one S3-compatible
 * bucket, as an operator runs them behind a load balancer. Whatever one process knows (a
 * notice, its photos, an Idempotency-Key, a PCN number, a failed password) the other must know
 * too. Runs in the PostgreSQL pass (`npm run test:postgres`), which provides both servers.
 */
describe.skipIf(!ON_POSTGRES)('two API processes on PostgreSQL and S3', () => {
  let database: PostgresDatabase;
  let s3: S3Server;
  const servers: ServerProcess[] = [];
  const dataDirs: string[] = [];
  let one: ServerProcess;
  let other: ServerProcess;

  beforeAll(async () => {
    [database, s3] = await Promise.all([createPostgresDatabase(process.env.TEST_POSTGRES_URL!), useS3Server()]);
    const env = {
      ...s3.env,
      DATABASE_URL: database.url,
      EVIDENCE_STORE: `s3://${s3.env.S3_BUCKET}/two-processes-${randomUUID().slice(0, 8)}`,
    };
    // Both start at once on the empty database: the migrations and the demo seed must cope.
    const ports = [await freePort(), await freePort()];
    const started = await Promise.all(
      ports.map((port) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-two-'));
        dataDirs.push(dataDir);
        return startServerProcess({ dataDir, port, env });
      }),
    );
    servers.push(...started);
    [one, other] = started as [ServerProcess, ServerProcess];
  }, 180_000);

  afterAll(async () => {
    for (const server of servers) await server.kill('SIGTERM');
    await database?.drop();
    await s3?.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  async function signIn(server: ServerProcess, account: { email: string; password: string }): Promise<string> {
    const res = await callServer(server, 'POST', '/auth/login', { json: { email: account.email, password: account.password } });
    expect(res.status, res.json.message).toBe(200);
    return res.json.data.token as string;
  }

  function noticeForm(carParkId: string, registration: string, photos: Uint8Array[]): FormData {
    const form = new FormData();
    form.append('vehicleRegistration', registration);
    form.append('noticeServedBy', 'AFFIXED');
    form.append('carParkId', carParkId);
    form.append('offenceType', 'PARKING_WITHOUT_PERMIT');
    form.append('location', 'Bay 7');
    form.append('description', 'Two processes');
    photos.forEach((photo, index) => form.append('images', new Blob([photo], { type: 'image/jpeg' }), `photo-${index}.jpg`));
    return form;
  }

  /** Files a notice as the phone's outbox does: a busy answer (429/503) waits Retry-After and sends again. */
  async function file(
    server: ServerProcess,
    token: string,
    key: string,
    form: () => FormData,
  ): Promise<{ status: number; replayed: boolean; pcn: Pcn }> {
    for (;;) {
      const res = await fetch(`${server.baseUrl}/api/pcns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, [IDEMPOTENCY_KEY_HEADER]: key },
        body: form(),
      });
      const json = (await res.json()) as { data: Pcn; message?: string };
      if (res.status === 429 || res.status === 503) {
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      expect(res.status, json.message).toBe(201);
      return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', pcn: json.data };
    }
  }

  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  it('reads through one process, with its photos, a PCN filed through the other', async () => {
    const token = await signIn(one, DEMO_ACCOUNTS.officer);
    const carParkId = (await callServer(one, 'GET', '/car-parks', { token })).json.data[0].id as string;
    const photos = [1, 2, 3, 4].map((seed) => makeJpeg(seed, 48));
    const filed = await file(one, token, randomUUID(), () => noticeForm(carParkId, 'TP01 ONE', photos));

    // The access token one process signed is good at the other (one JWT_SECRET), and so are the
    // photo URLs it handed out.
    const read = await callServer(other, 'GET', `/pcns/${filed.pcn.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.json.data.pcnNumber).toBe(filed.pcn.pcnNumber);
    const images = read.json.data.images as Array<{ url: string }>;
    expect(images).toHaveLength(4);
    const served = await Promise.all(
      images.map(async (image) => {
        const res = await fetch(new URL(image.url, other.baseUrl));
        expect(res.status).toBe(200);
        return sha256(new Uint8Array(await res.arrayBuffer()));
      }),
    );
    expect(served.sort()).toEqual(photos.map(sha256).sort());
  });

  it('makes one PCN when the same Idempotency-Key reaches both processes at once', async () => {
    const token = await signIn(other, DEMO_ACCOUNTS.officer);
    const carParkId = (await callServer(other, 'GET', '/car-parks', { token })).json.data[0].id as string;
    const photos = [5, 6, 7, 8].map((seed) => makeJpeg(seed, 48));
    for (let round = 0; round < 3; round += 1) {
      const key = randomUUID();
      const answers = await Promise.all(
        [one, other].map((server) => file(server, token, key, () => noticeForm(carParkId, `TP0${round} KEY`, photos))),
      );
      expect(answers[0]!.pcn.id).toBe(answers[1]!.pcn.id);
      expect(answers.filter((answer) => answer.replayed)).toHaveLength(1);
      const search = await callServer(one, 'GET', `/pcns?search=${encodeURIComponent(`TP0${round} KEY`)}`, { token });
      expect(search.json.data.pcns.map((pcn: Pcn) => pcn.id)).toEqual([answers[0]!.pcn.id]);
    }
  });

  it('gives 20 concurrent creates across both processes 20 distinct, gapless numbers', async () => {
    const tokens = await Promise.all([signIn(one, DEMO_ACCOUNTS.officer), signIn(other, DEMO_ACCOUNTS.officer)]);
    const carParkIds = await Promise.all(
      [one, other].map(
        async (server, index) => (await callServer(server, 'GET', '/car-parks', { token: tokens[index] })).json.data[0].id as string,
      ),
    );
    const photos = [9, 10].map((seed) => makeJpeg(seed, 32));
    const filed = await Promise.all(
      Array.from({ length: 20 }, (_, index) => {
        const side = index % 2;
        return file([one, other][side]!, tokens[side]!, randomUUID(), () =>
          noticeForm(carParkIds[side]!, `TP20 ${String(index).padStart(3, '0')}`, photos),
        );
      }),
    );
    const numbers = filed.map((answer) => answer.pcn.pcnNumber);
    expect(new Set(numbers).size).toBe(20);
    const sequences = numbers.map((number) => Number(number.replace(/\D/g, ''))).sort((a, b) => a - b);
    expect(sequences.at(-1)! - sequences[0]!).toBe(19);
  });

  it('counts failed sign-ins made through both processes against one limit', async () => {
    const wrong = { email: DEMO_ACCOUNTS.admin.email, password: 'not-the-password' };
    const attempt = (server: ServerProcess) => callServer(server, 'POST', '/auth/login', { json: wrong });
    // One typo each costs nothing; from the second failure on, the next guess must wait, on
    // whichever process it arrives. Each process alone has seen only one failure.
    expect((await attempt(one)).status).toBe(401);
    expect((await attempt(other)).status).toBe(401);
    expect((await attempt(one)).status).toBe(429);
    expect((await attempt(other)).status).toBe(429);
  });
});
