// `npm run bench:api`: throughput and latency of the API on loopback over 100,000 PCNs, each
// beside the ceiling of a bare Hono route measured in the same run.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import jpeg from 'jpeg-js';
import { root, startProcess, waitForHttp, describeMachine, formatTable } from './bench-utils.ts';
import { seedBenchDatabase } from './seed-bench.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const API_PORT = 8100;
const CEILING_PORT = 8101;

export type ApiBenchRow = { name: string; rps: number; p50: number; p99: number; ratio: number; non2xx: number; errors: number };

/** A real JPEG of about `bytes` bytes: noise compresses poorly, so the size is predictable. */
function makeJpeg(bytes: number): Buffer {
  let side = 400;
  for (;;) {
    const data = Buffer.alloc(side * side * 4);
    for (let i = 0; i < data.length; i += 1) data[i] = (i * 2654435761) >>> 24 ^ (Math.random() * 64);
    const encoded = jpeg.encode({ data, width: side, height: side }, 85).data;
    if (encoded.length >= bytes) return encoded;
    side = Math.ceil(side * Math.sqrt(bytes / encoded.length) * 1.05);
  }
}

async function multipartBody(fields: Record<string, string>, images: Buffer[]) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  images.forEach((img, i) => form.append('images', new Blob([new Uint8Array(img)], { type: 'image/jpeg' }), `photo-${i}.jpg`));
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

async function load(options: autocannon.Options): Promise<autocannon.Result> {
  return autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
}

export async function runApiBench(): Promise<{ rows: ApiBenchRow[]; machine: string }> {
  const dataDir = join(root, 'data', 'bench');
  const seeded = await seedBenchDatabase(dataDir);
  rmSync(join(dataDir, 'uploads'), { recursive: true, force: true });
  const api = startProcess('api/src/server.ts', { PORT: String(API_PORT), DATA_DIR: dataDir, WEB_DIST_DIR: join(dataDir, 'no-web') });
  const ceiling = startProcess('scripts/bench/ceiling-server.ts', { PORT: String(CEILING_PORT) });
  try {
    const base = `http://127.0.0.1:${API_PORT}/api`;
    await Promise.all([waitForHttp(`${base}/health`), waitForHttp(`http://127.0.0.1:${CEILING_PORT}/ceiling`)]);
    const login = async (email: string, password: string) => {
      const res = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      const json = (await res.json()) as { data: { token: string } };
      return json.data.token;
    };
    const officer = await login('officer@example.com', 'officer123');
    const auth = { authorization: `Bearer ${officer}` };
    const carParks = (await (await fetch(`${base}/car-parks`, { headers: auth })).json()) as { data: Array<{ id: string }> };
    const carParkId = carParks.data[0]?.id ?? '';
    const fields = { vehicleRegistration: 'BN12 XYZ', carParkId, offenceType: 'PARKING_WITHOUT_PERMIT', description: 'Benchmark', location: 'Bay 1' };
    const images = [0, 1, 2, 3].map(() => makeJpeg(500 * 1024));
    const upload = await multipartBody(fields, images);
    const first = await fetch(`${base}/pcns`, { method: 'POST', headers: { ...auth, 'content-type': upload.contentType, 'idempotency-key': randomUUID() }, body: upload.body });
    const created = (await first.json()) as { data: { id: string } };

    const runs: Array<[string, autocannon.Options]> = [
      ['ceiling: bare Hono route', { url: `http://127.0.0.1:${CEILING_PORT}/ceiling` }],
      // The design's budget is the median latency of one request: measured alone first, then under load.
      [`GET /api/pcns (page of 10 of ${seeded.pcns}), 1 connection`, { url: `${base}/pcns?page=1&limit=10`, headers: auth, connections: 1 }],
      [`GET /api/pcns (page of 10 of ${seeded.pcns})`, { url: `${base}/pcns?page=1&limit=10`, headers: auth }],
      ['GET /api/pcns?search=BN12 (page of 10)', { url: `${base}/pcns?search=bn12&limit=10`, headers: auth }],
      ['GET /api/pcns/stats', { url: `${base}/pcns/stats`, headers: auth }],
      ['GET /api/pcns/{id}', { url: `${base}/pcns/${created.data.id}`, headers: auth }],
      [
        'POST /api/pcns (4 x 500 KB JPEG)',
        {
          url: `${base}/pcns`,
          method: 'POST',
          connections: 4,
          headers: { ...auth, 'content-type': upload.contentType },
          body: upload.body,
          requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }) }],
        },
      ],
    ];
    const rows: ApiBenchRow[] = [];
    let ceilingRps = 0;
    for (const [name, options] of runs) {
      const result = await load(options);
      if (rows.length === 0) ceilingRps = result.requests.average;
      rows.push({
        name,
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        ratio: ceilingRps ? result.requests.average / ceilingRps : 0,
        non2xx: result.non2xx,
        errors: result.errors,
      });
    }
    return { rows, machine: describeMachine() };
  } finally {
    api.kill('SIGTERM');
    ceiling.kill('SIGTERM');
  }
}

export function formatApiRows(rows: ApiBenchRow[]): string {
  return formatTable(
    ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'of ceiling', 'non-2xx', 'errors'],
    rows.map((r) => [r.name, r.rps, r.p50, r.p99, `${(r.ratio * 100).toFixed(1)}%`, r.non2xx, r.errors]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, machine } = await runApiBench();
  console.log(`API on loopback, ${CONNECTIONS} connections, ${DURATION_S} s each; ${machine}\n`);
  console.log(formatApiRows(rows));
  if (rows.some((r) => r.errors > 0 || r.non2xx > 0)) process.exitCode = 1;
}
