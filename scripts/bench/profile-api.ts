// `npm run bench:profile`: where the API spends its CPU on the hot path. Runs the real
// server under `node --cpu-prof` on the bench database (SQLite), loads the authenticated profile
// and the PCN list with autocannon, stops the server so V8 writes its profile, and prints the
// functions with the most self time. The .cpuprofile stays in data/bench-profile/ for Chrome's
// DevTools (Performance > Load profile).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEMO_ACCOUNTS } from '../../api/src/db/seed.ts';
import { UPLOADS_PER_USER } from '../../api/src/services/upload-gate.ts';
import { prepareOfficerLoad, whenQueueEmpty } from './api.ts';
import { loadAutocannon } from './bench-tools.ts';
import type Autocannon from 'autocannon';
import { formatTable, root, waitForHttp } from './bench-utils.ts';
import { seedBenchDatabase } from './seed-bench.ts';

const PORT = 8102;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const TOP = Number(process.env.PROFILE_TOP ?? 15);
const ONLY = process.env.PROFILE_ROUTE;

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

export type ProfileFrame = { name: string; where: string; selfMs: number; share: number };

/**
 * Self time per function (summed over every node of the same function), largest first, over the
 * samples taken `fromMs` or more after the profile started: the server's start-up (migrations,
 * the orphan sweep and retention run over 100,000 notices) is not the hot path.
 */
export function topFrames(profile: CpuProfile, count: number, fromMs = 0): ProfileFrame[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, { name: string; where: string; us: number }>();
  let totalUs = 0;
  let elapsedUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    elapsedUs += delta;
    const node = byId.get(id);
    if (!node || elapsedUs < fromMs * 1000) return;
    const { functionName, url, lineNumber } = node.callFrame;
    totalUs += delta;
    if (functionName === '(idle)' || functionName === '(program)') return;
    const where = url ? `${relative(root, url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
    const key = `${functionName}@${where}`;
    const entry = selfUs.get(key) ?? { name: functionName || '(anonymous)', where, us: 0 };
    entry.us += delta;
    selfUs.set(key, entry);
  });
  const busyUs = [...selfUs.values()].reduce((sum, entry) => sum + entry.us, 0) || totalUs;
  return [...selfUs.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map((entry) => ({ name: entry.name, where: entry.where, selfMs: Math.round(entry.us / 1000), share: entry.us / busyUs }));
}

export async function profileApi(): Promise<{ frames: ProfileFrame[]; file: string; rps: Record<string, number>; loadFromMs: number }> {
  const dataDir = join(root, 'data', 'bench');
  await seedBenchDatabase(dataDir);
  const profileDir = join(root, 'data', 'bench-profile');
  rmSync(profileDir, { recursive: true, force: true });
  mkdirSync(profileDir, { recursive: true });
  const server = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, 'api/src/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, WEB_DIST_DIR: join(dataDir, 'no-web') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const spawnedAt = Date.now();
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const rps: Record<string, number> = {};
  let loadFromMs = 0;
  try {
    const base = `http://127.0.0.1:${PORT}/api`;
    await waitForHttp(`${base}/health`);
    const { auth: headers, upload } = await prepareOfficerLoad(base);
    const admin = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password }),
    });
    const adminHeaders = { authorization: `Bearer ${((await admin.json()) as { data: { token: string } }).data.token}` };
    loadFromMs = Date.now() - spawnedAt;
    const routes: Array<[name: string, key: string, options: Autocannon.Options]> = [
      ['GET /api/users/profile', 'profile', { url: `${base}/users/profile`, headers }],
      ['GET /api/pcns (page of 10, 4 photos each)', 'pcns', { url: `${base}/pcns?page=1&limit=10`, headers }],
      [
        "the keeper-deadline queue (the admin's page of 100)",
        'keeper',
        { url: `${base}/pcns?page=1&limit=100&scope=all&status=APPROVED&sort=deadline&order=asc`, headers: adminHeaders },
      ],
      [
        'POST /api/pcns (4 x 500 KB JPEG)',
        'upload',
        {
          url: `${base}/pcns`,
          method: 'POST',
          headers: { ...headers, 'content-type': upload.contentType },
          body: upload.body,
          requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }) }],
          // One officer may have UPLOADS_PER_USER uploads in flight; an unpinned server lets all ten start at once.
          connections: UPLOADS_PER_USER,
        },
      ],
    ];
    // PROFILE_ROUTE=profile, =pcns, =keeper or =upload profiles one of them alone; by default the two reads.
    for (const [name, , options] of routes.filter(([, key]) => (ONLY ? key === ONLY : key !== 'upload' && key !== 'keeper'))) {
      const result = await loadAutocannon()({ connections: 10, ...options, duration: SECONDS });
      rps[name] = Math.round(result.requests.average);
      // A refused request (429, 503) is cheap and would make the profile one of refusals.
      if (result.non2xx > 0) throw new Error(`profile: ${name} answered ${result.non2xx} requests outside 2xx`);
    }
    // PROFILE_JOBS=1: the profile goes on until the jobs the load left (an upload's thumbnails and
    // notice to driver, which wait for the answers: decision 0050) are done.
    if (process.env.PROFILE_JOBS) await whenQueueEmpty(join(dataDir, 'parkpatrol.sqlite'));
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile written in ${profileDir}`);
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
  return { frames: topFrames(profile, TOP, loadFromMs), file: join(profileDir, file), rps, loadFromMs };
}

export function formatFrames(frames: ProfileFrame[]): string {
  return formatTable(
    ['function', 'where', 'self ms', 'share of busy'],
    frames.map((frame) => [frame.name, frame.where, frame.selfMs, `${(frame.share * 100).toFixed(1)}%`]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { frames, file, rps, loadFromMs } = await profileApi();
  console.log(
    `Throughput while profiled (10 connections, uploads ${UPLOADS_PER_USER}, ${SECONDS} s each): ${Object.entries(rps)
      .map(([name, value]) => `${name} ${value} req/s`)
      .join('; ')}`,
  );
  console.log(`Top ${frames.length} functions by self time from ${loadFromMs} ms on, once the server was up (${relative(root, file)}):\n`);
  console.log(formatFrames(frames));
}
