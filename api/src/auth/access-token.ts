import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Role } from '@parkpatrol/shared';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** `sid` is the refresh-token family (one sign-in), so the session can be ended from the access token alone. */
export type AccessTokenClaims = { sub: string; sid: string; role: Role; iat: number; exp: number };

/**
 * Access tokens are JWTs signed with HS256 and checked here with node:crypto (issue 17): every
 * signed-in request verifies one, and `hono/jwt` imported the key into WebCrypto on every call
 * (about 120 us, against about 4 us for one HMAC). The token format is unchanged, so tokens
 * issued before the switch stay valid; the checks are the same or stricter:
 * - the header must say HS256 (pinned: no `none`, no other algorithm), `typ` JWT if present, no `crit`;
 * - the signature is compared in constant time before anything in the payload is trusted;
 * - `exp` is required and must be in the future, `nbf` and `iat` (when present) must not be;
 * - `sub` and `sid` must be strings.
 */
const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function signature(secret: string, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

export async function signAccessToken(secret: string, user: { id: string; role: Role }, sessionId: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const claims: AccessTokenClaims = { sub: user.id, sid: sessionId, role: user.role, iat, exp: iat + ACCESS_TOKEN_TTL_SECONDS };
  const signingInput = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${signature(secret, signingInput).toString('base64url')}`;
}

/**
 * The claims every access token we sign carries. A token signed with the real key but without
 * `exp` would never expire, so it is refused.
 */
export function hasRequiredClaims(payload: Record<string, unknown>): payload is AccessTokenClaims {
  return (
    typeof payload.sub === 'string' &&
    typeof payload.sid === 'string' &&
    typeof payload.exp === 'number' &&
    Number.isFinite(payload.exp)
  );
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function isOurHeader(header: Record<string, unknown> | null): boolean {
  if (!header || header.alg !== 'HS256' || 'crit' in header) return false;
  return header.typ === undefined || (typeof header.typ === 'string' && header.typ.toLowerCase().replace(/^application\//, '') === 'jwt');
}

/** A NumericDate claim: absent, or a finite number. */
const timeClaim = (value: unknown): number | undefined | null =>
  value === undefined ? undefined : typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * Tokens whose signature and claims have checked out, per secret, with their claims (frozen):
 * a phone sends the same access token with every request for its 15 minutes, and checking it
 * again gives the same answer, except for the time rules, which are applied on every use. Only
 * a token that passed the full check gets in, so nothing here can be forged; bounded, oldest
 * out first (an expired token is never accepted and simply ages out).
 */
const VERIFIED_CACHE_SIZE = 10_000;
const verifiedTokens = new Map<string, Map<string, Readonly<AccessTokenClaims>>>();

/** Returns the claims, or null for any bad, expired, tampered or incomplete token. */
export async function verifyAccessToken(secret: string, token: string, now: Date): Promise<AccessTokenClaims | null> {
  const seconds = Math.floor(now.getTime() / 1000);
  const known = verifiedTokens.get(secret)?.get(token);
  if (known) return isInForce(known, seconds) ? known : null;
  const claims = checkToken(secret, token);
  if (!claims || !isInForce(claims, seconds)) return null;
  let tokens = verifiedTokens.get(secret);
  if (!tokens) verifiedTokens.set(secret, (tokens = new Map()));
  tokens.set(token, Object.freeze(claims));
  if (tokens.size > VERIFIED_CACHE_SIZE) tokens.delete(tokens.keys().next().value!);
  return claims;
}

/** The signature and the shape of the claims; the time rules are isInForce's. */
function checkToken(secret: string, token: string): AccessTokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  if (!isOurHeader(decodeJson(headerPart))) return null;
  const given = Buffer.from(signaturePart, 'base64url');
  const expected = signature(secret, `${headerPart}.${payloadPart}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = decodeJson(payloadPart);
  if (!payload || timeClaim(payload.nbf) === null || timeClaim(payload.iat) === null) return null;
  return hasRequiredClaims(payload) ? payload : null;
}

/** `exp` in the future; `nbf` and `iat`, when present, not. */
function isInForce(claims: AccessTokenClaims & { nbf?: number }, seconds: number): boolean {
  if (!(claims.exp > seconds)) return false;
  if (typeof claims.nbf === 'number' && claims.nbf > seconds) return false;
  return !(typeof claims.iat === 'number' && claims.iat > seconds);
}
