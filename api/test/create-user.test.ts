import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseEnv, type TestApp } from './test-app.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

describe('npm run create-user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function createUser(args: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, ['scripts/create-user.ts', ...args], {
        cwd: root,
        env: { ...process.env, DATA_DIR: t.config.dataDir, ...databaseEnv(t), APP_URL: 'http://localhost:5173' },
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const failure = err as { code: number; stdout: string; stderr: string };
      return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
    }
  }

  it('creates an account that can sign in with the given password and role', async () => {
    const res = await createUser([
      '--email',
      'Chief@Example.com',
      '--role',
      'SUPER_ADMIN',
      '--password',
      'chief-secret',
      '--first-name',
      'Carla',
      '--last-name',
      'Chief',
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Created SUPER_ADMIN Carla Chief <chief@example.com>');
    const session = await t.login('chief@example.com', 'chief-secret');
    expect(session.user).toMatchObject({ role: 'SUPER_ADMIN', firstName: 'Carla', lastName: 'Chief' });
  });

  it('prints a single-use access link when no password is given', async () => {
    const res = await createUser(['--email', 'jo.bloggs@example.com', '--role', 'ADMIN']);
    expect(res.code).toBe(0);
    const token = /http:\/\/localhost:5173\/u\/([A-Za-z0-9_-]+)/.exec(res.stdout)?.[1];
    expect(token).toBeDefined();
    const session = await t.request('POST', '/auth/access-link', { json: { token } });
    expect(session.status).toBe(200);
    expect(session.json.data).toMatchObject({ mustSetPassword: true, user: { firstName: 'Jo', lastName: 'Bloggs', role: 'ADMIN' } });
  });

  it('refuses a taken email and bad input with a non-zero exit and a clear message', async () => {
    const taken = await createUser(['--email', 'chief@example.com', '--role', 'USER', '--password', 'another1']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already exists');
    const bad = await createUser(['--email', 'x@example.com', '--role', 'KING']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('role:');
  });
});
