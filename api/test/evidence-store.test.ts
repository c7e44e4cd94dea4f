import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import type { SentDocumentListResponse } from '@parkpatrol/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createConfiguredEvidenceStore, createS3EvidenceStore, type S3EvidenceStore } from '../src/services/evidence-store-s3.ts';
import { createDiskEvidenceStore, isEvidenceFileName, type EvidenceStore, type SpooledEvidence } from '../src/services/evidence-storage.ts';
import { thumbnailFileName } from '../src/services/thumbnails.ts';
import { waitUntil } from '../../scripts/test-support.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { createPcnViaApi, jpegUpload, listUploadFiles, makeJpeg, postPcn, validPcnFields } from './fixtures.ts';
import { useS3Server, type S3Server } from './support/s3-server.ts';
import { letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { withoutThumbnails } from './support/upload-files.ts';
import { fetchEvidencePack, viaApp } from './support/evidence-pack.ts';

/**
 * Evidence photos on the local disk or in an S3-compatible bucket,
 * behind one EvidenceStore. The same contract runs against both stores; the S3 one talks to a
 * real server (Ceph's radosgw on loopback), never a mock. Every S3 client here is given the
 * server's endpoint, region and keys explicitly, so the machine's own AWS settings play no part.
 */

let radosgw: S3Server;
const s3Stores: S3EvidenceStore[] = [];
const folders: string[] = [];

beforeAll(async () => {
  radosgw = await useS3Server();
}, 180_000);

afterAll(async () => {
  for (const store of s3Stores.splice(0)) store.close();
  await radosgw?.stop();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

/** An S3 store over the test server's bucket, under a prefix of its own so tests do not see each other's objects. */
function newS3Store(prefix = `evidence-${randomUUID().slice(0, 8)}`): S3EvidenceStore {
  const { env } = radosgw;
  const store = createS3EvidenceStore({
    bucket: env.S3_BUCKET,
    prefix,
    region: env.AWS_REGION,
    endpoint: env.AWS_ENDPOINT_URL_S3,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  });
  s3Stores.push(store);
  return store;
}

/** What the bucket holds under a prefix (keys relative to it). */
async function objectsUnder(store: S3EvidenceStore, prefix: string): Promise<string[]> {
  const listed = await store.client.send(new ListObjectsV2Command({ Bucket: radosgw.env.S3_BUCKET, Prefix: `${prefix}/` }));
  return withoutThumbnails((listed.Contents ?? []).map((object) => object.Key!.slice(prefix.length + 1)).sort());
}

/**
 * A cut for a sweep that falls after every file the store holds now and before any it stores
 * from here on. The stores stamp files by the machine's clock (the disk's mtime, the bucket's
 * LastModified, which S3 keeps to the second), so the cut is a whole second that has begun, and it
 * is taken once a sweep that removes nothing finds every file of `stored` older than it.
 */
async function cutAfter(store: EvidenceStore, stored: string[]): Promise<Date> {
  return waitUntil(`the ${store.location} store to stamp ${stored.length} files before a whole second`, async () => {
    const cut = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000);
    // A few milliseconds past the second: the file system reads a coarser clock than Date.now().
    await waitUntil(`the clock to pass ${cut.toISOString()}`, () => Date.now() >= cut.getTime() + 20);
    const older = new Set<string>();
    // Every name it asks about counts as known, so this sweep removes none of them.
    await store.sweepOrphans({
      olderThan: cut,
      findKnown: async (names) => {
        for (const name of names) older.add(name);
        return new Set(names);
      },
    });
    return stored.every((name) => older.has(name)) ? cut : null;
  });
}

/** A cut later than anything stored so far, as a sweep an hour from now would use. */
const anHourFromNow = () => new Date(Date.now() + 60 * 60 * 1000);

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const storeKinds: Array<{ kind: string; make: () => EvidenceStore }> = [
  { kind: 'disk', make: () => createDiskEvidenceStore(join(newFolder('parkpatrol-store-'), 'uploads')) },
  { kind: 'S3', make: () => newS3Store() },
];

describe.each(storeKinds)('the $kind evidence store', ({ make }) => {
  let store: EvidenceStore;
  let spoolDir: string;

  beforeAll(() => {
    store = make();
    // The disk store renames spooled files into its folder, so they are spooled beside it, as the app does.
    spoolDir = store.location.startsWith('s3://') ? newFolder('parkpatrol-spool-') : store.location;
    mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
  });

  function spool(bytes: Uint8Array, extension = 'jpg', mimeType = 'image/jpeg'): SpooledEvidence {
    const tempPath = join(spoolDir, `.tmp-${randomBytes(16).toString('hex')}`);
    writeFileSync(tempPath, bytes, { mode: 0o600 });
    return { tempPath, extension, mimeType, size: bytes.length };
  }

  it('places spooled files under new names and opens each as a stream of the same bytes and size', async () => {
    const small = makeJpeg(41);
    // Several megabytes: more than one chunk of any stream on the way.
    const large = randomBytes(3 * 1024 * 1024 + 17);
    const names = await store.place([spool(small), spool(large, 'png', 'image/png')]);
    expect(names).toHaveLength(2);
    expect(names.every(isEvidenceFileName)).toBe(true);
    expect(names[0]).toMatch(/\.jpg$/);
    expect(names[1]).toMatch(/\.png$/);
    for (const [index, expected] of [small, new Uint8Array(large)].entries()) {
      const opened = await store.open(names[index]!);
      expect(opened).not.toBeNull();
      expect(opened!.size).toBe(expected.length);
      expect(Buffer.from(await bytesOf(opened!.stream)).equals(Buffer.from(expected))).toBe(true);
    }
  });

  it('places nothing for no files', async () => {
    expect(await store.place([])).toEqual([]);
  });

  it('reads a stored file whole', async () => {
    const bytes = makeJpeg(42);
    const [name] = await store.place([spool(bytes)]);
    expect(Buffer.from((await store.read(name!))!).equals(Buffer.from(bytes))).toBe(true);
  });

  it('deletes files, and deleting them again (or a name never stored) is fine', async () => {
    const names = await store.place([spool(makeJpeg(43)), spool(makeJpeg(44))]);
    await store.delete(names);
    for (const name of names) {
      expect(await store.open(name)).toBeNull();
      expect(await store.read(name)).toBeNull();
    }
    await store.delete(names);
    await store.delete([`${'e'.repeat(32)}.jpg`]);
    await store.delete([]);
  });

  it('answers null for a name that was never stored', async () => {
    expect(await store.open(`${'f'.repeat(32)}.jpg`)).toBeNull();
    expect(await store.read(`${'f'.repeat(32)}.webp`)).toBeNull();
  });

  it('refuses names that are not ours before they reach the store', async () => {
    for (const name of [
      '../parkpatrol.sqlite',
      `../${'a'.repeat(32)}.jpg`,
      `${'a'.repeat(32)}.jpg/..`,
      'secret.jpg',
      `${'A'.repeat(32)}.jpg`,
      `${'a'.repeat(32)}.exe`,
      '',
    ]) {
      expect(await store.open(name), name).toBeNull();
      expect(await store.read(name), name).toBeNull();
      await expect(store.delete([name]), name).rejects.toThrow(/Refusing evidence file name/);
    }
    // An extension that is not one of ours never becomes a name: nothing is stored.
    await expect(store.place([spool(makeJpeg(45), 'exe')])).rejects.toThrow(/Refusing/);
  });

  it('sweeps only files that are old and unknown, keeping young ones and known ones', async () => {
    const [orphan, known] = await store.place([spool(makeJpeg(46)), spool(makeJpeg(47))]);
    const cutoff = await cutAfter(store, [orphan!, known!]);
    const [young] = await store.place([spool(makeJpeg(48))]);
    const asked: string[][] = [];
    const removed = await store.sweepOrphans({
      olderThan: cutoff,
      findKnown: async (names) => {
        asked.push(names);
        return new Set(names.filter((name) => name === known));
      },
    });
    expect(removed).toContain(orphan);
    expect(removed).not.toContain(known);
    expect(removed).not.toContain(young);
    // Only old names are ever looked up: a young one may belong to a commit in flight.
    expect(asked.flat()).not.toContain(young);
    expect(await store.open(orphan!)).toBeNull();
    expect(await store.read(known!)).not.toBeNull();
    expect(await store.read(young!)).not.toBeNull();
  });

  it('keeps a thumbnail beside its photo, removes it with the photo, and sweeps it with an orphan photo only', async () => {
    const [photo, orphan] = await store.place([spool(makeJpeg(60)), spool(makeJpeg(61))]);
    const thumbnail = new Uint8Array(randomBytes(900));
    await store.put(thumbnailFileName(photo!), thumbnail, 'image/webp');
    await store.put(thumbnailFileName(orphan!), thumbnail, 'image/webp');
    expect(Buffer.from((await store.read(thumbnailFileName(photo!)))!).equals(Buffer.from(thumbnail))).toBe(true);
    expect((await store.open(thumbnailFileName(photo!)))!.size).toBe(thumbnail.length);

    const removed = await store.sweepOrphans({
      olderThan: anHourFromNow(),
      findKnown: async (names) => new Set(names.filter((name) => name === photo)),
    });
    expect(removed).toEqual(expect.arrayContaining([orphan!, thumbnailFileName(orphan!)]));
    expect(removed).not.toContain(photo);
    expect(removed).not.toContain(thumbnailFileName(photo!));
    expect(await store.read(thumbnailFileName(photo!))).not.toBeNull();

    await store.delete([photo!]);
    expect(await store.read(photo!)).toBeNull();
    expect(await store.read(thumbnailFileName(photo!))).toBeNull();
    // Only names we make: a thumbnail of a name that is not ours is refused.
    await expect(store.put('../x.thumb.webp', thumbnail, 'image/webp')).rejects.toThrow(/Refusing/);
  });
});

describe('the S3 evidence store', () => {
  it('stores each photo as PREFIX/name with its content type', async () => {
    const prefix = `nested/evidence-${randomUUID().slice(0, 8)}`;
    const store = newS3Store(prefix);
    expect(store.location).toBe(`s3://${radosgw.env.S3_BUCKET}/${prefix}`);
    const spoolDir = newFolder('parkpatrol-spool-');
    const tempPath = join(spoolDir, '.tmp-one');
    writeFileSync(tempPath, makeJpeg(50));
    // No size given: the store finds the length itself.
    const [name] = await store.place([{ tempPath, extension: 'jpg', mimeType: 'image/jpeg' }]);
    expect(await objectsUnder(store, prefix)).toEqual([name]);
    const head = await store.client.send(new HeadObjectCommand({ Bucket: radosgw.env.S3_BUCKET, Key: `${prefix}/${name}` }));
    expect(head.ContentType).toBe('image/jpeg');
    expect(head.ContentLength).toBe(makeJpeg(50).length);
    // The spooled file stays for the request to remove, as with the disk store's failures.
    expect(existsSync(tempPath)).toBe(true);
  });

  it('removes what it stored when a later file of the batch fails', async () => {
    const prefix = `evidence-${randomUUID().slice(0, 8)}`;
    const store = newS3Store(prefix);
    const spoolDir = newFolder('parkpatrol-spool-');
    const first = join(spoolDir, '.tmp-first');
    writeFileSync(first, makeJpeg(51));
    await expect(
      store.place([
        { tempPath: first, extension: 'jpg' },
        { tempPath: join(spoolDir, '.tmp-gone'), extension: 'jpg' },
      ]),
    ).rejects.toThrow(/ENOENT/);
    expect(await objectsUnder(store, prefix)).toEqual([]);
  });

  it('sweeps only our names under its own prefix', async () => {
    const prefix = `evidence-${randomUUID().slice(0, 8)}`;
    const store = newS3Store(prefix);
    const bucket = radosgw.env.S3_BUCKET;
    const ours = `${'1'.repeat(32)}.jpg`;
    const foreign = [`${prefix}/notes.txt`, `${prefix}/sub/${ours}`, `other-${prefix}/${ours}`];
    for (const key of [`${prefix}/${ours}`, ...foreign]) {
      await store.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'x' }));
    }
    const removed = await store.sweepOrphans({ olderThan: anHourFromNow(), findKnown: async () => new Set() });
    expect(removed).toEqual([ours]);
    for (const key of foreign) {
      const head = await store.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      expect(head.ContentLength, key).toBe(1);
    }
  });

  it('does not take a missing bucket for a missing photo', async () => {
    const { env } = radosgw;
    const store = createS3EvidenceStore({
      bucket: 'no-such-bucket-here',
      region: env.AWS_REGION,
      endpoint: env.AWS_ENDPOINT_URL_S3,
      credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
    });
    s3Stores.push(store);
    await expect(store.open(`${'2'.repeat(32)}.jpg`)).rejects.toThrow();
  });
});

