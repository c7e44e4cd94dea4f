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

// A pure rule of the URL's shape, so repositories that build photo URLs can use it too.
export { thumbnailUrlOf } from '../domain/upload-paths.ts';

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

function signatureOf(jwtSecret: string, fileName: string, expiresAtSeconds: number, sessionId: string): string {
  return createHmac('sha256', deriveKey(jwtSecret)).update(`${fileName}\n${expiresAtSeconds}\n${sessionId}`).digest('base64url');
}

/**
 * URLs already signed, per secret, by file and expiry. An image keeps its URL for a whole window,
 * and a page of ten notices carries forty: a phone polling its list, or an admin paging back,
 * would otherwise pay forty HMACs a request for the same answers. Bounded, oldest
 * first out: a URL of a past window is never asked for again and simply ages out.
 */
const SIGNED_URL_CACHE_SIZE = 20_000;
const signedUrls = new Map<string, Map<string, string>>();

/**
 * The URL names the session it was handed to (its refresh-token family): signing out, a
 * deactivation or a password change ends the session, and with it every photo URL it was given
 * (the uploads route checks the session is live).
 */
export function createSignedUploadUrl(jwtSecret: string, fileName: string, now: Date, sessionId: string): string {
  const expiresAtMs = (Math.floor(now.getTime() / WINDOW_MS) + WINDOWS_AHEAD) * WINDOW_MS;
  const exp = Math.floor(expiresAtMs / 1000);
  let urls = signedUrls.get(jwtSecret);
  if (!urls) signedUrls.set(jwtSecret, (urls = new Map()));
  const key = `${fileName}\n${exp}\n${sessionId}`;
  let url = urls.get(key);
  if (url === undefined) {
    url = `${UPLOADS_PATH_PREFIX}${encodeURIComponent(fileName)}?exp=${exp}&sid=${encodeURIComponent(sessionId)}&sig=${signatureOf(jwtSecret, fileName, exp, sessionId)}`;
    urls.set(key, url);
    if (urls.size > SIGNED_URL_CACHE_SIZE) urls.delete(urls.keys().next().value!);
  }
  return url;
}

/**
 * A photo URL for the motorist looking at their charge: it names the charge (`charge:<id>`), not
 * a session, and lives as long as the lookup's access token (30 minutes, rounded up to the next
 * 5 so a page reloaded soon after keeps its URLs).
 */
export const CHARGE_PHOTO_SESSION_PREFIX = 'charge:';
export function createChargePhotoUrl(jwtSecret: string, fileName: string, now: Date, pcnId: string): string {
  const step = 5 * 60 * 1000;
  const exp = Math.floor((Math.ceil((now.getTime() + 30 * 60 * 1000) / step) * step) / 1000);
  const sid = `${CHARGE_PHOTO_SESSION_PREFIX}${pcnId}`;
  return `${UPLOADS_PATH_PREFIX}${encodeURIComponent(fileName)}?exp=${exp}&sid=${encodeURIComponent(sid)}&sig=${signatureOf(jwtSecret, fileName, exp, sid)}`;
}

/** The session a URL was signed for when its signature holds and it has not expired, else null. */
export function verifyUploadSignature(
  jwtSecret: string,
  fileName: string,
  query: { exp?: string; sid?: string; sig?: string },
  now: Date,
): string | null {
  const { exp, sid, sig } = query;
  if (!exp || !sid || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig) || sid.length > 100) return null;
  const expiresAtSeconds = Number(exp);
  if (expiresAtSeconds * 1000 <= now.getTime()) return null;
  const expected = Buffer.from(signatureOf(jwtSecret, fileName, expiresAtSeconds, sid));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given) ? sid : null;
}
