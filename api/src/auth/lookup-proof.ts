import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hasLeadingZeroBits, lookupChallengeBits } from '@parkpatrol/shared';

/**
 * The work a motorist's lookup must show once a reference, a registration or an address has had
 * too many wrong tries (see LOOKUP_CHALLENGE_HEADER in shared). A challenge is stateless: its
 * zero bits, when it lapses and a random id, signed with a key derived from the JWT secret for
 * this use alone, and bound to the one pair it was given for, so a check done for one guess
 * cannot be spent on another. Each is spent once (the caller records its id).
 */
export const LOOKUP_CHALLENGE_TTL_SECONDS = 5 * 60;

const keys = new Map<string, string>();
function keyFor(jwtSecret: string): string {
  let key = keys.get(jwtSecret);
  if (!key) {
    key = createHmac('sha256', jwtSecret).update('parkpatrol:lookup-proof:v1').digest('base64url');
    keys.set(jwtSecret, key);
  }
  return key;
}

/** The pair a challenge is for: the reference as normalised and the registration as normalised. */
export type ChallengedPair = { reference: string; registration: string };

function macOf(jwtSecret: string, body: string, pair: ChallengedPair): string {
  return createHmac('sha256', keyFor(jwtSecret))
    .update(`${body}\n${pair.reference}\n${pair.registration}`)
    .digest('base64url')
    .slice(0, 32);
}

export function issueLookupChallenge(jwtSecret: string, pair: ChallengedPair, bits: number, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + LOOKUP_CHALLENGE_TTL_SECONDS;
  const body = `${bits}.${expires}.${randomBytes(12).toString('base64url')}`;
  return `${body}.${macOf(jwtSecret, body, pair)}`;
}

/**
 * The challenge's id when `proof` answers a challenge we gave for this pair, still running and
 * demanding at least `bits`; otherwise null. Whether the id was spent already is the caller's.
 */
export function verifyLookupProof(jwtSecret: string, proof: string, pair: ChallengedPair, bits: number, now: Date): string | null {
  const match = /^((\d{1,2})\.(\d{1,12})\.([\w-]{16}))\.([\w-]{32}):\d{1,12}$/.exec(proof);
  if (!match) return null;
  const [, body, , expires, id, mac] = match as unknown as [string, string, string, string, string, string];
  const given = lookupChallengeBits(`${body}.${mac}`);
  if (given === null || given < bits) return null;
  if (Number(expires) <= Math.floor(now.getTime() / 1000)) return null;
  const expected = Buffer.from(macOf(jwtSecret, body, pair));
  if (!timingSafeEqual(Buffer.from(mac), expected)) return null;
  if (!hasLeadingZeroBits(createHash('sha256').update(proof).digest(), given)) return null;
  return id;
}
