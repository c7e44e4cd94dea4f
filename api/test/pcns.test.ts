import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  draftReferenceOfKey,
  ERROR_MESSAGES,
  IDEMPOTENCY_KEY_HEADER,
  MAX_IMAGE_BYTES,
  PCN_COUNT_CAP,
  PCN_STATUSES,
  PCN_STATUS_TRANSITIONS,
  SERVER_MESSAGES,
  VALIDATION_MESSAGES,
  type ActivityType,
  type Pcn,
  type PcnStats,
  type PcnStatus,
} from '@parkpatrol/shared';
import { createTestApp, ON_POSTGRES, type Session, type TestApp } from './test-app.ts';
import {
  createPcnViaApi,
  insertPcnsDirectly,
  jpegUpload,
  listUploadFiles,
  makeOversizedJpeg,
  pcnForm,
  postPcn,
  validPcnFields,
} from './fixtures.ts';

async function setUp() {
  const t = await createTestApp();
  const owner = await t.signedInUser('USER', { firstName: 'Olive', lastName: 'Owner' });
  const other = await t.signedInUser('USER', { firstName: 'Oscar', lastName: 'Other' });
  const admin = await t.signedInUser('ADMIN', { firstName: 'Ada', lastName: 'Admin' });
  const superAdmin = await t.signedInUser('SUPER_ADMIN', { firstName: 'Sue', lastName: 'Super' });
  const carPark = await t.createCarPark({ name: 'North Deck', assignTo: [owner.id, other.id] });
  return { t, owner, other, admin, superAdmin, carPark };
}

