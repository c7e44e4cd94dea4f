import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBenchDatabase } from '../../scripts/bench/seed-bench.ts';
import { freePort } from '../../scripts/test-support.ts';
import { startServerProcess, MEASURED_HEAP, type ServerProcess } from './support/server-process.ts';

/**
 * 100,000 PCNs export as CSV while the server's memory stays flat. The real
 * server runs as a child process on a database seeded with them, with its JavaScript heap capped
 * (MEASURED_HEAP: 96 MB of old space, a small young generation), below what holding the export would take on top of the server's
 * own 50 MB (the 100,000 records and the 18 MB file grow a process by about 80 MB; a buffering export was tried and the server died of it). Its RSS is
 * read from /proc while the download streams in, and must stay within 50 MB of idle; the cap also
 * keeps the garbage collector from letting the heap drift up meanwhile (without it one CI run
 * measured 52 MB of uncollected garbage). MEASURED_HEAP caps the young generation too: with the
 * old space alone capped, Node 24's semi-spaces grew the RSS by 125 MB of short-lived garbage
 * (Node 20: 5 MB; Node 24 with both caps: 23 MB).
 */

const MB = 1024 * 1024;
const ALLOWED_GROWTH = 50 * MB;
let server: ServerProcess;
let dataDir: string;
let pcnCount: number;

/** The server's last lines, to read beside a failure: a refusal or a crash says why there. */
const serverSaid = () => `the server's last lines:\n${server.output.slice(-20).join('\n')}`;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-export-'));
  pcnCount = (await seedBenchDatabase(dataDir)).pcns;
  server = await startServerProcess({ dataDir, port: await freePort(), env: { NODE_OPTIONS: MEASURED_HEAP } });
}, 120_000);

afterAll(async () => {
  await server?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /api/pcns/export.csv over 100,000 PCNs', () => {
  it('streams every row while the server’s memory stays flat', async () => {
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }),
    });
    expect(login.status, serverSaid()).toBe(200);
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    // Warm up every code path of an export, then settle.
    await (await fetch(`${server.baseUrl}/api/pcns/export.csv?search=zzzz`, { headers: { authorization: `Bearer ${token}` } })).text();
    await new Promise((r) => setTimeout(r, 500));
    const pid = server.child.pid!;
    const idle = rssOf(pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
    let lines = 0;
    let bytes = 0;
    const started = Date.now();
    try {
      const res = await fetch(`${server.baseUrl}/api/pcns/export.csv`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, serverSaid()).toBe(200);
      const decoder = new TextDecoder();
      // A CR at the end of a chunk may be the first half of a row's CRLF: it is counted with the next chunk.
      let carried = '';
      // Read as a slow client would not: as fast as it comes, counting rows, keeping nothing.
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        const text = carried + decoder.decode(chunk, { stream: true });
        lines += text.split('\r\n').length - 1;
        carried = text.endsWith('\r') ? '\r' : '';
      }
    } catch (error) {
      // A cut connection says nothing of why: the server's own last lines do.
      throw new Error(`the export broke off after ${bytes} bytes; ${serverSaid()}`, { cause: error });
    } finally {
      clearInterval(sampler);
    }
    console.log(
      `export memory: ${pcnCount} PCNs, ${(bytes / MB).toFixed(1)} MB in ${Date.now() - started} ms, RSS idle ${Math.round(idle / MB)} MB, peak ${Math.round(peak / MB)} MB`,
    );
    expect(lines, serverSaid()).toBe(pcnCount + 1);
    expect(peak - idle).toBeLessThan(ALLOWED_GROWTH);
  }, 120_000);
});
