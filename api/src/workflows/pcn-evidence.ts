import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGES_PER_PCN, VALIDATION_MESSAGES } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { checksumMismatchMessage, readImageFacts, type ImageFacts, type RawImageFacts } from '../domain/image-facts.ts';
import { AppError } from '../http/app-error.ts';
import type { EvidenceStore } from '../services/evidence-storage.ts';
import { imageSize } from 'image-size';
import { imageSizeFromFile } from 'image-size/fromFile';
import { detectImageType, type SniffedImage } from '../services/image-sniffing.ts';
import { checkPng, isPng, type PngCheckProblem } from '../services/png-check.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { Logger } from '../services/logger.ts';
import type { SpooledFile } from '../services/multipart-spool.ts';

/**
 * What the PCN workflows that store or remove photos need: the database, the evidence store
 * (services/evidence-storage.ts: the uploads folder or an S3 bucket), the job queue that makes
 * their thumbnails, and a logger for files that could not be removed.
 */
export type EvidenceDeps = { db: Db; evidence: EvidenceStore; logger: Logger; jobs: JobQueue };

/** A photo the request sent, checked and ready to be placed: its spooled file, real type and capture facts. */
export type EvidenceImage = SniffedImage & ImageFacts & { tempPath: string; size: number; sha256: string; originalName: string };

/** The photos of a request as the route read them: the spooled files and their facts, in the same order. */
export type UploadedPhotos = { files: SpooledFile[]; facts: RawImageFacts };

/**
 * Checks count, size, real type, capture facts and device checksum of every photo before
 * anything is written: a refused photo leaves no file and no row.
 */
export async function readEvidenceImages(files: SpooledFile[], rawFacts: RawImageFacts): Promise<EvidenceImage[]> {
  if (files.length > MAX_IMAGES_PER_PCN) {
    throw new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.tooManyImages, { details: { images: VALIDATION_MESSAGES.tooManyImages } });
  }
  const read = readImageFacts(rawFacts, files.length);
  if ('problem' in read) {
    throw new AppError('VALIDATION_FAILED', read.problem.message, { details: { [read.problem.field]: read.problem.message } });
  }
  const images: EvidenceImage[] = [];
  for (const [index, file] of files.entries()) {
    if (file.size > MAX_IMAGE_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.imageTooLarge, {
        details: { images: VALIDATION_MESSAGES.imageTooLarge },
      });
    }
    const sniffed = detectImageType(file.head);
    if (!sniffed) {
      const message = `${VALIDATION_MESSAGES.imageWrongType} (${file.name || `photo ${index + 1}`} is not)`;
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', message, { details: { images: VALIDATION_MESSAGES.imageWrongType } });
    }
    const facts = read.facts[index]!;
    // Damage in transit first: a cut-off PNG is then "send it again", not "damaged".
    if (facts.clientSha256 !== null && facts.clientSha256 !== file.sha256) {
      const message = checksumMismatchMessage(index);
      throw new AppError('EVIDENCE_CHECKSUM_MISMATCH', message, { details: { images: message, imageSha256: message } });
    }
    await assertBoundedPixels(file);
    images.push({
      ...sniffed,
      ...facts,
      tempPath: file.tempPath,
      size: file.size,
      sha256: file.sha256,
      originalName: file.name.slice(0, 200),
    });
  }
  return images;
}

/**
 * Refuses a photo whose header declares more than MAX_IMAGE_PIXELS, before anything decodes it.
 * A PNG is judged by what the evidence pack's decoder will do with it (services/png-check.ts): one
 * header, no frames, at most MAX_PNG_PIXELS, and no more data than that header declares; its first
 * header alone is not to be trusted. A PNG is refused rather than re-encoded because the stored
 * file is evidence, kept byte for byte under the SHA-256 the phone computed.
 * Another header that cannot be read (a HEIC variant the reader does not know) passes: the
 * evidence pack embeds only JPEG (its bytes, never decoded) and PNG. `field` names the form
 * field in the 400: a notice's `images`, an appeal's `attachments`.
 */