async function countRows(t: TestApp, table: 'pcns' | 'pcn_images' | 'pcn_status_history') {
  const row = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function activitiesOf(t: TestApp, type: ActivityType, pcnId: string) {
  return t.db.selectFrom('activities').selectAll().where('activity_type', '=', type).where('pcn_id', '=', pcnId).execute();
}

describe('POST /pcns', () => {
  let t: TestApp;
  let owner: Session;
  let other: Session;
  let admin: Session;
  let carPark: { id: string };
  beforeAll(async () => {
    ({ t, owner, other, admin, carPark } = await setUp());
  });
  afterAll(() => t.close());

  it('refuses an anonymous caller with 401', async () => {
    const res = await postPcn(t, undefined, { ...validPcnFields(carPark.id), images: [jpegUpload(1)] });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
  });

  it('creates a SUBMITTED PCN with a normalised registration, stored evidence and a first history row', async () => {
    const before = listUploadFiles(t);
    const photos = [jpegUpload(1), jpegUpload(2)];
    const res = await postPcn(t, owner.token, {
      ...validPcnFields(carPark.id),
      observedAt: '2026-01-05T09:30:00+01:00',
      // Issued that morning: a first sighting is within the day of the notice.
      issuedAt: '2026-01-05T09:40:00+01:00',
      images: photos,
      imageTakenAt: ['2026-01-05T09:29:00Z', ''],
    });
    expect(res.status).toBe(201);
    const pcn: Pcn = res.json.data;
    expect(pcn).toMatchObject({
      vehicleRegistration: 'AB12CDE',
      carParkId: carPark.id,
      carPark: { id: carPark.id, name: 'North Deck' },
      offenceType: 'PARKING_WITHOUT_PERMIT',
      description: 'No permit displayed',
      location: 'Bay 14, level 2',
      status: 'SUBMITTED',
      adminNotes: null,
      observedAt: '2026-01-05T08:30:00.000Z',
      createdBy: { id: owner.id, firstName: 'Olive', lastName: 'Owner' },
    });
    expect(pcn.pcnNumber).toMatch(/^\d{8}$/);
    expect(pcn.images).toHaveLength(2);
    expect(pcn.images[0]).toMatchObject({ mimeType: 'image/jpeg', size: photos[0]!.bytes.length, takenAt: '2026-01-05T09:29:00.000Z' });
    expect(pcn.images[1]!.takenAt).toBeNull();
    expect(pcn.images[0]!.fileName).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(pcn.images[0]!.url).toMatch(new RegExp(`^/api/uploads/${pcn.images[0]!.fileName}\\?exp=\\d+&sid=[0-9a-f-]+&sig=`));
    expect(pcn.statusHistory).toEqual([
      expect.objectContaining({
        fromStatus: null,
        toStatus: 'SUBMITTED',
        changedBy: { id: owner.id, firstName: 'Olive', lastName: 'Owner' },
      }),
    ]);
    const added = listUploadFiles(t).filter((f) => !before.includes(f));
    expect(added.sort()).toEqual(pcn.images.map((i) => i.fileName).sort());

    const { createHash } = await import('node:crypto');
    expect(pcn.images[0]!.sha256).toBe(createHash('sha256').update(photos[0]!.bytes).digest('hex'));
    expect(await activitiesOf(t, 'PCN_CREATED', pcn.id)).toHaveLength(1);
  });

  it('numbers PCNs sequentially, zero-padded to 8 digits', async () => {
    const first = await createPcnViaApi(t, owner.token, carPark.id);
    const second = await createPcnViaApi(t, owner.token, carPark.id);
    expect(Number(second.pcnNumber)).toBe(Number(first.pcnNumber) + 1);
    expect(second.pcnNumber).toHaveLength(8);
  });

  it('accepts a PCN without photos (the four-photo request is guidance only)', async () => {
    const res = await postPcn(t, owner.token, validPcnFields(carPark.id));
    expect(res.status).toBe(201);
    expect(res.json.data.images).toEqual([]);
  });

  it('requires a UUID Idempotency-Key', async () => {
    const missing = await postPcn(t, owner.token, validPcnFields(carPark.id), null);
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe(SERVER_MESSAGES.idempotencyKeyInvalid);
    const invalid = await postPcn(t, owner.token, validPcnFields(carPark.id), 'not-a-uuid');
    expect(invalid.status).toBe(400);
    expect(invalid.json.message).toBe(SERVER_MESSAGES.idempotencyKeyInvalid);
  });

  it('refuses invalid fields with 400 and a message per field', async () => {
    const res = await postPcn(t, owner.token, {
      carParkId: carPark.id,
      vehicleRegistration: 'A',
      offenceType: 'NOPE' as never,
      location: '',
    });
    expect(res.status).toBe(400);
    expect(res.json.details).toMatchObject({
      vehicleRegistration: VALIDATION_MESSAGES.registrationInvalid,
      offenceType: VALIDATION_MESSAGES.offenceTypeRequired,
      location: VALIDATION_MESSAGES.locationRequired,
    });
  });

  it('refuses a body that is not multipart with 415 and a malformed one with 400', async () => {
    const json = await t.request('POST', '/pcns', {
      token: owner.token,
      json: validPcnFields(carPark.id),
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(json.status).toBe(415);
    const broken = await t.request('POST', '/pcns', {
      token: owner.token,
      body: '--xyz\r\nContent-Disposition: form-data; name="location"\r\n\r\nhalf a part',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz', [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });
    expect(broken.status).toBe(400);
    expect(broken.json.message).toBe(SERVER_MESSAGES.invalidMultipart);
  });

  it('lets a USER file only against a car park assigned to them', async () => {
    const unassigned = await t.createCarPark({ name: 'Not Yours' });
    const res = await postPcn(t, owner.token, { ...validPcnFields(unassigned.id), images: [jpegUpload(3)] });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(SERVER_MESSAGES.carParkNotAssigned);
    const byAdmin = await postPcn(t, admin.token, validPcnFields(unassigned.id));
    expect(byAdmin.status).toBe(201);
  });

  it('refuses an inactive or unknown car park', async () => {
    const inactive = await t.createCarPark({ isActive: false, assignTo: [owner.id] });
    expect((await postPcn(t, owner.token, validPcnFields(inactive.id))).status).toBe(400);
    expect((await postPcn(t, admin.token, validPcnFields(inactive.id))).status).toBe(400);
    const unknown = await postPcn(t, admin.token, validPcnFields(randomUUID()));
    expect(unknown.status).toBe(400);
    expect(unknown.json.details.carParkId).toBe(SERVER_MESSAGES.carParkNotFound);
  });

  describe('exactly once', () => {
    it('returns the same PCN when the idempotency key is replayed, without a second row or files', async () => {
      const key = randomUUID();
      const input = { ...validPcnFields(carPark.id), images: [jpegUpload(10), jpegUpload(11)] };
      const first = await postPcn(t, owner.token, input, key);
      expect(first.status).toBe(201);
      const rowsAfterFirst = await countRows(t, 'pcns');
      const filesAfterFirst = listUploadFiles(t);

      // The phone never saw the first answer (signal dropped) and sends the draft again.
      const replay = await postPcn(t, owner.token, input, key);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.json.data.id).toBe(first.json.data.id);
      expect(replay.json.data.pcnNumber).toBe(first.json.data.pcnNumber);
      expect(replay.json.data.images.map((i: { fileName: string }) => i.fileName)).toEqual(
        first.json.data.images.map((i: { fileName: string }) => i.fileName),
      );
      expect(await countRows(t, 'pcns')).toBe(rowsAfterFirst);
      expect(listUploadFiles(t)).toEqual(filesAfterFirst);
      expect(await activitiesOf(t, 'PCN_CREATED', first.json.data.id)).toHaveLength(1);
    });

    it('treats the key as the same whatever its letter case', async () => {
      const key = randomUUID();
      const input = validPcnFields(carPark.id);
      const first = await postPcn(t, owner.token, input, key);
      const replay = await postPcn(t, owner.token, input, key.toUpperCase());
      expect(replay.json.data.id).toBe(first.json.data.id);
    });

    it('answers 422 when the same key comes with different fields or photos', async () => {
      const key = randomUUID();
      const input = { ...validPcnFields(carPark.id), images: [jpegUpload(20)] };
      expect((await postPcn(t, owner.token, input, key)).status).toBe(201);
      const rows = await countRows(t, 'pcns');
      const files = listUploadFiles(t);

      const otherFields = await postPcn(t, owner.token, { ...input, location: 'Bay 99' }, key);
      expect(otherFields.status).toBe(422);
      expect(otherFields.json).toMatchObject({ code: 'IDEMPOTENCY_MISMATCH', message: SERVER_MESSAGES.idempotencyKeyReused });
      const otherPhoto = await postPcn(t, owner.token, { ...input, images: [jpegUpload(21)] }, key);
      expect(otherPhoto.status).toBe(422);
      expect(await countRows(t, 'pcns')).toBe(rows);
      expect(listUploadFiles(t)).toEqual(files);
    });

    it('scopes keys per user: another user with the same key makes their own PCN', async () => {
      const key = randomUUID();
      const mine = await postPcn(t, owner.token, validPcnFields(carPark.id), key);
      const theirs = await postPcn(t, other.token, validPcnFields(carPark.id), key);
      expect(theirs.status).toBe(201);
      expect(theirs.json.data.id).not.toBe(mine.json.data.id);
    });

    it('makes one PCN from concurrent requests with one key, and leaves only its files', async () => {
      const key = randomUUID();
      const rows = await countRows(t, 'pcns');
      const files = listUploadFiles(t);
      const input = { ...validPcnFields(carPark.id), images: [jpegUpload(30), jpegUpload(31), jpegUpload(32)] };
      const answers = await Promise.all(Array.from({ length: 4 }, () => postPcn(t, owner.token, input, key)));
      for (const answer of answers) expect(answer.status).toBe(201);
      const ids = new Set(answers.map((a) => a.json.data.id));
      expect(ids.size).toBe(1);
      expect(await countRows(t, 'pcns')).toBe(rows + 1);
      const added = listUploadFiles(t).filter((f) => !files.includes(f));
      expect(added.sort()).toEqual(answers[0]!.json.data.images.map((i: { fileName: string }) => i.fileName).sort());
    });
  });

  describe('evidence checks', () => {
    it('refuses a text file renamed .jpg with 415 and stores nothing', async () => {
      const rows = await countRows(t, 'pcns');
      const files = listUploadFiles(t);
      const fake = { bytes: new TextEncoder().encode('definitely not a photo'), name: 'plate.jpg', type: 'image/jpeg' };
      const res = await postPcn(t, owner.token, { ...validPcnFields(carPark.id), images: [fake] });
      expect(res.status).toBe(415);
      expect(res.json.message).toContain(VALIDATION_MESSAGES.imageWrongType);
      expect(res.json.message).toContain('plate.jpg');
      expect(res.json.details.images).toBe(VALIDATION_MESSAGES.imageWrongType);
      expect(await countRows(t, 'pcns')).toBe(rows);
      expect(listUploadFiles(t)).toEqual(files);
    });

    it('refuses an 11 MB image with 413', async () => {
      const files = listUploadFiles(t);
      const big = { bytes: makeOversizedJpeg(11 * 1024 * 1024), name: 'big.jpg' };
      const res = await postPcn(t, owner.token, { ...validPcnFields(carPark.id), images: [jpegUpload(40), big] });
      expect(res.status).toBe(413);
      expect(res.json.message).toBe(VALIDATION_MESSAGES.imageTooLarge);
      expect(listUploadFiles(t)).toEqual(files);
    });

    it('accepts an image of exactly 10 MB', async () => {
      const res = await postPcn(t, owner.token, { ...validPcnFields(carPark.id), images: [{ bytes: makeOversizedJpeg(MAX_IMAGE_BYTES) }] });
      expect(res.status).toBe(201);
      expect(res.json.data.images[0].size).toBe(MAX_IMAGE_BYTES);
    });

    it('refuses more than 10 images with 413', async () => {
      const images = Array.from({ length: 11 }, (_, i) => jpegUpload(50 + i));
      const res = await postPcn(t, owner.token, { ...validPcnFields(carPark.id), images });
      expect(res.status).toBe(413);
      expect(res.json.message).toBe(VALIDATION_MESSAGES.tooManyImages);
    });

    it('refuses a body larger than the upload limit before parsing it', async () => {
      const res = await t.request('POST', '/pcns', {
        token: owner.token,
        body: 'x',
        headers: {
          'content-type': 'multipart/form-data; boundary=xyz',
          'content-length': String(200 * 1024 * 1024),
          [IDEMPOTENCY_KEY_HEADER]: randomUUID(),
        },
      });
      expect(res.status).toBe(413);
      expect(res.json.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('leaves no file and no row when the third of several images is invalid', async () => {
      const rows = await countRows(t, 'pcns');
      const files = listUploadFiles(t);
      const images = [jpegUpload(60), jpegUpload(61), { bytes: new TextEncoder().encode('<html>'), name: 'x.jpg' }, jpegUpload(62)];
      const res = await postPcn(t, owner.token, { ...validPcnFields(carPark.id), images });
      expect(res.status).toBe(415);
      expect(await countRows(t, 'pcns')).toBe(rows);
      expect(listUploadFiles(t)).toEqual(files);
    });

    it('leaves no file and no row when the upload is cut off mid-body', async () => {
      const rows = await countRows(t, 'pcns');
      const files = listUploadFiles(t);
      const whole = new Uint8Array(
        await new Response(pcnForm({ ...validPcnFields(carPark.id), images: [jpegUpload(70), jpegUpload(71)] })).arrayBuffer(),
      );
      const boundary = new TextDecoder().decode(whole.subarray(2, whole.indexOf(13)));
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(whole.subarray(0, Math.floor(whole.length / 2)));
          } else {
            controller.error(new Error('connection reset by peer'));
          }
        },
      });
      const res = await t.app.request('/api/pcns', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          [IDEMPOTENCY_KEY_HEADER]: randomUUID(),
        },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(await countRows(t, 'pcns')).toBe(rows);
      expect(listUploadFiles(t)).toEqual(files);
    });

    it('refuses an invalid per-image time', async () => {
      const res = await postPcn(t, owner.token, { ...validPcnFields(carPark.id), images: [jpegUpload(80)], imageTakenAt: ['yesterday'] });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe(SERVER_MESSAGES.imageTakenAtInvalid);
    });
  });
});

describe('GET /pcns and /pcns/stats over a few hundred PCNs', () => {
  let t: TestApp;
  let owner: Session;
  let other: Session;
  let admin: Session;
  let superAdmin: Session;
  let carPark: { id: string };
  let secondCarPark: { id: string };
  let made: Array<{ id: string; pcnNumber: string }>;
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const HOUR = 3600 * 1000;

  beforeAll(async () => {
    ({ t, owner, other, admin, superAdmin, carPark } = await setUp());
    secondCarPark = await t.createCarPark({ name: 'South Lot', assignTo: [owner.id] });
    // 300 PCNs an hour apart: owner files two of every three, every fifth is UNDER_REVIEW,
    // registrations cycle through a few plates so search has several hits.
    made = await insertPcnsDirectly(t, 300, (i) => ({
      createdBy: i % 3 === 2 ? other.id : owner.id,
      carParkId: i % 4 === 0 ? secondCarPark.id : carPark.id,
      vehicleRegistration: i % 10 === 0 ? `AB${String(i).padStart(3, '0')}XY` : `ZZ${i % 7}QQQ`,
      status: i % 5 === 0 ? 'UNDER_REVIEW' : 'SUBMITTED',
      createdAt: new Date(base + i * HOUR).toISOString(),
    }));
  });
  afterAll(() => t.close());

  it('refuses anonymous callers', async () => {
    expect((await t.request('GET', '/pcns')).status).toBe(401);
    expect((await t.request('GET', '/pcns/stats')).status).toBe(401);
  });

  it('shows a USER only their own PCNs and admins all of them when they ask, newest first', async () => {
    const mine = await t.request('GET', '/pcns?limit=100', { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.json.data.pagination).toEqual({ page: 1, limit: 100, total: 200, pages: 2, totalCapped: false });
    expect(mine.json.data.pcns.every((p: Pcn) => p.createdBy?.id === owner.id)).toBe(true);
    for (const session of [admin, superAdmin]) {
      const all = await t.request('GET', '/pcns?scope=all', { token: session.token });
      expect(all.json.data.pagination).toEqual({ page: 1, limit: 10, total: 300, pages: 30, totalCapped: false });
      expect(all.json.data.pcns[0].id).toBe(made[299]!.id);
      expect(all.json.data.pcns[0].carPark).toMatchObject({ name: expect.any(String) });
    }
  });

  it('pages through every PCN exactly once', async () => {
    const seen: string[] = [];
    let previous = Infinity;
    for (let page = 1; page <= 12; page++) {
      const res = await t.request('GET', `/pcns?scope=all&limit=25&page=${page}`, { token: admin.token });
      expect(res.json.data.pagination).toMatchObject({ page, limit: 25, total: 300, pages: 12 });
      for (const pcn of res.json.data.pcns as Pcn[]) {
        const created = Date.parse(pcn.createdAt);
        expect(created).toBeLessThan(previous);
        previous = created;
        seen.push(pcn.id);
      }
    }
    expect(new Set(seen).size).toBe(300);
    const beyond = await t.request('GET', '/pcns?scope=all&limit=25&page=13', { token: admin.token });
    expect(beyond.json.data.pcns).toEqual([]);
  });

  it('refuses a limit above 100 and a bad page', async () => {
    expect((await t.request('GET', '/pcns?scope=all&limit=101', { token: admin.token })).status).toBe(400);
    expect((await t.request('GET', '/pcns?scope=all&page=0', { token: admin.token })).status).toBe(400);
    expect((await t.request('GET', '/pcns?scope=all&status=LOST', { token: admin.token })).status).toBe(400);
  });

  it('searches registrations ignoring case and spaces', async () => {
    const res = await t.request('GET', `/pcns?scope=all&limit=100&search=${encodeURIComponent(' ab 120 x ')}`, { token: admin.token });
    expect(res.json.data.pcns.map((p: Pcn) => p.vehicleRegistration)).toEqual(['AB120XY']);
    const partial = await t.request('GET', '/pcns?scope=all&limit=100&search=zz3', { token: admin.token });
    expect(partial.json.data.pagination.total).toBe(made.filter((_, i) => i % 10 !== 0 && i % 7 === 3).length);
  });

  it('searches PCN numbers, with or without the PCN- prefix', async () => {
    const target = made[41]!;
    for (const search of [target.pcnNumber, `pcn-${target.pcnNumber}`, `PCN ${target.pcnNumber}`]) {
      const res = await t.request('GET', `/pcns?scope=all&search=${encodeURIComponent(search)}`, { token: admin.token });
      expect(res.json.data.pcns.map((p: Pcn) => p.id)).toEqual([target.id]);
    }
  });

  it('keeps a USER search inside their own PCNs', async () => {
    const othersPcn = made[2]!; // i % 3 === 2 belongs to the other user
    const res = await t.request('GET', `/pcns?search=${othersPcn.pcnNumber}`, { token: owner.token });
    expect(res.json.data.pcns).toEqual([]);
  });

  it('filters by status, car park and created date', async () => {
    const review = await t.request('GET', '/pcns?scope=all&status=UNDER_REVIEW&limit=100', { token: admin.token });
    expect(review.json.data.pagination.total).toBe(60);
    expect(review.json.data.pcns.every((p: Pcn) => p.status === 'UNDER_REVIEW')).toBe(true);
    const south = await t.request('GET', `/pcns?scope=all&carParkId=${secondCarPark.id}`, { token: admin.token });
    expect(south.json.data.pagination.total).toBe(75);
    const day = await t.request('GET', '/pcns?scope=all&from=2026-01-02&to=2026-01-03&limit=100', { token: admin.token });
    expect(day.json.data.pagination.total).toBe(48);
  });

  it("lists and counts the caller's own notices for every role; everyone's only for an admin who asks", async () => {
    // The admin filed none of the 300: My PCNs and Your Statistics are empty for them.
    const adminMine = await t.request('GET', '/pcns?limit=1', { token: admin.token });
    expect(adminMine.json.data.pagination.total).toBe(0);
    expect((await t.request('GET', '/pcns/stats', { token: admin.token })).json.data.total).toBe(0);
    expect((await t.request('GET', '/pcns?scope=mine&limit=1', { token: admin.token })).json.data.pagination.total).toBe(0);
    expect((await t.request('GET', '/pcns?scope=all&limit=1', { token: admin.token })).json.data.pagination.total).toBe(300);
    // An officer cannot widen the scope, and an unknown scope is a 400.
    expect((await t.request('GET', '/pcns?scope=all', { token: owner.token })).status).toBe(403);
    expect((await t.request('GET', '/pcns/stats?scope=all', { token: owner.token })).status).toBe(403);
    expect((await t.request('GET', '/pcns?scope=everyone', { token: admin.token })).status).toBe(400);
  });

  it("counts PCNs per status in the caller's scope", async () => {
    const mine = await t.request('GET', '/pcns/stats', { token: owner.token });
    expect(mine.status).toBe(200);
    const ownIndexes = made.map((_, i) => i).filter((i) => i % 3 !== 2);
    const expected: PcnStats = {
      counts: { SUBMITTED: 0, UNDER_REVIEW: 0, APPROVED: 0, REJECTED: 0, ISSUED: 0, PAID: 0, CANCELLED: 0 },
      total: ownIndexes.length,
    };
    expected.counts.UNDER_REVIEW = ownIndexes.filter((i) => i % 5 === 0).length;
    expected.counts.SUBMITTED = ownIndexes.length - expected.counts.UNDER_REVIEW;
    expect(mine.json.data).toEqual(expected);
    const all = await t.request('GET', '/pcns/stats?scope=all', { token: admin.token });
    expect(all.json.data).toEqual({ counts: { ...expected.counts, SUBMITTED: 240, UNDER_REVIEW: 60 }, total: 300 });
  });
});

describe('a single PCN: read, edit, delete, submit', () => {
  let t: TestApp;
  let owner: Session;
  let other: Session;
  let admin: Session;
  let superAdmin: Session;
  let carPark: { id: string };
  beforeAll(async () => {
    ({ t, owner, other, admin, superAdmin, carPark } = await setUp());
  });
  afterAll(() => t.close());

  async function setStatus(id: string, status: PcnStatus) {
    await t.db.updateTable('pcns').set({ status }).where('id', '=', id).execute();
  }

  describe('GET /pcns/{id}', () => {
    it('shows the owner and admins the PCN with car park, images, history and admin notes, and records the view', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      for (const session of [owner, admin, superAdmin]) {
        const res = await t.request('GET', `/pcns/${pcn.id}`, { token: session.token });
        expect(res.status).toBe(200);
        expect(res.json.data).toMatchObject({
          id: pcn.id,
          carPark: { id: carPark.id, name: 'North Deck' },
          adminNotes: null,
          statusHistory: [expect.objectContaining({ toStatus: 'SUBMITTED' })],
        });
        expect(res.json.data.images).toHaveLength(2);
        expect(res.json.data.images[0].url).toContain(res.json.data.images[0].fileName);
      }
      expect(await activitiesOf(t, 'PCN_VIEWED', pcn.id)).toHaveLength(3);
    });

    it('answers another USER exactly as for a PCN that does not exist', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      const theirs = await t.request('GET', `/pcns/${pcn.id}`, { token: other.token });
      const missing = await t.request('GET', `/pcns/${randomUUID()}`, { token: other.token });
      expect(theirs.status).toBe(404);
      expect(theirs.json).toEqual(missing.json);
      expect(theirs.json.message).toBe(ERROR_MESSAGES.pcnNotFound);
      expect(await activitiesOf(t, 'PCN_VIEWED', pcn.id)).toHaveLength(0);
    });

    it('refuses anonymous callers', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      expect((await t.request('GET', `/pcns/${pcn.id}`)).status).toBe(401);
    });
  });

  describe('PUT /pcns/{id}', () => {
    it('lets the owner replace text fields, append photos and remove photos (with their files) while SUBMITTED', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      const removed = pcn.images[0]!;
      const res = await t.request('PUT', `/pcns/${pcn.id}`, {
        token: owner.token,
        body: pcnForm({ location: 'Bay 2', vehicleRegistration: 'xy99 zzz', images: [jpegUpload(100)], removeImageIds: [removed.id] }),
      });
      expect(res.status).toBe(200);
      expect(res.json.data).toMatchObject({ location: 'Bay 2', vehicleRegistration: 'XY99ZZZ', description: 'No permit displayed' });
      expect(res.json.data.images.map((i: { id: string }) => i.id)).not.toContain(removed.id);
      expect(res.json.data.images).toHaveLength(2);
      expect(listUploadFiles(t)).not.toContain(removed.fileName);
      expect(listUploadFiles(t)).toContain(pcn.images[1]!.fileName);
      expect(await activitiesOf(t, 'PCN_EDITED', pcn.id)).toHaveLength(1);
    });

    it('applies the 10-image cap to the result and keeps no file of a refused edit', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id, { images: Array.from({ length: 9 }, (_, i) => jpegUpload(200 + i)) });
      const files = listUploadFiles(t);
      const tooMany = await t.request('PUT', `/pcns/${pcn.id}`, {
        token: owner.token,
        body: pcnForm({ images: [jpegUpload(210), jpegUpload(211)] }),
      });
      expect(tooMany.status).toBe(413);
      expect(tooMany.json.message).toBe(VALIDATION_MESSAGES.tooManyImages);
      expect(listUploadFiles(t)).toEqual(files);
      const swap = await t.request('PUT', `/pcns/${pcn.id}`, {
        token: owner.token,
        body: pcnForm({ images: [jpegUpload(210), jpegUpload(211)], removeImageIds: [pcn.images[0]!.id] }),
      });
      expect(swap.status).toBe(200);
      expect(swap.json.data.images).toHaveLength(10);
    });

    it('refuses the owner once the PCN has left SUBMITTED, but lets admins edit', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      await setStatus(pcn.id, 'UNDER_REVIEW');
      const res = await t.request('PUT', `/pcns/${pcn.id}`, { token: owner.token, body: pcnForm({ location: 'Elsewhere' }) });
      expect(res.status).toBe(409);
      expect(res.json.message).toBe(SERVER_MESSAGES.pcnNotEditable);
      for (const session of [admin, superAdmin]) {
        const byAdmin = await t.request('PUT', `/pcns/${pcn.id}`, {
          token: session.token,
          body: pcnForm({ location: `Fixed by ${session.role}` }),
        });
        expect(byAdmin.status).toBe(200);
        expect(byAdmin.json.data.location).toBe(`Fixed by ${session.role}`);
      }
    });

    it('hides the PCN from another USER and refuses anonymous callers, changing nothing', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      const res = await t.request('PUT', `/pcns/${pcn.id}`, { token: other.token, body: pcnForm({ location: 'Hijacked' }) });
      expect(res.status).toBe(404);
      expect((await t.request('PUT', `/pcns/${pcn.id}`, { body: pcnForm({ location: 'Hijacked' }) })).status).toBe(401);
      const after = await t.request('GET', `/pcns/${pcn.id}`, { token: owner.token });
      expect(after.json.data.location).toBe(pcn.location);
    });

    it('refuses an absurd list of images to remove with 400', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      const ids = Array.from({ length: 40_000 }, () => randomUUID());
      const res = await t.request('PUT', `/pcns/${pcn.id}`, { token: owner.token, body: pcnForm({ removeImageIds: ids }) });
      expect(res.status).toBe(400);
    });

    it('ignores removal of an image that belongs to another PCN', async () => {
      const mine = await createPcnViaApi(t, owner.token, carPark.id);
      const theirs = await createPcnViaApi(t, other.token, carPark.id);
      const res = await t.request('PUT', `/pcns/${mine.id}`, {
        token: owner.token,
        body: pcnForm({ removeImageIds: [theirs.images[0]!.id] }),
      });
      expect(res.status).toBe(200);
      const after = await t.request('GET', `/pcns/${theirs.id}`, { token: other.token });
      expect(after.json.data.images).toHaveLength(2);
      expect(listUploadFiles(t)).toContain(theirs.images[0]!.fileName);
    });

    it("refuses moving a USER's PCN to a car park they are not assigned to", async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      const elsewhere = await t.createCarPark();
      const res = await t.request('PUT', `/pcns/${pcn.id}`, { token: owner.token, body: pcnForm({ carParkId: elsewhere.id }) });
      expect(res.status).toBe(403);
    });
  });

  describe('DELETE /pcns/{id}', () => {
    it('lets the owner delete a SUBMITTED PCN, removing rows and files', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      const res = await t.request('DELETE', `/pcns/${pcn.id}`, { token: owner.token });
      expect(res.status).toBe(200);
      expect((await t.request('GET', `/pcns/${pcn.id}`, { token: owner.token })).status).toBe(404);
      const images = await t.db.selectFrom('pcn_images').select('id').where('pcn_id', '=', pcn.id).execute();
      expect(images).toEqual([]);
      for (const image of pcn.images) expect(listUploadFiles(t)).not.toContain(image.fileName);
    });

    it('refuses the owner after SUBMITTED, hides it from others, and lets admins delete at any status', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      await setStatus(pcn.id, 'APPROVED');
      expect((await t.request('DELETE', `/pcns/${pcn.id}`, { token: owner.token })).status).toBe(409);
      expect((await t.request('DELETE', `/pcns/${pcn.id}`, { token: other.token })).status).toBe(404);
      expect((await t.request('DELETE', `/pcns/${pcn.id}`)).status).toBe(401);
      expect((await t.request('DELETE', `/pcns/${pcn.id}`, { token: admin.token })).status).toBe(200);
      const second = await createPcnViaApi(t, owner.token, carPark.id);
      expect((await t.request('DELETE', `/pcns/${second.id}`, { token: superAdmin.token })).status).toBe(200);
      expect((await t.request('DELETE', `/pcns/${second.id}`, { token: superAdmin.token })).status).toBe(404);
    });
  });

  describe('POST /pcns/{id}/submit', () => {
    it('confirms a SUBMITTED PCN idempotently and conflicts once it has moved on', async () => {
      const pcn = await createPcnViaApi(t, owner.token, carPark.id);
      for (const session of [owner, owner, admin, superAdmin]) {
        const res = await t.request('POST', `/pcns/${pcn.id}/submit`, { token: session.token });
        expect(res.status).toBe(200);
        expect(res.json.data).toMatchObject({ id: pcn.id, status: 'SUBMITTED' });
      }
      expect((await t.request('POST', `/pcns/${pcn.id}/submit`, { token: other.token })).status).toBe(404);
      expect((await t.request('POST', `/pcns/${pcn.id}/submit`)).status).toBe(401);
      await setStatus(pcn.id, 'UNDER_REVIEW');
      expect((await t.request('POST', `/pcns/${pcn.id}/submit`, { token: owner.token })).status).toBe(409);
    });
  });
});

