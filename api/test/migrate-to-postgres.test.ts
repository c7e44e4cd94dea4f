import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_TIME_HEADER, formatPcnNumber, IDEMPOTENCY_KEY_HEADER } from '@parkpatrol/shared';
import { connectDatabase, type OpenDatabase } from '../src/db/database.ts';
import { createS3EvidenceStore, type S3EvidenceStore, type S3EvidenceStoreOptions } from '../src/services/evidence-store-s3.ts';
import { silentLogger } from '../src/services/logger.ts';
import { purgeExpiredEvidence } from '../src/services/purge-expired-evidence.ts';
import { MigrationRefusedError, migrateToPostgres, type MigrationSummary } from '../src/tools/migrate-to-postgres.ts';
import { createPcnViaApi, jpegUpload, makeJpeg, pcnForm, validPcnFields } from './fixtures.ts';
import { setOperatorLogo } from './support/operator-logo.ts';
import { createPostgresDatabase, type PostgresDatabase } from './support/postgres-database.ts';
import { useS3Server, type S3Server } from './support/s3-server.ts';
import { freePort } from '../../scripts/test-support.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { createTestApp, ON_POSTGRES, type TestApp } from './test-app.ts';

/**
 * `npm run migrate-to-postgres` moves an installation from its SQLite file and
 * uploads folder to PostgreSQL and an S3-compatible bucket. The source is filled through the
 * real API; the target is a real PostgreSQL database and a real radosgw bucket, and a real
 * server process is then started on them. Runs in the PostgreSQL pass (`npm run test:postgres`),
 * which provides both servers; the refusals that need neither run everywhere.
 */

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const folders: string[] = [];

