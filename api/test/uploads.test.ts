import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pcn } from '@parkpatrol/shared';
import { createTestApp, type TestApp } from './test-app.ts';
import { createPcnViaApi, jpegUpload, listUploadFiles, makeJpeg } from './fixtures.ts';

type Session = Awaited<ReturnType<TestApp['signedInUser']>>;

const PNG_1X1 = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);

describe('GET /uploads/{fileName}', () => {
  let t: TestApp;
  let owner: Session;
  let other: Session;
  let admin: Session;
  let superAdmin: Session;
  let pcn: Pcn;
  let photo: Uint8Array;

  /** The API hands out `/api/uploads/...`; the test client adds `/api` itself. */
  const get = (url: string, token?: string) => t.request('GET', url.replace(/^\/api/, ''), { token });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signedInUser('USER');
    other = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    superAdmin = await t.signedInUser('SUPER_ADMIN');
    const carPark = await t.createCarPark({ assignTo: [owner.id, other.id] });
    photo = makeJpeg(7);
    pcn = await createPcnViaApi(t, owner.token, carPark.id, {
      images: [{ bytes: photo, name: 'front.jpg' }, { bytes: PNG_1X1, name: 'rear.png', type: 'image/png' }],
    });
  });
  afterAll(() => t.close());

  it('serves the photo through its signed URL with its type, nosniff and long private caching', async () => {
    const res = await t.app.request(pcn.images[0]!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(photo);
  });

  it('serves a PNG as image/png, whatever the client claimed', async () => {
    const res = await get(pcn.images[1]!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });

  it('serves the file to the owner and admins by bearer token, and 404s to another user', async () => {
    const path = `/uploads/${pcn.images[0]!.fileName}`;
    for (const session of [owner, admin, superAdmin]) expect((await t.request('GET', path, { token: session.token })).status).toBe(200);
    expect((await t.request('GET', path, { token: other.token })).status).toBe(404);
    expect((await t.request('GET', path, { token: 'not-a-token' })).status).toBe(404);
  });

  it('answers 404 to a request with neither signature nor token', async () => {
    expect((await t.request('GET', `/uploads/${pcn.images[0]!.fileName}`)).status).toBe(404);
  });

  it('refuses a tampered, borrowed or expired signature', async () => {
    const [first, second] = pcn.images;
    const tampered = first!.url.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await get(tampered)).status).toBe(404);
    const query = first!.url.slice(first!.url.indexOf('?'));
    expect((await get(`/uploads/${second!.fileName}${query}`)).status).toBe(404);
    const later = first!.url.replace(/exp=(\d+)/, (_, exp: string) => `exp=${Number(exp) + 3600}`);
    expect((await get(later)).status).toBe(404);

    t.clock.offsetMs = 19 * 3600 * 1000;
    try {
      expect((await get(first!.url)).status).toBe(404);
    } finally {
      t.clock.offsetMs = 0;
    }
  });

  it('answers 404 to a guessed name, even for an admin', async () => {
    expect((await t.request('GET', `/uploads/${'0'.repeat(32)}.jpg`, { token: admin.token })).status).toBe(404);
  });

  it('refuses path traversal and encoded slashes with 404 and reads nothing outside the folder', async () => {
    writeFileSync(join(t.config.dataDir, 'secret.jpg'), makeJpeg(1));
    const attempts = [
      '..%2Fsecret.jpg',
      '%2e%2e%2fsecret.jpg',
      '%2E%2E%2Fparkpatrol.sqlite',
      '..%5Csecret.jpg',
      '%252e%252e%252fsecret.jpg',
      '..',
      '%2e%2e',
      '.%2e/secret.jpg',
      `..%2Fuploads%2F${pcn.images[0]!.fileName}`,
      `${pcn.images[0]!.fileName}%00.jpg`,
      'secret.jpg',
    ];
    for (const attempt of attempts) {
      const res = await t.request('GET', `/uploads/${attempt}`, { token: admin.token });
      expect(res.status, attempt).toBe(404);
      expect(res.headers.get('content-type'), attempt).toContain('application/json');
    }
    const dotted = await t.app.request('/api/uploads/../secret.jpg', { headers: { authorization: `Bearer ${admin.token}` } });
    expect(dotted.status).toBe(404);
  });

  it('does not serve a temporary or stray file in the upload folder', async () => {
    writeFileSync(join(t.config.uploadsDir, `${'a'.repeat(32)}.jpg`), makeJpeg(2));
    expect((await t.request('GET', `/uploads/${'a'.repeat(32)}.jpg`, { token: admin.token })).status).toBe(404);
  });

  it('stops serving and removes the files once the PCN is deleted', async () => {
    const carPark = await t.createCarPark({ assignTo: [owner.id] });
    const doomed = await createPcnViaApi(t, owner.token, carPark.id, { images: [jpegUpload(300)] });
    const image = doomed.images[0]!;
    expect((await get(image.url)).status).toBe(200);
    expect((await t.request('DELETE', `/pcns/${doomed.id}`, { token: owner.token })).status).toBe(200);
    expect((await get(image.url)).status).toBe(404);
    expect(listUploadFiles(t)).not.toContain(image.fileName);
  });
});

describe('sweeping orphaned evidence after a crash', () => {
  it('removes old temporary and unreferenced files, and keeps referenced and recent ones', async () => {
    const { utimesSync } = await import('node:fs');
    const { sweepOrphanEvidenceFiles } = await import('../src/services/evidence-storage.ts');
    const { findKnownImageFileNames } = await import('../src/repositories/pcns.ts');
    const t = await createTestApp();
    try {
      const owner = await t.signedInUser('USER');
      const carPark = await t.createCarPark({ assignTo: [owner.id] });
      const pcn = await createPcnViaApi(t, owner.token, carPark.id, { images: [jpegUpload(500)] });
      const dir = t.config.uploadsDir;
      const orphan = `${'b'.repeat(32)}.jpg`;
      const temp = `.tmp-${'c'.repeat(32)}`;
      const fresh = `${'d'.repeat(32)}.png`;
      for (const name of [orphan, temp, fresh]) writeFileSync(join(dir, name), 'x');
      const hourAgo = new Date(Date.now() - 3600 * 1000);
      for (const name of [orphan, temp, pcn.images[0]!.fileName]) utimesSync(join(dir, name), hourAgo, hourAgo);

      const removed = await sweepOrphanEvidenceFiles(dir, {
        olderThan: new Date(Date.now() - 10 * 60 * 1000),
        findKnown: (names) => findKnownImageFileNames(t.db, names),
      });
      expect(removed.sort()).toEqual([temp, orphan].sort());
      expect(listUploadFiles(t)).toEqual([pcn.images[0]!.fileName, fresh].sort());
    } finally {
      await t.close();
    }
  });
});
