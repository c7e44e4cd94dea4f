import { createSigner, createVerifier } from 'fast-jwt';
import type { Role } from '@parkpatrol/shared';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** `sid` is the refresh-token family (one sign-in), so the session can be ended from the access token alone. */
export type AccessTokenClaims = { sub: string; sid: string; role: Role; iat: number; exp: number };

/**
 * Access tokens are JWTs signed with HS256 by fast-jwt, whose verifier keeps the tokens it has
 * checked (a phone sends the same one with every request for its 15 minutes). The format is
 * what it always was, so tokens issued before stay valid. The checks:
 * - the header must say HS256 (pinned: no `none`, no other algorithm), `typ` JWT, no `crit`;
 * - the signature is checked before anything in the payload is trusted;
 * - `exp` is required and must be in the future, `nbf` and `iat` (when present) must not be;
 * - `sub` and `sid` must be strings.
 * The time rules are ours, applied on every use with the caller's clock (the server's `now`,
 * which tests move), so the library is told to leave them.
 */
const VERIFIED_CACHE_SIZE = 10_000;

type Sign = (claims: AccessTokenClaims) => string;
type Verify = (token: string) => Record<string, unknown>;
const signers = new Map<string, Sign>();
const verifiers = new Map<string, Verify>();

function signerFor(secret: string): Sign {
  let sign = signers.get(secret);
  // iat comes in the claims, from the caller's clock; the signer keeps a given iat.
  if (!sign) signers.set(secret, (sign = createSigner({ key: secret, algorithm: 'HS256' })));
  return sign;
}

function verifierFor(secret: string): Verify {
  let verify = verifiers.get(secret);
  if (!verify) {
    verify = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'sid', 'exp'],
      checkTyp: 'jwt',
      ignoreExpiration: true,
      ignoreNotBefore: true,
      cache: VERIFIED_CACHE_SIZE,
      // Keyed by fast-jwt's own hash of the token. A key of our own (the token itself was one) makes
      // fast-jwt warn at every start, and the hash of a 250-byte token costs about a microsecond.
      cacheTTL: ACCESS_TOKEN_TTL_SECONDS * 1000,
    }) as Verify;
    verifiers.set(secret, verify);
  }
  return verify;
}

export async function signAccessToken(secret: string, user: { id: string; role: Role }, sessionId: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return signerFor(secret)({ sub: user.id, sid: sessionId, role: user.role, iat, exp: iat + ACCESS_TOKEN_TTL_SECONDS });
}

/**
 * The claims every access token we sign carries. A token signed with the real key but without
 * `exp` would never expire, so it is refused.
 */
export function hasRequiredClaims(payload: Record<string, unknown>): payload is AccessTokenClaims {
  return (
    typeof payload.sub === 'string' && typeof payload.sid === 'string' && typeof payload.exp === 'number' && Number.isFinite(payload.exp)
  );
}

/** Returns the claims, or null for any bad, expired, tampered or incomplete token. */
export async function verifyAccessToken(secret: string, token: string, now: Date): Promise<AccessTokenClaims | null> {
  let payload: Record<string, unknown>;
  try {
    payload = verifierFor(secret)(token);
  } catch {
    return null;
  }
  if (!hasRequiredClaims(payload)) return null;
  return isInForce(payload, Math.floor(now.getTime() / 1000)) ? payload : null;
}

/** A NumericDate claim: absent, or a finite number. */
const isTimeClaim = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isFinite(value));

/** `exp` in the future; `nbf` and `iat`, when present, numbers and not in the future. */
function isInForce(claims: AccessTokenClaims & { nbf?: unknown }, seconds: number): boolean {
  if (!isTimeClaim(claims.nbf) || !isTimeClaim(claims.iat)) return false;
  if (!(claims.exp > seconds)) return false;
  if (typeof claims.nbf === 'number' && claims.nbf > seconds) return false;
  return !(typeof claims.iat === 'number' && claims.iat > seconds);
}
