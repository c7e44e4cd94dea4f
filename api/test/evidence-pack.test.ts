import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_TIME_HEADER, IDEMPOTENCY_KEY_HEADER, OFFENCE_TYPE_LABELS, type EvidencePack, type Pcn } from '@parkpatrol/shared';
import { purgeExpiredEvidence, removeOldEvidencePacks } from '../src/services/purge-expired-evidence.ts';
import { silentLogger } from '../src/services/logger.ts';
import { makeJpeg } from './fixtures.ts';
import { countEmbeddedImages, findEmbeddedJpegs, readPdfText } from './support/pdf.ts';
import { fetchEvidencePack, viaApp } from './support/evidence-pack.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Where the test leaves a sample pack; `npm test` renders its first page to PNG from here (scripts/render-evidence-pack.mjs). */
const ARTIFACT_DIR = resolve(import.meta.dirname, '../../test-results/evidence-pack');

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

type Photo = {
  bytes: Uint8Array;
  type: string;
  name: string;
  facts?: Partial<
    Record<'imageTakenAt' | 'imageTakenAtSource' | 'imageLatitude' | 'imageLongitude' | 'imageAccuracy' | 'imageShots', string>
  >;
};

function jpegPhoto(seed: number, facts: Photo['facts'] = {}): Photo {
  return { bytes: makeJpeg(seed, 64), type: 'image/jpeg', name: `photo-${seed}.jpg`, facts };
}

/** A first sighting and a second visit after consideration and grace: a notice the stay allows. */
function visits(seed: number): Photo[] {
  const at = (minutesAgo: number) => ({
    imageTakenAt: new Date(Date.now() - minutesAgo * MINUTE).toISOString(),
    imageTakenAtSource: 'camera',
  });
  return [jpegPhoto(seed, at(29)), jpegPhoto(seed + 100, at(6))];
}

function pngPhoto(): Photo {
  const png = new PNG({ width: 8, height: 8 });
  png.data.fill(180);
  return { bytes: new Uint8Array(PNG.sync.write(png)), type: 'image/png', name: 'rear.png' };
}

/** Enough of a WebP for the server's byte check; the pack never decodes it. */
function webpPhoto(): Photo {
  const bytes = new Uint8Array(64);
  bytes.set(new TextEncoder().encode('RIFF'), 0);
  bytes.set(new TextEncoder().encode('WEBPVP8 '), 8);
  return { bytes, type: 'image/webp', name: 'side.webp' };
}

/** POST /pcns as the phone sends it: every photo with its SHA-256 and capture facts. */
async function filePcn(
  t: TestApp,
  officer: Session,
  carParkId: string,
  photos: Photo[],
  fields: Record<string, string> = {},
): Promise<Pcn> {
  const form = new FormData();
  const now = Date.now();
  const base: Record<string, string> = {
    vehicleRegistration: 'ZO12 EVD',
    carParkId,
    offenceType: 'PARKING_WITHOUT_PERMIT',
    description: 'No permit on display. Driver said “back in 5” 🚗',
    location: 'Row C, bay 14',
    observedAt: new Date(now - 30 * MINUTE).toISOString(),
    issuedAt: new Date(now - 5 * MINUTE).toISOString(),
    stayApplies: 'true',
    noticeServedBy: 'AFFIXED',
    ...fields,
  };
  for (const [name, value] of Object.entries(base)) form.append(name, value);
  for (const photo of photos) form.append('images', new Blob([photo.bytes], { type: photo.type }), photo.name);
  for (const photo of photos) form.append('imageSha256', sha256Of(photo.bytes));
  for (const field of ['imageTakenAt', 'imageTakenAtSource', 'imageLatitude', 'imageLongitude', 'imageAccuracy', 'imageShots'] as const) {
    for (const photo of photos) form.append(field, photo.facts?.[field] ?? '');
  }
  const res = await t.request('POST', '/pcns', {
    token: officer.token,
    body: form,
    headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID(), [DEVICE_TIME_HEADER]: new Date(now + 95_000).toISOString() },
  });
  if (res.status !== 201) throw new Error(`create PCN failed: ${res.status} ${res.text}`);
  return res.json.data as Pcn;
}

