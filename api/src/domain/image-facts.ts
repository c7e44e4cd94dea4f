import { z } from 'zod';
import {
  parsePhotoShots,
  PCN_MULTIPART_FIELDS,
  PHOTO_SHOT_TYPES,
  SERVER_MESSAGES,
  type PhotoShotType,
  type PhotoTakenAtSource,
} from '@parkpatrol/shared';

/**
 * The capture facts of each photo, sent as repeated multipart fields in image
 * order. Pure: the route reads the raw strings and refuses what this returns as a problem.
 */
export type ImageFacts = {
  takenAt: string | null;
  takenAtSource: PhotoTakenAtSource | null;
  clientSha256: string | null;
  latitude: number | null;
  longitude: number | null;
  accuracyM: number | null;
  shots: PhotoShotType[];
};

export const IMAGE_FACT_FIELDS = [
  'imageTakenAt',
  'imageTakenAtSource',
  'imageSha256',
  'imageLatitude',
  'imageLongitude',
  'imageAccuracy',
  'imageShots',
] as const satisfies ReadonlyArray<keyof typeof PCN_MULTIPART_FIELDS>;
export type ImageFactField = (typeof IMAGE_FACT_FIELDS)[number];

/** Raw values per field, in the order sent; values already trimmed. */
export type RawImageFacts = Record<ImageFactField, string[]>;

export type ImageFactsProblem = { field: ImageFactField; message: string };

/** Accuracy beyond 100 km is not a position worth keeping; it is refused as a mistake. */
export const MAX_ACCURACY_M = 100_000;

const takenAtSchema = z.iso.datetime({ offset: true });
const SHA256_PATTERN = /^[0-9a-f]{64}$/i;
// Plain decimal only: "1e2", "0x10", "Infinity" and " 12" are not coordinates a phone sends.
const DECIMAL_PATTERN = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function readDecimal(value: string, min: number, max: number): number | null | 'invalid' {
  if (value === '') return null;
  if (!DECIMAL_PATTERN.test(value)) return 'invalid';
  const number = Number(value);
  return number >= min && number <= max ? number : 'invalid';
}

/** Reads the facts of `imageCount` photos, or names the first field that is wrong and the photo it is for. */
export function readImageFacts(raw: RawImageFacts, imageCount: number): { facts: ImageFacts[] } | { problem: ImageFactsProblem } {
  for (const field of IMAGE_FACT_FIELDS) {
    if (raw[field].length > imageCount) {
      const message = field === 'imageTakenAt' ? SERVER_MESSAGES.imageTakenAtInvalid : `${field}: ${SERVER_MESSAGES.imageFactsTooMany}`;
      return { problem: { field, message } };
    }
  }
  const facts: ImageFacts[] = [];
  for (let index = 0; index < imageCount; index++) {
    const photo = `Photo ${index + 1}`;
    const value = (field: ImageFactField) => raw[field][index] ?? '';

    const takenAtRaw = value('imageTakenAt');
    if (takenAtRaw !== '' && !takenAtSchema.safeParse(takenAtRaw).success) {
      return { problem: { field: 'imageTakenAt', message: SERVER_MESSAGES.imageTakenAtInvalid } };
    }
    const takenAt = takenAtRaw === '' ? null : new Date(takenAtRaw).toISOString();

    const source = value('imageTakenAtSource');
    if (source !== '' && source !== 'camera' && source !== 'added') {
      return { problem: { field: 'imageTakenAtSource', message: `${photo}: imageTakenAtSource must be 'camera' or 'added'` } };
    }
    if (source !== '' && takenAt === null) {
      return { problem: { field: 'imageTakenAtSource', message: `${photo}: imageTakenAtSource was sent without imageTakenAt` } };
    }

    const sha = value('imageSha256');
    if (sha !== '' && !SHA256_PATTERN.test(sha)) {
      return { problem: { field: 'imageSha256', message: `${photo}: imageSha256 must be 64 hexadecimal digits (SHA-256)` } };
    }

    const latitude = readDecimal(value('imageLatitude'), -90, 90);
    if (latitude === 'invalid') {
      return { problem: { field: 'imageLatitude', message: `${photo}: imageLatitude must be a number of degrees from -90 to 90` } };
    }
    const longitude = readDecimal(value('imageLongitude'), -180, 180);
    if (longitude === 'invalid') {
      return { problem: { field: 'imageLongitude', message: `${photo}: imageLongitude must be a number of degrees from -180 to 180` } };
    }
    if ((latitude === null) !== (longitude === null)) {
      const field = latitude === null ? 'imageLatitude' : 'imageLongitude';
      return { problem: { field, message: `${photo}: send imageLatitude and imageLongitude together` } };
    }
    const accuracyM = readDecimal(value('imageAccuracy'), 0, MAX_ACCURACY_M);
    if (accuracyM === 'invalid') {
      return {
        problem: { field: 'imageAccuracy', message: `${photo}: imageAccuracy must be a number of metres from 0 to ${MAX_ACCURACY_M}` },
      };
    }
    if (accuracyM !== null && latitude === null) {
      return { problem: { field: 'imageAccuracy', message: `${photo}: imageAccuracy was sent without a position` } };
    }

    const shots = parsePhotoShots(value('imageShots'));
    if (shots === null) {
      return {
        problem: {
          field: 'imageShots',
          message: `${photo}: imageShots must be comma-separated shot types from: ${PHOTO_SHOT_TYPES.join(', ')}`,
        },
      };
    }

    facts.push({
      takenAt,
      takenAtSource: source === '' ? null : source,
      clientSha256: sha === '' ? null : sha.toLowerCase(),
      latitude,
      longitude,
      accuracyM,
      shots,
    });
  }
  return { facts };
}

/** The message for a photo whose bytes do not match the hash the device computed. */
export function checksumMismatchMessage(index: number): string {
  return `Photo ${index + 1} was changed in transit (checksum mismatch). Please send it again.`;
}