describe('PATCH /pcns/{id}/status', () => {
  let t: TestApp;
  let owner: Session;
  let other: Session;
  let admin: Session;
  let superAdmin: Session;
  let carPark: { id: string };
  beforeAll(async () => {
    ({ t, owner, other, admin, superAdmin, carPark } = await setUp());
  });
  afterAll(() => t.close());

  it('lets admins make exactly the transitions of the table', async () => {
    const pairs = PCN_STATUSES.flatMap((from) => PCN_STATUSES.map((to) => ({ from, to })));
    const made = await insertPcnsDirectly(t, pairs.length, (i) => ({
      createdBy: owner.id,
      carParkId: carPark.id,
      vehicleRegistration: 'TR4NS',
      status: pairs[i]!.from,
      createdAt: new Date().toISOString(),
    }));
    for (const [i, { from, to }] of pairs.entries()) {
      const session = i % 2 === 0 ? admin : superAdmin;
      // A cancellation says why (decision 0042); the reason changes nothing about which moves are allowed.
      const json = to === 'CANCELLED' ? { status: to, cancellationReason: 'OPERATOR_ERROR' } : { status: to };
      const res = await t.request('PATCH', `/pcns/${made[i]!.id}/status`, { token: session.token, json });
      const allowed = PCN_STATUS_TRANSITIONS[from].includes(to);
      expect(res.status, `${from} -> ${to}`).toBe(allowed ? 200 : 409);
      if (allowed) expect(res.json.data.status).toBe(to);
      else expect(res.json.message).toBe(SERVER_MESSAGES.transitionNotAllowed);
    }
  });

  it('keeps each change in the history with who, when and the note, and stores admin notes', async () => {
    const pcn = await createPcnViaApi(t, owner.token, carPark.id);
    await t.request('PATCH', `/pcns/${pcn.id}/status`, {
      token: admin.token,
      json: { status: 'UNDER_REVIEW', adminNotes: '  Checking the permit list ' },
    });
    const res = await t.request('PATCH', `/pcns/${pcn.id}/status`, {
      token: superAdmin.token,
      json: { status: 'APPROVED', adminNotes: 'Valid' },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.adminNotes).toBe('Valid');
    expect(res.json.data.statusHistory).toEqual([
      expect.objectContaining({ fromStatus: null, toStatus: 'SUBMITTED', changedBy: expect.objectContaining({ id: owner.id }) }),
      expect.objectContaining({
        fromStatus: 'SUBMITTED',
        toStatus: 'UNDER_REVIEW',
        note: 'Checking the permit list',
        changedBy: { id: admin.id, firstName: 'Ada', lastName: 'Admin' },
      }),
      expect.objectContaining({
        fromStatus: 'UNDER_REVIEW',
        toStatus: 'APPROVED',
        note: 'Valid',
        changedBy: { id: superAdmin.id, firstName: 'Sue', lastName: 'Super' },
      }),
    ]);
    expect(await activitiesOf(t, 'PCN_STATUS_CHANGED', pcn.id)).toHaveLength(2);
    const ownerView = await t.request('GET', `/pcns/${pcn.id}`, { token: owner.token });
    expect(ownerView.json.data.adminNotes).toBe('Valid');
  });

  it('lets the owner cancel their own SUBMITTED PCN and nothing more', async () => {
    const pcn = await createPcnViaApi(t, owner.token, carPark.id);
    expect((await t.request('PATCH', `/pcns/${pcn.id}/status`, { token: owner.token, json: { status: 'UNDER_REVIEW' } })).status).toBe(403);
    const cancel = await t.request('PATCH', `/pcns/${pcn.id}/status`, {
      token: owner.token,
      json: { status: 'CANCELLED', adminNotes: 'Filed by mistake', cancellationReason: 'OPERATOR_ERROR' },
    });
    expect(cancel.status).toBe(200);
    expect(cancel.json.data.status).toBe('CANCELLED');
    // An owner's note goes to the history only; admin notes stay the admins'.
    expect(cancel.json.data.adminNotes).toBeNull();
    expect(cancel.json.data.statusHistory.at(-1)).toMatchObject({ note: 'Filed by mistake', changedBy: { id: owner.id } });

    const reviewed = await createPcnViaApi(t, owner.token, carPark.id);
    await t.request('PATCH', `/pcns/${reviewed.id}/status`, { token: admin.token, json: { status: 'UNDER_REVIEW' } });
    const late = await t.request('PATCH', `/pcns/${reviewed.id}/status`, {
      token: owner.token,
      json: { status: 'CANCELLED', cancellationReason: 'OPERATOR_ERROR' },
    });
    expect(late.status).toBe(409);
  });

  it('hides the PCN from another USER and refuses anonymous callers', async () => {
    const pcn = await createPcnViaApi(t, owner.token, carPark.id);
    const res = await t.request('PATCH', `/pcns/${pcn.id}/status`, {
      token: other.token,
      json: { status: 'CANCELLED', cancellationReason: 'OPERATOR_ERROR' },
    });
    expect(res.status).toBe(404);
    expect(
      (await t.request('PATCH', `/pcns/${pcn.id}/status`, { json: { status: 'CANCELLED', cancellationReason: 'OPERATOR_ERROR' } })).status,
    ).toBe(401);
    const after = await t.request('GET', `/pcns/${pcn.id}`, { token: owner.token });
    expect(after.json.data.status).toBe('SUBMITTED');
  });

  it('refuses bad input with 400, never 500', async () => {
    const pcn = await createPcnViaApi(t, owner.token, carPark.id);
    expect((await t.request('PATCH', `/pcns/${pcn.id}/status`, { token: admin.token, json: { status: 'LOST' } })).status).toBe(400);
    expect((await t.request('PATCH', `/pcns/${pcn.id}/status`, { token: admin.token, json: {} })).status).toBe(400);
    const broken = await t.request('PATCH', `/pcns/${pcn.id}/status`, {
      token: admin.token,
      body: '{"status":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
  });
});

describe('counts kept by the database (migration 0005)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('follow every create, status change, delete and the owner account being deleted', async () => {
    const admin = await t.signedInUser('SUPER_ADMIN');
    const officer = await t.signedInUser('USER');
    const carPark = await t.createCarPark({ assignTo: [officer.id] });
    const first = await createPcnViaApi(t, officer.token, carPark.id);
    const second = await createPcnViaApi(t, officer.token, carPark.id, { vehicleRegistration: 'XY99ZZZ' });
    const third = await createPcnViaApi(t, officer.token, carPark.id, { vehicleRegistration: 'QQ11QQQ' });
    const stats = async (token: string) => (await t.request('GET', '/pcns/stats', { token })).json.data as PcnStats;
    const listTotal = async (token: string, query = '') =>
      (await t.request('GET', `/pcns?limit=1${query}`, { token })).json.data.pagination.total as number;

    expect(await stats(officer.token)).toMatchObject({ total: 3, counts: { SUBMITTED: 3 } });
    await t.request('PATCH', `/pcns/${first.id}/status`, { token: admin.token, json: { status: 'UNDER_REVIEW' } });
    expect((await stats(officer.token)).counts).toMatchObject({ SUBMITTED: 2, UNDER_REVIEW: 1 });
    expect(await listTotal(officer.token, '&status=SUBMITTED')).toBe(2);
    expect((await t.request('DELETE', `/pcns/${second.id}`, { token: officer.token })).status).toBe(200);
    expect(await stats(officer.token)).toMatchObject({ total: 2, counts: { SUBMITTED: 1, UNDER_REVIEW: 1 } });
    expect(await listTotal(officer.token)).toBe(2);
    // The counts answer the plain list; a search still counts the rows themselves.
    expect(await listTotal(officer.token, `&search=${third.pcnNumber}`)).toBe(1);

    expect((await t.request('DELETE', `/users/${officer.id}`, { token: admin.token })).status).toBe(200);
    const statsOfAll = (await t.request('GET', '/pcns/stats?scope=all', { token: admin.token })).json.data as PcnStats;
    expect(statsOfAll).toMatchObject({ total: 2, counts: { SUBMITTED: 1, UNDER_REVIEW: 1 } });
    expect(await listTotal(admin.token, '&scope=all')).toBe(2);
    // An update that changes neither the status nor the owner leaves the counts' rows unwritten
    // (on PostgreSQL, the row version's xmin stays): the row of an officer's notices of a status
    // is the one every filing or status change of theirs writes too.
    const countVersions = async () =>
      ON_POSTGRES ? (await sql<{ version: string }>`select xmin::text as version from pcn_counts order by 1`.execute(t.db)).rows : [];
    const versions = await countVersions();
    await t.db.updateTable('pcns').set({ admin_notes: 'Checked against the permit list' }).where('id', '=', first.id).execute();
    expect(await countVersions()).toEqual(versions);
    expect(((await t.request('GET', '/pcns/stats?scope=all', { token: admin.token })).json.data as PcnStats).counts).toEqual(
      statsOfAll.counts,
    );
    const stored = await t.db
      .selectFrom('pcns')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const kept = await t.db
      .selectFrom('pcn_counts')
      .select((eb) => eb.fn.sum<number>('n').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(kept.n)).toBe(Number(stored.n));
  });
});