async function downloadPack(t: TestApp, token: string, pcnId: string) {
  const res = await fetchEvidencePack(viaApp(t), token, pcnId);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('the evidence pack', () => {
  let t: TestApp;
  let admin: Session;
  let officer: Session;
  let carParkId: string;
  let pcn: Pcn;
  let photos: Photo[];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signedInUser('ADMIN', { firstName: 'Ade', lastName: 'Admin' });
    // A name the standard PDF fonts can draw only with care, and one they cannot draw at all.
    officer = await t.signedInUser('USER', { firstName: 'Zoë', lastName: 'Łukasz' });
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    const takenAt = new Date(Date.now() - 29 * MINUTE).toISOString();
    photos = [
      jpegPhoto(11, {
        imageTakenAt: takenAt,
        imageTakenAtSource: 'camera',
        imageLatitude: '51.50135',
        imageLongitude: '-0.14189',
        imageAccuracy: '12',
        imageShots: 'number-plate',
      }),
      jpegPhoto(12, { imageTakenAt: takenAt, imageTakenAtSource: 'added', imageShots: 'vehicle-in-context' }),
      jpegPhoto(13, { imageShots: 'signage' }),
      // The second visit: taken after consideration and grace (first sighting 30 minutes ago).
      jpegPhoto(14, { imageTakenAt: new Date(Date.now() - 6 * MINUTE).toISOString(), imageTakenAtSource: 'camera' }),
    ];
    pcn = await filePcn(t, officer, carParkId, photos);
    // A second notice for the same parking event, with the officer's reason: the duplicate note.
    await filePcn(t, officer, carParkId, [jpegPhoto(15, { imageTakenAt: new Date(Date.now() - 6 * MINUTE).toISOString() })], {
      duplicateReason: 'Moved to a disabled bay after the first notice',
    });
    const review = await t.request('PATCH', `/pcns/${pcn.id}/status`, {
      token: admin.token,
      json: { status: 'UNDER_REVIEW', adminNotes: 'Plate legible; permit list checked ✅' },
    });
    expect(review.status).toBe(200);
  });
  afterAll(() => t.close());

  it('answers a PDF named for the PCN, not to be cached', async () => {
    const pack = await downloadPack(t, admin.token, pcn.id);
    expect(pack.status).toBe(200);
    expect(pack.headers.get('content-type')).toBe('application/pdf');
    expect(pack.headers.get('content-disposition')).toBe(`attachment; filename="PCN-${pcn.pcnNumber}-evidence-pack.pdf"`);
    expect(pack.headers.get('cache-control')).toBe('no-store');
    expect(pack.headers.get('repr-digest')).toBe(`sha-256=:${createHash('sha256').update(pack.bytes).digest('base64')}:`);
    expect(new TextDecoder().decode(pack.bytes.slice(0, 5))).toBe('%PDF-');
    mkdirSync(ARTIFACT_DIR, { recursive: true });
    writeFileSync(resolve(ARTIFACT_DIR, 'evidence-pack.pdf'), pack.bytes);
  });

  it('holds the notice, every photo hash, the duplicate note and the audit trail as text', async () => {
    const pack = await downloadPack(t, admin.token, pcn.id);
    const { flat: text, pages } = await readPdfText(pack.bytes);
    expect(text).toContain(`PCN-${pcn.pcnNumber}`);
    expect(text).toContain('ZO12EVD');
    expect(text).toContain('Riverside Retail Park');
    expect(text).toContain('1 Test Street, AB1 2CD');
    expect(text).toContain(OFFENCE_TYPE_LABELS.PARKING_WITHOUT_PERMIT);
    expect(text).toContain('Under Review');
    // The route to the keeper follows how the notice to driver was served.
    expect(text).toContain('Fixed to the vehicle');
    expect(text).toMatch(/Paragraph 8 \(after a notice to driver\): post between \d+ \w{3} \d{4} and \d+ \w{3} \d{4}/);
    // 'Zoë' is drawable and kept; 'Ł' is not and becomes its plain letter; the emoji a '?'.
    expect(text).toContain('Zoë Lukasz');
    expect(text).toContain('back in 5” ?');
    for (const photo of photos) expect(text).toContain(sha256Of(photo.bytes));
    expect(text).toContain('GPS position (reported by the device): 51.50135, -0.14189 (accuracy ±12 m)');
    expect(text).toContain("the device's SHA-256 matched the server's on receipt");
    expect(text).toContain('Consideration period ends (5 min)');
    expect(text).toContain('A stay applied and was kept');
    expect(text).toContain('Second visit: vehicle photographed still there (photo 4)');
    expect(text).toContain('(first visit: photos 1 and 2)');
    // The phone's clock ran 95 s ahead of the server's.
    expect(text).toMatch(/device clock was 1 min 3\d s fast/);
    // The audit trail: creation and the status change with its note.
    expect(text).toMatch(/Created · by Zoë Lukasz/);
    expect(text).toMatch(/Status changed · by Ade Admin/);
    expect(text).toContain('Status: Submitted -> Under Review');
    expect(text).toContain('Plate legible; permit list checked ?');
    // Every page carries its frame.
    for (const [index, page] of pages.entries()) {
      expect(page).toContain(`PCN-${pcn.pcnNumber} · Evidence pack`);
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
      expect(page).toMatch(/Generated \d{2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} (GMT|BST)/);
    }
  });

  it('names the possible duplicate and the reason on the later notice', async () => {
    const list = await t.request('GET', '/pcns?scope=all&limit=1', { token: admin.token });
    const later = list.json.data.pcns[0] as Pcn;
    const { flat: text } = await readPdfText((await downloadPack(t, admin.token, later.id)).bytes);
    expect(text).toContain(`Possible duplicate: the same vehicle, car park and day as PCN-${pcn.pcnNumber}.`);
    expect(text).toContain("Officer's reason for filing it anyway: Moved to a disabled bay after the first notice");
  });

  it('embeds each photo as the stored JPEG bytes, so the hashes can be rechecked from the PDF', async () => {
    const pack = await downloadPack(t, admin.token, pcn.id);
    const embedded = (await findEmbeddedJpegs(pack.bytes)).map(sha256Of).sort();
    expect(embedded).toEqual(pcn.images.map((image) => image.sha256).sort());
  });

  it('shows a PNG re-encoded and says so, and keeps a WebP out with its hash', async () => {
    const mixed = await filePcn(t, officer, carParkId, [pngPhoto(), webpPhoto()], {
      vehicleRegistration: 'MX12 FMT',
      stayApplies: 'false',
    });
    const pack = await downloadPack(t, admin.token, mixed.id);
    const { flat: text } = await readPdfText(pack.bytes);
    expect(text).toContain('a re-encoded copy of the PNG for display');
    expect(text).toContain('WebP cannot be embedded in a PDF; the photo is kept in its original format with the SHA-256 below.');
    for (const image of mixed.images) expect(text).toContain(image.sha256);
    // The PNG is drawn (as an image and its alpha mask), the WebP is not, and neither is a JPEG stream.
    expect(await countEmbeddedImages(pack.bytes)).toBeGreaterThan(0);
    expect(await findEmbeddedJpegs(pack.bytes)).toHaveLength(0);
    expect(text).toContain('No stay applied');
  });

  it('still produces a pack for a PCN with no photos', async () => {
    const bare = await filePcn(t, officer, carParkId, [], { vehicleRegistration: 'NO12 PIC', stayApplies: 'false' });
    const pack = await downloadPack(t, admin.token, bare.id);
    expect(pack.status).toBe(200);
    const { flat: text } = await readPdfText(pack.bytes);
    expect(text).toContain(`PCN-${bare.pcnNumber}`);
    expect(text).toContain('No photos were filed with this notice.');
    expect(await countEmbeddedImages(pack.bytes)).toBe(0);
  });

  it('says the photos were removed under the retention policy, and keeps their hashes', async () => {
    const closed = await filePcn(t, officer, carParkId, [jpegPhoto(21), jpegPhoto(22)], {
      vehicleRegistration: 'RT12 PRG',
      stayApplies: 'false',
    });
    expect((await t.request('PATCH', `/pcns/${closed.id}/status`, { token: admin.token, json: { status: 'REJECTED' } })).status).toBe(200);
    await purgeExpiredEvidence({
      db: t.db,
      uploadsDir: t.config.uploadsDir,
      retentionDays: 0,
      now: () => new Date(),
      logger: silentLogger,
    });
    const pack = await downloadPack(t, admin.token, closed.id);
    const { flat: text } = await readPdfText(pack.bytes);
    expect(text).toMatch(/Photos removed under the retention policy on \d{1,2} \w+ \d{4}\./);
    for (const image of closed.images) expect(text).toContain(image.sha256);
    expect(text).toMatch(/Photos removed under the retention policy · by Retention policy/);
    expect(await countEmbeddedImages(pack.bytes)).toBe(0);
  });

  it("prints the car park's reason for periods shorter than the Single Code's minimums beside them", async () => {
    const reason = 'No-stopping zone: no consideration period applies';
    const created = await t.request('POST', '/car-parks', {
      token: admin.token,
      json: { name: 'Red Route Yard', siteCode: `RR${randomUUID().slice(0, 6)}`, considerationMinutes: 0, minimumsOverrideReason: reason },
    });
    expect(created.status, created.text).toBe(201);
    const redRoute = created.json.data.id as string;
    await t.request('POST', `/car-parks/${redRoute}/assign-user`, { token: admin.token, json: { userId: officer.id } });
    const stopped = await filePcn(
      t,
      officer,
      redRoute,
      [jpegPhoto(31, { imageTakenAt: new Date(Date.now() - 6 * MINUTE).toISOString() })],
      {
        vehicleRegistration: 'RR12 STP',
      },
    );
    const { flat: text } = await readPdfText((await downloadPack(t, admin.token, stopped.id)).bytes);
    expect(text).toContain('Consideration period ends (0 min)');
    expect(text).toContain(
      `This car park's periods are shorter than the Single Code of Practice's minimums: 0 min consideration (the minimum is 5). The reason recorded for the car park: ${reason}`,
    );
    // Where the periods are the Code's own, nothing is said of them.
    const { flat: usual } = await readPdfText((await downloadPack(t, admin.token, pcn.id)).bytes);
    expect(usual).not.toContain('shorter than the Single Code');
  });

  it('is for admins only: the officer who filed it gets 403, a stranger 401, an unknown PCN 404', async () => {
    expect((await downloadPack(t, officer.token, pcn.id)).status).toBe(403);
    const anonymous = await t.request('POST', `/pcns/${pcn.id}/evidence-packs`);
    expect(anonymous.status).toBe(401);
    const unknown = await t.request('POST', `/pcns/${randomUUID()}/evidence-packs`, { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ success: false, code: 'NOT_FOUND', message: 'PCN not found' });
  });
});