afterAll(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('npm run migrate-to-postgres, before it touches anything', () => {
  it('refuses a DATABASE_URL that is not PostgreSQL', async () => {
    const dataDir = newFolder('parkpatrol-move-');
    const moving = migrateToPostgres({ fromDataDir: dataDir, databaseUrl: `file:${join(dataDir, 'other.sqlite')}` });
    await expect(moving).rejects.toThrow(MigrationRefusedError);
    await expect(moving).rejects.toThrow(/postgres:\/\//);
  });

  it('refuses a folder without a SQLite database, and does not make one there', async () => {
    const dataDir = newFolder('parkpatrol-move-');
    const moving = migrateToPostgres({ fromDataDir: dataDir, databaseUrl: 'postgres://nobody:nothing@127.0.0.1:1/none' });
    await expect(moving).rejects.toThrow(/No SQLite database at .*parkpatrol\.sqlite/);
    expect(existsSync(join(dataDir, 'parkpatrol.sqlite'))).toBe(false);
  });
});

/** The tables of the SQLite schema that hold product data (not the migrators', the job queue's, SQLite's own or its search index). */
function productTables(source: TestApp): string[] {
  return (source.sqlite.pragma('table_list') as Array<{ schema: string; name: string; type: string }>)
    .filter((table) => table.schema === 'main' && table.type === 'table' && !/^(sqlite_|kysely_|job_queue$)/.test(table.name))
    .map((table) => table.name)
    .sort();
}

/** PostgreSQL's identity column standing in for SQLite's implicit rowid, per table. */
async function tablesWithRowid(target: OpenDatabase): Promise<Set<string>> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'rowid' and is_identity = 'YES'`.execute(
    target.db,
  );
  return new Set(rows.map((row) => row.table_name));
}

/** Every row of a table on both sides, comparable: SQLite's rowid kept where PostgreSQL has its stand-in, rows in one order. */
async function rowsOnBothSides(source: TestApp, target: OpenDatabase, table: string, hasRowid: boolean) {
  const sorted = (rows: Array<Record<string, unknown>>) =>
    rows.map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).sort()))).sort();
  // Both read through the application's connection, which gives the same values on both engines
  // (flags as booleans, times as ISO-8601 text): what is compared is what the application sees.
  const { rows: sqliteRows } = await sql<Record<string, unknown>>`select rowid as "rowid", * from ${sql.table(table)}`.execute(source.db);
  const fromSqlite = sqliteRows.map((row) => {
    if (hasRowid) return row;
    const { rowid: _rowid, ...rest } = row;
    return rest;
  });
  const fromPostgres = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(target.db);
  return { sqlite: sorted(fromSqlite), postgres: sorted(fromPostgres.rows) };
}

/** The JSON answers of two servers differ only in their signed photo URLs (each signs with its own secret). */
const SIGNED_URL_KEYS = new Set(['url', 'thumbnailUrl', 'firstThumbnailUrl']);
function withoutUrls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUrls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        SIGNED_URL_KEYS.has(key) ? (inner === null ? null : 'signed') : withoutUrls(inner),
      ]),
    );
  }
  return value;
}

/** An installation as it is after some weeks of use, made through the real API wherever the API makes it. */
async function fillInstallation(t: TestApp) {
  const admin = await t.signedInUser('ADMIN', { firstName: 'Ada', lastName: 'Admin' });
  const officer = await t.signedInUser('USER', { firstName: 'Olivia', lastName: 'Officer' });
  const other = await t.signedInUser('USER', { firstName: 'Omar', lastName: 'Other' });
  const newcomer = await t.createUser({ password: null, firstName: 'Nina', lastName: 'New' });
  const north = await t.createCarPark({ name: 'North', assignTo: [officer.id, other.id] });
  const south = await t.createCarPark({ name: 'South', assignTo: [officer.id] });

  const first = await createPcnViaApi(t, officer.token, north.id, { images: [jpegUpload(1), jpegUpload(2)] });
  // The same vehicle in the same car park on the same day: flagged as a possible duplicate.
  const second = await createPcnViaApi(t, officer.token, north.id, { images: [jpegUpload(3)] });
  // A notice with every capture fact, so doubles and the 64-bit clock offset make the trip too.
  const form = pcnForm({ ...validPcnFields(north.id), vehicleRegistration: 'XY99 ZZZ', images: [jpegUpload(4), jpegUpload(5)] });
  for (const [name, value] of [
    ['imageLatitude', '51.501364'],
    ['imageLatitude', '-0.1418'],
    ['imageLongitude', '-0.14189'],
    ['imageLongitude', '179.999999'],
    ['imageAccuracy', '4.5'],
    ['imageAccuracy', '12'],
    ['imageShots', 'number-plate,signage'],
    ['imageShots', ''],
    ['imageTakenAt', new Date(Date.now() - 120_000).toISOString()],
    ['imageTakenAt', new Date(Date.now() - 60_000).toISOString()],
  ]) {
    form.append(name!, value!);
  }
  const filed = await t.request('POST', '/pcns', {
    token: other.token,
    body: form,
    headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID(), [DEVICE_TIME_HEADER]: new Date(Date.now() - 93_000).toISOString() },
  });
  expect(filed.status, filed.text).toBe(201);
  const third = filed.json.data as { id: string };
  const toPurge = await createPcnViaApi(t, officer.token, south.id, { vehicleRegistration: 'LM51 ABC', images: [jpegUpload(6)] });
  const toDelete = await createPcnViaApi(t, officer.token, south.id, { vehicleRegistration: 'GH12 JKL', images: [jpegUpload(7)] });
  const last = await createPcnViaApi(t, other.token, north.id, { vehicleRegistration: 'RS70 TUV', images: [jpegUpload(8), jpegUpload(9)] });

  const setStatus = async (id: string, status: string, adminNotes?: string) => {
    // A cancellation always says why; the reason moves with the charge.
    const reason = status === 'CANCELLED' ? { cancellationReason: 'PERMIT_HOLDER' } : {};
    const res = await t.request('PATCH', `/pcns/${id}/status`, {
      token: admin.token,
      json: { status, ...reason, ...(adminNotes && { adminNotes }) },
    });
    expect(res.status, res.text).toBe(200);
  };
  await setStatus(first.id, 'UNDER_REVIEW');
  await setStatus(first.id, 'APPROVED', 'Clear photos; permit not displayed');
  await setStatus(toPurge.id, 'CANCELLED', 'Permit shown at appeal');
  const edited = await t.request('PUT', `/pcns/${second.id}`, {
    token: officer.token,
    body: pcnForm({ description: 'Edited after a second look', images: [jpegUpload(10)] }),
  });
  expect(edited.status, edited.text).toBe(200);
  // A deleted notice keeps its audit trail (no foreign key), which must move as well.
  expect((await t.request('DELETE', `/pcns/${toDelete.id}`, { token: admin.token })).status).toBe(200);
  // Closed with retention 0 days: the photo file goes, its row stays marked purged.
  const purge = await purgeExpiredEvidence({
    db: t.db,
    evidence: t.deps.evidence,
    retentionDays: 0,
    now: () => new Date(Date.now() + 60_000),
    logger: silentLogger,
  });
  expect(purge.pcns.map((pcn) => pcn.pcnId)).toEqual([toPurge.id]);

  expect((await t.request('GET', `/pcns/${first.id}`, { token: admin.token })).status).toBe(200);
  expect((await t.request('POST', '/tracking/heartbeat', { token: officer.token, json: { path: '/pcns' } })).status).toBe(200);
  expect((await t.request('POST', `/onboarding/send/${newcomer.id}`, { token: admin.token, json: {} })).status).toBe(200);
  expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: officer.refreshToken } })).status).toBe(200);
  expect((await t.request('POST', '/auth/login', { json: { email: other.email, password: 'not-the-password' } })).status).toBe(401);
  // The operator's logo: bytes in a column (a blob, then bytea) and its history in insertion order.
  await setOperatorLogo(t, admin.token, makeJpeg(11));

  return { admin, officer, other, pcns: [first, second, third, toPurge, last], deletedPcnId: toDelete.id };
}

describe.skipIf(!ON_POSTGRES)('moving an installation from SQLite and disk to PostgreSQL and S3', () => {
  let s3: S3Server;
  let source: TestApp;
  let target: PostgresDatabase;
  let targetDb: OpenDatabase;
  let bucket: S3EvidenceStore;
  let installation: Awaited<ReturnType<typeof fillInstallation>>;
  let summary: MigrationSummary;
  let evidenceStore: string;
  const log: string[] = [];
  const prefix = `migrated-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    [s3, target] = await Promise.all([useS3Server(), createPostgresDatabase(process.env.TEST_POSTGRES_URL!)]);
    const bucketOptions: S3EvidenceStoreOptions = {
      bucket: s3.env.S3_BUCKET,
      prefix,
      region: s3.env.AWS_REGION,
      endpoint: s3.env.AWS_ENDPOINT_URL_S3,
      credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY },
    };
    bucket = createS3EvidenceStore(bucketOptions);
    evidenceStore = `s3://${s3.env.S3_BUCKET}/${prefix}`;
    source = await createTestApp({ engine: 'sqlite' });
    installation = await fillInstallation(source);
    summary = await migrateToPostgres({
      fromDataDir: source.config.dataDir,
      databaseUrl: target.url,
      evidence: bucketOptions,
      log: (line) => log.push(line),
    });
    targetDb = connectDatabase({ engine: 'postgres', url: target.url });
  }, 180_000);

  afterAll(async () => {
    await targetDb?.close();
    await source?.close();
    await target?.drop();
    bucket?.close();
    await s3?.stop();
  });

  it('copies every row of every table, equal column by column, with the insertion order kept', async () => {
    const tables = productTables(source);
    // The installation is realistic: every kind of row the product writes is there to be moved.
    for (const table of [
      'users',
      'car_parks',
      'car_park_users',
      'pcns',
      'pcn_images',
      'pcn_status_history',
      'pcn_duplicates',
      'pcn_audit',
      'activities',
      'site_visits',
      'emails',
      'one_time_tokens',
      'refresh_tokens',
    ]) {
      expect(source.sqlite.prepare(`select count(*) from "${table}"`).pluck().get(), table).toBeGreaterThan(0);
    }
    const { rows: pgTables } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely%'`.execute(
      targetDb.db,
    );
    expect(pgTables.map((row) => row.table_name).sort()).toEqual(tables);

    const withRowid = await tablesWithRowid(targetDb);
    expect([...withRowid].sort()).toEqual(['activities', 'operator_logos', 'pcn_audit', 'pcn_images', 'pcn_status_history']);
    for (const table of tables.filter((name) => name !== 'pcn_counts')) {
      const rows = await rowsOnBothSides(source, targetDb, table, withRowid.has(table));
      expect(rows.postgres, table).toEqual(rows.sqlite);
    }
    // Not copied: PostgreSQL's triggers counted the PCNs as they arrived, to the same numbers.
    const counts = await rowsOnBothSides(source, targetDb, 'pcn_counts', false);
    const nonZero = (rows: string[]) => rows.filter((row) => !row.includes('"n":0'));
    expect(nonZero(counts.postgres)).toEqual(nonZero(counts.sqlite));

    expect(summary.tables.map((copied) => copied.table).sort()).toEqual(tables.filter((table) => table !== 'pcn_counts'));
    for (const copied of summary.tables) {
      expect(copied.rows, copied.table).toBe(source.sqlite.prepare(`select count(*) from "${copied.table}"`).pluck().get());
    }
  });

  it('puts every kept photo into the bucket under its name, with its recorded SHA-256, and no purged one', async () => {
    const photos = source.sqlite.prepare('select file_name, sha256, size, purged_at from pcn_images').all() as Array<{
      file_name: string;
      sha256: string;
      size: number;
      purged_at: string | null;
    }>;
    const kept = photos.filter((photo) => photo.purged_at === null);
    expect(photos.length - kept.length).toBe(1);
    const listed = await bucket.client.send(new ListObjectsV2Command({ Bucket: s3.env.S3_BUCKET, Prefix: `${prefix}/` }));
    expect((listed.Contents ?? []).map((object) => object.Key!.slice(prefix.length + 1)).sort()).toEqual(
      kept.map((photo) => photo.file_name).sort(),
    );
    for (const photo of kept) {
      const stored = await bucket.read(photo.file_name);
      expect(stored, photo.file_name).not.toBeNull();
      expect(sha256Of(stored!)).toBe(photo.sha256);
      expect(Buffer.from(stored!).equals(readFileSync(join(source.config.uploadsDir, photo.file_name)))).toBe(true);
    }
    expect(summary.photos).toEqual({
      expected: kept.length,
      copied: kept.length,
      verified: kept.length,
      purged: 1,
      missing: [],
      bytes: kept.reduce((sum, photo) => sum + photo.size, 0),
    });
    expect(summary.isEvidenceMoved).toBe(true);
    expect(summary.evidenceLocation).toBe(evidenceStore);
    expect(log).toContain('Committing');
  });

  describe('a server started on the migrated PostgreSQL and bucket', () => {
    let server: ServerProcess;

    beforeAll(async () => {
      server = await startServerProcess({
        dataDir: newFolder('parkpatrol-moved-'),
        port: await freePort(),
        env: { ...s3.env, DATABASE_URL: target.url, EVIDENCE_STORE: evidenceStore },
      });
    }, 60_000);

    afterAll(async () => {
      await server?.kill('SIGTERM');
    });

    async function call(
      method: string,
      path: string,
      init: { token?: string; json?: unknown; body?: FormData; headers?: Record<string, string> } = {},
    ) {
      const res = await fetch(`${server.baseUrl}/api${path}`, {
        method,
        headers: {
          ...init.headers,
          ...(init.token && { authorization: `Bearer ${init.token}` }),
          ...(init.json !== undefined && { 'content-type': 'application/json' }),
        },
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      });
      const text = await res.text();
      return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
    }

    async function signIn(email: string): Promise<string> {
      const res = await call('POST', '/auth/login', { json: { email, password: 'password123' } });
      expect(res.status, res.text).toBe(200);
      return res.json.data.token as string;
    }

    it('lets the same people sign in and shows them the same PCN list and details, photos byte for byte', async () => {
      const adminToken = await signIn(installation.admin.email);
      const before = await source.request('GET', '/pcns?scope=all&limit=50', { token: installation.admin.token });
      const after = await call('GET', '/pcns?scope=all&limit=50', { token: adminToken });
      expect(after.status, after.text).toBe(200);
      expect(after.json.data.pcns.length).toBe(installation.pcns.length);
      expect(withoutUrls(after.json)).toEqual(withoutUrls(before.json));

      for (const pcn of installation.pcns) {
        const sourceDetail = await source.request('GET', `/pcns/${pcn.id}`, { token: installation.admin.token });
        const detail = await call('GET', `/pcns/${pcn.id}`, { token: adminToken });
        expect(detail.status, detail.text).toBe(200);
        expect(withoutUrls(detail.json)).toEqual(withoutUrls(sourceDetail.json));
        for (const image of detail.json.data.images as Array<{ url: string | null; sha256: string }>) {
          if (image.url === null) continue;
          const photo = await fetch(`${server.baseUrl}${image.url}`);
          expect(photo.status).toBe(200);
          expect(sha256Of(new Uint8Array(await photo.arrayBuffer()))).toBe(image.sha256);
        }
      }
      // The deleted notice's trail moved too: admins can still read it.
      const trail = await call('GET', `/pcns/${installation.deletedPcnId}/audit`, { token: adminToken });
      expect(trail.status, trail.text).toBe(200);
      expect(trail.json.data.entries.map((entry: { action: string }) => entry.action)).toContain('deleted');
    });

    it('files the next PCN with the next gapless number, and its rows sort after the copied ones', async () => {
      const highest = source.sqlite.prepare('select max(sequence) from pcns').pluck().get() as number;
      const highestImageRowid = source.sqlite.prepare('select max(rowid) from pcn_images').pluck().get() as number;
      const token = await signIn(installation.officer.email);
      const carParkId = source.sqlite.prepare("select id from car_parks where name = 'North'").pluck().get() as string;
      const filed = await call('POST', '/pcns', {
        token,
        body: pcnForm({
          ...validPcnFields(carParkId),
          vehicleRegistration: 'NE22 WPN',
          images: [{ bytes: makeJpeg(42), name: 'after.jpg' }],
        }),
        headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      });
      expect(filed.status, filed.text).toBe(201);
      expect(filed.json.data.pcnNumber).toBe(formatPcnNumber(highest + 1));
      const { rows } = await sql<{ rowid: number }>`select rowid from pcn_images where pcn_id = ${filed.json.data.id}`.execute(targetDb.db);
      expect(rows.map((row) => Number(row.rowid))).toEqual([highestImageRowid + 1]);
    });
  });

  it('refuses a target that already holds rows, and changes nothing there', async () => {
    const before = await sql<{ n: number }>`select count(*) as n from pcn_audit`.execute(targetDb.db);
    const refused = await run(process.execPath, ['scripts/migrate-to-postgres.ts', '--from-data-dir', source.config.dataDir], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: target.url, JWT_SECRET: source.config.jwtSecret },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds rows \(in .*pcns.*\).*never merges into live data/);
    const after = await sql<{ n: number }>`select count(*) as n from pcn_audit`.execute(targetDb.db);
    expect(after.rows).toEqual(before.rows);
  }, 60_000);
});

