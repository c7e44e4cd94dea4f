import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '@parkpatrol/shared';
import { signAccessToken } from '../src/auth/access-token.ts';
import { describeEndpoint, ENDPOINTS, type EndpointCase, type PreparedRequest } from './endpoint-table.ts';
import { makeJpeg } from './fixtures.ts';
import { takeFingerprint } from './support/db-fingerprint.ts';
import { ownerFor } from './support/send.ts';
import { actorOf, createWorld, type Actor, type World } from './support/world.ts';
import { createTestApp, ON_POSTGRES, type TestApp } from './test-app.ts';

/**
 * Random and malformed input to every endpoint of the table. Each run takes a
 * valid request from the table, breaks one thing about it, and checks that the answer is never
 * a 500, that a refused request (4xx) is a proper failure envelope and leaves the database and
 * the upload folder exactly as they were.
 */

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(async () => {
  await t.close();
});

// ---------------------------------------------------------------------------------------------
// Valid requests to break: built once per endpoint and built again only after a request that
// may have used them up (any 2xx that is not a GET: a deleted PCN, a consumed token).

type Sender = 'owner' | 'admin' | 'superAdmin';
type Prepared = { request: PreparedRequest; owner: Actor };
const preparedByEndpoint = new Map<EndpointCase, Prepared>();

async function validRequestFor(endpoint: EndpointCase): Promise<Prepared> {
  let prepared = preparedByEndpoint.get(endpoint);
  if (!prepared) {
    const owner = await ownerFor(w, endpoint);
    prepared = { request: await endpoint.prepare(w, owner), owner };
    preparedByEndpoint.set(endpoint, prepared);
  }
  return prepared;
}

// ---------------------------------------------------------------------------------------------
// What a request is on the wire, so every byte of it can be broken.

type WireRequest = { method: string; path: string; headers: Record<string, string>; body?: Uint8Array | string };

async function toWire(endpoint: EndpointCase, prepared: Prepared, sender: Sender): Promise<WireRequest> {
  const { request } = prepared;
  const token = actorOf(w, sender, prepared.owner)!.token;
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...request.headers };
  const wire: WireRequest = { method: endpoint.method, path: request.path, headers };
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    wire.body = JSON.stringify(request.json);
  } else if (request.form !== undefined) {
    const encoded = new Response(request.form);
    headers['content-type'] = encoded.headers.get('content-type')!;
    wire.body = new Uint8Array(await encoded.arrayBuffer());
  }
  return wire;
}

async function sendWire(wire: WireRequest) {
  const canHaveBody = wire.method !== 'GET' && wire.method !== 'HEAD';
  const res = await t.app.request(`/api${wire.path}`, {
    method: wire.method,
    headers: wire.headers,
    ...(canHaveBody && wire.body !== undefined && { body: wire.body as RequestInit['body'] }),
  });
  const text = await res.text();
  // Straight to the app, not through t.request: the jobs a request asked for (thumbnails) are
  // done before the next fingerprint, so a thumbnail half written is not blamed on the next one.
  await t.deps.jobs.whenIdle();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, contentType: res.headers.get('content-type') ?? '' };
}

// ---------------------------------------------------------------------------------------------
// Generators.

/** Header values must be printable ASCII to be sent at all; anything printable goes. */
const headerText = fc.string({ unit: 'grapheme-ascii', maxLength: 120 });
const anyText = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }), headerText);
const nastyText = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '%',
  '%00',
  '%zz',
  '\u0000',
  '..',
  '../..',
  '../../jwt-secret',
  '%2e%2e%2fparkpatrol.sqlite',
  "' OR 1=1 --",
  '"; drop table pcns; --',
  '<script>alert(1)</script>',
  'a'.repeat(5000),
  '9'.repeat(40),
  '00000000-0000-0000-0000-000000000000',
  '\u202e\ud800',
  '__proto__',
  'constructor',
);
const junk = fc.oneof(anyText, nastyText);

