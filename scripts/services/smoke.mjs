// Proof that the real-server scripts work: starts each service, talks to it with the client the API
// will use (`pg`, `@aws-sdk/client-s3`, both dependencies of the api workspace), stops it, and checks
// nothing is left behind. Prints how long install/start/stop took.
//
//   node scripts/services/smoke.mjs              # both
//   node scripts/services/smoke.mjs postgres     # or radosgw
//
// A node:test file (the repo's vitest projects cover shared/api/web only, not scripts/).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { root } from '../ensure-installed.mjs';

// Resolved as the api workspace resolves them (they are its dependencies).
const requireFromApi = createRequire(join(root, 'api', 'package.json'));
const only = process.argv[2];

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function timed(label, fn) {
  const t0 = performance.now();
  const value = await fn();
  console.log(`# ${label}: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  return value;
}

test('postgres: start, create table, insert, select, stop', { skip: only && only !== 'postgres' }, async () => {
  const { start } = await import('./postgres.mjs');
  const pg = await timed('postgres start (install if needed + initdb + createdb)', () => start());
  try {
    assert.match(pg.env.DATABASE_URL, /^postgres:\/\/parkpatrol:parkpatrol@127\.0\.0\.1:\d+\/parkpatrol$/);
    console.log(`# DATABASE_URL=${pg.env.DATABASE_URL}`);
    const { Client } = requireFromApi('pg');
    const client = new Client({ connectionString: pg.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('CREATE TABLE tickets (id serial PRIMARY KEY, plate text NOT NULL, issued_at timestamptz DEFAULT now())');
      await client.query('INSERT INTO tickets (plate) VALUES ($1), ($2)', ['AB12 CDE', 'XY99 ZZZ']);
      const { rows } = await client.query('SELECT plate FROM tickets ORDER BY id');
      assert.deepEqual(
        rows.map((r) => r.plate),
        ['AB12 CDE', 'XY99 ZZZ'],
      );
      const {
        rows: [who],
      } = await client.query('SELECT current_user AS u, current_database() AS db');
      assert.deepEqual(who, { u: 'parkpatrol', db: 'parkpatrol' });
    } finally {
      await client.end();
    }
    // Password auth is real: a wrong password is refused.
    const bad = new Client({ connectionString: pg.env.DATABASE_URL.replace(':parkpatrol@', ':wrong@') });
    await assert.rejects(bad.connect(), /password authentication failed/);
  } finally {
    await timed('postgres stop', () => pg.stop());
  }
  assert.equal(existsSync(pg.dir), false, 'temp folder removed');
  for (const d of pg.daemons) assert.equal(alive(d.pid), false, `${d.name} (${d.pid}) stopped`);
});

test('radosgw: start, PutObject, GetObject (stream), ListObjectsV2, DeleteObject, stop', { skip: only && only !== 'radosgw' }, async () => {
  const { start } = await import('./radosgw.mjs');
  const s3 = await timed('radosgw start (install if needed + mon + osd + rgw + user + bucket)', () => start());
  try {
    console.log(
      `# ${Object.entries(s3.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    );
    const { S3Client, PutObjectCommand, GetObjectCommand, ListObjectsV2Command, DeleteObjectCommand } =
      requireFromApi('@aws-sdk/client-s3');
    const client = new S3Client({
      region: s3.env.AWS_REGION,
      endpoint: s3.env.AWS_ENDPOINT_URL_S3,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY },
    });
    const Bucket = s3.env.EVIDENCE_STORE.replace('s3://', '');
    assert.equal(Bucket, s3.env.S3_BUCKET);
    const body = Buffer.alloc(3 * 1024 * 1024 + 17, 7); // a photo-sized object, more than one rados chunk
    body.write('evidence photo', 0);
    await timed('S3 round trip (put 3 MiB, get, list, delete)', async () => {
      await client.send(new PutObjectCommand({ Bucket, Key: 'cases/42/photo-1.jpg', Body: body, ContentType: 'image/jpeg' }));
      await client.send(new PutObjectCommand({ Bucket, Key: 'cases/42/note.txt', Body: 'hello' }));

      const got = await client.send(new GetObjectCommand({ Bucket, Key: 'cases/42/photo-1.jpg' }));
      assert.equal(got.ContentType, 'image/jpeg');
      const chunks = [];
      for await (const chunk of got.Body) chunks.push(chunk); // the body as a Node stream
      assert.ok(chunks.length > 1, 'streamed in several chunks');
      assert.ok(Buffer.concat(chunks).equals(body), 'same bytes back');

      const listed = await client.send(new ListObjectsV2Command({ Bucket, Prefix: 'cases/42/' }));
      assert.deepEqual(listed.Contents.map((o) => o.Key).sort(), ['cases/42/note.txt', 'cases/42/photo-1.jpg']);
      assert.equal(listed.Contents.find((o) => o.Key.endsWith('.jpg')).Size, body.length);

      await client.send(new DeleteObjectCommand({ Bucket, Key: 'cases/42/photo-1.jpg' }));
      const after = await client.send(new ListObjectsV2Command({ Bucket }));
      assert.deepEqual(
        (after.Contents ?? []).map((o) => o.Key),
        ['cases/42/note.txt'],
      );
      await assert.rejects(client.send(new GetObjectCommand({ Bucket, Key: 'cases/42/photo-1.jpg' })), { name: 'NoSuchKey' });
    });
    // Signatures are checked: a wrong secret is refused.
    const wrong = new S3Client({
      region: 'us-east-1',
      endpoint: s3.env.AWS_ENDPOINT_URL_S3,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID, secretAccessKey: 'nope' },
    });
    await assert.rejects(wrong.send(new ListObjectsV2Command({ Bucket })), { name: 'SignatureDoesNotMatch' });
    client.destroy();
    wrong.destroy();
  } finally {
    await timed('radosgw stop', () => s3.stop());
  }
  assert.equal(existsSync(s3.dir), false, 'temp folder removed');
  for (const d of s3.daemons) assert.equal(alive(d.pid), false, `${d.name} (${d.pid}) stopped`);
});
