import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { writeZipFile, type ZipEntry } from './zip-file.ts';

describe('writeZipFile', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const newPath = () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-file-'));
    dirs.push(dir);
    return join(dir, 'batch.zip');
  };

  it('writes each entry before reading the next, and counts the size and SHA-256 of what it wrote', async () => {
    const path = newPath();
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) % 251);
    const sizesWhenRead: number[] = [];
    const entry = (name: string, bytes: Uint8Array, isCompressed: boolean): ZipEntry => ({
      path: name,
      isCompressed,
      read: async () => {
        sizesWhenRead.push(statSync(path).size);
        return bytes;
      },
    });
    const text = new TextEncoder().encode('reference,vrm\r\nPCN-00000001,AB12CDE\r\n'.repeat(100));
    const written = await writeZipFile(
      path,
      [entry('charges.csv', text, true), entry('PCN-00000001/pack.pdf', big, false), entry('PCN-00000001/letter.pdf', text, false)],
      new Date('2026-04-27T12:00:00.000Z'),
    );

    const file = readFileSync(path);
    expect(written).toEqual({ size: file.byteLength, sha256: createHash('sha256').update(file).digest('hex') });
    // One entry in memory at a time: each was on disk before the next was asked for.
    expect(sizesWhenRead[0]).toBe(0);
    expect(sizesWhenRead[1]).toBeGreaterThan(0);
    expect(sizesWhenRead[2]).toBeGreaterThan(big.byteLength);
    const files = unzipSync(new Uint8Array(file));
    expect(Object.keys(files)).toEqual(['charges.csv', 'PCN-00000001/pack.pdf', 'PCN-00000001/letter.pdf']);
    expect(files['charges.csv']).toEqual(text);
    // Compared whole, not byte by byte through the matcher (seconds for 3 MB).
    expect(Buffer.from(files['PCN-00000001/pack.pdf']!).equals(big)).toBe(true);
    // The CSV deflated, the PDF stored as it is.
    expect(file.byteLength).toBeLessThan(big.byteLength + text.byteLength + 1000);
  });

  it('makes the same archive of the same files', async () => {
    const entries = (): ZipEntry[] => [{ path: 'a.csv', isCompressed: true, read: async () => new TextEncoder().encode('a,b\r\n1,2\r\n') }];
    const at = new Date('2026-04-27T12:00:00.000Z');
    const first = await writeZipFile(newPath(), entries(), at);
    const second = await writeZipFile(newPath(), entries(), at);
    expect(second).toEqual(first);
  });

  it('refuses to write over a file that is there', async () => {
    const path = newPath();
    await writeZipFile(path, [], new Date());
    await expect(writeZipFile(path, [], new Date())).rejects.toThrow(/EEXIST/);
  });
});
