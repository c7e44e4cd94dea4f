// `npm run bench:scale`: a large operator's year on PostgreSQL. Seeds a throwaway PostgreSQL
// (scripts/services/postgres.mjs, its stock settings) with BENCH_SCALE_PCNS notices (default
// 2,000,000) and four photo rows each (rows, not files), in batches of 100,000 written by the
// database itself (INSERT ... SELECT over generate_series), then starts the real API on it and
// loads, at 10 connections, the admin's screens that read across every notice. Budgets: p95 <= 50
// ms for pages, <= 100 ms for searches and stats. autocannon reports no p95, so it is counted here
// from every response's time. Records the seed's time and the database's size.
//
// The load runs twice: against one API process, and against BENCH_SCALE_API_PROCESSES (default
// 2), the connections shared among them as a load balancer in front of several processes shares
// them (docs/operations.md: an operator this size runs PostgreSQL so that it can run several).
// The budgets are judged on the second.
import { join } from 'node:path';
import { sql } from 'kysely';
import { OFFENCE_TYPES, PCN_STATUSES } from '@parkpatrol/shared';
import { connectDatabase, migrateToLatest } from '../../api/src/db/database.ts';
import { DEMO_ACCOUNTS, seedDemoData } from '../../api/src/db/seed.ts';
import { loadAutocannon } from './bench-tools.ts';
import { describeMachine, formatTable, root, startProcess, waitForHttp } from './bench-utils.ts';
// @ts-expect-error: a plain .mjs script without types; it starts a throwaway PostgreSQL on loopback.
import { start as startPostgres } from '../services/postgres.mjs';

const PCNS = Number(process.env.BENCH_SCALE_PCNS ?? 2_000_000);
const BATCH = 100_000;
const PHOTOS_PER_PCN = 4;
const PORT = 8106;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;
const API_PROCESSES = Number(process.env.BENCH_SCALE_API_PROCESSES ?? 2);
/** What Chromium sends as Accept-Encoding. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

type Row = { name: string; rps: number; p50: number; p95: number; p975: number; budget: number; non2xx: number };

type Autocannon = ReturnType<typeof loadAutocannon>;

/**
 * Runs of autocannon against each base at once, the connections shared among them, and the
 * percentiles of every response's time, which its result does not give. Each response is
 * reported to the run's 'response' listeners with the client first (the package's types leave
 * the client out).
 */
