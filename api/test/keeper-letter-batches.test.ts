import { afterEach, describe, expect, it } from 'vitest';
import { ukDate, type LetterBatch } from '@parkpatrol/shared';
import { freePort } from '../../scripts/test-support.ts';
import { readPdfText } from './support/pdf.ts';
import { LETTER_KEEPER, letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { callServer, startServerProcess, type ServerProcess } from './support/server-process.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * A day's notices to keeper as a job (decision 0047): the request checks and stores the batch;
 * the job makes each letter, keeps it with its notice and counts it; the admin follows the count
 * and downloads the one PDF once it is ready. Killed in the middle, the batch is finished by the
 * next process, each notice with its one letter.
 */

const apps: TestApp[] = [];
const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill('SIGKILL');
  for (const t of apps.splice(0)) await t.close();
});

async function setUp(options: { jobsWaitForTest?: true } = {}) {
  const t = await createTestApp(options);
  apps.push(t);
  const officer = await t.signedInUser('USER');
  const admin = await t.signedInUser('ADMIN', { firstName: 'Bea', lastName: 'Batch' });
  const carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
  await termsSinceLongAgo(t, carParkId);
  const ready = async (count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1)
      ids.push((await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId })).id);
    return ids;
  };
  return { t, admin, ready };
}

async function lettersOf(t: TestApp, pcnIds: readonly string[]) {
  return t.db
    .selectFrom('sent_documents')
    .select(['pcn_id', 'file_name', 'post_on'])
    .where('kind', '=', 'NOTICE_TO_KEEPER')
    .where('pcn_id', 'in', pcnIds)
    .execute();
}

