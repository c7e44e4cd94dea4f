// `npm run bench:letters`: a large operator's day of notices to keeper, made as one batch by the
// job queue (decision 0047). Files BENCH_LETTERS notices (default 2,000) through the real API on
// a fresh SQLite database, each served 35 days ago under terms in force since 2020, approves them
// and enters each keeper, then asks for one batch and measures how long the request takes to
// answer and how long until the batch's PDF is ready. Budget: ready within 120 s.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { COLLECTION_SETTING_DEFAULTS, type LetterBatch, type OperatorTerms } from '@parkpatrol/shared';
import { migrateToLatest, openDatabase } from '../../api/src/db/database.ts';
import { DEMO_ACCOUNTS, seedDemoData } from '../../api/src/db/seed.ts';
import { insertCarParkTerms, insertOperatorTerms } from '../../api/src/repositories/terms.ts';
import { makeJpeg, multipartBody } from './api.ts';
import { describeMachine, formatTable, root, startProcess, waitForHttp } from './bench-utils.ts';

const COUNT = Number(process.env.BENCH_LETTERS ?? 2000);
const PORT = 8104;
const BUDGET_S = 120;
/** The officer's uploads in flight at once (the server's per-user cap). */
const IN_FLIGHT = 4;
const DAY_MS = 24 * 60 * 60 * 1000;
const LONG_AGO = '2020-01-01T00:00:00.000Z';

/** The demo database with terms in force since 2020 at its first car park, so notices dated 35 days ago were issued under them. */
async function prepareDatabase(dataDir: string): Promise<string> {
  mkdirSync(dataDir, { recursive: true });
  const { db } = openDatabase(join(dataDir, 'parkpatrol.sqlite'));
  await migrateToLatest(db);
  await seedDemoData(db);
  // The demo officer's first car park.
  const carPark = await db.selectFrom('car_parks').select('id').where('site_code', '=', 'RRP01').executeTakeFirstOrThrow();
  const actor = { id: null, name: 'Benchmark set-up' };
  const operator: OperatorTerms = {
    creditorName: 'Bench Parking Ltd',
    creditorAddress: 'PO Box 1\nLeeds\nLS1 1AA',
    creditorPhone: '0113 496 0000',
    creditorEmail: 'charges@bench.example',
    creditorWebsite: 'https://bench.example/charge',
    howToPay: 'Online at bench.example/pay, quoting the charge reference.',
    appealsService: 'POPLA',
    appealsServiceContact: 'POPLA, PO Box 1270, Warrington WA4 9RL',
    ...COLLECTION_SETTING_DEFAULTS,
  };
  await insertOperatorTerms(db, { terms: operator, changes: {}, actor, now: LONG_AGO });
  const carParkTerms = {
    chargePence: 10000,
    reducedChargePence: 6000,
    reducedWithinDays: 14,
    signageTerms: 'Permit holders only. Parking charge £100.',
    jurisdiction: 'ENGLAND_AND_WALES' as const,
  };
  await db
    .updateTable('car_parks')
    .set({ charge_pence: 10000, reduced_charge_pence: 6000, reduced_within_days: 14, signage_terms: carParkTerms.signageTerms })
    .where('id', '=', carPark.id)
    .execute();
  await insertCarParkTerms(db, {
    carParkId: carPark.id,
    terms: { ...carParkTerms, minimumsOverrideReason: null, relevantLand: true },
    changes: {},
    actor,
    now: LONG_AGO,
  });
  await db.destroy();
  return carPark.id;
}

async function call(base: string, method: string, path: string, init: { token: string; json?: unknown }) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${init.token}`, ...(init.json !== undefined && { 'content-type': 'application/json' }) },
    ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
  });
  const body = (await res.json()) as { data: any; message?: string };
  if (res.status >= 300) throw new Error(`bench: ${method} ${path} answered ${res.status}: ${body.message}`);
  return body.data;
}

async function signIn(base: string, account: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** Runs `task` over the items with `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

