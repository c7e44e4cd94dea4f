import type { Context } from 'hono';
import {
  APPEAL_MESSAGES,
  APPEAL_MULTIPART_FIELDS,
  MAX_APPEAL_ATTACHMENT_BYTES,
  MAX_APPEAL_ATTACHMENTS,
  SERVER_MESSAGES,
} from '@parkpatrol/shared';
import { spoolMultipart, SpoolError } from '../services/multipart-spool.ts';
import { AppError } from './app-error.ts';

/** Six files of 10 MB, and the text fields and framing beside them. */
export const APPEAL_BODY_LIMIT = MAX_APPEAL_ATTACHMENTS * MAX_APPEAL_ATTACHMENT_BYTES + 1024 * 1024;

/** Before a byte is read: a declared length over the limit, or a body that is not multipart, is refused. */
export function checkAppealBodyHeaders(c: Context): void {
  const declared = Number(c.req.header('content-length'));
  if (!c.req.header('transfer-encoding') && Number.isFinite(declared) && declared > APPEAL_BODY_LIMIT) {
    throw new AppError('PAYLOAD_TOO_LARGE', SERVER_MESSAGES.bodyTooLarge);
  }
  if (!(c.req.header('content-type')?.toLowerCase() ?? '').startsWith('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', SERVER_MESSAGES.invalidMultipart);
  }
}

/** Reads an appeal's multipart body: its text fields by name, its files spooled to disk (listed in `spooled` to remove). */
export async function readAppealForm(c: Context, uploadsDir: string, spooled: string[], textFields: readonly string[]) {
  let form: Awaited<ReturnType<typeof spoolMultipart>>;
  try {
    form = await spoolMultipart(c.req.raw, {
      dir: uploadsDir,
      fileField: APPEAL_MULTIPART_FIELDS.attachments,
      limits: {
        maxBodyBytes: APPEAL_BODY_LIMIT,
        maxFileBytes: MAX_APPEAL_ATTACHMENT_BYTES,
        maxFiles: MAX_APPEAL_ATTACHMENTS,
        maxFieldBytes: 32 * 1024,
        maxFields: 20,
        maxFieldsTotalBytes: 64 * 1024,
      },
    });
  } catch (error) {
    if (!(error instanceof SpoolError)) throw error;
    if (error.problem === 'malformed') throw new AppError('BAD_REQUEST', SERVER_MESSAGES.invalidMultipart);
    const message =
      error.problem === 'file-too-large'
        ? APPEAL_MESSAGES.attachmentTooLarge
        : error.problem === 'too-many-files'
          ? APPEAL_MESSAGES.tooManyAttachments
          : SERVER_MESSAGES.bodyTooLarge;
    throw new AppError('PAYLOAD_TOO_LARGE', message, { details: { attachments: message } });
  }
  spooled.push(...form.files.map((file) => file.tempPath));
  const text: Record<string, string> = {};
  for (const name of textFields) {
    const value = form.fields.get(name)?.[0];
    if (value !== undefined) text[name] = value;
  }
  // A file input left empty still sends a nameless, empty part.
  return { text, files: form.files.filter((file) => !(file.size === 0 && file.name === '')) };
}