describe('EVIDENCE_STORE', () => {
  const configWith = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: newFolder('parkpatrol-config-'), JWT_SECRET: 'x'.repeat(40), ...env });

  it('keeps photos in DATA_DIR/uploads when unset', () => {
    const config = configWith({});
    expect(config.evidenceStore).toEqual({ kind: 'disk' });
    expect(createConfiguredEvidenceStore(config).location).toBe(config.uploadsDir);
  });

  it('selects a bucket, with an optional prefix and the endpoint of a non-AWS server', () => {
    expect(configWith({ EVIDENCE_STORE: 's3://parkpatrol-evidence' }).evidenceStore).toEqual({
      kind: 's3',
      bucket: 'parkpatrol-evidence',
      prefix: '',
      endpoint: undefined,
    });
    const config = configWith({ EVIDENCE_STORE: 's3://photos.example/site-1/evidence/', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000' });
    expect(config.evidenceStore).toEqual({
      kind: 's3',
      bucket: 'photos.example',
      prefix: 'site-1/evidence',
      endpoint: 'http://127.0.0.1:9000',
    });
    const store = createConfiguredEvidenceStore(config) as S3EvidenceStore;
    s3Stores.push(store);
    expect(store.location).toBe('s3://photos.example/site-1/evidence');
  });

  it('stops the start on a malformed value, naming the variable', () => {
    for (const value of [
      '',
      'bucket',
      'http://bucket',
      's3://',
      's3://Bad_Bucket',
      's3://ab',
      's3://bucket/../x',
      's3://bucket//x',
      's3://bucket/a b',
    ]) {
      expect(() => configWith({ EVIDENCE_STORE: value }), value).toThrow(/Invalid configuration: EVIDENCE_STORE: .*s3:\/\/BUCKET/);
    }
    expect(() => configWith({ EVIDENCE_STORE: 's3://bucket', AWS_ENDPOINT_URL_S3: 'not a url' })).toThrow(/AWS_ENDPOINT_URL_S3/);
  });
});

