import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pcn } from '@parkpatrol/shared';
import { THUMBNAIL_SIZE, thumbnailFileName } from '../src/services/thumbnails.ts';
import { makeMissingThumbnails } from '../src/workflows/make-missing-thumbnails.ts';
import { silentLogger } from '../src/services/logger.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { createPcnViaApi, listUploadFiles } from './fixtures.ts';

/** A 1600 x 1200 camera photo, turned by its EXIF orientation and carrying the camera's details. */
async function cameraPhoto(): Promise<Uint8Array> {
  const bytes = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#2a6f97' } })
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Serial-8842-QX' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  return new Uint8Array(bytes);
}

describe('photo thumbnails', () => {
  let t: TestApp;
  let owner: Session;
  let pcn: Pcn;
  let original: Uint8Array;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signedInUser('USER');
    const carPark = await t.createCarPark({ assignTo: [owner.id] });
    original = await cameraPhoto();
    const filed = await createPcnViaApi(t, owner.token, carPark.id, {
      images: [
        { bytes: original, name: 'front.jpg' },
        { bytes: original, name: 'rear.jpg' },
      ],
    });
    pcn = (await t.request('GET', `/pcns/${filed.id}`, { token: owner.token })).json.data as Pcn;
  });
  afterAll(() => t.close());

  async function fetchThumbnail(image = pcn.images[0]!) {
    const res = await t.app.request(image.thumbnailUrl!);
    return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
  }

  it('makes a small, upright WebP copy with no metadata after the upload, beside the original', async () => {
    await t.deps.jobs.whenIdle();
    const image = pcn.images[0]!;
    expect(image.thumbnailUrl).toBe(image.url!.replace('?', '/thumbnail?'));
    expect(existsSync(join(t.config.uploadsDir, thumbnailFileName(image.fileName)))).toBe(true);

    const { res, bytes } = await fetchThumbnail();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const facts = await sharp(bytes).metadata();
    expect(facts.format).toBe('webp');
    // Orientation 6: the 1600 x 1200 photo stands upright, 240 x 320.
    expect([facts.width, facts.height]).toEqual([THUMBNAIL_SIZE * 0.75, THUMBNAIL_SIZE]);
    expect(facts.exif).toBeUndefined();
    expect(Buffer.from(bytes).includes('Serial-8842-QX')).toBe(false);
    expect(bytes.length).toBeLessThan(original.length / 4);
  });

  it('a list row carries the photo count and the first thumbnail, not the photos and their hashes', async () => {
    const list = await t.request('GET', '/pcns', { token: owner.token });
    const row = list.json.data.pcns.find((item: { id: string }) => item.id === pcn.id);
    expect(row).toMatchObject({ photoCount: 2, firstThumbnailUrl: pcn.images[0]!.thumbnailUrl });
    expect(row).not.toHaveProperty('images');
    expect(list.text).not.toContain(pcn.images[0]!.sha256);
    expect(list.text).not.toContain(pcn.images[1]!.fileName);
  });

  it('keeps the original byte for byte at its own URL', async () => {
    const res = await t.app.request(pcn.images[0]!.url!);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(original);
  });

  it('shows the photo itself until its thumbnail is made, and makes nothing on request', async () => {
    const image = pcn.images[1]!;
    const stored = join(t.config.uploadsDir, thumbnailFileName(image.fileName));
    rmSync(stored);
    const before = await fetchThumbnail(image);
    expect(before.res.status).toBe(200);
    expect(before.res.headers.get('content-type')).toBe('image/jpeg');
    expect(before.bytes).toEqual(original);
    expect(existsSync(stored)).toBe(false);

    await t.deps.jobs.send('thumbnails', { fileNames: [image.fileName] });
    await t.deps.jobs.whenIdle();
    const after = await fetchThumbnail(image);
    expect(after.res.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(after.bytes).metadata()).format).toBe('webp');
  });

  it('answers the same 404 as the original to someone who may not see the photo', async () => {
    const path = `/uploads/${pcn.images[0]!.fileName}/thumbnail`;
    const stranger = await t.signedInUser('USER');
    expect((await t.request('GET', path)).status).toBe(404);
    expect((await t.request('GET', path, { token: stranger.token })).status).toBe(404);
    expect((await t.request('GET', `${path}?exp=9999999999&sid=x&sig=forged`)).status).toBe(404);
    expect((await t.request('GET', path, { token: owner.token })).status).toBe(200);
  });

  it('`npm run thumbnails` gives older photos theirs, and a second run makes nothing', async () => {
    for (const image of pcn.images) rmSync(join(t.config.uploadsDir, thumbnailFileName(image.fileName)), { force: true });
    const deps = { db: t.db, evidence: t.deps.evidence, logger: silentLogger };
    expect(await makeMissingThumbnails(deps)).toEqual({ checked: 2, made: 2, cannotMake: 0, missingOriginal: 0 });
    expect(await makeMissingThumbnails(deps)).toEqual({ checked: 2, made: 0, cannotMake: 0, missingOriginal: 0 });
    for (const image of pcn.images) expect(existsSync(join(t.config.uploadsDir, thumbnailFileName(image.fileName)))).toBe(true);
  });

  it('goes with its photo when the notice is deleted', async () => {
    const res = await t.request('DELETE', `/pcns/${pcn.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    // listUploadFiles fails on a thumbnail left without its photo.
    expect(listUploadFiles(t)).toEqual([]);
  });
});
