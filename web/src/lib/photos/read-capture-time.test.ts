import { describe, expect, it } from 'vitest';
import { encode } from 'jpeg-js';
import { readJpegCaptureTime } from './read-capture-time.ts';

function createPlainJpeg(): Uint8Array {
  const data = Buffer.alloc(16 * 16 * 4, 128);
  return new Uint8Array(encode({ data, width: 16, height: 16 }, 80).data);
}

/** A JPEG with an EXIF APP1 segment as phone cameras write it. */
function createJpegWithExif(tags: { original?: string; offset?: string; dateTime?: string }, littleEndian = true): ArrayBuffer {
  const tiff: number[] = [];
  const u16 = (v: number) => (littleEndian ? [v & 255, v >> 8] : [v >> 8, v & 255]);
  const u32 = (v: number) =>
    littleEndian ? [v & 255, (v >> 8) & 255, (v >> 16) & 255, v >>> 24] : [v >>> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255];
  const ascii = (text: string) => [...Buffer.from(`${text}\0`, 'ascii')];

  const ifd0Entries = 1 + (tags.dateTime ? 1 : 0);
  const ifd0Size = 2 + ifd0Entries * 12 + 4;
  const exifEntries = (tags.original ? 1 : 0) + (tags.offset ? 1 : 0);
  const exifIfdAt = 8 + ifd0Size;
  const exifSize = 2 + exifEntries * 12 + 4;
  const dataAt = exifIfdAt + exifSize;
  const data: number[] = [];
  const place = (text: string) => {
    const at = dataAt + data.length;
    data.push(...ascii(text));
    return at;
  };

  tiff.push(...(littleEndian ? [0x49, 0x49] : [0x4d, 0x4d]), ...u16(42), ...u32(8));
  tiff.push(...u16(ifd0Entries), ...u16(0x8769), ...u16(4), ...u32(1), ...u32(exifIfdAt));
  if (tags.dateTime) tiff.push(...u16(0x0132), ...u16(2), ...u32(20), ...u32(place(tags.dateTime)));
  tiff.push(...u32(0));
  tiff.push(...u16(exifEntries));
  if (tags.original) tiff.push(...u16(0x9003), ...u16(2), ...u32(20), ...u32(place(tags.original)));
  if (tags.offset) tiff.push(...u16(0x9011), ...u16(2), ...u32(7), ...u32(place(tags.offset)));
  tiff.push(...u32(0), ...data);

  const payload = [...Buffer.from('Exif\0\0', 'binary'), ...tiff];
  const length = payload.length + 2;
  const plain = createPlainJpeg();
  const out = new Uint8Array([0xff, 0xd8, 0xff, 0xe1, length >> 8, length & 255, ...payload, ...plain.subarray(2)]);
  return out.buffer;
}

describe('readJpegCaptureTime', () => {
  it('reads DateTimeOriginal with its offset exactly', () => {
    const jpeg = createJpegWithExif({ original: '2025:03:14 09:26:53', offset: '+01:00' });
    expect(readJpegCaptureTime(jpeg)).toBe('2025-03-14T08:26:53.000Z');
  });

  it('reads big-endian (Motorola) EXIF as well', () => {
    const jpeg = createJpegWithExif({ original: '2025:03:14 09:26:53', offset: '-05:00' }, false);
    expect(readJpegCaptureTime(jpeg)).toBe('2025-03-14T14:26:53.000Z');
  });

  it('reads a zoneless DateTimeOriginal as the phone’s local time', () => {
    const jpeg = createJpegWithExif({ original: '2025:03:14 09:26:53' });
    expect(readJpegCaptureTime(jpeg)).toBe(new Date(2025, 2, 14, 9, 26, 53).toISOString());
  });

  it('falls back to DateTime when there is no DateTimeOriginal', () => {
    const jpeg = createJpegWithExif({ dateTime: '2024:12:01 18:00:00' });
    expect(readJpegCaptureTime(jpeg)).toBe(new Date(2024, 11, 1, 18, 0, 0).toISOString());
  });

  it('returns null for a JPEG without EXIF, a PNG, or garbage', () => {
    expect(readJpegCaptureTime(createPlainJpeg().slice().buffer)).toBeNull();
    expect(readJpegCaptureTime(new Uint8Array([0x89, 0x50, 0x4e, 0x47]).buffer)).toBeNull();
    expect(readJpegCaptureTime(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff]).buffer)).toBeNull();
    expect(readJpegCaptureTime(createJpegWithExif({ original: '0000:00:00 00:00:00' }))).toBeNull();
  });
});