describe('the app with its photos in S3', () => {
  const prefix = `app-${randomUUID().slice(0, 8)}`;
  let store: S3EvidenceStore;
  let t: TestApp;
  let officer: Awaited<ReturnType<TestApp['signedInUser']>>;
  let carParkId: string;

  beforeAll(async () => {
    store = newS3Store(prefix);
    t = await createTestApp({ evidence: store });
    officer = await t.signedInUser('USER');
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
  });
  afterAll(() => t?.close());

  it('files a PCN with photos through the API and serves them back from the bucket by their signed URLs', async () => {
    const photos = [makeJpeg(61), makeJpeg(62, 64)];
    const filed = await createPcnViaApi(t, officer.token, carParkId, { images: photos.map((bytes) => ({ bytes })) });
    const res = await t.request('GET', `/pcns/${filed.id}`, { token: officer.token });
    expect(res.status).toBe(200);
    const images = res.json.data.images as Array<{ fileName: string; url: string }>;
    expect(images).toHaveLength(2);
    expect(await objectsUnder(store, prefix)).toEqual(images.map((image) => image.fileName).sort());
    // Nothing stays in the local folder: the spooled files went once the request ended.
    expect(listUploadFiles(t)).toEqual([]);
    for (const [index, image] of images.entries()) {
      // The signed URL alone, as an <img> fetches it: no bearer token.
      const served = await t.app.request(image.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      expect(served.headers.get('content-length')).toBe(String(photos[index]!.length));
      expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(photos[index]!))).toBe(true);
    }
    // The evidence pack (admins only) embeds the photos, read whole from the bucket.
    const admin = await t.signedInUser('ADMIN');
    const pack = await fetchEvidencePack(viaApp(t), admin.token, filed.id);
    expect(pack.status).toBe(200);

    // Deleting the PCN removes its objects.
    expect((await t.request('DELETE', `/pcns/${filed.id}`, { token: officer.token })).status).toBe(200);
    expect(await objectsUnder(store, prefix)).toEqual([]);
    expect((await t.app.request(images[0]!.url)).status).toBe(404);
  });

  it('leaves no object behind when the filing fails after its photos were stored', async () => {
    const before = await objectsUnder(store, prefix);
    const pcnsBefore = await t.db
      .selectFrom('pcns')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await failImageInserts(t, true);
    try {
      const res = await postPcn(t, officer.token, { ...validPcnFields(carParkId), images: [jpegUpload(63), jpegUpload(64)] });
      expect(res.status).toBe(500);
    } finally {
      await failImageInserts(t, false);
    }
    expect(await objectsUnder(store, prefix)).toEqual(before);
    const pcnsAfter = await t.db
      .selectFrom('pcns')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(pcnsAfter.n)).toBe(Number(pcnsBefore.n));
    expect(listUploadFiles(t)).toEqual([]);
    // The same request once the database takes it again: filed, its photos stored.
    await createPcnViaApi(t, officer.token, carParkId, { images: [jpegUpload(65)] });
    expect(await objectsUnder(store, prefix)).toHaveLength(before.length + 1);
  });

  it('answers 404 for a photo whose object is gone', async () => {
    const filed = await createPcnViaApi(t, officer.token, carParkId, { images: [jpegUpload(66)] });
    await store.delete([filed.images[0]!.fileName]);
    expect((await t.app.request(filed.images[0]!.url)).status).toBe(404);
  });

  it('keeps the documents sent in the bucket, gives back their bytes, and removes them with the notice', async () => {
    // A car park of its own with terms in force: its notices keep their notice to driver and letters.
    const letterParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, letterParkId);
    const admin = await t.signedInUser('ADMIN');
    const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId: letterParkId });
    const made = await t.request('POST', '/keeper-notices/letters', { token: admin.token, json: { pcnIds: [pcn.id] } });
    expect(made.status, made.text).toBe(200);
    const listed = await t.request('GET', `/pcns/${pcn.id}/documents`, { token: admin.token });
    const documents = (listed.json.data as SentDocumentListResponse).items;
    expect(documents.map((document) => document.kind)).toEqual(['NOTICE_TO_DRIVER', 'NOTICE_TO_KEEPER']);
    const stored = await t.db.selectFrom('sent_documents').select('file_name').where('pcn_id', '=', pcn.id).execute();
    const objects = await objectsUnder(store, prefix);
    for (const { file_name: name } of stored) expect(objects).toContain(name);
    for (const document of documents) {
      const res = await t.app.request(`/api/pcns/${pcn.id}/documents/${document.id}`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(res.status).toBe(200);
      expect(
        createHash('sha256')
          .update(new Uint8Array(await res.arrayBuffer()))
          .digest('hex'),
      ).toBe(document.sha256);
    }
    expect(listUploadFiles(t)).toEqual([]);

    expect((await t.request('DELETE', `/pcns/${pcn.id}`, { token: admin.token })).status).toBe(200);
    const left = await objectsUnder(store, prefix);
    for (const { file_name: name } of stored) expect(left).not.toContain(name);
  });
});

/**
 * Makes every insert into pcn_images fail, inside the filing's transaction: the photos are
 * already stored by then, so this is a commit that fails after them.
 */
async function failImageInserts(t: TestApp, on: boolean): Promise<void> {
  if (t.config.database.engine === 'sqlite') {
    if (on)
      await sql`create trigger fail_image_inserts before insert on pcn_images begin select raise(abort, 'test: image inserts fail'); end`.execute(
        t.db,
      );
    else await sql`drop trigger fail_image_inserts`.execute(t.db);
    return;
  }
  if (on) {
    await sql`create function fail_image_inserts() returns trigger language plpgsql as $$ begin raise exception 'test: image inserts fail'; end $$`.execute(
      t.db,
    );
    await sql`create trigger fail_image_inserts before insert on pcn_images for each row execute function fail_image_inserts()`.execute(
      t.db,
    );
  } else {
    await sql`drop trigger fail_image_inserts on pcn_images`.execute(t.db);
    await sql`drop function fail_image_inserts()`.execute(t.db);
  }
}
