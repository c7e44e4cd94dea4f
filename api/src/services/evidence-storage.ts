import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/**
 * Evidence files live flat in DATA_DIR/uploads under names we make (128 random bits plus the
 * extension of the sniffed type). A name is only ever turned into a path after matching this
 * pattern, so no request can reach outside the folder, whatever it encodes.
 */
export const EVIDENCE_FILE_NAME_PATTERN = /^[0-9a-f]{32}\.(?:jpg|png|webp|heic)$/;

export function isEvidenceFileName(name: string): boolean {
  return EVIDENCE_FILE_NAME_PATTERN.test(name);
}

function pathOf(uploadsDir: string, fileName: string): string {
  if (!isEvidenceFileName(fileName)) throw new Error(`Refusing evidence file name ${JSON.stringify(fileName)}`);
  return join(uploadsDir, fileName);
}

/**
 * Writes each file under a temporary name, fsyncs it, renames it into place and fsyncs the
 * folder, so a file that a committed row points at survives a power cut. On any failure every
 * file written so far is removed before the error goes on: the caller never sees half a batch.
 */
export async function writeEvidenceFiles(
  uploadsDir: string,
  files: ReadonlyArray<{ bytes: Uint8Array; extension: string }>,
): Promise<string[]> {
  if (files.length === 0) return [];
  await mkdir(uploadsDir, { recursive: true, mode: 0o700 });
  const written: string[] = [];
  try {
    for (const file of files) {
      const fileName = `${randomBytes(16).toString('hex')}.${file.extension}`;
      const finalPath = pathOf(uploadsDir, fileName);
      const tempPath = join(uploadsDir, `.tmp-${randomBytes(16).toString('hex')}`);
      try {
        const handle = await open(tempPath, 'wx', 0o600);
        try {
          await handle.writeFile(file.bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(tempPath, finalPath);
      } catch (error) {
        await rm(tempPath, { force: true });
        throw error;
      }
      written.push(fileName);
    }
    await syncFolder(uploadsDir);
    return written;
  } catch (error) {
    await deleteEvidenceFiles(uploadsDir, written);
    throw error;
  }
}

/**
 * Moves files the multipart parser already wrote to temporary names into place: each is
 * fsynced, renamed to a name we make, and the folder fsynced, as writeEvidenceFiles does. On
 * any failure the files placed so far are removed; the temporary ones stay for the caller.
 */
export async function placeEvidenceFiles(
  uploadsDir: string,
  files: ReadonlyArray<{ tempPath: string; extension: string }>,
): Promise<string[]> {
  if (files.length === 0) return [];
  const placed: string[] = [];
  try {
    for (const file of files) {
      const fileName = `${randomBytes(16).toString('hex')}.${file.extension}`;
      const handle = await open(file.tempPath, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(file.tempPath, pathOf(uploadsDir, fileName));
      placed.push(fileName);
    }
    await syncFolder(uploadsDir);
    return placed;
  } catch (error) {
    await deleteEvidenceFiles(uploadsDir, placed);
    throw error;
  }
}

/** Removes files by name; a file already gone is fine (a retried delete must not fail). */
export async function deleteEvidenceFiles(uploadsDir: string, fileNames: readonly string[]): Promise<void> {
  for (const fileName of fileNames) {
    try {
      await unlink(pathOf(uploadsDir, fileName));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Opens a stored file for streaming, or null when it is not there. */
export async function openEvidenceFile(
  uploadsDir: string,
  fileName: string,
): Promise<{ stream: ReadableStream<Uint8Array>; size: number } | null> {
  if (!isEvidenceFileName(fileName)) return null;
  const path = pathOf(uploadsDir, fileName);
  try {
    const info = await stat(path);
    if (!info.isFile()) return null;
    const stream = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
    return { stream, size: info.size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Removes what a crash can leave behind: temporary files, and evidence files renamed into
 * place whose database transaction never committed. Only files older than `olderThan` are
 * touched, so uploads in flight are safe. Meant for server start (or a periodic job).
 */
export async function sweepOrphanEvidenceFiles(
  uploadsDir: string,
  options: { olderThan: Date; findKnown: (fileNames: string[]) => Promise<Set<string>> },
): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(uploadsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const old: string[] = [];
  for (const name of entries) {
    if (!name.startsWith('.tmp-') && !isEvidenceFileName(name)) continue;
    const info = await stat(join(uploadsDir, name)).catch(() => null);
    if (info?.isFile() && info.mtime < options.olderThan) old.push(name);
  }
  const known = await options.findKnown(old.filter(isEvidenceFileName));
  const orphans = old.filter((name) => !known.has(name));
  for (const name of orphans) await rm(join(uploadsDir, name), { force: true });
  return orphans;
}

// A rename is only durable once the directory entry itself is flushed.
async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Reads a stored file whole (the evidence pack embeds it), or null when it is not there. */
export async function readEvidenceFile(uploadsDir: string, fileName: string): Promise<Uint8Array | null> {
  if (!isEvidenceFileName(fileName)) return null;
  try {
    return new Uint8Array(await readFile(pathOf(uploadsDir, fileName)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
