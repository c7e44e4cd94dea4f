import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/** One file of a ZIP: its path inside, and its bytes, read only when its turn comes. */
export type ZipEntry = { path: string; isCompressed: boolean; read: () => Promise<Uint8Array> };

/**
 * Writes a ZIP to a new file at `path` one entry at a time (fflate's streaming Zip), so memory
 * holds one entry and never the archive: a hand-over of two hundred evidence packs is gigabytes.
 * Every entry is dated `mtime`, so the same files make the same archive. Flushed to disk before
 * it returns, with the size and SHA-256 counted as it was written.
 */
export async function writeZipFile(path: string, entries: Iterable<ZipEntry>, mtime: Date): Promise<{ size: number; sha256: string }> {
  const handle = await open(path, 'wx');
  try {
    const hash = createHash('sha256');
    const state: { size: number; failure: Error | null; written: Promise<void> } = { size: 0, failure: null, written: Promise.resolve() };
    const zip = new Zip((error, chunk) => {
      if (error) {
        state.failure = error;
        return;
      }
      hash.update(chunk);
      state.size += chunk.byteLength;
      // In order, each whole (writeFile writes on from the handle's position until all is written).
      state.written = state.written.then(() => handle.writeFile(chunk));
    });
    const written = async () => {
      await state.written;
      if (state.failure) throw state.failure;
    };
    for (const entry of entries) {
      const bytes = await entry.read();
      const file = entry.isCompressed ? new ZipDeflate(entry.path, { level: 6 }) : new ZipPassThrough(entry.path);
      file.mtime = mtime;
      zip.add(file);
      file.push(bytes, true);
      // Written before the next is read: one entry in memory at a time.
      await written();
    }
    zip.end();
    await written();
    await handle.sync();
    return { size: state.size, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}
