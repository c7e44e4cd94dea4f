import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, SERVER_MESSAGES } from '@parkpatrol/shared';
import { createUploadGate } from '../src/services/upload-gate.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { createPcnViaApi, jpegUpload, listUploadFiles, makeJpeg, pcnForm, postPcn, validPcnFields, type NewPcn } from './fixtures.ts';

const PNG_1X1 = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);

describe('GET /uploads/{fileName}', () => {
  let t: TestApp;
  let owner: Session;
  let other: Session;
  let admin: Session;
  let superAdmin: Session;
  let pcn: NewPcn;
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
      images: [
        { bytes: photo, name: 'front.jpg' },
        { bytes: PNG_1X1, name: 'rear.png', type: 'image/png' },
      ],
    });
  });
  afterAll(() => t.close());

  it('serves the photo through its signed URL with its type, nosniff and long private caching', async () => {
    const res = await t.app.request(pcn.images[0]!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
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
    const { findKnownStoredFileNames } = await import('../src/repositories/stored-files.ts');
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
        findKnown: (names) => findKnownStoredFileNames(t.db, names),
      });
      expect(removed.sort()).toEqual([temp, orphan].sort());
      expect(listUploadFiles(t)).toEqual([pcn.images[0]!.fileName, fresh].sort());
    } finally {
      await t.close();
    }
  });
});

describe('uploads in flight', () => {
  let t: TestApp;
  afterAll(() => t.close());

  /**
   * A POST /pcns whose body stops halfway until `finish` is called: an upload still in flight.
   * Resolves once the server has started reading the body, which it does only past the gate.
   */
  async function startSlowUpload(token: string, carParkId: string) {
    const form = new Response(pcnForm({ ...validPcnFields(carParkId), images: [jpegUpload(1)] }));
    const bytes = new Uint8Array(await form.arrayBuffer());
    let finish!: () => void;
    const rest = new Promise<void>((resolve) => (finish = resolve));
    let markReading!: () => void;
    const reading = new Promise<void>((resolve) => (markReading = resolve));
    let hasSentHalf = false;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (!hasSentHalf) {
            hasSentHalf = true;
            markReading();
            controller.enqueue(bytes.subarray(0, bytes.length >> 1));
            return;
          }
          await rest;
          controller.enqueue(bytes.subarray(bytes.length >> 1));
          controller.close();
        },
      },
      // Pulled only when the server reads, never ahead of it.
      { highWaterMark: 0 },
    );
    const answer = t.app.request('/api/pcns', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': form.headers.get('content-type')!,
        [IDEMPOTENCY_KEY_HEADER]: randomUUID(),
      },
    } as RequestInit);
    await reading;
    return { answer, finish };
  }

  it("refuses a user's upload over their cap with 429 and the whole server's over its cap with 503, both with Retry-After, and takes them once the first is done", async () => {
    t = await createTestApp({ uploadGate: createUploadGate({ perUser: 1, inAll: 2 }) });
    const [first, second, third] = await Promise.all([t.signedInUser('USER'), t.signedInUser('USER'), t.signedInUser('USER')]);
    const carPark = await t.createCarPark({ assignTo: [first.id, second.id, third.id] });
    const fields = { ...validPcnFields(carPark.id), images: [jpegUpload(2)] };

    const slow = await startSlowUpload(first.token, carPark.id);
    const mine = await postPcn(t, first.token, fields);
    expect(mine.status).toBe(429);
    expect(mine.json).toMatchObject({ code: 'RATE_LIMITED', message: SERVER_MESSAGES.tooManyUploads });
    expect(mine.headers.get('retry-after')).toBe('1');

    const slowSecond = await startSlowUpload(second.token, carPark.id);
    const busy = await postPcn(t, third.token, fields);
    expect(busy.status).toBe(503);
    expect(busy.json).toMatchObject({ message: SERVER_MESSAGES.uploadsBusy });
    expect(busy.headers.get('retry-after')).toBe('1');

    slow.finish();
    slowSecond.finish();
    expect((await slow.answer).status).toBe(201);
    expect((await slowSecond.answer).status).toBe(201);
    expect((await postPcn(t, first.token, fields)).status).toBe(201);
    expect((await postPcn(t, third.token, fields)).status).toBe(201);
  });

  it('frees the slot of an upload refused half way (a part with no name, a body cut off inside a photo)', async () => {
    t = await createTestApp({ uploadGate: createUploadGate({ perUser: 1, inAll: 1 }) });
    const officer = await t.signedInUser('USER');
    const carPark = await t.createCarPark({ assignTo: [officer.id] });
    const nameless = '--b\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--b--\r\n';
    const refused = await t.request('POST', '/pcns', {
      token: officer.token,
      body: nameless,
      headers: { 'content-type': 'multipart/form-data; boundary=b', [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(refused.status).toBe(400);
    // A body cut off inside a photo: busboy ends that photo's stream with an error, which must be
    // a 400 like any other malformed form, never an uncaught exception.
    const cutOff =
      '--b\r\nContent-Disposition: form-data; name="images"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\u00ff\u00d8\u00ff\u00e0 half a photo';
    const truncated = await t.request('POST', '/pcns', {
      token: officer.token,
      body: cutOff,
      headers: { 'content-type': 'multipart/form-data; boundary=b', [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(truncated.status).toBe(400);
    expect(listUploadFiles(t).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
    expect((await postPcn(t, officer.token, { ...validPcnFields(carPark.id), images: [jpegUpload(3)] })).status).toBe(201);
  });
});
