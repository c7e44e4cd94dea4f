import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_TIME_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  OBSERVATION_MESSAGES,
  PERIOD_MESSAGES,
  PCN_AUDIT_ACTIONS,
  SERVER_MESSAGES,
  type Pcn,
  type PcnAuditEntry,
  type PcnAuditResponse,
  type PcnDuplicatesResponse,
} from '@parkpatrol/shared';
import { fillMissingKeeperPostingDays } from '../src/repositories/keeper-posting-days.ts';
import { createTestApp, ON_POSTGRES, type Session, type TestApp } from './test-app.ts';
import { listUploadFiles, makeJpeg } from './fixtures.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** One photo as the device sends it: bytes plus the optional capture facts. */
type Photo = {
  bytes: Uint8Array;
  sha256?: string;
  takenAt?: string;
  takenAtSource?: string;
  latitude?: string;
  longitude?: string;
  accuracy?: string;
  shots?: string;
};

type EvidenceForm = Partial<{
  vehicleRegistration: string;
  carParkId: string;
  offenceType: string;
  description: string;
  location: string;
  observedAt: string;
  issuedAt: string;
  stayApplies: string;
  duplicateReason: string;
  noticeServedBy: string;
  noticeServedAt: string;
  serviceCorrectionReason: string;
}> & { photos?: Photo[]; removeImageIds?: string[] };

function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function photo(seed: number, facts: Omit<Photo, 'bytes'> = {}): Photo {
  const bytes = makeJpeg(seed);
  return { bytes, sha256: sha256Of(bytes), ...facts };
}

/** The multipart body with every per-photo fact repeated in image order, empty where unknown. */
function evidenceForm(input: EvidenceForm): FormData {
  const form = new FormData();
  const { photos = [], removeImageIds = [], ...fields } = input;
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  for (const [index, p] of photos.entries()) form.append('images', new Blob([p.bytes], { type: 'image/jpeg' }), `photo-${index + 1}.jpg`);
  const facts: Array<[string, keyof Photo]> = [
    ['imageSha256', 'sha256'],
    ['imageTakenAt', 'takenAt'],
    ['imageTakenAtSource', 'takenAtSource'],
    ['imageLatitude', 'latitude'],
    ['imageLongitude', 'longitude'],
    ['imageAccuracy', 'accuracy'],
    ['imageShots', 'shots'],
  ];
  for (const [field, key] of facts) {
    if (photos.some((p) => p[key] !== undefined)) for (const p of photos) form.append(field, (p[key] as string | undefined) ?? '');
  }
  for (const id of removeImageIds) form.append('removeImageIds', id);
  return form;
}

function baseFields(carParkId: string): EvidenceForm {
  return {
    vehicleRegistration: 'ab12 cde',
    carParkId,
    offenceType: 'PARKING_WITHOUT_PERMIT',
    description: 'No permit displayed',
    location: 'Bay 14, level 2',
    noticeServedBy: 'AFFIXED',
  };
}

/**
 * A parking event's day is its UTC day, and these tests file notices "a minute ago" and expect
 * them to be today's. Within ten minutes of midnight, the app's clock moves on to 00:10 so the
 * whole suite sees one day; moving it forward is what the clock is for (tokens are made after).
 */
function keepClearOfMidnight(t: TestApp): void {
  const intoDay = t.deps.now().getTime() % DAY;
  const margin = 10 * MINUTE;
  if (intoDay < margin) t.clock.offsetMs += margin - intoDay;
  else if (intoDay > DAY - margin) t.clock.offsetMs += DAY - intoDay + margin;
}

function isoAgo(t: TestApp, ms: number): string {
  return new Date(t.deps.now().getTime() - ms).toISOString();
}

function post(t: TestApp, token: string, input: EvidenceForm, headers: Record<string, string> = {}) {
  return t.request('POST', '/pcns', { token, body: evidenceForm(input), headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID(), ...headers } });
}

function put(t: TestApp, token: string, id: string, input: EvidenceForm, headers: Record<string, string> = {}) {
  return t.request('PUT', `/pcns/${id}`, { token, body: evidenceForm(input), headers });
}

async function create(t: TestApp, token: string, input: EvidenceForm, headers: Record<string, string> = {}): Promise<Pcn> {
  const res = await post(t, token, input, headers);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json.data;
}