async function download(t: TestApp, admin: Session, batchId: string) {
  const res = await t.app.request(`/api/keeper-notices/batches/${batchId}/file`, { headers: { authorization: `Bearer ${admin.token}` } });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('a batch of notices to keeper', () => {
  it('answers 202 at once, then makes each letter once, keeps it with its notice, and offers the one PDF', async () => {
    const { t, admin, ready } = await setUp({ jobsWaitForTest: true });
    const pcnIds = await ready(3);
    const asked = await t.request('POST', '/keeper-notices/batches', { token: admin.token, json: { pcnIds } });
    expect(asked.status, asked.text).toBe(202);
    const batch = asked.json.data as LetterBatch;
    expect(batch).toMatchObject({ state: 'WAITING', total: 3, made: 0, postOn: ukDate(t.deps.now()), createdByName: 'Bea Batch' });
    // Nothing made while the request waited; the file is not there yet.
    expect(await lettersOf(t, pcnIds)).toEqual([]);
    const early = await download(t, admin, batch.id);
    expect(early.res.status).toBe(409);
    expect(JSON.parse(new TextDecoder().decode(early.bytes))).toMatchObject({
      code: 'CONFLICT',
      message: 'The letters are still being made',
    });

    await t.workJobs();
    await t.deps.jobs.whenIdle();
    const done = (await t.request('GET', `/keeper-notices/batches/${batch.id}`, { token: admin.token })).json.data as LetterBatch;
    expect(done).toMatchObject({ state: 'READY', total: 3, made: 3, error: null });
    expect(done.finishedAt).not.toBeNull();
    const letters = await lettersOf(t, pcnIds);
    expect(letters.map((letter) => letter.pcn_id).sort()).toEqual([...pcnIds].sort());

    const file = await download(t, admin, batch.id);
    expect(file.res.status).toBe(200);
    expect(file.res.headers.get('content-type')).toBe('application/pdf');
    expect(file.res.headers.get('cache-control')).toBe('no-store');
    expect(file.res.headers.get('content-disposition')).toBe(`attachment; filename="notices-to-keeper-${batch.postOn}.pdf"`);
    // The batch's file is its letters' pages in the order chosen.
    const joined = await readPdfText(file.bytes);
    let pages = 0;
    for (const pcnId of pcnIds) {
      const letter = letters.find((row) => row.pcn_id === pcnId)!;
      const own = await readPdfText((await t.deps.evidence.read(letter.file_name))!);
      expect(joined.pages.slice(pages, pages + own.pages.length)).toEqual(own.pages);
      pages += own.pages.length;
    }
    expect(joined.pages).toHaveLength(pages);

    // The letters are dated the day they go, so they can be marked posted that day.
    const posted = await t.request('POST', '/keeper-notices/posted', {
      token: admin.token,
      json: { pcnIds, postedOn: batch.postOn, proofReference: 'PoP-1' },
    });
    expect(posted.status, posted.text).toBe(200);
    const listed = (await t.request('GET', '/keeper-notices/batches', { token: admin.token })).json.data.items as LetterBatch[];
    expect(listed[0]).toMatchObject({ id: batch.id, state: 'READY' });
  });

  it('refuses a batch with a notice that cannot have a letter, naming it, and stores nothing', async () => {
    const { t, admin, ready } = await setUp();
    const [good] = await ready(1);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const asked = await t.request('POST', '/keeper-notices/batches', { token: admin.token, json: { pcnIds: [good, unknown] } });
    expect(asked.status).toBe(422);
    expect(asked.json).toMatchObject({ code: 'KEEPER_NOTICE_REFUSED', details: { [unknown]: 'No such notice' } });
    expect(await t.db.selectFrom('letter_batches').selectAll().execute()).toEqual([]);
    const past = await t.request('POST', '/keeper-notices/batches', { token: admin.token, json: { pcnIds: [good], postOn: '2020-01-01' } });
    expect(past.json).toMatchObject({ code: 'VALIDATION_FAILED', details: { postOn: 'The posting day cannot be in the past' } });
  });

  it('fails with the reason when a notice can no longer have its letter by the time the job runs, and makes none', async () => {
    const { t, admin, ready } = await setUp({ jobsWaitForTest: true });
    const pcnIds = await ready(2);
    const asked = await t.request('POST', '/keeper-notices/batches', { token: admin.token, json: { pcnIds } });
    const batch = asked.json.data as LetterBatch;
    // Meanwhile an admin takes back the vehicle's confirmation against the photos.
    const unconfirmed = await t.request('PUT', `/pcns/${pcnIds[1]}/keeper`, {
      token: admin.token,
      json: { ...LETTER_KEEPER, vehicleConfirmed: false },
    });
    expect(unconfirmed.status, unconfirmed.text).toBe(200);
    await t.workJobs();
    await t.deps.jobs.whenIdle();
    const failed = (await t.request('GET', `/keeper-notices/batches/${batch.id}`, { token: admin.token })).json.data as LetterBatch;
    expect(failed).toMatchObject({ state: 'FAILED', made: 0 });
    expect(failed.error).toMatch(
      /^A notice cannot have a notice to keeper: PCN-\S+ \(The DVLA's vehicle has not been confirmed against the photos\)$/,
    );
    expect(await lettersOf(t, pcnIds)).toEqual([]);
    const file = await download(t, admin, batch.id);
    expect(file.res.status).toBe(409);
  });

  it('killed in the middle of a batch, is finished by the next process: each notice with one letter', async () => {
    const { t, admin, ready } = await setUp({ jobsWaitForTest: true });
    const pcnIds = await ready(12);
    const { dataDir } = await t.handOver();
    const port = await freePort();
    const env: Record<string, string> = { JWT_SECRET: t.config.jwtSecret, APP_URL: t.config.appUrl };
    if (t.config.database.engine === 'postgres') env.DATABASE_URL = t.config.database.url;
    const first = await startServerProcess({ dataDir, port, env });
    servers.push(first);
    const asked = await callServer(first, 'POST', '/keeper-notices/batches', { token: admin.token, json: { pcnIds } });
    expect(asked.status, asked.json.message).toBe(202);
    const batchId = asked.json.data.id as string;
    let seen: LetterBatch;
    for (;;) {
      seen = (await callServer(first, 'GET', `/keeper-notices/batches/${batchId}`, { token: admin.token })).json.data as LetterBatch;
      if (seen.made >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await first.kill('SIGKILL');
    const next = await startServerProcess({ dataDir, port, env });
    servers.push(next);
    const stopped = (await callServer(next, 'GET', `/keeper-notices/batches/${batchId}`, { token: admin.token })).json.data as LetterBatch;
    // The kill came mid-batch, or the test proves nothing.
    expect(stopped.made).toBeLessThan(12);
    // On PostgreSQL the dead process's claim lapses with its heartbeat: about half a minute.
    const deadline = Date.now() + 100_000;
    let done: LetterBatch;
    for (;;) {
      done = (await callServer(next, 'GET', `/keeper-notices/batches/${batchId}`, { token: admin.token })).json.data as LetterBatch;
      if (done.state !== 'WAITING' && done.state !== 'MAKING') break;
      if (Date.now() > deadline) throw new Error(`the batch was not finished: ${JSON.stringify(done)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(done).toMatchObject({ state: 'READY', made: 12, total: 12 });
    const file = await fetch(`${next.baseUrl}/api/keeper-notices/batches/${batchId}/file`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(file.status).toBe(200);
    await next.kill('SIGTERM');
    // Read through a connection of the test's own, once the server has let go of the file.
    const reopened = await createTestApp({ sharingDatabaseOf: { config: { database: t.config.database } } });
    try {
      const letters = await lettersOf(reopened, pcnIds);
      expect(letters.map((letter) => letter.pcn_id).sort()).toEqual([...pcnIds].sort());
    } finally {
      await reopened.close();
    }
  }, 180_000);
});
