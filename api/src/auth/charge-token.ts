import { createHmac } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';

/**
 * The motorist's access token: after a lookup with the right reference and registration, a
 * short-lived JWT good for that one charge. Its key is derived from the JWT secret for this use
 * alone, so a staff token is never a charge token and a charge token never opens a staff route.
 */
export const CHARGE_TOKEN_TTL_SECONDS = 30 * 60;
const AUDIENCE = 'parkpatrol:charge';

type Keys = { sign: (claims: Record<string, unknown>) => string; verify: (token: string) => Record<string, unknown> };
const keys = new Map<string, Keys>();

function keysFor(jwtSecret: string): Keys {
  let found = keys.get(jwtSecret);
  if (!found) {
    const key = createHmac('sha256', jwtSecret).update('parkpatrol:charge-token:v1').digest('base64url');
    found = {
      sign: createSigner({ key, algorithm: 'HS256' }) as Keys['sign'],
      verify: createVerifier({
        key,
        algorithms: ['HS256'],
        allowedAud: AUDIENCE,
        requiredClaims: ['sub', 'aud', 'exp'],
        checkTyp: 'jwt',
        // The time rules are ours, against the server's clock (which tests move).
        ignoreExpiration: true,
        ignoreNotBefore: true,
      }) as Keys['verify'],
    };
    keys.set(jwtSecret, found);
  }
  return found;
}

export function signChargeToken(jwtSecret: string, pcnId: string, now: Date): { token: string; expiresAt: Date } {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + CHARGE_TOKEN_TTL_SECONDS;
  return { token: keysFor(jwtSecret).sign({ sub: pcnId, aud: AUDIENCE, iat, exp }), expiresAt: new Date(exp * 1000) };
}

/** The charge's id, or null for any bad, expired or foreign token. */
export function verifyChargeToken(jwtSecret: string, token: string, now: Date): string | null {
  let claims: Record<string, unknown>;
  try {
    claims = keysFor(jwtSecret).verify(token);
  } catch {
    return null;
  }
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number' || !(claims.exp > seconds)) return null;
  if (typeof claims.iat === 'number' && claims.iat > seconds) return null;
  return claims.sub;
}
