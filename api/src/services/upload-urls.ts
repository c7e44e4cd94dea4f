import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Evidence is personal data, but an <img> cannot send a bearer header, so GET /pcns/{id} hands
 * out signed, expiring URLs. The key is derived from the JWT secret so that a signature can
 * never double as a token, and the expiry is rounded up to a window so the same image keeps
 * the same URL for hours and the browser cache (immutable) actually hits.
 */
const WINDOW_MS = 6 * 60 * 60 * 1000;
/** A URL is valid for between 12 and 18 hours after it is handed out. */
const WINDOWS_AHEAD = 3;

export const UPLOADS_PATH_PREFIX = '/api/uploads/';

function deriveKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('parkpatrol:upload-url:v1').digest();
}

function signatureOf(jwtSecret: string, fileName: string, expiresAtSeconds: number): string {
  return createHmac('sha256', deriveKey(jwtSecret)).update(`${fileName}\n${expiresAtSeconds}`).digest('base64url');
}

export function createSignedUploadUrl(jwtSecret: string, fileName: string, now: Date): string {
  const expiresAtMs = (Math.floor(now.getTime() / WINDOW_MS) + WINDOWS_AHEAD) * WINDOW_MS;
  const exp = Math.floor(expiresAtMs / 1000);
  return `${UPLOADS_PATH_PREFIX}${encodeURIComponent(fileName)}?exp=${exp}&sig=${signatureOf(jwtSecret, fileName, exp)}`;
}

export function isValidUploadSignature(
  jwtSecret: string,
  fileName: string,
  exp: string | undefined,
  sig: string | undefined,
  now: Date,
): boolean {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return false;
  const expiresAtSeconds = Number(exp);
  if (expiresAtSeconds * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(signatureOf(jwtSecret, fileName, expiresAtSeconds));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
