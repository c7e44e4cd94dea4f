import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  DEVICE_TIME_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_PCN,
  PCN_MULTIPART_FIELDS,
  SERVER_MESSAGES,
  UUID_PATTERN,
  VALIDATION_MESSAGES,
} from '@parkpatrol/shared';
import { z } from 'zod';
import type { AppEnv } from '../app-env.ts';
import { IMAGE_FACT_FIELDS, type RawImageFacts } from '../domain/image-facts.ts';
import { discardSpooledFiles, spoolMultipart, SpoolError, type SpoolProblem } from '../services/multipart-spool.ts';
import type { UploadGate } from '../services/upload-gate.ts';
import type { UploadedPhotos } from '../workflows/pcn-evidence.ts';
import { AppError } from './app-error.ts';

/**
 * app.ts leaves the multipart POST /api/pcns and PUT /api/pcns/{id} without its 1 MB JSON
 * limit; this limit takes its place, enforced as the body streams in (services/multipart-spool.ts):
 * room for a full set of photos plus the text fields and multipart framing.
 */
const UPLOAD_BODY_LIMIT = MAX_IMAGES_PER_PCN * MAX_IMAGE_BYTES + 1024 * 1024;
/** Text fields are short (a description is at most 2000 characters); 64 KB leaves room for any encoding. */
const MAX_FIELD_BYTES = 64 * 1024;
/** Text is the one part kept in memory; a long removeImageIds list is refused later with its own message. */
const MAX_FIELDS = 50_000;
const MAX_FIELDS_TOTAL_BYTES = 2 * 1024 * 1024;

/** The notice's one-value fields of the multipart body (shared's PCN_MULTIPART_FIELDS, the one list). */
const TEXT_FIELDS = [
  PCN_MULTIPART_FIELDS.vehicleRegistration,
  PCN_MULTIPART_FIELDS.carParkId,
  PCN_MULTIPART_FIELDS.offenceType,
  PCN_MULTIPART_FIELDS.description,
  PCN_MULTIPART_FIELDS.location,
  PCN_MULTIPART_FIELDS.observedAt,
  PCN_MULTIPART_FIELDS.issuedAt,
  PCN_MULTIPART_FIELDS.stayApplies,
  PCN_MULTIPART_FIELDS.duplicateReason,
  PCN_MULTIPART_FIELDS.permitOverrideReason,
  PCN_MULTIPART_FIELDS.noticeServedBy,
  PCN_MULTIPART_FIELDS.noticeServedAt,
  PCN_MULTIPART_FIELDS.firstSeenAt,
  PCN_MULTIPART_FIELDS.serviceCorrectionReason,
] as const;
/** Optional fields where an empty value from a form means "not given". */
const EMPTY_MEANS_ABSENT = ['observedAt', 'issuedAt', 'stayApplies', 'noticeServedAt'] as const;
const deviceTimeSchema = z.iso.datetime({ offset: true });

export type PcnForm = UploadedPhotos & { text: Record<string, string>; removeImageIds: string[] };

/** Temporary files each request spooled; removed when it ends, whatever happened. */
const spooledBy = new WeakMap<Context, string[]>();

/**
 * A declared length over the limit is refused before a byte is read; a chunked body is
 * counted as it streams. At most a few uploads run per user and in all, so a flood of slow
 * uploads cannot pile up open files and parsers; what the request spooled goes when it ends.
 */
export function pcnUploadLimit(gate: UploadGate) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const declared = Number(c.req.header('content-length'));
    if (!c.req.header('transfer-encoding') && Number.isFinite(declared) && declared > UPLOAD_BODY_LIMIT) {
      throw new AppError('PAYLOAD_TOO_LARGE', SERVER_MESSAGES.bodyTooLarge);
    }
    const release = gate.enter(c.get('user').id);
    if (!release.ok) {
      throw new AppError(
        release.scope === 'user' ? 'RATE_LIMITED' : 'SERVICE_BUSY',
        release.scope === 'user' ? SERVER_MESSAGES.tooManyUploads : SERVER_MESSAGES.uploadsBusy,
        {
          headers: { 'Retry-After': String(release.retryAfterSeconds) },
        },
      );
    }
    const spooled: string[] = [];
    spooledBy.set(c, spooled);
    try {
      await next();
    } finally {
      release.leave();
      await discardSpooledFiles(spooled);
    }
  });
}

