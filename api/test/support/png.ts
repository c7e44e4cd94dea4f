import { crc32, deflateSync } from 'node:zlib';

/**
 * PNGs made byte by byte, with valid CRCs, for the tests that show what a lying PNG does: the
 * chunks in the order a test wants them, whatever a well-made file would hold.
 */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, data: Uint8Array = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An IHDR chunk; 8-bit greyscale unless told, one byte a pixel, so a lie compresses small. */
export function ihdr(width: number, height: number, depth = 8, colourType = 0, interlace = 0): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data.set([depth, colourType, 0, 0, interlace], 8);
  return pngChunk('IHDR', data);
}

/** Black greyscale rows, each with its filter byte, deflated: a few kilobytes for millions of pixels. */
export const blackRows = (width: number, height: number): Buffer => deflateSync(Buffer.alloc(height * (width + 1)), { level: 9 });

/** The signature and then the chunks given. */
export const pngOf = (...chunks: Buffer[]): Uint8Array => new Uint8Array(Buffer.concat([PNG_SIGNATURE, ...chunks]));

/** An honest PNG of `width` x `height` black pixels. */
export const stillPng = (width: number, height: number): Uint8Array =>
  pngOf(ihdr(width, height), pngChunk('IDAT', blackRows(width, height)), pngChunk('IEND'));
