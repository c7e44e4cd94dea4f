import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { hasThumbnail, isThumbnailFileName, originalOfThumbnail, thumbnailFileName } from './thumbnails.ts';

/**
 * Evidence files are stored under names we make (128 random bits plus the extension of the
 * sniffed type; PDFs are appeal attachments or documents sent, JSON a notice to driver as printed,
 * ZIP a batch handed to a debt recovery agency, all served to admins only): flat in DATA_DIR/uploads by default, or as objects in an S3 bucket
 * (EVIDENCE_STORE=s3://BUCKET[/PREFIX], services/evidence-store-s3.ts). A name is only ever
 * turned into a path or an object key after matching this pattern, so no request can reach
 * outside the folder or prefix, whatever it encodes.
 */
export const EVIDENCE_FILE_NAME_PATTERN = /^[0-9a-f]{32}\.(?:jpg|png|webp|heic|pdf|json|zip)$/;

export function isEvidenceFileName(name: string): boolean {
  return EVIDENCE_FILE_NAME_PATTERN.test(name);
}

/** What a store holds: evidence files and the thumbnails made of them (services/thumbnails.ts). */
export function isStoredFileName(name: string): boolean {
  return isEvidenceFileName(name) || isThumbnailFileName(name);
}

/** The names a delete removes: each file and, for a photo, its thumbnail. */
export function withThumbnails(fileNames: readonly string[]): string[] {
  return fileNames.flatMap((name) => (isEvidenceFileName(name) && hasThumbnail(name) ? [name, thumbnailFileName(name)] : [name]));
}

/** A new name for a stored photo: 128 random bits and the extension of its real type. */
export function newEvidenceFileName(extension: string): string {
  const fileName = `${randomBytes(16).toString('hex')}.${extension}`;
  if (!isEvidenceFileName(fileName)) throw new Error(`Refusing evidence file extension ${JSON.stringify(extension)}`);
  return fileName;
}

/** What a temporary file beside the evidence starts with: the sweeps know such a file by it. */
const SPOOL_PREFIX = '.tmp-';

/** A new temporary file's path in `dir` (an upload being spooled, a file being written): one the sweeps remove if a crash leaves it. */
export function newSpoolPath(dir: string): string {
  return join(dir, `${SPOOL_PREFIX}${randomBytes(16).toString('hex')}`);
}

/** A photo the multipart parser spooled to a temporary file, ready to be placed. */
export type SpooledEvidence = { tempPath: string; extension: string; mimeType?: string; size?: number };

/** A stored photo opened for streaming to a client. */
export type OpenedEvidence = { stream: ReadableStream<Uint8Array>; size: number };

export type SweepOptions = {
  /** Only what was stored before this is touched, so uploads still in flight are safe. */
  olderThan: Date;
  /** Which of these names a database row still points at. */
  findKnown: (fileNames: string[]) => Promise<Set<string>>;
};

/**
 * Where evidence photos are kept: the local disk (createDiskEvidenceStore) or an S3-compatible
 * bucket (createS3EvidenceStore). The app gets one through its deps, made once at start.
 */
export interface EvidenceStore {
  /** Where the photos are, for logs: a folder or s3://bucket/prefix. */
  readonly location: string;
  /**
   * Stores spooled files under new names (same order). Durable when it returns, so a row that
   * names them may then commit. On any failure the files stored so far are removed before the
   * error goes on; the temporary files always stay for the caller.
   */
  place(files: ReadonlyArray<SpooledEvidence>): Promise<string[]>;
  /**
   * Writes a file we made under a name we chose (a thumbnail), durably; an existing one is
   * replaced whole (a reader sees the old file or the new, never a part).
   */
  put(fileName: string, bytes: Uint8Array, mimeType: string): Promise<void>;
  /** Removes files by name, with their thumbnails; one already gone is fine (a retried delete must not fail). */
  delete(fileNames: readonly string[]): Promise<void>;
  /** Opens a stored file for streaming, or null when it is not there or the name is not ours. */
  open(fileName: string): Promise<OpenedEvidence | null>;
  /** Reads a stored file whole (the evidence pack embeds it), or null when it is not there. */
  read(fileName: string): Promise<Uint8Array | null>;
  /**
   * Removes what a crash can leave behind: files stored before `olderThan` that no row names
   * (their transaction never committed). Returns the names removed.
   */
  sweepOrphans(options: SweepOptions): Promise<string[]>;
}

