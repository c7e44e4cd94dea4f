/// <reference lib="webworker" />
// The photo compressor's own worker: the browser's own decoder and JPEG encoder, off the page's
// thread (decision 0053). The sizes and qualities it tries are photo-fit.ts.
import { fitWithin, nextAttempt, type PhotoAttempt } from './photo-fit.ts';

export type CompressJob = { file: Blob; maxSide: number; maxBytes: number; quality: number };
export type CompressReply = { kind: 'done'; blob: Blob } | { kind: 'failed'; message: string };

/**
 * The compression itself: a JPEG at most `maxSide` on its longer side, at `quality` or lower
 * until it fits `maxBytes` (the smallest made when nothing does). Exported so that the page can
 * run this same file where a worker cannot decode (compress-photo.ts).
 */
export async function compressJob(job: CompressJob): Promise<Blob> {
  const picture = await decode(job.file);
  try {
    let attempt: PhotoAttempt | null = { ...fitWithin(picture.width, picture.height, job.maxSide), quality: job.quality };
    let smallest: Blob | null = null;
    for (let made = 1; attempt; made += 1) {
      const blob = await encode(picture.source, attempt);
      if (!smallest || blob.size < smallest.size) smallest = blob;
      attempt = nextAttempt(attempt, blob.size, job.maxBytes, made);
    }
    return smallest!;
  } finally {
    picture.close();
  }
}

type Decoded = { source: CanvasImageSource; width: number; height: number; close: () => void };

/**
 * The photo as pixels, turned as its EXIF orientation says (both decoders' default). Where
 * `createImageBitmap` cannot read a file (older WebKit), the page's image element can.
 */
async function decode(file: Blob): Promise<Decoded> {
  try {
    const bitmap = await createImageBitmap(file);
    return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
  } catch (error) {
    if (typeof Image === 'undefined') throw error;
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.src = url;
    try {
      await image.decode();
    } catch {
      URL.revokeObjectURL(url);
      throw new Error('the file could not be read as a photo');
    }
    return { source: image, width: image.naturalWidth, height: image.naturalHeight, close: () => URL.revokeObjectURL(url) };
  }
}

async function encode(source: CanvasImageSource, { width, height, quality }: PhotoAttempt): Promise<Blob> {
  const { canvas, context } = drawingSurface(width, height);
  // A PNG's transparent parts would come out black in a JPEG.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, width, height);
  const blob =
    'convertToBlob' in canvas
      ? await canvas.convertToBlob({ type: 'image/jpeg', quality })
      : await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
  // Freed at once: a phone holds few 12-megapixel canvases.
  canvas.width = 0;
  canvas.height = 0;
  if (!blob) throw new Error('this browser could not encode the photo');
  return blob;
}

type Surface =
  | { canvas: OffscreenCanvas; context: OffscreenCanvasRenderingContext2D }
  | { canvas: HTMLCanvasElement; context: CanvasRenderingContext2D };

/** An offscreen canvas where the browser draws on one (a worker has no other), else the page's. */
function drawingSurface(width: number, height: number): Surface {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (context) return { canvas, context };
  }
  if (typeof document === 'undefined') throw new Error('this browser cannot draw a photo in a worker');
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this browser cannot draw the photo');
  return { canvas, context };
}

declare const self: DedicatedWorkerGlobalScope;

// Only as a worker: imported by the page, this file answers no messages.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  self.onmessage = async (event: MessageEvent<CompressJob>) => {
    const reply = (message: CompressReply) => self.postMessage(message);
    try {
      reply({ kind: 'done', blob: await compressJob(event.data) });
    } catch (error) {
      reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
}
