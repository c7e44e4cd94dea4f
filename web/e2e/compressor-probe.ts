import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { PHOTO_JPEG_QUALITY, PHOTO_MAX_BYTES, PHOTO_MAX_SIDE_PX } from '../src/lib/photos/photo-fit.ts';

/**
 * A phone camera's photo as its sensor stores it: 2400 x 1800, with EXIF orientation 6 (the phone
 * was held upright, so it shows 1800 x 2400). Noise in every pixel, finer than foliage or gravel:
 * at the first quality it comes out over the size limit (990 KB in Chromium), so the compressor
 * must try again.
 */
export function uprightPhoneJpeg(): Buffer {
  const width = 2400;
  const height = 1800;
  const data = Buffer.alloc(width * height * 4);
  let seed = 7;
  for (let i = 0; i < width * height; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const noise = (seed >>> 24) - 128;
    const stripe = Math.floor(i / 40) % 2 === 0 ? 180 : 70;
    data[i * 4] = clamp(stripe + noise);
    data[i * 4 + 1] = clamp(stripe - noise);
    data[i * 4 + 2] = clamp(128 + noise);
    data[i * 4 + 3] = 255;
  }
  const encoded = Buffer.from(jpeg.encode({ data, width, height }, 80).data);
  // APP1 "Exif": a big-endian TIFF header and one IFD entry, Orientation (0x0112) = 6.
  const tiff = Buffer.from([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 255]), body]);
  return Buffer.concat([encoded.subarray(0, 2), app1, encoded.subarray(2)]);
}

const clamp = (value: number) => Math.max(0, Math.min(255, value));

/** The compressor's built worker, as the app loads it: `/assets/worker-compress-worker-<hash>.js`. */
export function compressorWorkerPath(distDir: string): string {
  const file = readdirSync(join(distDir, 'assets')).find((name) => /^worker-compress-worker-.*\.js$/.test(name));
  if (!file) throw new Error(`no compressor worker in ${distDir}/assets: build the web app first`);
  return `/assets/${file}`;
}

export type CompressorResult = { type: string; bytes: number; width: number; height: number; jpeg: boolean };
export type CompressorProbe = { inWorker: CompressorResult | string; onPage: CompressorResult | string };

/**
 * The body of an async script, run on a page of the app, that compresses the photo (base64) with
 * the app's own settings both ways the app does: in the worker, and on the page where a worker
 * cannot. Each answers what came out, or why it failed. Plain JavaScript: WebDriver runs it too.
 */
export function compressorProbeScript(workerPath: string, photoBase64: string): string {
  const job = `{ file, maxSide: ${PHOTO_MAX_SIDE_PX}, maxBytes: ${PHOTO_MAX_BYTES}, quality: ${PHOTO_JPEG_QUALITY} }`;
  return `
    const raw = atob(${JSON.stringify(photoBase64)});
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    const file = new File([bytes], 'IMG_0001.JPG', { type: 'image/jpeg' });
    const describe = async (blob) => {
      const bitmap = await createImageBitmap(blob);
      const head = new Uint8Array(await blob.slice(0, 3).arrayBuffer());
      const result = { type: blob.type, bytes: blob.size, width: bitmap.width, height: bitmap.height, jpeg: head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff };
      bitmap.close();
      return result;
    };
    const inWorker = await new Promise((resolve) => {
      const worker = new Worker(${JSON.stringify(workerPath)}, { type: 'module' });
      worker.onmessage = (event) => { worker.terminate(); resolve(event.data.kind === 'done' ? describe(event.data.blob) : event.data.message); };
      worker.onerror = (event) => { worker.terminate(); resolve('the worker did not start: ' + event.message); };
      worker.postMessage(${job});
    });
    let onPage;
    try {
      const { compressJob } = await import(${JSON.stringify(workerPath)});
      onPage = await describe(await compressJob(${job}));
    } catch (error) {
      onPage = String(error);
    }
    return { inWorker, onPage };
  `;
}

/**
 * What is wrong with each way's photo: it must be a JPEG under the size limit, upright (taller
 * than wide, in the photo's proportions), at most the longest side the app keeps and at least half
 * of it. Empty when both are right.
 */
export function compressorFaults(probe: CompressorProbe): string[] {
  return Object.entries(probe).flatMap(([way, result]: [string, CompressorResult | string]) => {
    if (typeof result === 'string') return [`${way}: could not compress: ${result}`];
    const faults = [];
    if (!result.jpeg || result.type !== 'image/jpeg') faults.push('not a JPEG');
    if (result.bytes > PHOTO_MAX_BYTES) faults.push(`${result.bytes} bytes, over the limit of ${PHOTO_MAX_BYTES}`);
    if (Math.abs(result.width / result.height - 3 / 4) > 0.002) faults.push(`${result.width} x ${result.height}, not upright`);
    if (result.height > PHOTO_MAX_SIDE_PX || result.height < PHOTO_MAX_SIDE_PX / 2)
      faults.push(`${result.height} pixels tall, not between ${PHOTO_MAX_SIDE_PX / 2} and ${PHOTO_MAX_SIDE_PX}`);
    return faults.map((fault) => `${way}: ${fault}`);
  });
}