async function countRows(t: TestApp, table: 'pcns' | 'pcn_images' | 'pcn_audit') {
  const row = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function auditOf(t: TestApp, token: string, id: string): Promise<PcnAuditEntry[]> {
  const res = await t.request('GET', `/pcns/${id}/audit`, { token });
  if (res.status !== 200) throw new Error(`audit failed: ${res.status} ${res.text}`);
  return (res.json.data as PcnAuditResponse).entries;
}

describe('capture facts and photo integrity', () => {
  let t: TestApp;
  let owner: Session;
  let carPark: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signedInUser('USER');
    carPark = await t.createCarPark({ assignTo: [owner.id] });
  });
  afterAll(() => t.close());

  it('stores every capture fact with both hashes and returns them on each image', async () => {
    const first = photo(1, {
      takenAt: '2026-06-01T10:29:00+01:00',
      takenAtSource: 'camera',
      latitude: '51.5072',
      longitude: '-0.1276',
      accuracy: '8.5',
      shots: 'number-plate,vehicle-in-context',
    });
    const second = photo(2, { takenAt: isoAgo(t, MINUTE), takenAtSource: 'added', shots: 'signage' });
    const third = { bytes: makeJpeg(3) };
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id), photos: [first, second, third] });

    expect(pcn.images).toHaveLength(3);
    expect(pcn.images[0]).toMatchObject({
      sha256: first.sha256,
      clientSha256: first.sha256,
      takenAt: '2026-06-01T09:29:00.000Z',
      takenAtSource: 'camera',
      latitude: 51.5072,
      longitude: -0.1276,
      accuracyM: 8.5,
      shots: ['number-plate', 'vehicle-in-context'],
    });
    expect(pcn.images[1]).toMatchObject({
      clientSha256: second.sha256,
      takenAtSource: 'added',
      latitude: null,
      longitude: null,
      accuracyM: null,
      shots: ['signage'],
    });
    // A photo sent without facts (an older client) keeps working, with the server's hash only.
    expect(pcn.images[2]).toMatchObject({
      sha256: sha256Of(third.bytes),
      clientSha256: null,
      takenAt: null,
      takenAtSource: null,
      shots: [],
    });

    const detail = await t.request('GET', `/pcns/${pcn.id}`, { token: owner.token });
    expect(detail.json.data.images).toEqual(pcn.images.map((image) => ({ ...image, url: expect.any(String) })));
  });

  it('refuses a photo whose bytes do not match the device checksum, naming it, and writes nothing', async () => {
    const before = {
      pcns: await countRows(t, 'pcns'),
      images: await countRows(t, 'pcn_images'),
      audit: await countRows(t, 'pcn_audit'),
      files: listUploadFiles(t),
    };
    const tampered = photo(12);
    tampered.sha256 = sha256Of(makeJpeg(99));
    const res = await post(t, owner.token, { ...baseFields(carPark.id), photos: [photo(10), photo(11), tampered, photo(13)] });

    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      success: false,
      code: 'EVIDENCE_CHECKSUM_MISMATCH',
      message: 'Photo 3 was changed in transit (checksum mismatch). Please send it again.',
      details: { images: 'Photo 3 was changed in transit (checksum mismatch). Please send it again.' },
    });
    expect(await countRows(t, 'pcns')).toBe(before.pcns);
    expect(await countRows(t, 'pcn_images')).toBe(before.images);
    expect(await countRows(t, 'pcn_audit')).toBe(before.audit);
    expect(listUploadFiles(t)).toEqual(before.files);
  });

  it('refuses a mismatching photo added by an edit, keeping the PCN as it was', async () => {
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id), photos: [photo(20)] });
    const files = listUploadFiles(t);
    const audit = await countRows(t, 'pcn_audit');
    const res = await put(t, owner.token, pcn.id, { description: 'Changed', photos: [{ bytes: makeJpeg(21), sha256: 'f'.repeat(64) }] });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('EVIDENCE_CHECKSUM_MISMATCH');
    expect(res.json.message).toMatch(/^Photo 1 was changed in transit/);
    const detail = await t.request('GET', `/pcns/${pcn.id}`, { token: owner.token });
    expect(detail.json.data).toMatchObject({
      description: 'No permit displayed',
      images: [expect.objectContaining({ id: pcn.images[0]!.id })],
    });
    expect(listUploadFiles(t)).toEqual(files);
    expect(await countRows(t, 'pcn_audit')).toBe(audit);
  });

  it('accepts the device hash in capitals', async () => {
    const p = photo(30);
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id), photos: [{ ...p, sha256: p.sha256!.toUpperCase() }] });
    expect(pcn.images[0]!.clientSha256).toBe(p.sha256);
  });

  it('refuses bad facts with 400 and a message naming the field and the photo', async () => {
    const cases: Array<[Photo[], string, RegExp]> = [
      [
        [photo(40), photo(41, { latitude: '95', longitude: '0' })],
        'imageLatitude',
        /^Photo 2: imageLatitude must be a number of degrees from -90 to 90$/,
      ],
      [[photo(42, { latitude: '51.5' })], 'imageLongitude', /^Photo 1: send imageLatitude and imageLongitude together$/],
      [
        [photo(43, { latitude: '51.5', longitude: '0', accuracy: 'far' })],
        'imageAccuracy',
        /^Photo 1: imageAccuracy must be a number of metres/,
      ],
      [[photo(44, { takenAt: isoAgo(t, MINUTE), takenAtSource: 'exif' })], 'imageTakenAtSource', /'camera' or 'added'/],
      [[photo(45, { shots: 'number-plate,selfie' })], 'imageShots', /^Photo 1: imageShots must be comma-separated shot types/],
      [[{ bytes: makeJpeg(46), sha256: 'not-a-hash' }], 'imageSha256', /^Photo 1: imageSha256 must be 64 hexadecimal digits/],
    ];
    for (const [photos, field, message] of cases) {
      const res = await post(t, owner.token, { ...baseFields(carPark.id), photos });
      expect(res.status, field).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
      expect(res.json.message).toMatch(message);
      expect(res.json.details[field]).toMatch(message);
    }
  });

  it('refuses more fact values than photos', async () => {
    const form = evidenceForm({ ...baseFields(carPark.id), photos: [photo(50)] });
    form.append('imageShots', 'signage');
    form.append('imageShots', 'signage');
    const res = await t.request('POST', '/pcns', { token: owner.token, body: form, headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() } });
    expect(res.status).toBe(400);
    expect(res.json.details.imageShots).toBe(`imageShots: ${SERVER_MESSAGES.imageFactsTooMany}`);
  });

  it('replays a create with facts as the same PCN, and refuses the key with other facts', async () => {
    const key = randomUUID();
    const input = { ...baseFields(carPark.id), photos: [photo(60, { shots: 'signage', latitude: '51', longitude: '0' })] };
    const first = await post(t, owner.token, input, { [IDEMPOTENCY_KEY_HEADER]: key });
    const again = await post(t, owner.token, input, { [IDEMPOTENCY_KEY_HEADER]: key, [DEVICE_TIME_HEADER]: new Date().toISOString() });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json.data.id).toBe(first.json.data.id);
    const other = await post(
      t,
      owner.token,
      { ...input, photos: [photo(60, { shots: 'number-plate', latitude: '51', longitude: '0' })] },
      { [IDEMPOTENCY_KEY_HEADER]: key },
    );
    expect(other.status).toBe(422);
  });
});