export async function assertBoundedPixels(
  file: Pick<SpooledFile, 'tempPath' | 'head'>,
  field: 'images' | 'attachments' = 'images',
): Promise<void> {
  const { tempPath: path, head } = file;
  if (isPng(head)) {
    const verdict = await checkPng(await readFile(path));
    if ('problem' in verdict) {
      const message = PNG_PROBLEM_MESSAGES[verdict.problem];
      throw new AppError('VALIDATION_FAILED', message, { details: { [field]: message } });
    }
    return;
  }
  const size = sizeFromHead(head) ?? (await imageSizeFromFile(path).catch(() => null));
  if (size && size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new AppError('VALIDATION_FAILED', VALIDATION_MESSAGES.imageTooManyPixels, {
      details: { [field]: VALIDATION_MESSAGES.imageTooManyPixels },
    });
  }
}

/** Why a PNG was refused, in the officer's words. */
const PNG_PROBLEM_MESSAGES: Record<PngCheckProblem, string> = {
  TOO_MANY_PIXELS: VALIDATION_MESSAGES.imageTooManyPixels,
  HEADER_NOT_SINGLE: VALIDATION_MESSAGES.pngHeaderNotSingle,
  ANIMATED: VALIDATION_MESSAGES.pngAnimated,
  UNPACKS_BEYOND_HEADER: VALIDATION_MESSAGES.pngUnpacksBeyondHeader,
  DAMAGED: VALIDATION_MESSAGES.pngDamaged,
  NOT_STANDARD: VALIDATION_MESSAGES.pngDamaged,
};

/**
 * The dimensions the header declares, read from the bytes kept while spooling (the first
 * SPOOL_HEAD_BYTES): a JPEG's size is usually there, and a file not opened again is two fewer
 * opens per photo. Null when the header goes on past them, for the file to be read instead.
 */
function sizeFromHead(head: Uint8Array): { width: number; height: number } | null {
  try {
    const { width, height } = imageSize(head);
    return { width, height };
  } catch {
    return null;
  }
}

/**
 * Places the photos in the evidence store and asks for their thumbnails, which a job makes after
 * the answer (decision 0046); until then a photo's thumbnail address serves the photo itself. The
 * job is asked for before the notice commits: a crash after the commit then loses no thumbnail,
 * and one for a notice that did not commit finds its photos gone and makes nothing. A queue that
 * cannot take the job is no reason to refuse a notice: `npm run thumbnails` makes what is missing.
 */
export async function placeEvidence(deps: Pick<EvidenceDeps, 'evidence' | 'logger' | 'jobs'>, images: EvidenceImage[]): Promise<string[]> {
  const fileNames = await deps.evidence.place(images);
  await deps.jobs.send('thumbnails', { fileNames }).catch((error: unknown) => {
    deps.logger.warn('could not ask for thumbnails; the photos are shown as they are', { fileNames, error: String(error) });
  });
  return fileNames;
}

/** The pcn_images rows of photos placed under `fileNames` (same order). */
export function imageRows(pcnId: string, images: EvidenceImage[], fileNames: string[], now: string) {
  return images.map((image, index) => ({
    id: randomUUID(),
    pcn_id: pcnId,
    file_name: fileNames[index]!,
    original_name: image.originalName,
    mime_type: image.mimeType,
    size: image.size,
    sha256: image.sha256,
    client_sha256: image.clientSha256,
    taken_at: image.takenAt,
    taken_at_source: image.takenAtSource,
    latitude: image.latitude,
    longitude: image.longitude,
    accuracy_m: image.accuracyM,
    shots: image.shots.join(','),
    created_at: now,
  }));
}

/** What the audit keeps of a photo: enough to prove which bytes were added or removed. */
export function imageSummary(image: { id: string; file_name: string; sha256: string; taken_at: string | null }) {
  return { id: image.id, fileName: image.file_name, sha256: image.sha256, takenAt: image.taken_at };
}

/**
 * Removes evidence files: those written for a request that did not commit, or those of photos
 * whose rows are gone. A failure here must not hide the original error, so it is only logged
 * (a file no row names is swept at the next server start).
 */
export async function discardEvidenceFiles(deps: Pick<EvidenceDeps, 'evidence' | 'logger'>, fileNames: readonly string[]): Promise<void> {
  if (fileNames.length === 0) return;
  try {
    await deps.evidence.delete(fileNames);
  } catch (error) {
    deps.logger.error('could not delete evidence files', { fileNames, error: String(error) });
  }
}
