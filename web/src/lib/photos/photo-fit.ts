/**
 * How a photo is made small enough to send on one bar of signal (decision 0053): the sizes and
 * qualities the compressor tries, apart from the canvas that draws them so they are unit-tested.
 */

/** A 4000x3000 photo stored at about 0.5 MB, plates still readable: small to send on one bar of signal. */
export const PHOTO_MAX_SIDE_PX = 2048;
/** 0.7 MB, in whole bytes. */
export const PHOTO_MAX_BYTES = Math.round(0.7 * 1024 * 1024);
/** The JPEG quality photos start at; the in-app camera encodes its frames at the same. */
export const PHOTO_JPEG_QUALITY = 0.8;

export type PhotoAttempt = { width: number; height: number; quality: number };

/** Below this a JPEG's blocks start to blur a number plate's characters. */
export const LOWEST_JPEG_QUALITY = 0.5;
/** Each attempt after the first: quality first, then size, by this much. */
const STEP = 0.85;
/** An upper bound on encodes: a 12-megapixel photo takes about a tenth of a second each on a phone. */
export const MOST_ATTEMPTS = 8;

/**
 * The size a photo or a camera's frame is drawn at: its own, scaled down so its longer side is at
 * most `maxSide`, never up; nothing before a video has a size.
 */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const longer = Math.max(width, height);
  if (longer <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, maxSide / longer);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * The next attempt after one that came out `bytes` long, or null when it fits in `maxBytes` or
 * the attempts are spent. Quality goes down to its floor before a pixel is given up: resolution
 * is what keeps a plate readable.
 */
export function nextAttempt(previous: PhotoAttempt, bytes: number, maxBytes: number, attemptsMade: number): PhotoAttempt | null {
  if (bytes <= maxBytes || attemptsMade >= MOST_ATTEMPTS) return null;
  if (previous.quality > LOWEST_JPEG_QUALITY) {
    return { ...previous, quality: Math.max(LOWEST_JPEG_QUALITY, Math.round(previous.quality * STEP * 100) / 100) };
  }
  return { ...fitWithin(previous.width, previous.height, Math.max(previous.width, previous.height) * STEP), quality: previous.quality };
}