describe('device clock offset', () => {
  let t: TestApp;
  let owner: Session;
  let admin: Session;
  let carPark: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carPark = await t.createCarPark({ assignTo: [owner.id] });
  });
  afterAll(() => t.close());

  it('records server receipt time minus device time and flags a phone five minutes slow', async () => {
    const deviceTime = isoAgo(t, 5 * MINUTE);
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id), photos: [photo(1)] }, { [DEVICE_TIME_HEADER]: deviceTime });
    expect(pcn.clockOffsetMs).toBeGreaterThanOrEqual(5 * MINUTE);
    expect(pcn.clockOffsetMs).toBeLessThan(5 * MINUTE + 10_000);
    expect(pcn.clockSkewWarning).toBe(true);
    const seen = await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token });
    expect(seen.json.data).toMatchObject({ clockOffsetMs: pcn.clockOffsetMs, clockSkewWarning: true });
  });

  it('flags a phone ahead of the server too, and not one within two minutes', async () => {
    const ahead = await create(
      t,
      owner.token,
      { ...baseFields(carPark.id) },
      { [DEVICE_TIME_HEADER]: new Date(t.deps.now().getTime() + 3 * MINUTE).toISOString() },
    );
    expect(ahead.clockOffsetMs).toBeLessThan(-2 * MINUTE);
    expect(ahead.clockSkewWarning).toBe(true);
    const close = await create(t, owner.token, { ...baseFields(carPark.id) }, { [DEVICE_TIME_HEADER]: isoAgo(t, 30_000) });
    expect(Math.abs(close.clockOffsetMs!)).toBeLessThan(2 * MINUTE);
    expect(close.clockSkewWarning).toBe(false);
  });

  it('leaves the offset unknown without the header, and refuses a malformed one', async () => {
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id) });
    expect(pcn).toMatchObject({ clockOffsetMs: null, clockSkewWarning: false });
    const res = await post(t, owner.token, { ...baseFields(carPark.id) }, { [DEVICE_TIME_HEADER]: 'teatime' });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(SERVER_MESSAGES.deviceTimeInvalid);
  });

  it('records the offset of each edit in the audit trail, leaving the PCN its first one', async () => {
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id) }, { [DEVICE_TIME_HEADER]: isoAgo(t, 0) });
    const res = await put(
      t,
      owner.token,
      pcn.id,
      { description: 'Edited from a slow phone' },
      { [DEVICE_TIME_HEADER]: isoAgo(t, 10 * MINUTE) },
    );
    expect(res.status).toBe(200);
    expect(res.json.data.clockOffsetMs).toBe(pcn.clockOffsetMs);
    const updated = (await auditOf(t, admin.token, pcn.id)).find((entry) => entry.action === 'updated')!;
    expect(updated.clockOffsetMs).toBeGreaterThanOrEqual(10 * MINUTE);
    expect(updated.clockOffsetMs).toBeLessThan(10 * MINUTE + 10_000);
  });
});

