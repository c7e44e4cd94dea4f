import { sign, verify } from 'hono/jwt';
import type { Role } from '@parkpatrol/shared';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** `sid` is the refresh-token family (one sign-in), so the session can be ended from the access token alone. */
export type AccessTokenClaims = { sub: string; sid: string; role: Role; iat: number; exp: number };

export async function signAccessToken(secret: string, user: { id: string; role: Role }, sessionId: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return sign({ sub: user.id, sid: sessionId, role: user.role, iat, exp: iat + ACCESS_TOKEN_TTL_SECONDS }, secret, 'HS256');
}

/**
 * The claims every access token we sign carries. The verifier checks `exp` only when it is
 * present, so a token signed with the real key but without one would never expire: it is
 * refused here, whatever library does the signature check.
 */
export function hasRequiredClaims(payload: Record<string, unknown>): payload is AccessTokenClaims {
  return (
    typeof payload.sub === 'string' &&
    typeof payload.sid === 'string' &&
    typeof payload.exp === 'number' &&
    Number.isFinite(payload.exp)
  );
}

/** Returns the claims, or null for any bad, expired, tampered or incomplete token. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessTokenClaims | null> {
  try {
    const payload = (await verify(token, secret, 'HS256')) as Record<string, unknown>;
    return hasRequiredClaims(payload) ? payload : null;
  } catch {
    return null;
  }
}
