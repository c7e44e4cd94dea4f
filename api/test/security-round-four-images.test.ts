import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDeflate, deflateRawSync, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, MAX_IMAGE_PIXELS, VALIDATION_MESSAGES } from '@parkpatrol/shared';
import { SPOOL_HEAD_BYTES } from '../src/services/multipart-spool.ts';
import { makeThumbnail } from '../src/services/thumbnails.ts';
import { assertBoundedPixels } from '../src/workflows/pcn-evidence.ts';
import { jpegUpload, pcnForm, validPcnFields, type PcnFormInput } from './fixtures.ts';
import { countEmbeddedImages, readPdfText } from './support/pdf.ts';
import { listen } from './support/loopback.ts';
import { blackRows, ihdr, pngChunk as chunk, PNG_SIGNATURE as SIGNATURE, stillPng } from './support/png.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { fetchEvidencePack, viaApp, viaFetch } from './support/evidence-pack.ts';

/**
 * The fourth outside attack, its image findings: "a PNG lies about its size". Each test failed
 * before its fix. The PNGs are built here, chunk by chunk, with valid CRCs.
 */

/** Shows 16 x 16 in its first header; a second IHDR, and data to match, make it 8000 x 8000. */
function pngWithSecondHeader(): Uint8Array {
  return new Uint8Array(Buffer.concat([SIGNATURE, ihdr(16, 16), ihdr(8000, 8000), chunk('IDAT', blackRows(8000, 8000)), chunk('IEND')]));
}

/** An APNG of eight frames, each at the PNG cap (4000 x 4000): the decoder unpacks all eight. */
function animatedPng(frames = 8): Uint8Array {
  const side = 4000;
  const rows = blackRows(side, side);
  const acTL = Buffer.alloc(8);
  acTL.writeUInt32BE(frames, 0);
  let sequence = 0;
  const fcTL = () => {
    const data = Buffer.alloc(26);
    data.writeUInt32BE(sequence++, 0);
    data.writeUInt32BE(side, 4);
    data.writeUInt32BE(side, 8);
    return chunk('fcTL', data);
  };
  const parts = [SIGNATURE, ihdr(side, side), chunk('acTL', acTL), fcTL(), chunk('IDAT', rows)];
  for (let frame = 1; frame < frames; frame++) {
    parts.push(fcTL());
    const number = Buffer.alloc(4);
    number.writeUInt32BE(sequence++, 0);
    parts.push(chunk('fdAT', Buffer.concat([number, rows])));
  }
  parts.push(chunk('IEND'));
  return new Uint8Array(Buffer.concat(parts));
}

/** One header of 1 x 1, and image data that unpacks to 64 MB. */
function pngWithOversizedData(): Uint8Array {
  return new Uint8Array(Buffer.concat([SIGNATURE, ihdr(1, 1), chunk('IDAT', blackRows(8000, 8000)), chunk('IEND')]));
}

/**
 * A 1 x 1 PNG whose colour profile (iCCP) unpacks to `megabytes` MB, deflated a megabyte at a
 * time so the test never holds it whole.
 */
let profileBomb: Promise<Uint8Array> | null = null;
const pngWithProfileBomb = (megabytes: number) => (profileBomb ??= buildProfileBomb(megabytes));

async function buildProfileBomb(megabytes: number): Promise<Uint8Array> {
  const deflater = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflater.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => deflater.on('end', resolve));
  const megabyte = Buffer.alloc(1024 * 1024);
  for (let index = 0; index < megabytes; index++) {
    if (!deflater.write(megabyte)) await new Promise((resolve) => deflater.once('drain', resolve));
  }
  deflater.end();
  await ended;
  const profile = chunk('iCCP', Buffer.concat([Buffer.from('icc\0\0'), ...parts]));
  return new Uint8Array(Buffer.concat([SIGNATURE, ihdr(1, 1), profile, chunk('IDAT', blackRows(1, 1)), chunk('IEND')]));
}

/** 20 MB of zeros: a bomb the check must refuse before unpacking much of it. */
const BOMB_BYTES = 20 * 1024 * 1024;

