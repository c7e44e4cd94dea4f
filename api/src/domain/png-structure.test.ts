import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ihdr, pngChunk as chunk, pngOf as png } from '../../test/support/png.ts';
import { rawImageBytes, readPngStructure } from './png-structure.ts';

const pixels = deflateSync(Buffer.alloc(2 * 3));

describe('readPngStructure', () => {
  it('reads a still PNG: its one header, its image data and its compressed text', () => {
    const text = chunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0'), deflateSync(Buffer.from('hello'))]));
    const read = readPngStructure(
      png(ihdr(2, 2), text, chunk('IDAT', pixels.subarray(0, 3)), chunk('IDAT', pixels.subarray(3)), chunk('IEND')),
    );
    expect('png' in read).toBe(true);
    if (!('png' in read)) return;
    expect(read.png).toMatchObject({ width: 2, height: 2, pixels: 4, rawImageBytes: 6 });
    expect(Buffer.concat(read.png.imageData)).toEqual(pixels);
    expect(read.png.compressedMetadata).toHaveLength(1);
  });

  it('refuses a second IHDR, wherever it is: the decoder takes the last one', () => {
    expect(readPngStructure(png(ihdr(16, 16), ihdr(8000, 8000), chunk('IDAT', pixels), chunk('IEND')))).toEqual({
      problem: 'HEADER_NOT_SINGLE',
    });
    expect(readPngStructure(png(ihdr(16, 16), chunk('IDAT', pixels), ihdr(8000, 8000), chunk('IEND')))).toEqual({
      problem: 'HEADER_NOT_SINGLE',
    });
  });

  it('refuses an IHDR that is not the first chunk', () => {
    expect(readPngStructure(png(chunk('tEXt', Buffer.from('a\0b')), ihdr(8000, 8000), chunk('IEND')))).toEqual({
      problem: 'HEADER_NOT_SINGLE',
    });
    expect(readPngStructure(png(chunk('CgBI', Buffer.alloc(4)), ihdr(2, 2), chunk('IEND')))).toEqual({ problem: 'NOT_STANDARD' });
  });

  it('refuses any APNG chunk: acTL, fcTL or fdAT', () => {
    for (const type of ['acTL', 'fcTL', 'fdAT']) {
      expect(readPngStructure(png(ihdr(2, 2), chunk(type, Buffer.alloc(26)), chunk('IDAT', pixels), chunk('IEND'))), type).toEqual({
        problem: 'ANIMATED',
      });
    }
  });

  it('refuses any bytes after IEND: the EXIF reader walks on to the end of the file', () => {
    const profile = chunk('iCCP', Buffer.concat([Buffer.from('icc\0\0'), deflateSync(Buffer.alloc(1024))]));
    expect(readPngStructure(png(ihdr(2, 2), chunk('IDAT', pixels), chunk('IEND'), profile))).toEqual({ problem: 'DAMAGED' });
    expect(readPngStructure(png(ihdr(2, 2), chunk('IDAT', pixels), chunk('IEND'), Buffer.from([0])))).toEqual({ problem: 'DAMAGED' });
  });

  it('refuses CgBI wherever it is: the decoder takes it anywhere and then unpacks IDAT as raw deflate', () => {
    expect(readPngStructure(png(ihdr(2, 2), chunk('CgBI', Buffer.alloc(4)), chunk('IDAT', pixels), chunk('IEND')))).toEqual({
      problem: 'NOT_STANDARD',
    });
  });

  it('refuses what does not add up: a chunk past the end, no header, a malformed header', () => {
    const whole = png(ihdr(2, 2), chunk('IDAT', pixels), chunk('IEND'));
    expect(readPngStructure(whole.subarray(0, whole.length - 6))).toEqual({ problem: 'DAMAGED' });
    expect(readPngStructure(png())).toEqual({ problem: 'DAMAGED' });
    expect(readPngStructure(png(ihdr(0, 2)))).toEqual({ problem: 'DAMAGED' });
    expect(readPngStructure(png(ihdr(2, 2, 16, 3)))).toEqual({ problem: 'DAMAGED' });
    expect(readPngStructure(png(chunk('IHDR', Buffer.alloc(12))))).toEqual({ problem: 'DAMAGED' });
    expect(readPngStructure(new Uint8Array([0xff, 0xd8, 0xff]))).toEqual({ problem: 'DAMAGED' });
  });

  it('finds the stream of a compressed iTXt and of a colour profile, and none in an uncompressed iTXt', () => {
    const compressed = chunk('iTXt', Buffer.concat([Buffer.from('XML\0\x01\0en\0\0'), deflateSync(Buffer.from('x'))]));
    const plain = chunk('iTXt', Buffer.from('XML\0\0\0en\0\0x'));
    const profile = chunk('iCCP', Buffer.concat([Buffer.from('icc\0\0'), deflateSync(Buffer.from('profile'))]));
    const read = readPngStructure(png(ihdr(2, 2), profile, compressed, plain, chunk('IDAT', pixels), chunk('IEND')));
    expect('png' in read && read.png.compressedMetadata.map((stream) => Buffer.from(stream))).toEqual([
      deflateSync(Buffer.from('profile')),
      deflateSync(Buffer.from('x')),
    ]);
  });
});

describe('rawImageBytes', () => {
  it('counts a filter byte a row and packed samples', () => {
    expect(rawImageBytes(8000, 8000, 8, false)).toBe(8000 * 8001);
    expect(rawImageBytes(3, 2, 1, false)).toBe(2 * 2);
    expect(rawImageBytes(4000, 4000, 64, false)).toBe(4000 * (1 + 4000 * 8));
  });

  it('counts an interlaced image as its seven Adam7 passes', () => {
    // 1 x 1: only the first pass has a pixel.
    expect(rawImageBytes(1, 1, 8, true)).toBe(2);
    // 8 x 8 at one byte a pixel: passes of 1x1, 1x1, 2x1, 2x2, 4x2, 4x4, 8x4 pixels.
    expect(rawImageBytes(8, 8, 8, true)).toBe(2 + 2 + 3 + 6 + 10 + 20 + 36);
  });
});
