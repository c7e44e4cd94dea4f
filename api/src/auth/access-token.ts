import { sign, verify } from 'hono/jwt';
import type { Role } from '@parkpatrol/shared';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export type AccessTokenClaims = { sub: string; role: Role; iat: number; exp: number };

export async function signAccessToken(secret: string, user: { id: string; role: Role }, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return sign({ sub: user.id, role: user.role, iat, exp: iat + ACCESS_TOKEN_TTL_SECONDS }, secret, 'HS256');
}

/** Returns the claims, or null for any bad, expired or tampered token. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessTokenClaims | null> {
  try {
    const payload = await verify(token, secret, 'HS256');
    if (typeof payload.sub !== 'string') return null;
    return payload as unknown as AccessTokenClaims;
  } catch {
    return null;
  }
}