describe.skipIf(!ON_POSTGRES)('moving an installation whose photo files are not all there', () => {
  let s3: S3Server;
  let source: TestApp;
  let target: PostgresDatabase;
  let targetDb: OpenDatabase;
  let bucket: S3EvidenceStore;
  let bucketOptions: S3EvidenceStoreOptions;
  let lost: string;
  let kept: { fileName: string; bytes: Buffer };
  const prefix = `migrated-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    [s3, target] = await Promise.all([useS3Server(), createPostgresDatabase(process.env.TEST_POSTGRES_URL!)]);
    bucketOptions = {
      bucket: s3.env.S3_BUCKET,
      prefix,
      region: s3.env.AWS_REGION,
      endpoint: s3.env.AWS_ENDPOINT_URL_S3,
      credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY },
    };
    bucket = createS3EvidenceStore(bucketOptions);
    source = await createTestApp({ engine: 'sqlite' });
    const officer = await source.signedInUser('USER');
    const carPark = await source.createCarPark({ assignTo: [officer.id] });
    const pcn = await createPcnViaApi(source, officer.token, carPark.id, { images: [jpegUpload(1), jpegUpload(2)] });
    const [first, second] = source.sqlite
      .prepare('select file_name from pcn_images where pcn_id = ? order by rowid')
      .pluck()
      .all(pcn.id) as string[];
    lost = first!;
    kept = { fileName: second!, bytes: readFileSync(join(source.config.uploadsDir, second!)) };
    unlinkSync(join(source.config.uploadsDir, lost));
    targetDb = connectDatabase({ engine: 'postgres', url: target.url });
  }, 180_000);

  afterAll(async () => {
    await targetDb?.close();
    await source?.close();
    await target?.drop();
    bucket?.close();
    await s3?.stop();
  });

  async function targetRowCount(): Promise<number> {
    const { rows } = await sql<{
      n: number;
    }>`select (select count(*) from users) + (select count(*) from pcns) + (select count(*) from pcn_images) as n`.execute(targetDb.db);
    return Number(rows[0]!.n);
  }

  async function objectsInBucket(): Promise<string[]> {
    const listed = await bucket.client.send(new ListObjectsV2Command({ Bucket: s3.env.S3_BUCKET, Prefix: `${prefix}/` }));
    return (listed.Contents ?? []).map((object) => object.Key!);
  }

  it('refuses, naming the missing file, and leaves neither rows nor objects behind', async () => {
    const moving = migrateToPostgres({ fromDataDir: source.config.dataDir, databaseUrl: target.url, evidence: bucketOptions });
    await expect(moving).rejects.toThrow(MigrationRefusedError);
    await expect(moving).rejects.toThrow(new RegExp(`1 photos .*have no file .*${lost}.*--allow-missing-photos`));
    expect(await targetRowCount()).toBe(0);
    // The photo that was there had been put into the bucket; the failed run took it out again.
    expect(await objectsInBucket()).toEqual([]);
  });

  it('refuses a file that no longer matches the SHA-256 recorded at upload', async () => {
    const path = join(source.config.uploadsDir, kept.fileName);
    writeFileSync(path, makeJpeg(77));
    try {
      await expect(
        migrateToPostgres({
          fromDataDir: source.config.dataDir,
          databaseUrl: target.url,
          evidence: bucketOptions,
          allowMissingPhotos: true,
        }),
      ).rejects.toThrow(new RegExp(`${kept.fileName}.*does not match the SHA-256`));
    } finally {
      writeFileSync(path, kept.bytes);
    }
    expect(await targetRowCount()).toBe(0);
    expect(await objectsInBucket()).toEqual([]);
  });

  it('with --allow-missing-photos moves the rows and reports the file; without a bucket the photos stay on disk', async () => {
    const summary = await migrateToPostgres({ fromDataDir: source.config.dataDir, databaseUrl: target.url, allowMissingPhotos: true });
    expect(summary.photos).toMatchObject({ expected: 2, copied: 0, verified: 1, purged: 0, missing: [lost] });
    expect(summary.isEvidenceMoved).toBe(false);
    expect(summary.evidenceLocation).toBe(source.config.uploadsDir);
    const { rows } = await sql<{ file_name: string }>`select file_name from pcn_images order by rowid`.execute(targetDb.db);
    expect(rows.map((row) => row.file_name)).toEqual([lost, kept.fileName]);
    expect(await objectsInBucket()).toEqual([]);
  });
});