export function readIdempotencyKey(c: Context): string {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER)?.trim() ?? '';
  if (!UUID_PATTERN.test(key)) throw new AppError('BAD_REQUEST', SERVER_MESSAGES.idempotencyKeyInvalid);
  return key.toLowerCase();
}

/** The device's own clock at sending (X-Device-Time), or null when it did not say. */
export function readDeviceTime(c: Context): Date | null {
  const value = c.req.header(DEVICE_TIME_HEADER)?.trim();
  if (!value) return null;
  if (!deviceTimeSchema.safeParse(value).success) {
    throw new AppError('BAD_REQUEST', SERVER_MESSAGES.deviceTimeInvalid, {
      details: { [DEVICE_TIME_HEADER]: SERVER_MESSAGES.deviceTimeInvalid },
    });
  }
  return new Date(value);
}

/** Reads the multipart body; anything that is not well-formed multipart is a 400, never a 500. */
export async function readPcnForm(c: Context, uploadsDir: string): Promise<PcnForm> {
  const type = c.req.header('content-type')?.toLowerCase() ?? '';
  if (!type.startsWith('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', SERVER_MESSAGES.invalidMultipart);
  }
  let form: Awaited<ReturnType<typeof spoolMultipart>>;
  try {
    form = await spoolMultipart(c.req.raw, {
      dir: uploadsDir,
      fileField: PCN_MULTIPART_FIELDS.images,
      limits: {
        maxBodyBytes: UPLOAD_BODY_LIMIT,
        maxFileBytes: MAX_IMAGE_BYTES,
        maxFiles: MAX_IMAGES_PER_PCN,
        maxFieldBytes: MAX_FIELD_BYTES,
        maxFields: MAX_FIELDS,
        maxFieldsTotalBytes: MAX_FIELDS_TOTAL_BYTES,
      },
    });
  } catch (error) {
    if (error instanceof SpoolError) throw refusalFor(error.problem);
    throw error;
  }
  spooledBy.get(c)?.push(...form.files.map((file) => file.tempPath));
  const first = (name: string) => form.fields.get(name)?.[0];
  const all = (name: string) => form.fields.get(name) ?? [];
  const text: Record<string, string> = {};
  for (const name of TEXT_FIELDS) {
    const value = first(name);
    if (value !== undefined) text[name] = value;
  }
  // An optional value sent empty by a form means "not given".
  for (const name of EMPTY_MEANS_ABSENT) if (text[name]?.trim() === '') delete text[name];
  // A file input left empty still sends a nameless, empty part.
  const files = form.files.filter((file) => !(file.size === 0 && file.name === ''));
  const facts = Object.fromEntries(
    IMAGE_FACT_FIELDS.map((field) => [field, all(PCN_MULTIPART_FIELDS[field]).map((v) => v.trim())]),
  ) as RawImageFacts;
  const removeImageIds = [
    ...new Set(
      all(PCN_MULTIPART_FIELDS.removeImageIds)
        .filter((v) => v.trim() !== '')
        .map((v) => v.trim()),
    ),
  ];
  // A PCN never holds more than MAX_IMAGES_PER_PCN images; a longer list is not a real edit
  // and would only hit SQLite's bound-parameter limit.
  if (removeImageIds.length > MAX_IMAGES_PER_PCN) {
    throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.invalidInput, {
      details: { removeImageIds: VALIDATION_MESSAGES.tooManyImages },
    });
  }
  return { text, files, facts, removeImageIds };
}

function refusalFor(problem: SpoolProblem): AppError {
  switch (problem) {
    case 'file-too-large':
      return new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.imageTooLarge, {
        details: { images: VALIDATION_MESSAGES.imageTooLarge },
      });
    case 'too-many-files':
      return new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.tooManyImages, {
        details: { images: VALIDATION_MESSAGES.tooManyImages },
      });
    case 'body-too-large':
    case 'field-too-large':
    case 'too-many-fields':
      return new AppError('PAYLOAD_TOO_LARGE', SERVER_MESSAGES.bodyTooLarge);
    case 'malformed':
      return new AppError('BAD_REQUEST', SERVER_MESSAGES.invalidMultipart);
  }
}