/** The photos in a local folder (DATA_DIR/uploads): fsync, rename into place, fsync the folder. */
export function createDiskEvidenceStore(uploadsDir: string): EvidenceStore {
  return {
    location: uploadsDir,
    place: (files) => placeEvidenceFiles(uploadsDir, files),
    put: (fileName, bytes) => putEvidenceFile(uploadsDir, fileName, bytes),
    delete: (fileNames) => deleteEvidenceFiles(uploadsDir, fileNames),
    open: (fileName) => openEvidenceFile(uploadsDir, fileName),
    read: (fileName) => readEvidenceFile(uploadsDir, fileName),
    sweepOrphans: (options) => sweepOrphanEvidenceFiles(uploadsDir, options),
  };
}

function pathOf(uploadsDir: string, fileName: string): string {
  if (!isStoredFileName(fileName)) throw new Error(`Refusing evidence file name ${JSON.stringify(fileName)}`);
  return join(uploadsDir, fileName);
}

/**
 * Moves files the multipart parser already wrote to temporary names into place: each is
 * fsynced and renamed to a name we make, then the folder is fsynced, so a file that a committed
 * row points at survives a power cut. On any failure the files placed so far are removed; the
 * temporary ones stay for the caller.
 */
export async function placeEvidenceFiles(
  uploadsDir: string,
  files: ReadonlyArray<Pick<SpooledEvidence, 'tempPath' | 'extension'>>,
): Promise<string[]> {
  if (files.length === 0) return [];
  const placed: string[] = [];
  try {
    for (const file of files) {
      const fileName = newEvidenceFileName(file.extension);
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

/** Writes `bytes` under `fileName`: a temporary file, fsynced, renamed into place, the folder fsynced. */
export async function putEvidenceFile(uploadsDir: string, fileName: string, bytes: Uint8Array): Promise<void> {
  const path = pathOf(uploadsDir, fileName);
  const tempPath = newSpoolPath(uploadsDir);
  try {
    await writeFile(tempPath, bytes, { flush: true });
    await rename(tempPath, path);
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
  await syncFolder(uploadsDir);
}

/** Removes files by name, with their thumbnails; a file already gone is fine (a retried delete must not fail). */
export async function deleteEvidenceFiles(uploadsDir: string, fileNames: readonly string[]): Promise<void> {
  for (const fileName of withThumbnails(fileNames)) {
    try {
      await unlink(pathOf(uploadsDir, fileName));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Opens a stored file for streaming, or null when it is not there. */
export async function openEvidenceFile(uploadsDir: string, fileName: string): Promise<OpenedEvidence | null> {
  if (!isStoredFileName(fileName)) return null;
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
export async function sweepOrphanEvidenceFiles(uploadsDir: string, options: SweepOptions): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(uploadsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const old: string[] = [];
  for (const name of entries) {
    if (!name.startsWith(SPOOL_PREFIX) && !isStoredFileName(name)) continue;
    const info = await stat(join(uploadsDir, name)).catch(() => null);
    if (info?.isFile() && info.mtime < options.olderThan) old.push(name);
  }
  // A thumbnail goes with its original: kept while a row names the original.
  const originalOf = (name: string) => (isThumbnailFileName(name) ? originalOfThumbnail(name) : name);
  const known = await options.findKnown([...new Set(old.filter(isStoredFileName).map(originalOf))]);
  const orphans = old.filter((name) => !known.has(originalOf(name)));
  for (const name of orphans) await rm(join(uploadsDir, name), { force: true });
  return orphans;
}

/**
 * Removes temporary files the multipart parser left in `spoolDir` (a crash mid-upload) that
 * are older than `olderThan`. With the S3 store the photos are elsewhere but are still spooled
 * here first, so this is that store's share of the start-up clean-up.
 */
export async function sweepSpoolLeftovers(spoolDir: string, olderThan: Date): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(spoolDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of entries) {
    if (!name.startsWith(SPOOL_PREFIX)) continue;
    const info = await stat(join(spoolDir, name)).catch(() => null);
    if (!info?.isFile() || info.mtime >= olderThan) continue;
    await rm(join(spoolDir, name), { force: true });
    removed.push(name);
  }
  return removed;
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
  if (!isStoredFileName(fileName)) return null;
  try {
    return new Uint8Array(await readFile(pathOf(uploadsDir, fileName)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
