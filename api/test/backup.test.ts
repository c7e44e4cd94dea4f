import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '@parkpatrol/shared';
import { jpegUpload, pcnForm, validPcnFields } from './fixtures.ts';
import { freePort } from '../../scripts/test-support.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

const run = promisify(execFile);
const REPO_ROOT = resolve(import.meta.dirname, '../..');

describe('npm run backup', () => {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'parkpatrol-backup-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGTERM')));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function signIn(baseUrl: string) {
    const res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'officer@example.com', password: 'officer123' }),
    });
    return ((await res.json()) as { data: { token: string } }).data.token;
  }

  async function file(baseUrl: string, token: string, carParkId: string, seed: number) {
    const res = await fetch(`${baseUrl}/api/pcns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      body: pcnForm({ ...validPcnFields(carParkId), images: [jpegUpload(seed), jpegUpload(seed + 1)] }),
    });
    expect(res.status).toBe(201);
  }

  it('copies a consistent database and its evidence while the server keeps taking notices, and the copy restores', async () => {
    const dataDir = tempDir();
    const live = await startServerProcess({ dataDir, port: await freePort() });
    servers.push(live);
    const token = await signIn(live.baseUrl);
    const carParks = (await (await fetch(`${live.baseUrl}/api/car-parks`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: Array<{ id: string }>;
    };
    const carParkId = carParks.data[0]!.id;
    for (let seed = 1; seed <= 6; seed += 2) await file(live.baseUrl, token, carParkId, seed);

    // Notices keep arriving while the backup runs: the copy must still be consistent.
    const out = join(tempDir(), 'copy');
    let filing = true;
    const background = (async () => {
      for (let seed = 100; filing; seed += 2) await file(live.baseUrl, token, carParkId, seed);
    })();
    const backup = await run(process.execPath, ['scripts/backup.ts', '--out', out], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
    });
    filing = false;
    await background;
    expect(backup.stdout).toContain('integrity ok');

    const manifest = JSON.parse(readFileSync(join(out, 'backup.json'), 'utf8'));
    expect(manifest).toMatchObject({ integrity: 'ok', missing: [] });
    const snapshot = new SQLite(join(out, 'parkpatrol.sqlite'), { readonly: true });
    const images = snapshot.prepare('select file_name as fileName, sha256 from pcn_images').all() as Array<{
      fileName: string;
      sha256: string;
    }>;
    const pcnCount = (snapshot.prepare('select count(*) as n from pcns').get() as { n: number }).n;
    snapshot.close();
    expect(pcnCount).toBeGreaterThanOrEqual(3);
    expect(images).toHaveLength(pcnCount * 2);
    expect(manifest.copied).toBe(images.length);
    for (const image of images) {
      const bytes = readFileSync(join(out, 'uploads', image.fileName));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(image.sha256);
    }

    // Restore as docs/operations.md says: the database file and the uploads folder, nothing else.
    const restoredDir = tempDir();
    mkdirSync(restoredDir, { recursive: true });
    cpSync(join(out, 'parkpatrol.sqlite'), join(restoredDir, 'parkpatrol.sqlite'));
    cpSync(join(out, 'uploads'), join(restoredDir, 'uploads'), { recursive: true });
    const restored = await startServerProcess({ dataDir: restoredDir, port: await freePort() });
    servers.push(restored);
    const restoredToken = await signIn(restored.baseUrl);
    const list = (await (
      await fetch(`${restored.baseUrl}/api/pcns?limit=100`, { headers: { authorization: `Bearer ${restoredToken}` } })
    ).json()) as {
      data: { pcns: Array<{ id: string }>; pagination: { total: number } };
    };
    expect(list.data.pagination.total).toBe(pcnCount);
    const detail = (await (
      await fetch(`${restored.baseUrl}/api/pcns/${list.data.pcns[0]!.id}`, { headers: { authorization: `Bearer ${restoredToken}` } })
    ).json()) as {
      data: { images: Array<{ url: string }> };
    };
    expect(detail.data.images).toHaveLength(2);
    const photo = await fetch(`${restored.baseUrl}${detail.data.images[0]!.url}`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
  });
});