describe('an evidence pack made by a job', () => {
  let t: TestApp;
  let admin: Session;
  let officer: Session;
  let carParkId: string;

  beforeAll(async () => {
    t = await createTestApp({ jobsWaitForTest: true });
    admin = await t.signedInUser('ADMIN', { firstName: 'Pat', lastName: 'Pack' });
    officer = await t.signedInUser('USER');
    carParkId = (await t.createCarPark({ name: 'Quayside', assignTo: [officer.id] })).id;
  });
  afterAll(() => t.close());

  it('answers 202 at once, answers the same pack to a second ask, and offers the file once made', async () => {
    const filed = await filePcn(t, officer, carParkId, visits(31));
    const asked = await t.request('POST', `/pcns/${filed.id}/evidence-packs`, { token: admin.token });
    expect(asked.status, asked.text).toBe(202);
    expect(asked.json.data).toMatchObject({ pcnId: filed.id, state: 'WAITING', error: null, sha256: null, createdByName: 'Pat Pack' });
    const pack = asked.json.data as EvidencePack;
    // A second press while it is made is the same pack, not a second job.
    const again = await t.request('POST', `/pcns/${filed.id}/evidence-packs`, { token: admin.token });
    expect(again.json.data.id).toBe(pack.id);
    const early = await t.request('GET', `/pcns/${filed.id}/evidence-packs/${pack.id}/file`, { token: admin.token });
    expect(early.status).toBe(409);
    expect(early.json).toMatchObject({ code: 'CONFLICT', message: 'The evidence pack is still being made' });

    await t.workJobs();
    await t.deps.jobs.whenIdle();
    const done = (await t.request('GET', `/pcns/${filed.id}/evidence-packs/${pack.id}`, { token: admin.token })).json.data as EvidencePack;
    expect(done).toMatchObject({ id: pack.id, state: 'READY', error: null });
    expect(done.finishedAt).not.toBeNull();
    const file = await t.app.request(`/api/pcns/${filed.id}/evidence-packs/${pack.id}/file`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(file.status).toBe(200);
    expect(sha256Of(bytes)).toBe(done.sha256);
    expect((await readPdfText(bytes)).flat).toContain(filed.pcnNumber);
    // Once made, a new ask makes a new pack: the notice may have changed since.
    const fresh = await t.request('POST', `/pcns/${filed.id}/evidence-packs`, { token: admin.token });
    expect(fresh.json.data.id).not.toBe(pack.id);
    // A pack is found under its own notice only.
    const other = await filePcn(t, officer, carParkId, visits(32));
    expect((await t.request('GET', `/pcns/${other.id}/evidence-packs/${pack.id}`, { token: admin.token })).status).toBe(404);
    expect((await t.request('GET', `/pcns/${other.id}/evidence-packs/${pack.id}/file`, { token: admin.token })).status).toBe(404);
  });
});

describe('an evidence pack kept', () => {
  let t: TestApp;
  let admin: Session;
  let officer: Session;
  let carParkId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signedInUser('ADMIN');
    officer = await t.signedInUser('USER');
    carParkId = (await t.createCarPark({ name: 'Quayside', assignTo: [officer.id] })).id;
  });
  afterAll(() => t.close());

  const packsOf = (pcnId: string) => t.db.selectFrom('evidence_packs').selectAll().where('pcn_id', '=', pcnId).execute();

  it('is removed a day after it was made, and with its notice', async () => {
    const filed = await filePcn(t, officer, carParkId, visits(33));
    const made = await downloadPack(t, admin.token, filed.id);
    expect(made.status).toBe(200);
    const [row] = await packsOf(filed.id);
    expect(await t.deps.evidence.read(row!.file_name!)).not.toBeNull();
    // A day less a minute on, the daily run keeps it; a day and a minute on, it goes, file and all.
    const at = (ms: number) => new Date(Date.parse(row!.created_at) + ms);
    expect(await removeOldEvidencePacks({ db: t.db, evidence: t.deps.evidence, logger: silentLogger }, at(DAY - MINUTE))).toBe(0);
    expect(await removeOldEvidencePacks({ db: t.db, evidence: t.deps.evidence, logger: silentLogger }, at(DAY + MINUTE))).toBe(1);
    expect(await packsOf(filed.id)).toEqual([]);
    expect(await t.deps.evidence.read(row!.file_name!)).toBeNull();
    expect((await t.request('GET', `/pcns/${filed.id}/evidence-packs/${row!.id}/file`, { token: admin.token })).status).toBe(404);

    // A notice deleted takes its packs with it.
    const deleted = await filePcn(t, officer, carParkId, visits(34));
    await downloadPack(t, admin.token, deleted.id);
    const [kept] = await packsOf(deleted.id);
    expect((await t.request('DELETE', `/pcns/${deleted.id}`, { token: admin.token })).status).toBe(200);
    expect(await packsOf(deleted.id)).toEqual([]);
    expect(await t.deps.evidence.read(kept!.file_name!)).toBeNull();
  });
});
