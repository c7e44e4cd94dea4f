import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../src/db/seed.ts';
import { freePort } from '../../scripts/test-support.ts';
import { callServer, startServerProcess, type ServerProcess } from './support/server-process.ts';

/**
 * The server's log says what happened and nothing else: no warning at start (fast-jwt warned of
 * our own cache key at every start) and none under a keep-alive client's many requests (each
 * request left a listener on its socket, and Node warned at the eleventh).
 */
describe('a quiet log', () => {
  let server: ServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-quiet-log-'));
    server = await startServerProcess({ dataDir, port: await freePort() });
  }, 60_000);
  afterAll(async () => {
    await server?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, signs in and answers 40 requests over one kept-alive connection without a warning', async () => {
    const { email, password } = DEMO_ACCOUNTS.officer;
    const signedIn = await callServer(server, 'POST', '/auth/login', { json: { email, password } });
    expect(signedIn.status).toBe(200);
    const token = signedIn.json.data.token as string;
    // fetch keeps its connection alive between calls made one after another.
    for (let call = 0; call < 40; call++) expect((await callServer(server, 'GET', '/users/profile', { token })).status).toBe(200);
    await server.kill('SIGTERM');
    expect(server.output.filter((line) => /Warning|"level":(40|50)/.test(line))).toEqual([]);
  });
});