/** A 1 x 1 PNG with CgBI after its IHDR: the decoder then unpacks IDAT as raw deflate, which Node's zlib reads as broken. */
function pngWithLateCgbi(): Uint8Array {
  const idat = chunk('IDAT', deflateRawSync(Buffer.alloc(BOMB_BYTES), { level: 9 }));
  return new Uint8Array(Buffer.concat([SIGNATURE, ihdr(1, 1), chunk('CgBI', Buffer.alloc(4)), idat, chunk('IEND')]));
}

/**
 * A 1 x 1 PNG whose zlib stream opens with a stored block of LEN 1 and a wrong NLEN: Node's zlib
 * stops there, the decoder's (fflate) ignores NLEN and unpacks the bomb behind it.
 */
function pngWithBadStoredBlock(): Uint8Array {
  const stream = Buffer.concat([
    Buffer.from([0x78, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]),
    deflateRawSync(Buffer.alloc(BOMB_BYTES), { level: 9 }),
    Buffer.alloc(4),
  ]);
  return new Uint8Array(Buffer.concat([SIGNATURE, ihdr(1, 1), chunk('IDAT', stream), chunk('IEND')]));
}

/** A 1 x 1 PNG with a colour profile bomb after IEND: the EXIF reader walks every chunk to the end of the file. */
function pngWithProfileAfterEnd(): Uint8Array {
  const profile = chunk('iCCP', Buffer.concat([Buffer.from('icc\0\0'), deflateSync(Buffer.alloc(BOMB_BYTES), { level: 9 })]));
  return new Uint8Array(Buffer.concat([SIGNATURE, ihdr(1, 1), chunk('IDAT', blackRows(1, 1)), chunk('IEND'), profile]));
}

/**
 * A JPEG's header declaring `width` x `height`, after `padding` bytes of APP1 segments (where
 * phones keep EXIF): only the markers up to the frame header, which is all the size check reads.
 */
