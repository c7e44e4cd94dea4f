import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  MAX_IMAGE_PIXELS,
  MAX_OPERATOR_LOGO_BYTES,
  OPERATOR_LOGO_BOX,
  OPERATOR_LOGO_FIELD,
  OPERATOR_LOGO_MESSAGES,
  type OperatorLogoResponse,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import {
  findOperatorLogoByHash,
  findOperatorLogoHash,
  insertOperatorLogoChange,
  type StoredOperatorLogo,
} from '../repositories/operator-logo.ts';
import { detectImageType } from '../services/image-sniffing.ts';

export const OPERATOR_LOGO_MIME_TYPE = 'image/png';

/** The logo's public address: its hash in the name, so a new logo is a new address and each may be cached for good. */
export function operatorLogoUrl(sha256: string | null): string | null {
  return sha256 ? `/api/public/charges/operator/logo/${sha256}.png` : null;
}

/** The logo's address now, or null when none is set. */
export async function readOperatorLogoUrl(db: Db): Promise<string | null> {
  return operatorLogoUrl(await findOperatorLogoHash(db));
}

const refused = (code: 'VALIDATION_FAILED' | 'PAYLOAD_TOO_LARGE', message: string) =>
  new AppError(code, message, { details: { [OPERATOR_LOGO_FIELD]: message } });

/** A PNG or JPEG by its bytes, never by its name or declared type; made upright, fitted inside the box (never enlarged), as a PNG without metadata. */
async function toStoredLogo(upload: Uint8Array): Promise<Uint8Array> {
  const type = detectImageType(upload.subarray(0, 64))?.mimeType;
  if (type !== 'image/png' && type !== 'image/jpeg') throw refused('VALIDATION_FAILED', OPERATOR_LOGO_MESSAGES.notAnImage);
  try {
    return await sharp(upload, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ ...OPERATOR_LOGO_BOX, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch {
    // The right first bytes over a body that does not decode.
    throw refused('VALIDATION_FAILED', OPERATOR_LOGO_MESSAGES.notAnImage);
  }
}

const actorOf = (user: AuthUser) => ({ id: user.id, name: `${user.firstName} ${user.lastName}`.trim() });

/**
 * Sets the operator's logo from an upload (the multipart field, a File or nothing): checked by
 * its bytes and size, resized, and kept as a new row of the logo's history with who set it.
 */
export async function changeOperatorLogo(db: Db, upload: unknown, user: AuthUser, now: Date): Promise<OperatorLogoResponse> {
  if (!(upload instanceof File) || upload.size === 0) throw refused('VALIDATION_FAILED', OPERATOR_LOGO_MESSAGES.required);
  if (upload.size > MAX_OPERATOR_LOGO_BYTES) throw refused('PAYLOAD_TOO_LARGE', OPERATOR_LOGO_MESSAGES.tooLarge);
  const image = await toStoredLogo(new Uint8Array(await upload.arrayBuffer()));
  const sha256 = createHash('sha256').update(image).digest('hex');
  await insertOperatorLogoChange(db, { logo: { image, sha256 }, actor: actorOf(user), now: now.toISOString() });
  return { logoUrl: operatorLogoUrl(sha256) };
}

/** Removes the logo, as a row of its history saying who removed it; removing none writes nothing. */
export async function removeOperatorLogo(db: Db, user: AuthUser, now: Date): Promise<OperatorLogoResponse> {
  if ((await findOperatorLogoHash(db)) !== null) {
    await insertOperatorLogoChange(db, { logo: null, actor: actorOf(user), now: now.toISOString() });
  }
  return { logoUrl: null };
}

/**
 * The logo's bytes for its public address. An address once given out keeps its picture, as any
 * cache may keep it anyway (a page opened before a change still draws); /charge links only the
 * logo in force.
 */
export async function readOperatorLogo(db: Db, fileName: string): Promise<StoredOperatorLogo> {
  const sha256 = /^([0-9a-f]{64})\.png$/.exec(fileName)?.[1];
  const logo = sha256 ? await findOperatorLogoByHash(db, sha256) : null;
  if (!logo) throw new AppError('NOT_FOUND', OPERATOR_LOGO_MESSAGES.notFound);
  return logo;
}