export async function benchLetterBatch() {
  const dataDir = join(root, 'data', 'bench-letters');
  rmSync(dataDir, { recursive: true, force: true });
  const carParkId = await prepareDatabase(dataDir);
  const server = startProcess('api/src/server.ts', { PORT: String(PORT), DATA_DIR: dataDir, WEB_DIST_DIR: join(dataDir, 'no-web') });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  try {
    const base = `http://127.0.0.1:${PORT}/api`;
    await waitForHttp(`${base}/health`);
    const officer = await signIn(base, DEMO_ACCOUNTS.officer);
    const admin = await signIn(base, DEMO_ACCOUNTS.admin);
    const servedAt = new Date(Date.now() - 35 * DAY_MS).toISOString();
    const photos = [0, 1, 2, 3].map(() => makeJpeg(20 * 1024));

    const seedStarted = performance.now();
    const ids: string[] = [];
    await inParallel(
      Array.from({ length: COUNT }, (_, index) => index),
      IN_FLIGHT,
      async (index) => {
        const form = await multipartBody(
          {
            vehicleRegistration: `BL${String(index).padStart(4, '0')}X`,
            carParkId,
            offenceType: 'PARKING_WITHOUT_PERMIT',
            description: 'Letters benchmark',
            location: 'Bay 1',
            observedAt: servedAt,
            issuedAt: servedAt,
            noticeServedBy: 'AFFIXED',
            noticeServedAt: servedAt,
          },
          photos,
        );
        const res = await fetch(`${base}/pcns`, {
          method: 'POST',
          headers: { authorization: `Bearer ${officer}`, 'content-type': form.contentType, 'idempotency-key': randomUUID() },
          body: form.body,
        });
        if (res.status !== 201) throw new Error(`bench: filing answered ${res.status}: ${await res.text()}`);
        ids.push(((await res.json()) as { data: { id: string } }).data.id);
      },
    );
    for (const status of ['UNDER_REVIEW', 'APPROVED']) {
      for (let start = 0; start < ids.length; start += 1000) {
        await call(base, 'POST', '/pcns/bulk-status', { token: admin, json: { status, pcnIds: ids.slice(start, start + 1000) } });
      }
    }
    const keeper = {
      title: 'Ms',
      firstNames: 'Kira',
      lastName: 'Keeper',
      companyName: '',
      addressLines: ['12 Acacia Avenue', 'Headingley', 'Leeds'],
      postcode: 'LS6 3AA',
      make: 'Ford',
      model: 'Focus',
      colour: 'Blue',
      vehicleConfirmed: true,
    };
    await inParallel(ids, IN_FLIGHT, async (id) => void (await call(base, 'PUT', `/pcns/${id}/keeper`, { token: admin, json: keeper })));
    const seedS = (performance.now() - seedStarted) / 1000;
    // The day's thumbnails were made as the notices came in; here they are queued ahead of the
    // batch on the in-process queue, one job at a time. The batch is measured once they are done.
    const queue = new SQLite(join(dataDir, 'parkpatrol.sqlite'), { readonly: true });
    const waiting = queue.prepare("select count(*) as n from job_queue where state in ('created', 'active')");
    while ((waiting.get() as { n: number }).n > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    queue.close();

    const askedAt = performance.now();
    const batch = (await call(base, 'POST', '/keeper-notices/batches', { token: admin, json: { pcnIds: ids } })) as LetterBatch;
    const answerMs = performance.now() - askedAt;
    let seen = batch;
    while (seen.state === 'WAITING' || seen.state === 'MAKING') {
      await new Promise((resolve) => setTimeout(resolve, 250));
      seen = (await call(base, 'GET', `/keeper-notices/batches/${batch.id}`, { token: admin })) as LetterBatch;
    }
    const readyS = (performance.now() - askedAt) / 1000;
    if (seen.state !== 'READY') throw new Error(`bench: the batch failed: ${seen.error}`);
    const file = await fetch(`${base}/keeper-notices/batches/${batch.id}/file`, { headers: { authorization: `Bearer ${admin}` } });
    const pdfBytes = (await file.arrayBuffer()).byteLength;
    const databaseBytes = statSync(join(dataDir, 'parkpatrol.sqlite')).size;
    return { count: ids.length, seedS, answerMs, readyS, pdfBytes, databaseBytes };
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchLetterBatch();
  console.log(`A batch of notices to keeper on SQLite (server unpinned); ${describeMachine()}\n`);
  console.log(
    formatTable(
      ['notices', 'seeded through the API', 'request answered', 'batch ready', 'budget', 'one PDF', 'database'],
      [
        [
          result.count,
          `${result.seedS.toFixed(0)} s`,
          `${result.answerMs.toFixed(0)} ms`,
          `${result.readyS.toFixed(1)} s`,
          `<= ${BUDGET_S} s`,
          `${(result.pdfBytes / 1024 / 1024).toFixed(1)} MB`,
          `${(result.databaseBytes / 1024 / 1024).toFixed(1)} MB`,
        ],
      ],
    ),
  );
  if (result.readyS > BUDGET_S) process.exitCode = 1;
}