function jpegDeclaring(width: number, height: number, padding = 0): Uint8Array {
  // SOI, then a JFIF APP0 as every camera writes first (the size reader expects a segment there).
  const segments: Buffer[] = [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')];
  for (let left = padding; left > 0; left -= 60_000) {
    const body = Math.min(left, 60_000);
    const segment = Buffer.alloc(4 + body);
    segment.writeUInt16BE(0xffe1, 0);
    segment.writeUInt16BE(body + 2, 2);
    segments.push(segment);
  }
  const frame = Buffer.alloc(19);
  frame.writeUInt16BE(0xffc0, 0);
  frame.writeUInt16BE(17, 2);
  frame.writeUInt8(8, 4);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  frame.writeUInt8(3, 9);
  segments.push(frame, Buffer.from([0xff, 0xd9]));
  return new Uint8Array(Buffer.concat(segments));
}

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const asPng = (bytes: Uint8Array, name: string) => ({ bytes, type: 'image/png', name });

describe('security, round four: a PNG lies about its size', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;

  beforeAll(async () => {
    t = await createTestApp();
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
  });
  afterAll(() => t.close());

  const filePcn = (images: NonNullable<PcnFormInput['images']>) =>
    t.request('POST', '/pcns', {
      token: officer.token,
      body: pcnForm({ ...validPcnFields(carParkId), images }),
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    });

  it('the attack PNGs are what the finding describes', () => {
    expect(pngWithSecondHeader().length).toBeLessThan(70_000);
    expect(animatedPng().length).toBeLessThan(200_000);
  });

  it('N1: a PNG with a second IHDR declaring 8000 x 8000 is refused at upload, saying why', async () => {
    const res = await filePcn([asPng(pngWithSecondHeader(), 'second-header.png')]);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.message).toBe(VALIDATION_MESSAGES.pngHeaderNotSingle);
    expect(res.json.details).toEqual({ images: VALIDATION_MESSAGES.pngHeaderNotSingle });
  });

  it('N1: an APNG of eight frames is refused at upload, saying why', async () => {
    const res = await filePcn([jpegUpload(1), asPng(animatedPng(), 'frames.png')]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(VALIDATION_MESSAGES.pngAnimated);
    expect(res.json.details).toEqual({ images: VALIDATION_MESSAGES.pngAnimated });
  });

  it('N1: a PNG whose data unpacks to more than its one header declares is refused at upload', async () => {
    const res = await filePcn([asPng(pngWithOversizedData(), 'oversized.png')]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(VALIDATION_MESSAGES.pngUnpacksBeyondHeader);
  });

  it('N1: an appeal attachment is judged the same way, and named as an attachment', async () => {
    // The same check serves the motorist's appeal: its 400 names `attachments`.
    const path = join(await mkdtemp(join(tmpdir(), 'png-')), 'second-header.png');
    const bytes = pngWithSecondHeader();
    await writeFile(path, bytes);
    const spooled = { tempPath: path, head: bytes.subarray(0, SPOOL_HEAD_BYTES) };
    await expect(assertBoundedPixels(spooled, 'attachments')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { attachments: VALIDATION_MESSAGES.pngHeaderNotSingle },
    });
  });

  it('a JPEG declaring more pixels than the limit is refused, its header near the start or past the bytes kept while spooling', async () => {
    const side = Math.ceil(Math.sqrt(MAX_IMAGE_PIXELS)) + 1;
    for (const padding of [0, SPOOL_HEAD_BYTES + 10_000]) {
      const res = await filePcn([{ bytes: jpegDeclaring(side, side, padding), type: 'image/jpeg', name: 'huge.jpg' }]);
      expect(res.status).toBe(400);
      expect(res.json.details).toEqual({ images: VALIDATION_MESSAGES.imageTooManyPixels });
    }
    const fine = await filePcn([{ bytes: jpegDeclaring(4000, 3000, SPOOL_HEAD_BYTES + 10_000), type: 'image/jpeg', name: 'fine.jpg' }]);
    expect(fine.status).toBe(201);
  });

  it('N1: a PNG whose colour profile unpacks to 500 MB is refused at upload', async () => {
    const res = await filePcn([asPng(await pngWithProfileBomb(500), 'profile.png')]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(VALIDATION_MESSAGES.pngUnpacksBeyondHeader);
  });

  it('N1: a stored PNG whose colour profile unpacks to 500 MB is not read for its EXIF on the API thread', async () => {
    const filed = await filePcn([jpegUpload(5), asPng(stillPng(16, 16), 'profile.png')]);
    expect(filed.status).toBe(201);
    const row = await t.db
      .selectFrom('pcn_images')
      .select(['id', 'file_name'])
      .where('pcn_id', '=', filed.json.data.id)
      .where('mime_type', '=', 'image/png')
      .executeTakeFirstOrThrow();
    const bytes = await pngWithProfileBomb(500);
    await t.deps.evidence.put(row.file_name, bytes, 'image/png');
    await t.db
      .updateTable('pcn_images')
      .set({ sha256: sha256Of(bytes), size: bytes.length })
      .where('id', '=', row.id)
      .execute();
    // exifr unpacked the profile whole on the API's own thread: 1 GB, and the API stood still for seconds.
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    const res = await fetchEvidencePack(viaApp(t), admin.token, filed.json.data.id);
    stalls.disable();
    expect(res.status).toBe(200);
    expect(stalls.max / 1e6).toBeLessThan(1000);
    const { flat } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(flat).toContain('it would decode to more than its header shows');
  }, 60_000);

  it('N1: a PNG with CgBI after its IHDR is refused at upload', async () => {
    const res = await filePcn([asPng(pngWithLateCgbi(), 'cgbi.png')]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(VALIDATION_MESSAGES.pngDamaged);
  });

  it('N1: a PNG whose zlib stream is damaged where only Node stops (a stored block with a wrong NLEN) is refused at upload', async () => {
    const res = await filePcn([asPng(pngWithBadStoredBlock(), 'stored-block.png')]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(VALIDATION_MESSAGES.pngDamaged);
  });

  it('N1: a PNG with a colour profile after IEND is refused at upload', async () => {
    const res = await filePcn([asPng(pngWithProfileAfterEnd(), 'after-end.png')]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(VALIDATION_MESSAGES.pngDamaged);
  });

  it('a still PNG at the cap, and an honest small one, are still taken', async () => {
    const res = await filePcn([asPng(stillPng(4000, 4000), 'large.png'), asPng(stillPng(64, 48), 'small.png')]);
    expect(res.status).toBe(201);
  });

  it('N1: lying PNGs already in storage (from before the fix) are not decoded: their pack is built, the API answers, and the next pack is made', async () => {
    // Filed with honest photos, then the files swapped for the attack PNGs (with their hashes,
    // as a photo stored before this fix would have them).
    const filed = await filePcn([jpegUpload(3), asPng(stillPng(16, 16), 'a.png'), asPng(stillPng(16, 16), 'b.png')]);
    expect(filed.status).toBe(201);
    const pcnId: string = filed.json.data.id;
    const rows = await t.db
      .selectFrom('pcn_images')
      .select(['id', 'file_name', 'mime_type'])
      .where('pcn_id', '=', pcnId)
      .orderBy('created_at')
      .orderBy('file_name')
      .execute();
    const pngRows = rows.filter((row) => row.mime_type === 'image/png');
    expect(pngRows).toHaveLength(2);
    for (const [index, bytes] of [pngWithSecondHeader(), animatedPng()].entries()) {
      const row = pngRows[index]!;
      await t.deps.evidence.put(row.file_name, bytes, 'image/png');
      await t.db
        .updateTable('pcn_images')
        .set({ sha256: sha256Of(bytes), size: bytes.length })
        .where('id', '=', row.id)
        .execute();
    }
    const other = await filePcn([jpegUpload(4), asPng(stillPng(32, 32), 'c.png')]);
    expect(other.status).toBe(201);

    const server = await listen(t);
    const base = `${server.baseUrl}/api`;
    const fetchPack = async (id: string) => {
      const answer = await fetchEvidencePack(viaFetch(base), admin.token, id);
      return { status: answer.status, bytes: new Uint8Array(await answer.arrayBuffer()) };
    };
    try {
      // The decoded pixels would count against this whole process: watch its memory as health is asked.
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const healthTimes: number[] = [];
      const healthStatuses: number[] = [];
      let isBuilding = true;
      const probing = (async () => {
        while (isBuilding) {
          const asked = performance.now();
          const answer = await fetch(`${base}/health`);
          await answer.arrayBuffer();
          healthStatuses.push(answer.status);
          healthTimes.push(performance.now() - asked);
          rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const started = performance.now();
      const pack = await fetchPack(pcnId);
      const tookMs = performance.now() - started;
      isBuilding = false;
      await probing;

      expect(pack.status).toBe(200);
      const { flat } = await readPdfText(pack.bytes);
      expect(flat.split('it would decode to more than its header shows')).toHaveLength(3);
      // The JPEG is drawn; neither lying PNG is.
      expect(await countEmbeddedImages(pack.bytes)).toBe(1);
      // Decoding them took 52 s and 136 s, and 600 MB and 690 MB, before the fix.
      expect(tookMs).toBeLessThan(20_000);
      expect(rssPeak - rssBefore).toBeLessThan(250 * 1024 * 1024);
      expect(healthStatuses.every((status) => status === 200)).toBe(true);
      expect(Math.max(...healthTimes)).toBeLessThan(2000);

      const next = await fetchPack(other.json.data.id);
      expect(next.status).toBe(200);
      // The honest PNG beside it is drawn (as its image and, when it has one, its alpha mask).
      expect(await countEmbeddedImages(next.bytes)).toBeGreaterThanOrEqual(2);
    } finally {
      await server.close();
    }
  }, 240_000);

  it('a pack decodes at most MAX_PACK_PNG_PIXELS of PNG in all, and says which photo it did not draw', async () => {
    const filed = await filePcn([
      asPng(stillPng(4000, 4000), 'one.png'),
      asPng(stillPng(4000, 4000), 'two.png'),
      asPng(stillPng(4000, 4000), 'three.png'),
    ]);
    expect(filed.status).toBe(201);
    const res = await fetchEvidencePack(viaApp(t), admin.token, filed.json.data.id);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const { flat } = await readPdfText(bytes);
    expect(flat.split('used up the pixels one pack may decode')).toHaveLength(2);
    expect(await countEmbeddedImages(bytes)).toBe(2);
  }, 120_000);

  it('thumbnails (sharp) refuse the second header and read only the first frame, within its pixel limit', async () => {
    expect(await makeThumbnail(pngWithSecondHeader())).toBeNull();
    const started = performance.now();
    const thumbnail = await makeThumbnail(animatedPng());
    expect(thumbnail).not.toBeNull();
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
