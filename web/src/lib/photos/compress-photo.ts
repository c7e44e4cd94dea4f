import type { CompressJob, CompressReply } from './compress-worker.ts';
// The worker's built file: started as a worker, or imported by the page where a worker fails.
import compressWorkerUrl from './compress-worker.ts?worker&url';
import { readJpegCaptureTime } from './read-capture-time.ts';

/** A 4000x3000 photo stored at about 0.5 MB, plates still readable: small to send on one bar of signal. */
export const PHOTO_MAX_SIDE_PX = 2048;
export const PHOTO_MAX_SIZE_MB = 0.7;
/** The JPEG quality photos start at; the in-app camera encodes its frames at the same. */
export const PHOTO_JPEG_QUALITY = 0.8;

export type CompressedPhoto = {
  bytes: ArrayBuffer;
  type: string;
  name: string;
  size: number;
  /** ISO capture time: EXIF DateTimeOriginal, else the moment the photo was added. */
  takenAt: string;
  takenAtSource: 'camera' | 'added';
};

export async function compressPhoto(
  file: File,
  options: { onProgress?: (percent: number) => void; now?: () => number } = {},
): Promise<CompressedPhoto> {
  const now = options.now ?? Date.now;
  const original = await file.arrayBuffer();
  const cameraTime = readJpegCaptureTime(original);
  // Without EXIF the only honest time is "added to the form"; a file's date may be a copy's.
  const takenAt = cameraTime ?? new Date(now()).toISOString();
  const job: CompressJob = {
    file,
    maxWidthOrHeight: PHOTO_MAX_SIDE_PX,
    maxSizeMB: PHOTO_MAX_SIZE_MB,
    initialQuality: PHOTO_JPEG_QUALITY,
    // JPEG out whatever came in: small, and accepted by every browser that shows the evidence.
    fileType: 'image/jpeg',
  };
  let compressed: Blob;
  try {
    compressed = await compressInWorker(job, options.onProgress);
  } catch (workerError) {
    // Safari and every iPhone browser (WebKit): the library decodes through an HTMLImageElement
    // there, which a worker does not have, so it fails in the worker every time. On the page it
    // works (docs/engines.md); the page is busy meanwhile, but the photo is kept.
    compressed = await compressOnPage(job, options.onProgress).catch(() => Promise.reject(workerError));
  }
  // A file already smaller than the target comes back as it was; still JPEG, PNG or WebP.
  const bytes = await compressed.arrayBuffer();
  const type = compressed.type || file.type || 'image/jpeg';
  return {
    bytes,
    type,
    name: renameForType(file.name, type),
    size: bytes.byteLength,
    takenAt,
    takenAtSource: cameraTime ? 'camera' : 'added',
  };
}

/**
 * The same compression on the page's own thread, for engines whose worker cannot decode for it:
 * the worker's own file, so the library is downloaded (and precached) once, not twice.
 */
async function compressOnPage(job: CompressJob, onProgress?: (percent: number) => void): Promise<Blob> {
  const { compressJob } = (await import(/* @vite-ignore */ compressWorkerUrl)) as typeof import('./compress-worker.ts');
  return compressJob(job, onProgress);
}

/**
 * One worker per photo (compress-worker.ts), ended when it answers: the page stays responsive
 * while a 12-megapixel photo is redrawn, and the worker's code comes from the precache offline.
 */
function compressInWorker(job: CompressJob, onProgress?: (percent: number) => void): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(compressWorkerUrl, { type: 'module', name: 'compress-photo' });
    const finish = () => worker.terminate();
    worker.onmessage = (event: MessageEvent<CompressReply>) => {
      const reply = event.data;
      if (reply.kind === 'progress') return onProgress?.(reply.percent);
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

function renameForType(name: string, type: string): string {
  const base = name.replace(/\.[^.]+$/, '') || 'photo';
  const extension = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
  return `${base}.${extension}`;
}