const malformedJson = fc.oneof(
  fc.constantFrom('{', '{"a":', '[1,2', '{"email": "x"', 'undefined', "{'a':1}", '{"a":1}}', '\ufeff{}', '1'.repeat(400), '['.repeat(3000)),
  anyText,
);

const contentTypeLie = fc.oneof(
  fc.constantFrom(
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'multipart/form-data; boundary=nope',
    'application/json; charset=utf-16',
    'application/jsonx',
    'image/jpeg',
    'application/octet-stream',
    '*/*',
    ';;;',
  ),
  headerText,
);

const authorizationJunk = fc.oneof(
  headerText,
  fc.constantFrom('Bearer', 'Bearer ', 'Basic YWRtaW46YWRtaW4=', 'Bearer null', 'Bearer undefined', 'bearer a.b.c'),
  headerText.map((s) => `Bearer ${s}`),
  // A well-formed token signed with another secret, and one with alg "none".
  fc.constant('forged-secret'),
  fc.constant('alg-none'),
);

const queryJunk = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom('page', 'limit', 'status', 'search', 'carParkId', 'from', 'to', 'isActive', 'role', 'exp', 'sig'), anyText),
    junk,
  ),
  { minLength: 1, maxLength: 5 },
);

type Mutation =
  | { kind: 'json body'; value: unknown }
  | { kind: 'malformed body'; text: string; contentType: string }
  | { kind: 'content-type lie'; contentType: string }
  | { kind: 'no content-type' }
  | { kind: 'json field'; field: string; value: unknown }
  | { kind: 'query'; pairs: Array<[string, string]> }
  | { kind: 'idempotency key'; value: string }
  | { kind: 'authorization'; value: string }
  | { kind: 'path segment'; value: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('json body' as const),
    value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.anything({ maxDepth: 2 }).map(toJsonable)),
  }),
  fc.record({
    kind: fc.constant('malformed body' as const),
    text: malformedJson,
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8'),
  }),
  fc.record({ kind: fc.constant('content-type lie' as const), contentType: contentTypeLie }),
  fc.constant({ kind: 'no content-type' as const }),
  fc.record({
    kind: fc.constant('json field' as const),
    field: fc.oneof(
      fc.constantFrom(
        'email',
        'password',
        'token',
        'refreshToken',
        'firstName',
        'role',
        'userId',
        'userIds',
        'status',
        'adminNotes',
        'name',
        'siteCode',
        'isActive',
        'carParkIds',
        'path',
        'newPassword',
        'currentPassword',
      ),
      anyText,
    ),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), nastyText),
  }),
  fc.record({ kind: fc.constant('query' as const), pairs: queryJunk }),
  fc.record({
    kind: fc.constant('idempotency key' as const),
    value: fc.oneof(
      headerText,
      fc.constantFrom('', 'not-a-uuid', '00000000-0000-0000-0000-00000000000g', `${'a'.repeat(8)}-aaaa-aaaa-aaaa-${'a'.repeat(13)}`),
    ),
  }),
  fc.record({ kind: fc.constant('authorization' as const), value: authorizationJunk }),
  fc.record({ kind: fc.constant('path segment' as const), value: junk }),
);

function toJsonable(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value) ?? 'null');
  } catch {
    return null;
  }
}

async function authorizationValue(value: string): Promise<string> {
  if (value === 'forged-secret') {
    return `Bearer ${await signAccessToken('another-secret-that-is-long-enough-0123456789', { id: w.admin.id, role: 'SUPER_ADMIN' }, randomUUID(), new Date())}`;
  }
  if (value === 'alg-none') {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    return `Bearer ${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: w.admin.id, role: 'SUPER_ADMIN', iat: now, exp: now + 900 })}.`;
  }
  return value;
}

/** Percent-encodes as a browser would, lone surrogates becoming U+FFFD rather than throwing. */
function encodeSegment(value: string): string {
  return encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'));
}

/**
 * Replaces the segments a route reads as :id, :userId or :fileName. URL-safe junk (dots,
 * percent escapes) goes in as it is, so `..` and `%2e%2e%2f` reach the router raw.
 */