describe('search index kept by the database (migration 0006)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('finds a notice by a fragment after its registration is edited, and not once it is deleted', async () => {
    const officer = await t.signedInUser('USER');
    const carPark = await t.createCarPark({ assignTo: [officer.id] });
    const pcn = await createPcnViaApi(t, officer.token, carPark.id, { vehicleRegistration: 'KT65 WRX' });
    const found = async (search: string) =>
      ((await t.request('GET', `/pcns?search=${encodeURIComponent(search)}`, { token: officer.token })).json.data.pcns as Pcn[]).map(
        (p) => p.id,
      );

    expect(await found('t65 w')).toEqual([pcn.id]);
    const edit = await t.request('PUT', `/pcns/${pcn.id}`, { token: officer.token, body: pcnForm({ vehicleRegistration: 'LM19 ABC' }) });
    expect(edit.status).toBe(200);
    expect(await found('t65 w')).toEqual([]);
    expect(await found('m19a')).toEqual([pcn.id]);
    expect(await found(`PCN-${pcn.pcnNumber.slice(-4)}`)).toEqual([pcn.id]);
    expect((await t.request('DELETE', `/pcns/${pcn.id}`, { token: officer.token })).status).toBe(200);
    expect(await found('m19a')).toEqual([]);
  });

  it("finds a notice by the ticket's own reference, as the motorist reads it from the windscreen", async () => {
    const officer = await t.signedInUser('USER');
    const carPark = await t.createCarPark({ assignTo: [officer.id] });
    const key = randomUUID();
    const filed = await postPcn(
      t,
      officer.token,
      { ...validPcnFields(carPark.id), vehicleRegistration: 'DR21 AFT', images: [jpegUpload(5)] },
      key,
    );
    expect(filed.status, filed.text).toBe(201);
    const other = await createPcnViaApi(t, officer.token, carPark.id, { vehicleRegistration: 'DR21 AFU' });
    const found = async (search: string) =>
      ((await t.request('GET', `/pcns?search=${encodeURIComponent(search)}`, { token: officer.token })).json.data.pcns as Pcn[]).map(
        (p) => p.id,
      );
    const reference = draftReferenceOfKey(key)!;
    expect(await found(reference)).toEqual([(filed.json.data as Pcn).id]);
    expect(await found(` ${reference.toLowerCase().replace('-', ' ')} `)).toEqual([(filed.json.data as Pcn).id]);
    expect(await found(draftReferenceOfKey(randomUUID())!)).not.toContain(other.id);
  });
});

