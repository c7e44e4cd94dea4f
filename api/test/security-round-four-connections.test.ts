import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_POLICY } from '../src/auth/sign-in-limiter.ts';
import { loadConfig } from '../src/config.ts';
import { DEMO_ACCOUNTS } from '../src/db/seed.ts';
import { limitHttpServer } from '../src/http/body-deadline.ts';
import { CONNECTION_LIMITS } from '../src/http/connection-limits.ts';
import { ACCESS_LINK_FAILURES_PER_ADDRESS, RESET_REQUESTS_PER_ADDRESS } from '../src/workflows/auth-limits.ts';
import { CLIENT_ERRORS_PER_ADDRESS } from '../src/workflows/report-client-error.ts';
import { listen, postFrom } from './support/loopback.ts';
import { createPostgresDatabase, type PostgresDatabase } from './support/postgres-database.ts';
import { freePort } from '../../scripts/test-support.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { createTestApp, ON_POSTGRES, type TestApp } from './test-app.ts';

/**
 * The fourth outside attack: one host holding every connection the server had (and so shutting
 * everyone else out), and IPv6 clients getting a fresh rate-limit bucket per address of their
 * /64. Each test failed before its fix. Linux routes all of 127.0.0.0/8 to the loopback device,
 * so 127.0.0.2, 127.0.0.3 ... are distinct client addresses here.
 */

/** A group of raw connections from one address, each an idle keep-alive slot: how many are still open. */
type IdleConnections = { open: () => number; destroy: () => void };

/**
 * Connections that send nothing, or (`afterOneRequest`) that ask for /api/health with keep-alive,
 * read the answer and then send nothing more: idle either way.
 */
async function openIdleConnections(
  port: number,
  localAddress: string,
  count: number,
  options: { afterOneRequest?: boolean } = {},
): Promise<IdleConnections> {
  const sockets: Socket[] = [];
  let closed = 0;
  // In batches, so the listen backlog never overflows into SYN retries (a second each).
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, () => connect({ port, host: '127.0.0.1', localAddress }));
    sockets.push(...batch);
    await Promise.all(
      batch.map(
        (socket) =>
          new Promise<void>((resolve) => {
            socket.once('close', () => {
              closed++;
              resolve();
            });
            socket.on('error', () => undefined);
            if (options.afterOneRequest) {
              socket.once('connect', () => socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'));
              socket.once('data', () => resolve());
            } else {
              socket.once('connect', () => resolve());
            }
            socket.resume();
          }),
      ),
    );
  }
  await settled(() => closed);
  return { open: () => sockets.length - closed, destroy: () => sockets.forEach((socket) => socket.destroy()) };
}

/** Connections from one address, each having sent a request's headers and part of its body: requests in flight. */
async function openSlowUploads(port: number, localAddress: string, count: number): Promise<IdleConnections> {
  const sockets: Socket[] = [];
  let closed = 0;
  await Promise.all(
    Array.from({ length: count }, () => {
      const socket = connect({ port, host: '127.0.0.1', localAddress });
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => closed++);
      socket.resume();
      return new Promise<void>((resolve) =>
        socket.once('connect', () => {
          const head = ['POST /api/client-errors HTTP/1.1', 'Host: 127.0.0.1', 'Content-Type: application/json', 'Content-Length: 10000'];
          socket.write(`${head.join('\r\n')}\r\n\r\n{"message":"`, () => resolve());
        }),
      );
    }),
  );
  await settled(() => closed);
  return { open: () => sockets.length - closed, destroy: () => sockets.forEach((socket) => socket.destroy()) };
}

/** Waits until `read()` has not changed for 300 ms (the server has finished closing what it closes), or 5 s. */
async function settled(read: () => number): Promise<void> {
  const giveUpAt = Date.now() + 5_000;
  let last = read();
  let stableSince = Date.now();
  while (Date.now() - stableSince < 300 && Date.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = read();
    if (now !== last) [last, stableSince] = [now, Date.now()];
  }
}