function replacePathSegments(path: string, endpoint: EndpointCase, value: string): string {
  const [pathname, query] = path.split('?') as [string, string | undefined];
  const template = endpoint.route.split('/');
  const segment = /^[\w.%-]{1,200}$/.test(value) ? value : encodeSegment(value);
  const replaced = pathname
    .split('/')
    .map((part, index) => (template[index]?.startsWith(':') ? segment : part))
    .join('/');
  return replaced + (query ? `?${query}` : '');
}

async function applyMutation(wire: WireRequest, endpoint: EndpointCase, m: Mutation): Promise<WireRequest> {
  const out: WireRequest = { ...wire, headers: { ...wire.headers } };
  switch (m.kind) {
    case 'json body':
      out.headers['content-type'] = 'application/json';
      out.body = JSON.stringify(m.value) ?? 'null';
      break;
    case 'malformed body':
      out.headers['content-type'] = m.contentType;
      out.body = m.text;
      break;
    case 'content-type lie':
      out.headers['content-type'] = m.contentType;
      out.body ??= '{"a":1}';
      break;
    case 'no content-type':
      delete out.headers['content-type'];
      out.body ??= '{}';
      break;
    case 'json field': {
      const base = typeof wire.body === 'string' ? (JSON.parse(wire.body) as Record<string, unknown>) : {};
      out.headers['content-type'] = 'application/json';
      out.body = JSON.stringify({ ...base, [m.field]: m.value });
      break;
    }
    case 'query': {
      const params = new URLSearchParams(m.pairs);
      out.path = `${wire.path}${wire.path.includes('?') ? '&' : '?'}${params.toString()}`;
      break;
    }
    case 'idempotency key':
      out.headers[IDEMPOTENCY_KEY_HEADER] = m.value;
      break;
    case 'authorization':
      out.headers.authorization = await authorizationValue(m.value);
      break;
    case 'path segment':
      out.path = endpoint.route.includes(':')
        ? replacePathSegments(wire.path, endpoint, m.value)
        : `${wire.path.split('?')[0]}/${encodeSegment(m.value)}`;
      break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Multipart: random parts, file contents, names and types, and broken framing.

const IMAGE_MAGIC = {
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  webp: [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
  heic: [0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63],
};

const realJpeg = makeJpeg(7);
const fileBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.constant(realJpeg),
  fc.nat({ max: realJpeg.length - 1 }).map((n) => realJpeg.slice(0, n)),
  fc.uint8Array({ maxLength: 600 }),
  fc
    .constantFrom(...Object.values(IMAGE_MAGIC))
    .chain((magic) => fc.uint8Array({ maxLength: 200 }).map((rest) => new Uint8Array([...magic, ...rest]))),
  fc.constant(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
  fc.constant(new TextEncoder().encode('GIF89a')),
);

const fieldName = fc.oneof(
  fc.constantFrom(
    'vehicleRegistration',
    'carParkId',
    'offenceType',
    'description',
    'location',
    'observedAt',
    'images',
    'imageTakenAt',
    'removeImageIds',
  ),
  anyText,
);

type MultipartShape = {
  textParts: Array<[string, string]>;
  files: Array<{ field: string; bytes: Uint8Array; name: string; type: string }>;
  framing: 'intact' | 'truncated' | 'boundary lie' | 'no boundary' | 'garbage appended';
  cut: number;
};

const multipartShape: fc.Arbitrary<MultipartShape> = fc.record({
  textParts: fc.array(fc.tuple(fieldName, junk), { maxLength: 8 }),
  files: fc.array(
    fc.record({
      field: fc.oneof(fc.constant('images'), fieldName),
      bytes: fileBytes,
      name: fc.oneof(
        fc.constantFrom('photo.jpg', '', '../../../etc/passwd', 'a'.repeat(400), 'x.svg', 'évidence ü.heic'),
        fc.string({ maxLength: 40 }),
      ),
      type: fc.oneof(fc.constantFrom('image/jpeg', 'image/png', 'image/svg+xml', 'text/html', 'application/octet-stream', ''), headerText),
    }),
    { maxLength: 12 },
  ),
  framing: fc.constantFrom('intact', 'intact', 'truncated', 'boundary lie', 'no boundary', 'garbage appended'),
  cut: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** The valid form of the table with the generated parts added (or in place of it), then framed. */
async function multipartWire(
  wire: WireRequest,
  endpoint: EndpointCase,
  shape: MultipartShape,
  keepValidFields: boolean,
): Promise<WireRequest> {
  const form = new FormData();
  if (keepValidFields) {
    const valid = await validRequestFor(endpoint);
    for (const [name, value] of valid.request.form!.entries()) if (typeof value === 'string') form.append(name, value);
  }
  for (const [name, value] of shape.textParts) form.append(name, value);
  for (const file of shape.files) form.append(file.field, new Blob([file.bytes], { type: file.type }), file.name);
  const encoded = new Response(form);
  let contentType = encoded.headers.get('content-type')!;
  let body = new Uint8Array(await encoded.arrayBuffer());
  switch (shape.framing) {
    case 'truncated':
      body = body.slice(0, Math.floor(body.length * shape.cut));
      break;
    case 'boundary lie':
      contentType = 'multipart/form-data; boundary=----not-the-boundary';
      break;
    case 'no boundary':
      contentType = 'multipart/form-data';
      break;
    case 'garbage appended':
      body = new Uint8Array([...body, ...new TextEncoder().encode('\r\n--garbage--\r\n\u0000')]);
      break;
    case 'intact':
      break;
  }
  return { ...wire, headers: { ...wire.headers, 'content-type': contentType }, body };
}

// ---------------------------------------------------------------------------------------------
// The check every run ends with.

/** The routes that answer before they email (so timing reveals nothing: requestAccountEmail). */
const ANSWER_BEFORE_EMAILING = new Set(['/auth/forgot-password', '/auth/device-link']);

/**
 * After a 2xx from a route that emails after answering, wait until that background write is done
 * and the database is still, so it is not blamed on the next request.
 */
async function waitForBackgroundWork(endpoint: EndpointCase): Promise<void> {
  if (!ANSWER_BEFORE_EMAILING.has(endpoint.route)) return;
  const deadline = Date.now() + 5000;
  let last = JSON.stringify(await takeFingerprint(t.db, t.config.uploadsDir));
  let stableFor = 0;
  while (stableFor < 3) {
    if (Date.now() > deadline) throw new Error(`the email of ${endpoint.route} was never recorded`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = JSON.stringify(await takeFingerprint(t.db, t.config.uploadsDir));
    const { pending } = await t.db
      .selectFrom('emails')
      .select((eb) => eb.fn.countAll<number>().as('pending'))
      .where('error', '=', 'not sent yet')
      .executeTakeFirstOrThrow();
    stableFor = now === last && pending === 0 ? stableFor + 1 : 0;
    last = now;
  }
}

async function checkOneRequest(endpoint: EndpointCase, wire: WireRequest): Promise<void> {
  const before = await takeFingerprint(t.db, t.config.uploadsDir);
  const res = await sendWire(wire);
  const where = `${wire.method} ${wire.path.slice(0, 200)} -> ${res.status} ${res.text.slice(0, 200)}`;
  expect(res.status, where).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.json, where).toMatchObject({ success: false, code: expect.any(String), message: expect.any(String) });
    expect(await takeFingerprint(t.db, t.config.uploadsDir), `a refused request changed the database or files: ${where}`).toEqual(before);
  } else if (wire.method !== 'GET') {
    await waitForBackgroundWork(endpoint);
    preparedByEndpoint.delete(endpoint);
  }
}

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const MULTIPART_RUNS = Number(process.env.FUZZ_MULTIPART_RUNS ?? 200);
/**
 * Bounded runs keep this file to seconds in CI; FUZZ_RUNS=5000 hunts longer. The floor leaves room
 * for a loaded 2-core runner: every endpoint is prepared once before the runs.
 */
const PROPERTY_TIMEOUT_MS = Math.max(120_000, (FUZZ_RUNS + MULTIPART_RUNS) * 100);
const sender = fc.constantFrom<Sender>('owner', 'admin', 'superAdmin');

describe('a NUL byte, which PostgreSQL cannot store in text', () => {
  it('is a clear 4xx and changes nothing, in a path id, a search and a JSON field, on either engine', async () => {
    const before = await takeFingerprint(t.db, t.config.uploadsDir);
    const token = w.superAdmin.token;
    const answers = [
      await t.request('DELETE', '/car-parks/%00', { token }),
      await t.request('GET', '/pcns?scope=all&search=ab%00cd', { token }),
      await t.request('GET', `/users/${encodeURIComponent('\u0000')}`, { token }),
      await t.request('POST', '/auth/forgot-password', { json: { email: 'nul\u0000@example.com' } }),
    ];
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.json)).toBeGreaterThanOrEqual(200);
      expect(res.status, JSON.stringify(res.json)).toBeLessThan(500);
      if (res.status >= 400)
        expect(res.json).toMatchObject({ success: false, code: expect.not.stringMatching(/^INTERNAL$/), message: expect.any(String) });
    }
    expect(await takeFingerprint(t.db, t.config.uploadsDir)).toEqual(before);
  });
});

describe('bad input to every endpoint', () => {
  it(
    'never answers 500 and a refused request changes nothing, for broken bodies, queries, headers and paths',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ENDPOINTS), sender, mutation, async (endpoint, who, m) => {
          const original = await toWire(endpoint, await validRequestFor(endpoint), who);
          await checkOneRequest(endpoint, await applyMutation(original, endpoint, m));
        }),
        { numRuns: FUZZ_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  const multipartEndpoints = ENDPOINTS.filter((e) => e.body === 'multipart');
  it(
    `never answers 500 and a refused upload leaves no file or row, for random multipart to ${multipartEndpoints.map(describeEndpoint).join(' and ')}`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...multipartEndpoints),
          sender,
          multipartShape,
          fc.boolean(),
          async (endpoint, who, shape, keepValid) => {
            const original = await toWire(endpoint, await validRequestFor(endpoint), who);
            await checkOneRequest(endpoint, await multipartWire(original, endpoint, shape, keepValid));
          },
        ),
        { numRuns: MULTIPART_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it.skipIf(ON_POSTGRES)('leaves a SQLite file that passes integrity and foreign key checks', () => {
    expect(t.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(t.sqlite.pragma('foreign_key_check')).toEqual([]);
  });

  it('has a fingerprint that sees a write, so "unchanged" above means something', async () => {
    const before = await takeFingerprint(t.db, t.config.uploadsDir);
    await t.createUser();
    expect(await takeFingerprint(t.db, t.config.uploadsDir)).not.toEqual(before);
  });

  it('leaves every file matching a row (a notice’s photo, an appeal’s attachment, awaiting confirmation or not, a document sent, a batch of letters, an evidence pack or a debt recovery batch)', async () => {
    const photos = await t.db.selectFrom('pcn_images').select('file_name').execute();
    const attachments = await t.db.selectFrom('appeal_attachments').select('file_name').execute();
    const awaiting = await t.db.selectFrom('pending_appeal_attachments').select('file_name').execute();
    const documents = await t.db.selectFrom('sent_documents').select('file_name').execute();
    const batches = await t.db.selectFrom('debt_recovery_batches').select('file_name').execute();
    const made = async (table: 'letter_batches' | 'evidence_packs') =>
      (await t.db.selectFrom(table).select('file_name').execute()).flatMap((row) => (row.file_name ? [{ file_name: row.file_name }] : []));
    const letterBatches = await made('letter_batches');
    const packs = await made('evidence_packs');
    // A confirmed appeal's attachments keep their rows on its confirmation until it expires: one file, two rows.
    const rows = [
      ...new Set(
        [...photos, ...attachments, ...awaiting, ...documents, ...batches, ...letterBatches, ...packs].map((row) => row.file_name),
      ),
    ].sort();
    expect((await takeFingerprint(t.db, t.config.uploadsDir)).uploads).toEqual(rows);
  });
});
