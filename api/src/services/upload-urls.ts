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

/** The derived key per JWT secret: a process has one secret (tests make a few), so this stays tiny. */
const derivedKeys = new Map<string, Buffer>();

function deriveKey(jwtSecret: string): Buffer {
  let key = derivedKeys.get(jwtSecret);
  if (!key) {
    key = createHmac('sha256', jwtSecret).update('parkpatrol:upload-url:v1').digest();
    derivedKeys.set(jwtSecret, key);
  }
  return key;
}

function signatureOf(jwtSecret: string, fileName: string, expiresAtSeconds: number): string {
  return createHmac('sha256', deriveKey(jwtSecret)).update(`${fileName}\n${expiresAtSeconds}`).digest('base64url');
}

/**
 * URLs already signed, per secret, by file and expiry. An image keeps its URL for a whole window,
 * and a page of ten notices carries forty: a phone polling its list, or an admin paging back,
 * would otherwise pay forty HMACs a request for the same answers (issue 17). Bounded, oldest
 * first out: a URL of a past window is never asked for again and simply ages out.
 */
const SIGNED_URL_CACHE_SIZE = 20_000;
const signedUrls = new Map<string, Map<string, string>>();

export function createSignedUploadUrl(jwtSecret: string, fileName: string, now: Date): string {
  const expiresAtMs = (Math.floor(now.getTime() / WINDOW_MS) + WINDOWS_AHEAD) * WINDOW_MS;
  const exp = Math.floor(expiresAtMs / 1000);
  let urls = signedUrls.get(jwtSecret);
  if (!urls) signedUrls.set(jwtSecret, (urls = new Map()));
  const key = `${fileName}\n${exp}`;
  let url = urls.get(key);
  if (url === undefined) {
    url = `${UPLOADS_PATH_PREFIX}${encodeURIComponent(fileName)}?exp=${exp}&sig=${signatureOf(jwtSecret, fileName, exp)}`;
    urls.set(key, url);
    if (urls.size > SIGNED_URL_CACHE_SIZE) urls.delete(urls.keys().next().value!);
  }
  return url;
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
