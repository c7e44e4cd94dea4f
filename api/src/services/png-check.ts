import { createInflate } from 'node:zlib';
import { MAX_PNG_PIXELS } from '@parkpatrol/shared';
import { readPngStructure, type PngProblem } from '../domain/png-structure.ts';

/**
 * Whether a PNG may be decoded, judged by what the decoder will do rather than by its first
 * header: its one IHDR, no animation (domain/png-structure.ts), at most MAX_PNG_PIXELS, and
 * compressed streams that unpack to no more than that header declares. The decoder unpacks IDAT
 * and text chunks, and the EXIF reader a colour profile (iCCP), whole with no bound of their own,
 * so a 1 x 1 header over a stream that inflates to gigabytes would be the same bomb as a lying
 * header (a 480 KB iCCP made exifr take 1 GB). The streams are counted here through a
 * streaming inflater, 16 KB at a time, and dropped: checking costs no more memory than that.
 */
export type PngVerdict = { width: number; height: number; pixels: number } | { problem: PngCheckProblem };
export type PngCheckProblem = PngProblem | 'TOO_MANY_PIXELS' | 'UNPACKS_BEYOND_HEADER';

/**
 * What a photo's compressed metadata (text and colour profile) may unpack to in all: a camera's
 * few lines and a profile of a few hundred kilobytes at most, with room to spare.
 */
const MAX_METADATA_BYTES = 4 * 1024 * 1024;

export async function checkPng(bytes: Uint8Array): Promise<PngVerdict> {
  const read = readPngStructure(bytes);
  if ('problem' in read) return read;
  const { png } = read;
  if (png.pixels > MAX_PNG_PIXELS) return { problem: 'TOO_MANY_PIXELS' };
  const imageBytes = await inflatedLength(png.imageData, png.rawImageBytes);
  if (imageBytes === 'BROKEN') return { problem: 'DAMAGED' };
  if (imageBytes > png.rawImageBytes) return { problem: 'UNPACKS_BEYOND_HEADER' };
  let metadataLeft = MAX_METADATA_BYTES;
  for (const stream of png.compressedMetadata) {
    const streamBytes = await inflatedLength([stream], metadataLeft);
    if (streamBytes === 'BROKEN') return { problem: 'DAMAGED' };
    metadataLeft -= streamBytes;
    if (metadataLeft < 0) return { problem: 'UNPACKS_BEYOND_HEADER' };
  }
  return { width: png.width, height: png.height, pixels: png.pixels };
}

/** Whether bytes start as a PNG does. */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
}

/**
 * How many bytes a zlib stream (given in parts) unpacks to, counted up to just past `limit` and
 * then abandoned; BROKEN when Node's zlib finds an error before that, or the stream never reaches
 * its end. A broken stream is refused, not counted: the decoders are not Node's zlib (pdf-lib's is
 * fflate, which ignores a stored block's NLEN; exifr has its own), and past the first error each
 * unpacks what it likes, so what Node produced before stopping says nothing of what they would.
 * Refusing is chosen over measuring with fflate itself because there are two decoders, not one,
 * and matching one's leniency would leave the other's: a stream that Node's zlib reads whole, to
 * its end and checksum, is a valid deflate stream, which every correct decoder unpacks alike.
 */
function inflatedLength(parts: readonly Uint8Array[], limit: number): Promise<number | 'BROKEN'> {
  return new Promise((resolve) => {
    const inflater = createInflate({ chunkSize: 16 * 1024 });
    let total = 0;
    let isDone = false;
    const finish = (outcome: number | 'BROKEN') => {
      if (isDone) return;
      isDone = true;
      inflater.destroy();
      resolve(outcome);
    };
    inflater.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) finish(total);
    });
    inflater.on('end', () => finish(total));
    inflater.on('error', () => finish('BROKEN'));
    inflater.on('close', () => finish('BROKEN'));
    for (const part of parts) {
      if (isDone) break;
      inflater.write(part);
    }
    inflater.end();
  });
}
