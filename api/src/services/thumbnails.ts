import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '@parkpatrol/shared';

/**
 * The small copy of an evidence photo that lists, the officer's detail, the review's grid and the
 * motorist's page draw (the original opens on demand, and the evidence pack keeps the original
 * byte for byte). 320 px on the long side is the grid's 150-300 px cells at 1x-2x density; WebP
 * at quality 70 keeps a photo of a car at 10-20 KB where the original is about 200 KB. Encoded at
 * effort 2 of 6, not sharp's 4: a third less time for each (21 to 15 ms for the bench's photo on
 * one core), no bigger, and a server on one core draws four of them for every notice.
 */
const WEBP_EFFORT = 2;
export const THUMBNAIL_SIZE = 320;
export const THUMBNAIL_MIME_TYPE = 'image/webp';

const THUMBNAIL_SUFFIX = '.thumb.webp';
const THUMBNAIL_NAME_PATTERN = /^[0-9a-f]{32}\.(?:jpg|png|webp|heic)\.thumb\.webp$/;

/** Stored beside its original under the original's name and a suffix, so either names the other. */
export function thumbnailFileName(originalFileName: string): string {
  return `${originalFileName}${THUMBNAIL_SUFFIX}`;
}

export function isThumbnailFileName(name: string): boolean {
  return THUMBNAIL_NAME_PATTERN.test(name);
}

/** The original a thumbnail was made from. */
export function originalOfThumbnail(thumbnailName: string): string {
  return thumbnailName.slice(0, -THUMBNAIL_SUFFIX.length);
}

/** Photos have thumbnails; an appeal's PDF does not. */
export function hasThumbnail(originalFileName: string): boolean {
  return /\.(?:jpg|png|webp|heic)$/.test(originalFileName);
}

/**
 * The thumbnail of a photo (a path or its bytes): turned upright by its EXIF orientation, at most
 * THUMBNAIL_SIZE on either side, WebP, with no metadata (sharp writes none unless asked: no
 * position, no camera serial). Null when the photo cannot be decoded here (a HEIC: its codec is
 * not in sharp's build), and the original is shown instead.
 */
export async function makeThumbnail(photo: string | Uint8Array): Promise<Buffer | null> {
  try {
    return await sharp(photo, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70, effort: WEBP_EFFORT })
      .toBuffer();
  } catch {
    return null;
  }
}

/**
 * What storing a thumbnail needs of the evidence store: its `put`. Named here rather than taken
 * from evidence-storage.ts, which imports this module's file-name rules, so the two stay acyclic.
 */
type FileWriter = { put(fileName: string, bytes: Uint8Array, mimeType: string): Promise<void> };

/** Stores a photo's thumbnail beside it, under the name that ties the two together. */
export function storeThumbnail(evidence: FileWriter, originalFileName: string, thumbnail: Uint8Array): Promise<void> {
  return evidence.put(thumbnailFileName(originalFileName), thumbnail, THUMBNAIL_MIME_TYPE);
}