describe('observation, issue time and the stay rule', () => {
  let t: TestApp;
  let owner: Session;
  let stayPark: { id: string };
  let plainPark: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signedInUser('USER');
    stayPark = await t.createCarPark({ assignTo: [owner.id] });
    plainPark = await t.createCarPark({ assignTo: [owner.id] });
    // Consideration 5 + grace 10 (the test car park's values), and stays apply by default here.
    await t.db.updateTable('car_parks').set({ stay_applies_by_default: true }).where('id', '=', stayPark.id).execute();
  });
  afterAll(() => t.close());

  /** An officer signed in on the app's clock as it is now (tokens are checked by the clock that signed them), with a stay car park. */
  async function officerWithStayPark(): Promise<{ officer: Session; parkId: string }> {
    const officer = await t.signedInUser('USER');
    const park = await t.createCarPark({ assignTo: [officer.id] });
    await t.db.updateTable('car_parks').set({ stay_applies_by_default: true }).where('id', '=', park.id).execute();
    return { officer, parkId: park.id };
  }

  /** Four photos: three at the first visit, the fourth taken `secondVisitAt` (the second visit). */
  function visits(observedAt: string, secondVisitAt: string | null): Photo[] {
    return [1, 2, 3, 4].map((seed) =>
      photo(seed + 300, { takenAt: seed === 4 && secondVisitAt ? secondVisitAt : observedAt, takenAtSource: 'camera' }),
    );
  }

  it('refuses a stay notice with no photo taken after consideration plus grace, saying when to photograph again', async () => {
    const observedAt = '2026-01-10T14:00:00.000Z';
    const offsetBefore = t.clock.offsetMs;
    t.clock.offsetMs += Date.parse('2026-01-10T14:30:00.000Z') - t.deps.now().getTime();
    try {
      const { officer, parkId } = await officerWithStayPark();
      const before = await countRows(t, 'pcns');
      const res = await post(t, officer.token, {
        ...baseFields(parkId),
        observedAt,
        photos: visits(observedAt, '2026-01-10T14:14:59.000Z'),
      });
      expect(res.status).toBe(422);
      expect(res.json.code).toBe('SECOND_VISIT_REQUIRED');
      // 14:00 GMT + 5 consideration + 10 grace.
      expect(res.json.message).toBe(
        'A stay applies: photograph the vehicle again at or after 10 Jan, 14:15 (UK time), when consideration and grace have passed, to show it is still there. Only then can this notice be issued.',
      );
      expect(res.json.details.images).toBe(res.json.message);
      expect(await countRows(t, 'pcns')).toBe(before);
      // The same notice with the fourth photo taken at the due time is issued.
      const pcn = await create(t, officer.token, {
        ...baseFields(parkId),
        observedAt,
        photos: visits(observedAt, '2026-01-10T14:15:00.000Z'),
      });
      expect(pcn).toMatchObject({ stayApplies: true, observedAt });
    } finally {
      t.clock.offsetMs = offsetBefore;
    }
  });

  it('names the due time in summer time, and on the server clock for a phone whose clock is off', async () => {
    // The phone runs 20 minutes slow: it says 09:40 when the server reads 10:00 (UTC).
    const serverNow = Date.parse('2026-07-01T10:00:00.000Z');
    const offsetBefore = t.clock.offsetMs;
    t.clock.offsetMs += serverNow - t.deps.now().getTime();
    try {
      const { officer, parkId } = await officerWithStayPark();
      const deviceNow = serverNow - 20 * MINUTE;
      const observedAt = new Date(deviceNow - 20 * MINUTE).toISOString();
      const headers = { [DEVICE_TIME_HEADER]: new Date(deviceNow).toISOString() };
      const late = await post(t, officer.token, { ...baseFields(parkId), observedAt, photos: visits(observedAt, null) }, headers);
      expect(late.status).toBe(422);
      // Device 09:20 + 15 minutes = 09:35 device = 09:55 server (UTC) = 10:55 BST.
      expect(late.json.message).toMatch(/at or after 1 Jul, 10:55 \(UK time\)/);
      const kept = await create(
        t,
        officer.token,
        { ...baseFields(parkId), observedAt, photos: visits(observedAt, new Date(deviceNow - MINUTE).toISOString()) },
        headers,
      );
      expect(kept.stayApplies).toBe(true);
    } finally {
      t.clock.offsetMs = offsetBefore;
    }
  });

  it('refuses a notice issued before consideration plus grace has passed, explaining the wait', async () => {
    const observedAt = isoAgo(t, 40 * MINUTE);
    const dueAt = new Date(Date.parse(observedAt) + 15 * MINUTE).toISOString();
    const res = await post(t, owner.token, {
      ...baseFields(stayPark.id),
      observedAt,
      issuedAt: new Date(Date.parse(dueAt) - 1000).toISOString(),
      photos: visits(observedAt, dueAt),
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.message).toBe(
      'A stay applies here, so the notice can be issued only 15 minutes after the vehicle was first seen (5 minutes consideration + 10 minutes grace). Please wait 1 minute more.',
    );
    expect(res.json.details.issuedAt).toBe(res.json.message);
  });

  it('accepts the same sighting once the period has passed and the vehicle is photographed again', async () => {
    const observedAt = isoAgo(t, 10 * MINUTE);
    expect((await post(t, owner.token, { ...baseFields(stayPark.id), observedAt, photos: visits(observedAt, isoAgo(t, 0)) })).status).toBe(
      422,
    );
    t.clock.offsetMs += 6 * MINUTE;
    try {
      const pcn = await create(t, owner.token, { ...baseFields(stayPark.id), observedAt, photos: visits(observedAt, isoAgo(t, 0)) });
      expect(pcn).toMatchObject({ stayApplies: true, observedAt });
      expect(Date.parse(pcn.issuedAt!) - Date.parse(observedAt)).toBeGreaterThanOrEqual(15 * MINUTE);
    } finally {
      t.clock.offsetMs -= 6 * MINUTE;
    }
  });

  it('accepts an issue time sent by the device at or after the end of the period', async () => {
    const observedAt = isoAgo(t, 40 * MINUTE);
    const issuedAt = new Date(Date.parse(observedAt) + 15 * MINUTE).toISOString();
    const pcn = await create(t, owner.token, { ...baseFields(stayPark.id), observedAt, issuedAt, photos: visits(observedAt, issuedAt) });
    expect(pcn).toMatchObject({ observedAt, issuedAt, stayApplies: true });
  });

  it('lets the officer say no stay applies, and applies the rule where the officer says one does', async () => {
    const now = await create(t, owner.token, { ...baseFields(stayPark.id), observedAt: isoAgo(t, MINUTE), stayApplies: 'false' });
    expect(now.stayApplies).toBe(false);
    const plain = await create(t, owner.token, { ...baseFields(plainPark.id), observedAt: isoAgo(t, MINUTE) });
    expect(plain.stayApplies).toBe(false);
    const asked = await post(t, owner.token, { ...baseFields(plainPark.id), observedAt: isoAgo(t, MINUTE), stayApplies: 'true' });
    expect(asked.status).toBe(422);
    expect(asked.json.message).toMatch(/^A stay applies: photograph the vehicle again/);
  });

  it('needs the first sighting when a stay applies', async () => {
    const res = await post(t, owner.token, { ...baseFields(stayPark.id) });
    expect(res.status).toBe(400);
    expect(res.json.details).toEqual({ observedAt: OBSERVATION_MESSAGES.observedAtRequiredForStay });
  });

  it('defaults the issue time to the server receipt time without a stay', async () => {
    const before = t.deps.now().getTime();
    const pcn = await create(t, owner.token, { ...baseFields(plainPark.id) });
    expect(Date.parse(pcn.issuedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(pcn.issuedAt!)).toBeLessThanOrEqual(t.deps.now().getTime());
  });

  it('refuses a first sighting in the future or after the issue, allowing a small clock difference', async () => {
    const future = await post(t, owner.token, {
      ...baseFields(plainPark.id),
      observedAt: new Date(t.deps.now().getTime() + 10 * MINUTE).toISOString(),
    });
    // After the notice reached the server (beyond the allowance): refused 422, naming the field.
    expect(future.status).toBe(422);
    expect(future.json.details.observedAt).toBe(PERIOD_MESSAGES.observedAfterReceipt);
    const issuedFuture = await post(t, owner.token, {
      ...baseFields(plainPark.id),
      issuedAt: new Date(t.deps.now().getTime() + 10 * MINUTE).toISOString(),
    });
    expect(issuedFuture.json.details.issuedAt).toBe(OBSERVATION_MESSAGES.issuedAtInFuture);
    const reversed = await post(t, owner.token, {
      ...baseFields(plainPark.id),
      observedAt: isoAgo(t, 5 * MINUTE),
      issuedAt: isoAgo(t, 10 * MINUTE),
    });
    expect(reversed.status).toBe(400);
    expect(reversed.json.details.observedAt).toBe(OBSERVATION_MESSAGES.observedAfterIssued);
    const ahead = (ms: number) => new Date(t.deps.now().getTime() + ms).toISOString();
    const slightlyAhead = await post(t, owner.token, {
      ...baseFields(plainPark.id),
      observedAt: ahead(MINUTE),
      issuedAt: ahead(2 * MINUTE),
    });
    expect(slightlyAhead.status).toBe(201);
    // No issue time sent: issued now, but not before the (slightly ahead) sighting.
    const observedAt = ahead(MINUTE);
    const defaulted = await create(t, owner.token, { ...baseFields(plainPark.id), observedAt });
    expect(defaulted.issuedAt).toBe(observedAt);
  });

  it('judges device times against the device clock, so a phone running fast still files', async () => {
    const deviceNow = t.deps.now().getTime() + 20 * MINUTE;
    const observedAt = new Date(deviceNow - 16 * MINUTE).toISOString();
    const secondVisit = [photo(401, { takenAt: new Date(deviceNow - MINUTE).toISOString() })];
    const pcn = await create(
      t,
      owner.token,
      { ...baseFields(stayPark.id), observedAt, photos: secondVisit },
      { [DEVICE_TIME_HEADER]: new Date(deviceNow).toISOString() },
    );
    expect(pcn.issuedAt).toBe(new Date(deviceNow).toISOString());
    expect(pcn.clockSkewWarning).toBe(true);
  });

  it('refuses invalid observation fields with their own messages', async () => {
    const res = await post(t, owner.token, { ...baseFields(plainPark.id), issuedAt: 'noon', stayApplies: 'yes' });
    expect(res.status).toBe(400);
    expect(res.json.details).toMatchObject({
      issuedAt: 'Issue time must be an ISO-8601 date-time with a time zone',
      stayApplies: "Stay applies must be 'true' or 'false'",
    });
  });

  it('checks the rule again when an edit moves the first sighting, but not for other edits', async () => {
    const observedAt = isoAgo(t, 60 * MINUTE);
    const pcn = await create(t, owner.token, {
      ...baseFields(stayPark.id),
      observedAt,
      issuedAt: isoAgo(t, 30 * MINUTE),
      photos: visits(observedAt, isoAgo(t, 31 * MINUTE)),
    });
    const tooLate = await put(t, owner.token, pcn.id, { observedAt: isoAgo(t, 40 * MINUTE) });
    expect(tooLate.status).toBe(400);
    expect(tooLate.json.message).toMatch(/^A stay applies here/);
    const described = await put(t, owner.token, pcn.id, { description: 'Still there at 10:15' });
    expect(described.status).toBe(200);
    expect(described.json.data).toMatchObject({ observedAt, description: 'Still there at 10:15' });
  });
});