describe('GET /pcns: a search that matches more than PCN_COUNT_CAP', () => {
  let t: TestApp;
  let owner: Session;
  let admin: Session;
  const MATCHING = PCN_COUNT_CAP + 50;

  beforeAll(async () => {
    let carPark: { id: string };
    ({ t, owner, admin, carPark } = await setUp());
    const base = Date.parse('2026-03-01T00:00:00.000Z');
    await insertPcnsDirectly(t, MATCHING + 10, (i) => ({
      createdBy: owner.id,
      carParkId: carPark.id,
      vehicleRegistration: i < MATCHING ? `CAP${String(i).padStart(4, '0')}` : `ONE${i}`,
      status: 'SUBMITTED',
      createdAt: new Date(base + i * 60_000).toISOString(),
    }));
  });
  afterAll(() => t.close());

  it("stops counting at the cap ('1,000+'), still offers the next page, and counts exactly below it", async () => {
    const first = await t.request('GET', '/pcns?scope=all&search=cap', { token: admin.token });
    expect(first.json.data.pagination).toEqual({ page: 1, limit: 10, total: PCN_COUNT_CAP, pages: PCN_COUNT_CAP / 10, totalCapped: true });
    // Counted one page beyond the page asked for, so Next stays on while the count is capped.
    const ninth = await t.request('GET', '/pcns?scope=all&search=cap&limit=100&page=9', { token: admin.token });
    expect(ninth.json.data.pagination).toMatchObject({ page: 9, total: 1000, pages: 10, totalCapped: true });
    const tenth = await t.request('GET', '/pcns?scope=all&search=cap&limit=100&page=10', { token: admin.token });
    expect(tenth.json.data.pcns).toHaveLength(100);
    expect(tenth.json.data.pagination).toMatchObject({ total: MATCHING, pages: 11, totalCapped: false });
    const last = await t.request('GET', '/pcns?scope=all&search=cap&limit=100&page=11', { token: admin.token });
    expect(last.json.data.pcns).toHaveLength(MATCHING - 1000);
    // Under the cap, exact; and the plain list (trigger-kept counts) is exact whatever its size.
    const few = await t.request('GET', '/pcns?scope=all&search=one', { token: admin.token });
    expect(few.json.data.pagination).toMatchObject({ total: 10, totalCapped: false });
    const plain = await t.request('GET', '/pcns?limit=1', { token: owner.token });
    expect(plain.json.data.pagination).toMatchObject({ total: MATCHING + 10, totalCapped: false });
    // The deadline queue of one open status is every notice of that status: counted as exactly.
    const queue = await t.request('GET', '/pcns?scope=all&status=SUBMITTED&sort=deadline', { token: admin.token });
    expect(queue.json.data.pagination).toMatchObject({ total: MATCHING + 10, totalCapped: false });
  });
});

