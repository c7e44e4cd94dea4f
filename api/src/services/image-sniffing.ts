import type { AllowedImageType } from '@parkpatrol/shared';

/**
 * Evidence is checked by its bytes, never by the client's file name or Content-Type: a text
 * file renamed .jpg, or HTML claiming to be image/png, must not be stored and later served.
 */
export type SniffedImage = { mimeType: AllowedImageType; extension: 'jpg' | 'png' | 'webp' | 'heic' };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// HEIF brands that carry HEVC-coded stills (what iPhones write). Plain `mif1`/`msf1` are
// generic HEIF containers (AVIF uses them too), so they only count with a HEIC brand beside them.
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const GENERIC_HEIF_BRANDS = new Set(['mif1', 'msf1']);

export function detectImageType(bytes: Uint8Array): SniffedImage | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { mimeType: 'image/jpeg', extension: 'jpg' };
  }
  if (bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
    return { mimeType: 'image/png', extension: 'png' };
  }
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') {
    return { mimeType: 'image/webp', extension: 'webp' };
  }
  if (isHeic(bytes)) return { mimeType: 'image/heic', extension: 'heic' };
  return null;
}

/** An ISO-BMFF file starts with an `ftyp` box: size, 'ftyp', major brand, minor version, compatible brands. */
function isHeic(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 4) !== 'ftyp') return false;
  const boxSize = ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!;
  if (boxSize < 16 || boxSize > bytes.length) return false;
  const major = ascii(bytes, 8, 4);
  if (HEIC_BRANDS.has(major)) return true;
  if (!GENERIC_HEIF_BRANDS.has(major)) return false;
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) {
    if (HEIC_BRANDS.has(ascii(bytes, offset, 4))) return true;
  }
  return false;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}