async function loadAcross(
  bases: readonly string[],
  path: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<{ rps: number; non2xx: number; p50: number; p95: number; p975: number }> {
  const times: number[] = [];
  const results = await Promise.all(
    bases.map((base, i) => {
      // 10 connections over 3 processes: 4, 3 and 3.
      const connections = Math.floor(CONNECTIONS / bases.length) + (i < CONNECTIONS % bases.length ? 1 : 0);
      const run = loadAutocannon()({ url: `${base}${path}`, headers, connections, duration: seconds }) as ReturnType<Autocannon> & {
        on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): void;
      };
      run.on('response', (_client, _statusCode, _bytes, ms) => times.push(ms));
      return run;
    }),
  );
  times.sort((a, b) => a - b);
  const percentile = (share: number) => Math.round(times[Math.max(0, Math.ceil(times.length * share) - 1)] ?? 0);
  return {
    rps: Math.round(results.reduce((sum, result) => sum + result.requests.average, 0)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    p50: percentile(0.5),
    p95: percentile(0.95),
    p975: percentile(0.975),
  };
}

/**
 * The notices, numbered from 1: a plate, a car park, an offence and a status drawn from the number,
 * spread over the last year; each with its summary of its photos as the API keeps it (photo 1 first).
 */
export async function seed(url: string): Promise<{ seconds: number; bytes: number; plate: string; reference: string }> {
  const { db, close } = connectDatabase({ engine: 'postgres', url });
  await migrateToLatest(db);
  await seedDemoData(db);
  const started = performance.now();
  const carParks = (await db.selectFrom('car_parks').select('id').orderBy('site_code').execute()).map((row) => row.id);
  const officers = (await db.selectFrom('users').select('id').where('role', '=', 'USER').orderBy('email').execute()).map((row) => row.id);
  const letters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
  const plateOf = sql<string>`
    substr(${letters}::text, (s % 23) + 1, 1) || substr(${letters}::text, ((s / 23) % 23) + 1, 1) || lpad(((s / 529) % 100)::text, 2, '0')
    || substr(${letters}::text, ((s / 52900) % 23) + 1, 1) || substr(${letters}::text, ((s * 7) % 23) + 1, 1) || substr(${letters}::text, ((s * 11) % 23) + 1, 1)`;
  for (let from = 1; from <= PCNS; from += BATCH) {
    const to = Math.min(PCNS, from + BATCH - 1);
    await sql`
      insert into pcns (id, sequence, pcn_number, vehicle_registration, car_park_id, offence_type, description, location, status,
                        observed_at, created_by, idempotency_key, created_at, updated_at, issued_at, keeper_post_by,
                        photo_count, first_photo_file_name)
      select id, s, lpad(s::text, 8, '0'), ${plateOf},
             (${sql.val(carParks)}::text[])[(s % ${carParks.length}) + 1],
             (${sql.val([...OFFENCE_TYPES])}::text[])[(s % ${OFFENCE_TYPES.length}) + 1],
             'Benchmark notice', 'Bay ' || (s % 400),
             (${sql.val([...PCN_STATUSES])}::text[])[((s * 13) % ${PCN_STATUSES.length}) + 1],
             at, (${sql.val(officers)}::text[])[(s % ${officers.length}) + 1], gen_random_uuid()::text, at, at, at,
             (at + interval '56 days')::date,
             ${PHOTOS_PER_PCN}, md5(id || 1) || '.jpg'
      from generate_series(${from}::int, ${to}::int) as s,
           lateral (select now() - interval '365 days' + (s::double precision / ${PCNS}) * interval '365 days' as at,
                           gen_random_uuid()::text as id) as t`.execute(db);
    await sql`
      insert into pcn_images (id, pcn_id, file_name, mime_type, size, sha256, created_at)
      select gen_random_uuid()::text, p.id, md5(p.id || n) || '.jpg', 'image/jpeg', 500000, encode(sha256((p.id || n)::bytea), 'hex'), p.created_at
      from pcns p, generate_series(1, ${PHOTOS_PER_PCN}) as n
      where p.sequence between ${from} and ${to}
      order by p.sequence, n`.execute(db);
    process.stderr.write(`bench: seeded ${to} of ${PCNS} notices\n`);
  }
  // As a year's tables stand, vacuumed many times over: left to autovacuum, the bulk load's first
  // vacuum (ten million rows) ran through the measurements and the searches measured it.
  await sql`vacuum analyze`.execute(db);
  const seconds = (performance.now() - started) / 1000;
  const { rows } = await sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(db);
  const sample = await db
    .selectFrom('pcns')
    .select(['vehicle_registration', 'pcn_number'])
    .where('sequence', '=', Math.floor(PCNS / 2))
    .executeTakeFirstOrThrow();
  await close();
  return { seconds, bytes: Number(rows[0]!.bytes), plate: sample.vehicle_registration, reference: `PCN-${sample.pcn_number}` };
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

type Run = { processes: number; rows: Row[] };

export async function benchScale(): Promise<{ seeded: Awaited<ReturnType<typeof seed>>; runs: Run[] }> {
  const postgres = (await startPostgres()) as { env: { DATABASE_URL: string }; stop: () => Promise<void> };
  try {
    const seeded = await seed(postgres.env.DATABASE_URL);
    const servers: Array<{ base: string; stop: () => Promise<unknown> }> = [];
    try {
      // One after another: each migrates (nothing left to do) and sweeps on its own start.
      for (let i = 0; i < Math.max(1, API_PROCESSES); i++) {
        const dataDir = join(root, 'data', `bench-scale-${i + 1}`);
        const server = startProcess('api/src/server.ts', {
          PORT: String(PORT + i),
          DATA_DIR: dataDir,
          DATABASE_URL: postgres.env.DATABASE_URL,
          JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
          WEB_DIST_DIR: join(dataDir, 'no-web'),
          // The seed's closed notices are up to a year old: the retention run would remove their photos while measured.
          EVIDENCE_RETENTION_DAYS: '3650',
        });
        const exited = new Promise((resolve) => server.once('exit', resolve));
        servers.push({
          base: `http://127.0.0.1:${PORT + i}/api`,
          stop: () => {
            server.kill('SIGTERM');
            return exited;
          },
        });
        await waitForHttp(`${servers[i]!.base}/health`, 600_000);
      }
      // As the admin's browser asks: with its token, and for a compressed answer (http/respond.ts).
      const headers = { authorization: `Bearer ${await signIn(servers[0]!.base)}`, 'accept-encoding': BROWSER_ACCEPT_ENCODING };
      const routes: Array<[string, string, number]> = [
        // As Manage PCNs asks: everyone's notices (scope=all), not the admin's own.
        ["the admin's first page: GET /api/pcns (page of 10)", '/pcns?page=1&limit=10&scope=all', 50],
        ['search by registration', `/pcns?page=1&limit=10&scope=all&search=${encodeURIComponent(seeded.plate)}`, 100],
        ['search by reference', `/pcns?page=1&limit=10&scope=all&search=${encodeURIComponent(seeded.reference)}`, 100],
        ['stats: GET /api/pcns/stats', '/pcns/stats?scope=all', 100],
        [
          'keeper-deadline queue (approved, nearest last posting day first)',
          '/pcns?page=1&limit=100&scope=all&status=APPROVED&sort=deadline&order=asc',
          50,
        ],
        ['appeals queue: GET /api/appeals (page of 10)', '/appeals?page=1&limit=10', 50],
      ];
      const runs: Run[] = [];
      for (const processes of [...new Set([1, servers.length])]) {
        const bases = servers.slice(0, processes).map((server) => server.base);
        const rows: Row[] = [];
        for (const [name, path, budget] of routes) {
          // A list or search that finds nothing measures nothing: each must find notices.
          if (path.startsWith('/pcns?')) {
            const found = (await (await fetch(`${bases[0]}${path}`, { headers })).json()) as { data: { pcns: unknown[] } };
            if (found.data.pcns.length === 0) throw new Error(`bench: ${name} found nothing (${path})`);
          }
          // A second of the same load first, not counted: the servers' and the database's caches warm as in a day's use.
          await loadAcross(bases, path, headers, 1);
          rows.push({ name, budget, ...(await loadAcross(bases, path, headers, SECONDS)) });
        }
        runs.push({ processes, rows });
      }
      return { seeded, runs };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  } finally {
    await postgres.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { seeded, runs } = await benchScale();
  console.log(
    `PostgreSQL over ${PCNS.toLocaleString('en-GB')} notices and ${(PCNS * PHOTOS_PER_PCN).toLocaleString('en-GB')} photo rows: seeded in ${seeded.seconds.toFixed(0)} s, database ${(seeded.bytes / 1024 ** 3).toFixed(2)} GiB; ${CONNECTIONS} connections, ${SECONDS} s each, servers unpinned; ${describeMachine()}\n`,
  );
  const judged = runs[runs.length - 1]!;
  for (const run of runs) {
    const isJudged = run === judged;
    console.log(
      `${run.processes} API process${run.processes === 1 ? '' : 'es'}, the ${CONNECTIONS} connections shared among them${isJudged ? ' (the budgets are judged here)' : ''}:\n`,
    );
    console.log(
      formatTable(
        ['screen', 'req/s', 'p50 ms', 'p95 ms', 'p97.5 ms', 'budget (p95)', 'non-2xx'],
        run.rows.map((row) => [
          row.name,
          row.rps,
          row.p50,
          row.p95,
          row.p975,
          `<= ${row.budget} ms${row.p95 > row.budget ? (isJudged ? ' (missed)' : ' (over)') : ''}`,
          row.non2xx,
        ]),
      ),
    );
    console.log('');
  }
  if (runs.some((run) => run.rows.some((row) => row.non2xx > 0)) || judged.rows.some((row) => row.p95 > row.budget)) process.exitCode = 1;
}
