import type { CompressJob, CompressReply } from './compress-worker.ts';
// The worker's built file: started as a worker, or imported by the page where a worker fails.
import compressWorkerUrl from './compress-worker.ts?worker&url';
import { PHOTO_JPEG_QUALITY, PHOTO_MAX_BYTES, PHOTO_MAX_SIDE_PX } from './photo-fit.ts';
import { readJpegCaptureTime } from './read-capture-time.ts';

export type CompressedPhoto = {
  bytes: ArrayBuffer;
  type: string;
  name: string;
  size: number;
  /** ISO capture time: EXIF DateTimeOriginal, else the moment the photo was added. */
  takenAt: string;
  takenAtSource: 'camera' | 'added';
};

export async function compressPhoto(file: File, options: { now?: () => number } = {}): Promise<CompressedPhoto> {
  const now = options.now ?? Date.now;
  const original = await file.arrayBuffer();
  const cameraTime = readJpegCaptureTime(original);
  // Without EXIF the only honest time is "added to the form"; a file's date may be a copy's.
  const takenAt = cameraTime ?? new Date(now()).toISOString();
  // JPEG out whatever came in: small, and accepted by every browser that shows the evidence.
  const job: CompressJob = { file, maxSide: PHOTO_MAX_SIDE_PX, maxBytes: PHOTO_MAX_BYTES, quality: PHOTO_JPEG_QUALITY };
  let compressed: Blob;
  try {
    compressed = await compressInWorker(job);
  } catch (workerError) {
    // A browser that cannot decode or draw in a worker (older WebKit: every iPhone browser)
    // does it on the page (docs/engines.md); the page is busy meanwhile, but the photo is kept.
    compressed = await compressOnPage(job).catch(() => Promise.reject(workerError));
  }
  const bytes = await compressed.arrayBuffer();
  return {
    bytes,
    type: 'image/jpeg',
    name: `${file.name.replace(/\.[^.]+$/, '') || 'photo'}.jpg`,
    size: bytes.byteLength,
    takenAt,
    takenAtSource: cameraTime ? 'camera' : 'added',
  };
}

/**
 * The same compression on the page's own thread, for engines whose worker cannot decode for it:
 * the worker's own file, so the compressor is downloaded (and precached) once, not twice.
 */
async function compressOnPage(job: CompressJob): Promise<Blob> {
  const { compressJob } = (await import(/* @vite-ignore */ compressWorkerUrl)) as typeof import('./compress-worker.ts');
  return compressJob(job);
}

/**
 * One worker per photo (compress-worker.ts), ended when it answers: the page stays responsive
 * while a 12-megapixel photo is redrawn, and the worker's code comes from the precache offline.
 */
function compressInWorker(job: CompressJob): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(compressWorkerUrl, { type: 'module', name: 'compress-photo' });
    const finish = () => worker.terminate();
    worker.onmessage = (event: MessageEvent<CompressReply>) => {
      const reply = event.data;
      finish();
      if (reply.kind === 'done') resolve(reply.blob);
      else reject(new Error(`The photo could not be compressed: ${reply.message}`));
    };
    worker.onerror = (event) => {
      finish();
      reject(new Error(`The photo could not be compressed: ${event.message || 'the compressor did not start'}`));
    };
    worker.postMessage(job);
  });
}