/** GET over a connection of its own from `localAddress`: its status, or the error if the server dropped it. */
function getFrom(baseUrl: string, path: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}/api${path}`, { localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** This process's soft limit on open files (each socket is one), from Linux's /proc. */
function softOpenFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((row) => row.startsWith('Max open files'));
  const soft = line?.split(/\s{2,}/)[1];
  return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft);
}

describe('security, round four: one host against everyone (N6)', () => {
  let server: ServerProcess;
  let dataDir: string;
  let database: PostgresDatabase | undefined;

  beforeAll(async () => {
    // This process holds up to 1,100 sockets at once (the unfixed server kept 1,000 of them open).
    const openFiles = softOpenFileLimit();
    if (openFiles < 1_500) throw new Error(`ulimit -n is ${openFiles}: this test needs 1,500 open files (raise it with ulimit -n)`);
    dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-connections-'));
    database = ON_POSTGRES ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL!) : undefined;
    // The server as `npm start` runs it: no connection settings of its own.
    server = await startServerProcess({ dataDir, port: await freePort(), env: database ? { DATABASE_URL: database.url } : {} });
  }, 60_000);
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("1,100 idle connections from one address: the server holds only that address's share, and another address checks health and signs in", async () => {
    const port = Number(new URL(server.baseUrl).port);
    const attack = await openIdleConnections(port, '127.0.0.2', 1_100, { afterOneRequest: true });
    try {
      expect(await getFrom(server.baseUrl, '/health', '127.0.0.3')).toBe(200);
      const { email, password } = DEMO_ACCOUNTS.officer;
      const signedIn = await postFrom(server.baseUrl, '/auth/login', { email, password }, { localAddress: '127.0.0.3' });
      expect(signedIn.status).toBe(200);
      expect(attack.open()).toBe(CONNECTION_LIMITS.perAddress);
      // The attacker's own next connection is the one refused.
      await expect(getFrom(server.baseUrl, '/health', '127.0.0.2')).rejects.toThrow();
    } finally {
      attack.destroy();
    }
  }, 30_000);

  it('1,100 idle connections from eleven addresses fill the server: they end with even shares, and a new address still gets in', async () => {
    const port = Number(new URL(server.baseUrl).port);
    const hosts: IdleConnections[] = [];
    try {
      for (let host = 10; host <= 20; host++) hosts.push(await openIdleConnections(port, `127.0.0.${host}`, 100));
      const shares = hosts.map((host) => host.open());
      expect(await getFrom(server.baseUrl, '/health', '127.0.0.3')).toBe(200);
      const { email, password } = DEMO_ACCOUNTS.officer;
      expect((await postFrom(server.baseUrl, '/auth/login', { email, password }, { localAddress: '127.0.0.4' })).status).toBe(200);
      expect(shares.reduce((sum, share) => sum + share, 0)).toBeLessThanOrEqual(CONNECTION_LIMITS.max);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    } finally {
      for (const host of hosts) host.destroy();
    }
  }, 30_000);
});

describe('security, round four: CONNECTIONS_PER_ADDRESS (N6)', () => {
  const env = { DATA_DIR: '/tmp/unused', JWT_SECRET: 'x'.repeat(40) };
  it('caps each peer address at 100 by default; behind TRUST_PROXY, where every peer is the proxy, only when set', () => {
    expect(loadConfig(env).connectionsPerAddress).toBe(CONNECTION_LIMITS.perAddress);
    expect(loadConfig({ ...env, CONNECTIONS_PER_ADDRESS: '40' }).connectionsPerAddress).toBe(40);
    expect(loadConfig({ ...env, TRUST_PROXY: 'true' }).connectionsPerAddress).toBeNull();
    expect(loadConfig({ ...env, TRUST_PROXY: 'true', CONNECTIONS_PER_ADDRESS: '500' }).connectionsPerAddress).toBe(500);
    for (const bad of ['0', '', 'lots', '1001', '-5']) {
      expect(() => loadConfig({ ...env, CONNECTIONS_PER_ADDRESS: bad }), bad).toThrow(/CONNECTIONS_PER_ADDRESS/);
    }
  });
});

describe('security, round four: a full server lets a new address in ahead of the one holding the most (N6)', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const CAPS = { maxConnections: 30, connectionsPerAddress: 12 };

  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
    limitHttpServer(server.server, CAPS);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  it('when every slot is taken, a newcomer gets an idle slot of the biggest holder; requests in flight are never cut', async () => {
    // 127.0.0.2 is sending a request body on all of its 12; 127.0.0.3 holds 12 kept alive after a request each;
    // 127.0.0.4 holds 6: the server is full.
    const uploading = await openSlowUploads(server.port, '127.0.0.2', CAPS.connectionsPerAddress);
    const idle = await openIdleConnections(server.port, '127.0.0.3', CAPS.connectionsPerAddress, { afterOneRequest: true });
    const few = await openIdleConnections(server.port, '127.0.0.4', 6);
    try {
      expect(uploading.open() + idle.open() + few.open()).toBe(CAPS.maxConnections);
      expect(await getFrom(server.baseUrl, '/health', '127.0.0.5')).toBe(200);
      await settled(() => idle.open());
      expect(uploading.open()).toBe(CAPS.connectionsPerAddress);
      expect(idle.open()).toBe(CAPS.connectionsPerAddress - 1);
      expect(few.open()).toBe(6);
    } finally {
      for (const group of [uploading, idle, few]) group.destroy();
    }
  });
});

describe('security, round four: an IPv6 client is one /64 to every limit (N12)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a proxy that names each client, so the test can be many addresses.
    t = await createTestApp({ config: { trustProxy: true } });
  });
  afterAll(() => t.close());

  const from = (address: string) => ({ 'x-forwarded-for': `10.9.9.9, ${address}` });
  /** The i-th address of the /64 `prefix` (four groups), written as differently as a proxy might. */
  const inOne64 = (prefix: string, i: number) => {
    const padded = prefix
      .split(':')
      .map((group) => group.toUpperCase().padStart(4, '0'))
      .join(':');
    return [`${prefix}::${(i + 1).toString(16)}`, `${padded}:${i.toString(16)}:0:0:1`, `${prefix}:ffff:${i}::`][i % 3]!;
  };

  it('password guesses from addresses of one /64 share one lock; the next /64 is another client', async () => {
    const user = await t.createUser({ password: 'the-right-one' });
    for (let i = 0; i < SIGN_IN_POLICY.failuresPerAccountAddress; i++) {
      t.clock.offsetMs += 60_000;
      const res = await t.request('POST', '/auth/login', {
        json: { email: user.email, password: `guess-${i}` },
        headers: from(inOne64('2001:db8:7:1', i)),
      });
      expect(res.status).toBe(401);
    }
    t.clock.offsetMs += 60_000;
    const locked = await t.request('POST', '/auth/login', {
      json: { email: user.email, password: 'guess-x' },
      headers: from('2001:db8:7:1:abcd:ef01:2345:6789'),
    });
    expect(locked.status).toBe(429);
    const elsewhere = await t.request('POST', '/auth/login', {
      json: { email: user.email, password: 'the-right-one' },
      headers: from('2001:db8:7:2::1'),
    });
    expect(elsewhere.status).toBe(200);
  });

  it('error reports from addresses of one /64 share one count', async () => {
    const report = { message: 'boom', page: '/dashboard', buildId: 'b1' };
    for (let i = 0; i < CLIENT_ERRORS_PER_ADDRESS.limit; i++) {
      const res = await t.request('POST', '/client-errors', { json: report, headers: from(inOne64('2001:db8:9:9', i)) });
      expect(res.status).toBe(202);
    }
    const limited = await t.request('POST', '/client-errors', { json: report, headers: from('2001:db8:9:9::beef') });
    expect(limited.status).toBe(429);
    expect((await t.request('POST', '/client-errors', { json: report, headers: from('2001:db8:9:a::beef') })).status).toBe(202);
  });

  it('an IPv4 address and its IPv4-mapped IPv6 forms share one count (reset emails)', async () => {
    const forms = ['198.51.100.4', '::ffff:198.51.100.4', '::FFFF:c633:6404', '0:0:0:0:0:ffff:198.51.100.4'];
    for (let i = 0; i < RESET_REQUESTS_PER_ADDRESS.limit; i++) {
      const res = await t.request('POST', '/auth/forgot-password', {
        json: { email: `nobody-${i}@example.com` },
        headers: from(forms[i % 4]!),
      });
      expect(res.status).toBe(200);
    }
    const limited = await t.request('POST', '/auth/forgot-password', {
      json: { email: 'nobody-else@example.com' },
      headers: from('::ffff:198.51.100.4'),
    });
    expect(limited.status).toBe(429);
  });

  it('dead links tried from addresses of one /64 share one count', async () => {
    for (let i = 0; i < ACCESS_LINK_FAILURES_PER_ADDRESS.limit; i++) {
      const res = await t.request('POST', '/auth/access-link', {
        json: { token: `dead-link-${i}` },
        headers: from(inOne64('2001:db8:5:5', i)),
      });
      expect(res.status).not.toBe(429);
    }
    const limited = await t.request('POST', '/auth/access-link', { json: { token: 'dead-link-x' }, headers: from('2001:db8:5:5::1') });
    expect(limited.status).toBe(429);
  });
});
