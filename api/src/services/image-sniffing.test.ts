import { describe, expect, it } from 'vitest';
import { detectImageType } from './image-sniffing.ts';

function bytesOf(...parts: Array<number[] | string>): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'string') for (const ch of part) out.push(ch.charCodeAt(0));
    else out.push(...part);
  }
  return Uint8Array.from(out);
}

function ftyp(major: string, compatible: string[]): Uint8Array {
  const size = 16 + compatible.length * 4;
  return bytesOf([0, 0, 0, size], 'ftyp', major, [0, 0, 0, 0], ...compatible, [0, 0, 0, 8], 'meta');
}

describe('detectImageType', () => {
  it('recognises JPEG by its SOI marker', () => {
    expect(detectImageType(bytesOf([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'))).toEqual({ mimeType: 'image/jpeg', extension: 'jpg' });
  });

  it('recognises PNG by its eight-byte signature', () => {
    expect(detectImageType(bytesOf([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'))?.mimeType).toBe('image/png');
  });

  it('recognises WebP by its RIFF container and WEBP form type', () => {
    expect(detectImageType(bytesOf('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))?.mimeType).toBe('image/webp');
  });

  it('does not take another RIFF file (WAV) for WebP', () => {
    expect(detectImageType(bytesOf('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '))).toBeNull();
  });

  it('recognises HEIC by a heic major brand', () => {
    expect(detectImageType(ftyp('heic', ['mif1', 'heic']))?.mimeType).toBe('image/heic');
  });

  it('recognises HEIC in a generic HEIF container with a HEIC compatible brand', () => {
    expect(detectImageType(ftyp('mif1', ['mif1', 'heic']))?.extension).toBe('heic');
  });

  it('refuses AVIF and MP4, which share the ftyp box', () => {
    expect(detectImageType(ftyp('avif', ['mif1', 'avif']))).toBeNull();
    expect(detectImageType(ftyp('mif1', ['mif1', 'avif']))).toBeNull();
    expect(detectImageType(ftyp('isom', ['isom', 'mp42']))).toBeNull();
  });

  it('refuses a text file whatever its name', () => {
    expect(detectImageType(new TextEncoder().encode('this is not a photo, just text renamed .jpg'))).toBeNull();
  });

  it('refuses HTML and SVG, which a browser could run if served as a page', () => {
    expect(detectImageType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(detectImageType(new TextEncoder().encode('<html><script>alert(1)</script>'))).toBeNull();
  });

  it('refuses empty and truncated input', () => {
    expect(detectImageType(new Uint8Array())).toBeNull();
    expect(detectImageType(bytesOf([0xff, 0xd8]))).toBeNull();
    expect(detectImageType(bytesOf([0, 0, 0, 200], 'ftypheic'))).toBeNull();
  });
});