describe('duplicates: one charge per parking event', () => {
  let t: TestApp;
  let first: Session;
  let second: Session;
  let stranger: Session;
  let admin: Session;
  let carPark: { id: string };
  let otherPark: { id: string };
  let original: Pcn;
  let repeat: Pcn;
  // The app's day, which may run a few minutes ahead of the wall clock (keepClearOfMidnight).
  const today = () => t.deps.now().toISOString().slice(0, 10);
  const lookUp = (token: string, query: Record<string, string>) =>
    t.request('GET', `/pcns/duplicates?${new URLSearchParams(query)}`, { token });

  beforeAll(async () => {
    t = await createTestApp();
    keepClearOfMidnight(t);
    first = await t.signedInUser('USER', { firstName: 'Fay', lastName: 'First' });
    second = await t.signedInUser('USER', { firstName: 'Sid', lastName: 'Second' });
    stranger = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carPark = await t.createCarPark({ assignTo: [first.id, second.id] });
    otherPark = await t.createCarPark({ assignTo: [first.id, second.id, stranger.id] });
    original = await create(t, first.token, { ...baseFields(carPark.id), observedAt: isoAgo(t, 2 * MINUTE) });
  });
  afterAll(() => t.close());

  it("finds another officer's PCN for the same vehicle, car park and day, showing only number, status and time", async () => {
    const res = await lookUp(second.token, { vehicleRegistration: 'AB12 cde', carParkId: carPark.id, date: today() });
    expect(res.status).toBe(200);
    const { duplicates } = res.json.data as PcnDuplicatesResponse;
    expect(duplicates).toEqual([{ id: original.id, pcnNumber: original.pcnNumber, status: 'SUBMITTED', createdAt: original.createdAt }]);
  });

  it('finds nothing for another day, car park or vehicle', async () => {
    const tomorrow = new Date(t.deps.now().getTime() + DAY).toISOString().slice(0, 10);
    for (const query of [
      { vehicleRegistration: 'AB12CDE', carParkId: carPark.id, date: tomorrow },
      { vehicleRegistration: 'AB12CDE', carParkId: otherPark.id, date: today() },
      { vehicleRegistration: 'ZZ99ZZZ', carParkId: carPark.id, date: today() },
    ]) {
      const res = await lookUp(second.token, query);
      expect(res.json.data.duplicates).toEqual([]);
    }
  });

  it('lets a USER check only car parks assigned to them, and refuses bad queries', async () => {
    const res = await lookUp(stranger.token, { vehicleRegistration: 'AB12CDE', carParkId: carPark.id, date: today() });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(SERVER_MESSAGES.carParkNotAssigned);
    expect(
      (await lookUp(admin.token, { vehicleRegistration: 'AB12CDE', carParkId: carPark.id, date: today() })).json.data.duplicates,
    ).toHaveLength(1);
    expect((await lookUp(second.token, { vehicleRegistration: 'AB12CDE', carParkId: carPark.id, date: '2026-02-31' })).status).toBe(400);
    expect((await lookUp(second.token, { carParkId: carPark.id, date: today() })).status).toBe(400);
    expect((await lookUp(second.token, { vehicleRegistration: 'AB12CDE', carParkId: 'nope', date: today() })).status).toBe(400);
    expect((await t.request('GET', '/pcns/duplicates?vehicleRegistration=AB12CDE')).status).toBe(401);
  });

  it('lets the officer continue with a reason and flags the pair to admins only', async () => {
    repeat = await create(t, second.token, {
      ...baseFields(carPark.id),
      observedAt: isoAgo(t, MINUTE),
      duplicateReason: 'Vehicle left and came back: a new parking event',
    });
    expect(repeat.duplicateReason).toBe('Vehicle left and came back: a new parking event');
    expect(repeat).not.toHaveProperty('possibleDuplicates');

    const asAdmin = await t.request('GET', `/pcns/${repeat.id}`, { token: admin.token });
    expect(asAdmin.json.data.possibleDuplicates).toEqual([{ id: original.id, pcnNumber: original.pcnNumber }]);
    const originalAsAdmin = await t.request('GET', `/pcns/${original.id}`, { token: admin.token });
    expect(originalAsAdmin.json.data.possibleDuplicates).toEqual([{ id: repeat.id, pcnNumber: repeat.pcnNumber }]);
    const originalAsOwner = await t.request('GET', `/pcns/${original.id}`, { token: first.token });
    expect(originalAsOwner.json.data).not.toHaveProperty('possibleDuplicates');
  });

  it('lists flagged PCNs for admins with flagged=duplicates, and refuses USERs', async () => {
    await create(t, first.token, { ...baseFields(otherPark.id), vehicleRegistration: 'CD34EFG' });
    const res = await t.request('GET', '/pcns?scope=all&flagged=duplicates', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.json.data.pcns.map((p: Pcn) => p.id).sort()).toEqual([original.id, repeat.id].sort());
    expect(res.json.data.pagination.total).toBe(2);
    expect((await t.request('GET', '/pcns?flagged=duplicates', { token: first.token })).status).toBe(403);
    expect((await t.request('GET', '/pcns?scope=all&flagged=everything', { token: admin.token })).status).toBe(400);
  });

  it('flags even when the officer gives no reason (the warning never blocks, e.g. a notice synced from offline)', async () => {
    const third = await create(t, first.token, { ...baseFields(carPark.id) });
    expect(third.duplicateReason).toBeNull();
    const asAdmin = await t.request('GET', `/pcns/${third.id}`, { token: admin.token });
    expect(asAdmin.json.data.possibleDuplicates.map((p: { id: string }) => p.id).sort()).toEqual([original.id, repeat.id].sort());
  });

  it('drops the flag when an edit moves the notice to another day, and deleting a PCN clears its pairs', async () => {
    const moved = await create(t, second.token, { ...baseFields(carPark.id), vehicleRegistration: 'MOVE123' });
    await create(t, first.token, { ...baseFields(carPark.id), vehicleRegistration: 'MOVE123' });
    // Seen and issued two days ago: a first sighting is within the day of its notice.
    const edited = await put(t, admin.token, moved.id, { observedAt: isoAgo(t, 2 * DAY), issuedAt: isoAgo(t, 2 * DAY - 30 * MINUTE) });
    expect(edited.status).toBe(200);
    expect(edited.json.data.possibleDuplicates).toEqual([]);
    const gone = await t.request('DELETE', `/pcns/${repeat.id}`, { token: admin.token });
    expect(gone.status).toBe(200);
    const originalAsAdmin = await t.request('GET', `/pcns/${original.id}`, { token: admin.token });
    expect(originalAsAdmin.json.data.possibleDuplicates.map((p: { id: string }) => p.id)).not.toContain(repeat.id);
  });
});