describe('GET /pcns from and to: days on the UK calendar', () => {
  let t: TestApp;
  let admin: Session;
  let made: Array<{ id: string; pcnNumber: string }>;

  beforeAll(async () => {
    let owner: Session;
    let carPark: { id: string };
    ({ t, owner, admin, carPark } = await setUp());
    // In summer the UK day starts at 23:00 UTC the day before.
    const times = ['2026-07-13T22:59:00.000Z', '2026-07-13T23:30:00.000Z', '2026-07-14T22:30:00.000Z', '2026-07-14T23:00:00.000Z'];
    made = await insertPcnsDirectly(t, times.length, (i) => ({
      createdBy: owner.id,
      carParkId: carPark.id,
      vehicleRegistration: `UK${i}DAY`,
      createdAt: times[i]!,
    }));
  });
  afterAll(() => t.close());

  it('keeps a notice made at 00:30 BST in that day, and one made at 00:00 BST the next day out', async () => {
    const res = await t.request('GET', '/pcns?scope=all&from=2026-07-14&to=2026-07-14&limit=100', { token: admin.token });
    expect(res.status).toBe(200);
    expect(new Set(res.json.data.pcns.map((p: Pcn) => p.id))).toEqual(new Set([made[1]!.id, made[2]!.id]));
  });
});