describe('keeper-notice deadline', () => {
  let t: TestApp;
  let owner: Session;
  let admin: Session;
  let carPark: { id: string };
  let scottish: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    // Wednesday 24 December 2025, noon: the worked examples of shared/src/keeper-liability.test.ts.
    t.clock.frozenAtMs = Date.parse('2025-12-24T12:00:00.000Z');
    owner = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carPark = await t.createCarPark({ assignTo: [owner.id] });
    scottish = await t.createCarPark({ assignTo: [owner.id] });
    await t.db.updateTable('car_parks').set({ jurisdiction: 'SCOTLAND' }).where('id', '=', scottish.id).execute();
  });
  afterAll(() => t.close());

  const served = (servedBy: string, servedAt: string, registration: string, parkId = carPark.id) =>
    create(t, owner.token, {
      ...baseFields(parkId),
      vehicleRegistration: registration,
      observedAt: servedAt,
      issuedAt: servedAt,
      noticeServedBy: servedBy,
      noticeServedAt: servedAt,
    });

  it('is due at the end of the last posting day of its route, warned 3 working days before it', async () => {
    // A drive-off on Friday 19 December 2025: posted by Tuesday 30 December (the 14 days run over
    // Christmas, Boxing Day and New Year). Three working days before is Tuesday 23 December.
    const driveOff = await served('DRIVE_OFF', '2025-12-19T10:00:00.000Z', 'DRV1');
    expect(driveOff.keeperNotice).toMatchObject({ route: 'PARAGRAPH_9', lastPostingDate: '2025-12-30' });
    expect(driveOff.keeperNoticeDueAt).toBe('2025-12-30T23:59:59.999Z');
    expect(driveOff.deadlineWarning).toBe(true);
    // The same day with a ticket on the windscreen: paragraph 8, posted from 19 January to 11 February.
    const affixed = await served('AFFIXED', '2025-12-19T10:00:00.000Z', 'FIX1');
    expect(affixed.keeperNotice).toMatchObject({ route: 'PARAGRAPH_8', firstPostingDate: '2026-01-19', lastPostingDate: '2026-02-11' });
    expect(affixed.keeperNoticeDueAt).toBe('2026-02-11T23:59:59.999Z');
    expect(affixed.deadlineWarning).toBe(false);
    const listed = await t.request('GET', '/pcns', { token: owner.token });
    expect(listed.json.data.pcns.find((p: Pcn) => p.id === driveOff.id)).toMatchObject({
      keeperNoticeDueAt: '2025-12-30T23:59:59.999Z',
      deadlineWarning: true,
    });
  });

  it('lists open PCNs by last posting day across routes, those without keeper liability last, and follows a correction', async () => {
    await t.db.deleteFrom('pcns').execute();
    const affixed = await served('AFFIXED', '2025-12-19T10:00:00.000Z', 'FIX2');
    // A drive-off on Tuesday 23 December: 14 days to Tuesday 6 January, so posted by Friday 2 January.
    const later = await served('DRIVE_OFF', '2025-12-23T09:00:00.000Z', 'DRV2');
    const earlier = await served('DRIVE_OFF', '2025-12-19T10:00:00.000Z', 'DRV3');
    const inScotland = await served('AFFIXED', '2025-12-19T10:00:00.000Z', 'SCO1', scottish.id);
    const issued = await served('DRIVE_OFF', '2025-12-18T10:00:00.000Z', 'ISS1');
    for (const status of ['UNDER_REVIEW', 'APPROVED', 'ISSUED']) {
      expect((await t.request('PATCH', `/pcns/${issued.id}/status`, { token: admin.token, json: { status } })).status).toBe(200);
    }
    expect(later.keeperNotice.lastPostingDate).toBe('2026-01-02');
    expect(inScotland.keeperNotice.route).toBe('NOT_AVAILABLE');
    expect(inScotland.keeperNoticeDueAt).toBeUndefined();
    expect(inScotland.deadlineWarning).toBe(false);

    const queue = async (order = 'asc') => {
      const res = await t.request('GET', `/pcns?scope=all&sort=deadline&order=${order}&limit=100`, { token: admin.token });
      expect(res.status).toBe(200);
      return (res.json.data.pcns as Pcn[]).map((p) => p.id);
    };
    expect(await queue()).toEqual([earlier.id, later.id, affixed.id, inScotland.id]);
    expect(await queue('desc')).toEqual([inScotland.id, affixed.id, later.id, earlier.id]);

    // An admin corrects the service of the paragraph 8 notice: the driver had left. It moves up,
    // level with the other drive-off that day and before it by number.
    const corrected = await put(t, admin.token, affixed.id, {
      noticeServedBy: 'DRIVE_OFF',
      serviceCorrectionReason: 'The officer tapped the wrong answer',
    });
    expect(corrected.status).toBe(200);
    expect(corrected.json.data.keeperNoticeDueAt).toBe('2025-12-30T23:59:59.999Z');
    expect(await queue()).toEqual([affixed.id, earlier.id, later.id, inScotland.id]);

    // With a status: an open one keeps its own notices in the queue's order, counted; a closed one has none.
    const withStatus = async (status: string) => {
      const res = await t.request('GET', `/pcns?scope=all&status=${status}&sort=deadline&order=asc&limit=100`, { token: admin.token });
      expect(res.status).toBe(200);
      return { ids: (res.json.data.pcns as Pcn[]).map((p) => p.id), total: res.json.data.pagination.total as number };
    };
    expect(await withStatus('SUBMITTED')).toEqual({ ids: [affixed.id, earlier.id, later.id, inScotland.id], total: 4 });
    expect(await withStatus('ISSUED')).toEqual({ ids: [], total: 0 });
    for (const id of [earlier.id, inScotland.id]) {
      for (const status of ['UNDER_REVIEW', 'APPROVED']) {
        expect((await t.request('PATCH', `/pcns/${id}/status`, { token: admin.token, json: { status } })).status).toBe(200);
      }
    }
    expect(await withStatus('APPROVED')).toEqual({ ids: [earlier.id, inScotland.id], total: 2 });

    expect((await t.request('GET', `/pcns/${issued.id}`, { token: admin.token })).json.data.deadlineWarning).toBe(false);
    expect((await t.request('GET', '/pcns?sort=deadline', { token: owner.token })).status).toBe(403);
    expect((await t.request('GET', '/pcns?scope=all&sort=soonest', { token: admin.token })).status).toBe(400);
  });

  it('works out the posting day of notices stored before it was kept, once, at start', async () => {
    const old = await served('DRIVE_OFF', '2025-12-19T10:00:00.000Z', 'OLD1');
    await t.db.updateTable('pcns').set({ keeper_post_by: null }).execute();
    expect(await fillMissingKeeperPostingDays(t.db)).toBeGreaterThanOrEqual(1);
    expect(await fillMissingKeeperPostingDays(t.db)).toBe(0);
    const row = await t.db.selectFrom('pcns').select('keeper_post_by').where('id', '=', old.id).executeTakeFirstOrThrow();
    expect(row.keeper_post_by).toBe('2025-12-30');
    const scottishRows = await t.db.selectFrom('pcns').select('keeper_post_by').where('car_park_id', '=', scottish.id).execute();
    expect(scottishRows.every((r) => r.keeper_post_by === null)).toBe(true);
  });

  // SQLite's query plan; PostgreSQL's planner is measured by the benchmarks instead.
  it.skipIf(ON_POSTGRES)('walks a queue index in deadline order instead of sorting every open or approved PCN', async () => {
    // A fresh app: the database keeps statements it has prepared, so only a first run of the
    // page query shows its SQL here.
    const fresh = await createTestApp();
    const statements: string[] = [];
    const prepare = fresh.sqlite.prepare.bind(fresh.sqlite);
    const spy = (source: string) => {
      statements.push(source);
      return prepare(source);
    };
    const planOf = async (path: string) => {
      statements.length = 0;
      fresh.sqlite.prepare = spy as typeof fresh.sqlite.prepare;
      try {
        expect((await fresh.request('GET', path, { token: freshAdmin.token })).status).toBe(200);
      } finally {
        fresh.sqlite.prepare = prepare;
      }
      const page = statements.find((source) => source.includes("coalesce(pcns.keeper_post_by, '9999-12-31')"))!;
      const params = [...page.matchAll(/\?/g)].map(() => 5);
      return (prepare(`explain query plan ${page}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail).join(' | ');
    };
    const freshAdmin = await fresh.signedInUser('ADMIN');
    // Manage PCNs sorted by deadline: every open notice.
    const open = await planOf('/pcns?scope=all&sort=deadline&limit=5');
    expect(open).toContain('USING INDEX pcns_keeper_queue_open');
    // Only PCNs that share a posting day are sorted, by number (the tie-breaker the index does
    // not hold), and the walk still stops after the page: never a sort of every open PCN.
    expect(open).not.toContain('USE TEMP B-TREE FOR ORDER BY');
    // The keeper notices screen: the approved ones, nearest posting day first.
    const approved = await planOf('/pcns?scope=all&status=APPROVED&sort=deadline&order=asc&limit=100');
    expect(approved).toContain('USING INDEX pcns_status_deadline (status=?)');
    expect(approved).not.toContain('USE TEMP B-TREE');
    await fresh.close();
  });
});

describe('audit trail', () => {
  let t: TestApp;
  let owner: Session;
  let other: Session;
  let admin: Session;
  let carPark: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signedInUser('USER', { firstName: 'Olive', lastName: 'Owner' });
    other = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Ada', lastName: 'Admin' });
    carPark = await t.createCarPark({ assignTo: [owner.id, other.id] });
  });
  afterAll(() => t.close());

  it('writes an entry for every kind of change, with who, when and what, and keeps it after the PCN is deleted', async () => {
    const kept = photo(1);
    const dropped = photo(2);
    const pcn = await create(
      t,
      owner.token,
      { ...baseFields(carPark.id), photos: [kept, dropped] },
      { [DEVICE_TIME_HEADER]: isoAgo(t, 0) },
    );

    const edit = await put(t, owner.token, pcn.id, {
      description: 'Permit expired last week',
      photos: [photo(3)],
      removeImageIds: [pcn.images[1]!.id],
    });
    expect(edit.status).toBe(200);
    const added = edit.json.data.images.find((image: { sha256: string }) => image.sha256 === sha256Of(makeJpeg(3)));
    expect(
      (
        await t.request('PATCH', `/pcns/${pcn.id}/status`, {
          token: admin.token,
          json: { status: 'UNDER_REVIEW', adminNotes: 'Checking the permit list' },
        })
      ).status,
    ).toBe(200);
    expect((await t.request('DELETE', `/pcns/${pcn.id}`, { token: admin.token })).status).toBe(200);

    const entries = await auditOf(t, admin.token, pcn.id);
    expect(entries.map((e) => e.action)).toEqual([
      'created',
      'updated',
      'image_removed',
      'image_added',
      'status_changed',
      'notes_changed',
      'deleted',
    ]);
    // The retention policy's entry has its own test (evidence-retention.test.ts), the keeper's two
    // theirs (keeper-notices.test.ts), payments theirs (payments.test.ts), appeals theirs (appeals.test.ts)
    // hirers and named drivers theirs (driver-and-hirer.test.ts), a set-aside appeal its own
    // (security-round-four-public.test.ts), refunds theirs (refunds.test.ts), the collection letters
    // theirs (collection-letters.test.ts) and the hand-over to an agency its two (debt-recovery.test.ts);
    // a landowner's cancellation request and its answer, theirs (landowners.test.ts); a withdrawn appeal its
    // own (appeal-withdrawal.test.ts).
    const elsewhere = new Set([
      'appeal_set_aside',
      'appeal_withdrawn',
      'hirer_recorded',
      'driver_named',
      'letter_posted',
      'images_purged',
      'keeper_changed',
      'keeper_notice_posted',
      'payment_recorded',
      'appeal_received',
      'appeal_decided',
      'appeal_considered',
      'refund_recorded',
      'collection_stage_changed',
      'debt_recovery_exported',
      'debt_recovery_outcome',
      'cancellation_requested',
      'cancellation_request_decided',
    ]);
    expect(new Set(entries.map((e) => e.action))).toEqual(new Set(PCN_AUDIT_ACTIONS.filter((action) => !elsewhere.has(action))));
    const [created, updated, removed, imageAdded, statusChanged, notesChanged, deleted] = entries as [PcnAuditEntry, ...PcnAuditEntry[]];

    expect(created).toMatchObject({
      pcnId: pcn.id,
      actor: { id: owner.id, firstName: 'Olive', lastName: 'Owner' },
      actorName: 'Olive Owner',
    });
    expect(created.changes).toMatchObject({
      pcnNumber: { from: null, to: pcn.pcnNumber },
      vehicleRegistration: { from: null, to: 'AB12CDE' },
      location: { from: null, to: 'Bay 14, level 2' },
      images: { from: null, to: [expect.objectContaining({ sha256: kept.sha256 }), expect.objectContaining({ sha256: dropped.sha256 })] },
    });
    expect(created.clockOffsetMs).toEqual(expect.any(Number));
    expect(updated!.changes).toEqual({ description: { from: 'No permit displayed', to: 'Permit expired last week' } });
    expect(removed!.changes).toEqual({
      image: { from: expect.objectContaining({ id: pcn.images[1]!.id, sha256: dropped.sha256 }), to: null },
    });
    expect(imageAdded!.changes).toEqual({ image: { from: null, to: expect.objectContaining({ id: added.id, sha256: added.sha256 }) } });
    expect(statusChanged).toMatchObject({
      actor: { id: admin.id, firstName: 'Ada', lastName: 'Admin' },
      changes: { status: { from: 'SUBMITTED', to: 'UNDER_REVIEW' }, note: { from: null, to: 'Checking the permit list' } },
    });
    expect(notesChanged!.changes).toEqual({ adminNotes: { from: null, to: 'Checking the permit list' } });
    expect(deleted).toMatchObject({
      actorName: 'Ada Admin',
      changes: { pcnNumber: { from: pcn.pcnNumber, to: null }, status: { from: 'UNDER_REVIEW', to: null } },
    });
    for (const entry of entries) expect(Date.parse(entry.createdAt)).not.toBeNaN();

    // The owner's view ended with the PCN; another USER never had one.
    expect((await t.request('GET', `/pcns/${pcn.id}/audit`, { token: owner.token })).status).toBe(404);
  });

  it('shows the owner their own PCN trail, hides it from other USERs, and refuses anonymous callers', async () => {
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id) });
    expect((await auditOf(t, owner.token, pcn.id)).map((e) => e.action)).toEqual(['created']);
    const hidden = await t.request('GET', `/pcns/${pcn.id}/audit`, { token: other.token });
    expect(hidden.status).toBe(404);
    expect((await t.request('GET', `/pcns/${pcn.id}/audit`)).status).toBe(401);
    expect((await t.request('GET', `/pcns/${randomUUID()}/audit`, { token: admin.token })).status).toBe(404);
  });

  it('records only what an edit changed, and nothing for an edit that changes nothing', async () => {
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id) });
    expect((await put(t, owner.token, pcn.id, { description: 'No permit displayed', location: 'Bay 14, level 2' })).status).toBe(200);
    expect((await put(t, owner.token, pcn.id, { location: 'Bay 15', stayApplies: 'false' })).status).toBe(200);
    const entries = await auditOf(t, admin.token, pcn.id);
    expect(entries.map((e) => e.action)).toEqual(['created', 'updated']);
    expect(entries[1]!.changes).toEqual({ location: { from: 'Bay 14, level 2', to: 'Bay 15' } });
  });

  it('writes nothing for a refused change', async () => {
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id) });
    const before = await countRows(t, 'pcn_audit');
    expect((await put(t, other.token, pcn.id, { description: 'Not mine' })).status).toBe(404);
    expect((await t.request('PATCH', `/pcns/${pcn.id}/status`, { token: admin.token, json: { status: 'PAID' } })).status).toBe(409);
    expect((await put(t, owner.token, pcn.id, { observedAt: new Date(t.deps.now().getTime() + DAY).toISOString() })).status).toBe(422);
    expect(await countRows(t, 'pcn_audit')).toBe(before);
  });

  it('cannot be edited or deleted: no API for it, and the database refuses', async () => {
    const pcn = await create(t, owner.token, { ...baseFields(carPark.id) });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await t.request(method, `/pcns/${pcn.id}/audit`, { token: admin.token, json: { action: 'deleted' } });
      expect(res.status, method).toBe(404);
    }
    await expect(t.db.updateTable('pcn_audit').set({ action: 'updated' }).where('pcn_id', '=', pcn.id).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.deleteFrom('pcn_audit').where('pcn_id', '=', pcn.id).execute()).rejects.toThrow(/append-only/);
    expect((await auditOf(t, admin.token, pcn.id)).map((e) => e.action)).toEqual(['created']);
  });

  it('keeps the recorded name when the actor account is deleted', async () => {
    const leaver = await t.signedInUser('USER', { firstName: 'Lee', lastName: 'Leaver' });
    await t.db
      .insertInto('car_park_users')
      .values({ car_park_id: carPark.id, user_id: leaver.id, created_at: new Date().toISOString() })
      .execute();
    const pcn = await create(t, leaver.token, { ...baseFields(carPark.id) });
    const superAdmin = await t.signedInUser('SUPER_ADMIN');
    expect((await t.request('DELETE', `/users/${leaver.id}`, { token: superAdmin.token })).status).toBe(200);
    const [created] = await auditOf(t, admin.token, pcn.id);
    expect(created).toMatchObject({ action: 'created', actor: null, actorName: 'Lee Leaver' });
  });
});
