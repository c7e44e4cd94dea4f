import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHARGE_LOOKUP_LIMITED,
  CHARGE_NOT_FOUND,
  hasLeadingZeroBits,
  LOOKUP_CHALLENGE_HEADER,
  lookupChallengeBits,
  lookupProofOf,
  SERVER_MESSAGES,
  type ChargeLookupResponse,
} from '@parkpatrol/shared';
import {
  CHARGE_LOOKUPS_PER_ADDRESS,
  CHARGE_LOOKUP_FAILURES_PER_ADDRESS,
  CHARGE_LOOKUP_FAILURES_PER_REFERENCE,
  CHARGE_LOOKUP_FAILURES_PER_REGISTRATION,
} from '../src/workflows/look-up-charge.ts';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { createPcnViaApi, type NewPcn } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

type TestResponse = Awaited<ReturnType<TestApp['request']>>;

/**
 * The fourth outside attack, the motorist's lookup: wrong guesses must not lock the real
 * motorist out of their own charge (N2), and one plate must not be walked across the sequential
 * references (N3). Each test failed before its fix: the reference was locked for an hour, right
 * pair or not, and nothing counted the guesses made with one registration.
 */

/** What the page does with a challenge: the first number whose proof's SHA-256 starts with enough zero bits. */
function solve(challenge: string): string {
  const bits = lookupChallengeBits(challenge);
  if (bits === null) throw new Error(`not a challenge: ${challenge}`);
  for (let nonce = 0; ; nonce++) {
    const proof = lookupProofOf(challenge, nonce);
    if (hasLeadingZeroBits(createHash('sha256').update(proof).digest(), bits)) return proof;
  }
}

describe('the fourth outside attack: the lookup turned against the motorist', () => {
  let t: TestApp;
  let officer: Session;
  let carParkId: string;
  beforeAll(async () => {
    // Behind a proxy that names each client, so the test can be many addresses.
    t = await createTestApp({ config: { trustProxy: true } });
    officer = await t.signedInUser('USER');
    carParkId = (await t.createCarPark({ name: 'Quayside', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  const lookUp = (reference: string, registration: string, address: string, proof?: string) =>
    t.request('POST', '/public/charges/lookup', {
      json: { reference, registration, ...(proof ? { proof } : {}) },
      headers: { 'x-forwarded-for': address },
    });

  /** As the page does it: a lookup, and when a check is asked for, the check done and the lookup sent again. */
  async function lookUpAsThePage(
    reference: string,
    registration: string,
    address: string,
  ): Promise<{ res: TestResponse; checked: boolean }> {
    const first = await lookUp(reference, registration, address);
    const challenge = first.headers.get(LOOKUP_CHALLENGE_HEADER);
    if (first.status !== 429 || !challenge) return { res: first, checked: false };
    return { res: await lookUp(reference, registration, address, solve(challenge)), checked: true };
  }

  const pcnFor = (registration: string): Promise<NewPcn> =>
    createPcnViaApi(t, officer.token, carParkId, { vehicleRegistration: registration });

  it('N2: ten wrong registrations from ten addresses do not lock the motorist out: the right pair from an eleventh succeeds', async () => {
    const pcn = await pcnFor('NL11OCK');
    const limit = CHARGE_LOOKUP_FAILURES_PER_REFERENCE.limit;
    for (let i = 0; i < limit; i++) {
      const res = await lookUp(pcn.pcnNumber, `GUESS${i}`, `192.0.2.${i + 10}`);
      expect(res.status).toBe(404);
      expect(res.json.message).toBe(CHARGE_NOT_FOUND);
    }

    const { res, checked } = await lookUpAsThePage(`PCN-${pcn.pcnNumber}`, 'nl11 ock', '192.0.2.99');
    expect(res.status, res.text).toBe(200);
    expect((res.json.data as ChargeLookupResponse).charge.reference).toBe(`PCN-${pcn.pcnNumber}`);
    // The reference's guessing is not free any more: the page did a check first.
    expect(checked).toBe(true);

    // A further guess is not even compared without the check: the existing 429, and the challenge.
    const unchecked = await lookUp(pcn.pcnNumber, 'GUESS99', '192.0.2.98');
    expect(unchecked.status).toBe(429);
    expect(unchecked.json).toMatchObject({ code: 'RATE_LIMITED', message: SERVER_MESSAGES.chargeLookupCheckNeeded });
    expect(Number(unchecked.headers.get('retry-after'))).toBeGreaterThan(0);
    const challenge = unchecked.headers.get(LOOKUP_CHALLENGE_HEADER)!;
    expect(lookupChallengeBits(challenge)).toBeGreaterThanOrEqual(12);
    // With the check done it is compared, and wrong; the same check cannot be spent twice.
    const proof = solve(challenge);
    expect((await lookUp(pcn.pcnNumber, 'GUESS99', '192.0.2.98', proof)).status).toBe(404);
    const replayed = await lookUp(pcn.pcnNumber, 'GUESS99', '192.0.2.98', proof);
    expect(replayed.status).toBe(429);
    expect(replayed.headers.get(LOOKUP_CHALLENGE_HEADER)).toBeTruthy();
    // A check is for the pair it was given for: it does not open another registration.
    const other = await lookUp(pcn.pcnNumber, 'GUESS98', '192.0.2.97');
    const forOther = solve(other.headers.get(LOOKUP_CHALLENGE_HEADER)!);
    expect((await lookUp(pcn.pcnNumber, 'NL11OCK', '192.0.2.97', forOther)).status).toBe(429);
    // And the motorist still gets in, again and again.
    expect((await lookUpAsThePage(pcn.pcnNumber, 'NL11OCK', '192.0.2.96')).res.status).toBe(200);
  });

  it('N3: walking 50 references with one registration from several addresses is refused, and the owner still gets in', async () => {
    const owned = await pcnFor('WA11LKR');
    // The walk: sequential references around the owner's, ten from each of five addresses, with the plate right.
    const start = Number(owned.pcnNumber) + 1000;
    const answers: TestResponse[] = [];
    for (let i = 0; i < 50; i++) {
      answers.push(await lookUp(String(start + i).padStart(8, '0'), 'WA11LKR', `198.51.100.${(i % 5) + 1}`));
    }
    const compared = answers.filter((res) => res.status === 404);
    const refused = answers.filter((res) => res.status === 429);
    // Only the registration's free wrong tries were compared; every later one needed work first.
    expect(compared).toHaveLength(CHARGE_LOOKUP_FAILURES_PER_REGISTRATION.limit);
    expect(refused).toHaveLength(50 - CHARGE_LOOKUP_FAILURES_PER_REGISTRATION.limit);
    for (const res of refused) {
      expect(res.json.code).toBe('RATE_LIMITED');
      expect(res.headers.get(LOOKUP_CHALLENGE_HEADER)).toBeTruthy();
    }
    // The work grows as the walk goes on (each wrong one with the check done counts too).
    const firstBits = lookupChallengeBits(refused[0]!.headers.get(LOOKUP_CHALLENGE_HEADER)!)!;
    for (let i = 0; i < 3 * CHARGE_LOOKUP_FAILURES_PER_REGISTRATION.limit; i++) {
      const { res } = await lookUpAsThePage(String(start + 100 + i).padStart(8, '0'), 'WA11LKR', `198.51.100.${(i % 5) + 10}`);
      expect(res.status).toBe(404);
    }
    const later = await lookUp(String(start + 200).padStart(8, '0'), 'WA11LKR', '198.51.100.30');
    expect(lookupChallengeBits(later.headers.get(LOOKUP_CHALLENGE_HEADER)!)!).toBeGreaterThan(firstBits);

    // The owner, from home, with the right pair: in, after the page's check.
    const { res } = await lookUpAsThePage(`PCN-${owned.pcnNumber}`, 'WA11LKR', '203.0.113.50');
    expect(res.status, res.text).toBe(200);
    expect((res.json.data as ChargeLookupResponse).charge.vehicleRegistration).toBe('WA11LKR');
  });

  it('a family makes three typos and then gets the right pair in, with no check; a fourth, fifth and sixth only ask for one', async () => {
    const pcn = await pcnFor('FA11MLY');
    const home = '203.0.113.77';
    for (const [reference, registration] of [
      [pcn.pcnNumber, 'FA11MLV'],
      [String(Number(pcn.pcnNumber) + 1), 'FA11MLY'],
      [pcn.pcnNumber, 'FA1IMLY'],
    ] as const) {
      const res = await lookUp(reference, registration, home);
      expect(res.status).toBe(404);
      expect(res.json.message).toBe(CHARGE_NOT_FOUND);
    }
    const right = await lookUp(`PCN-${pcn.pcnNumber}`, 'fa11 mly', home);
    expect(right.status, right.text).toBe(200);

    // More typos from the one address: never locked, only asked for the check.
    for (let i = 0; i < CHARGE_LOOKUP_FAILURES_PER_ADDRESS.limit; i++) await lookUpAsThePage(pcn.pcnNumber, `FA11ML${i}`, home);
    const { res, checked } = await lookUpAsThePage(pcn.pcnNumber, 'FA11MLY', home);
    expect(res.status).toBe(200);
    expect(checked).toBe(true);
  });

  it('counts an IPv6 client by its /64, however many of its addresses it uses', async () => {
    const pcn = await pcnFor('SI64XTY');
    for (let i = 0; i < CHARGE_LOOKUP_FAILURES_PER_ADDRESS.limit; i++) {
      const res = await lookUp(String(Number(pcn.pcnNumber) + 500 + i), `SI64X${i}`, `2001:db8:64:1::${(i + 1).toString(16)}`);
      expect(res.status).toBe(404);
    }
    // A fresh address of the same /64, a fresh reference and a fresh registration: still asked for work.
    const next = await lookUp(String(Number(pcn.pcnNumber) + 600), 'SI64XZZ', '2001:db8:64:1:ffff:ffff:ffff:ffff');
    expect(next.status).toBe(429);
    expect(next.headers.get(LOOKUP_CHALLENGE_HEADER)).toBeTruthy();
    // Another /64 is another client.
    expect((await lookUp(String(Number(pcn.pcnNumber) + 601), 'SI64XZY', '2001:db8:64:2::1')).status).toBe(404);
  });

  it('keeps the one hard limit, every lookup from one address, right or wrong, with the existing 429', async () => {
    const pcn = await pcnFor('VO11UME');
    let limited: TestResponse | null = null;
    for (let i = 0; i <= CHARGE_LOOKUPS_PER_ADDRESS.limit && !limited; i++) {
      const { res } = await lookUpAsThePage(pcn.pcnNumber, 'VO11UME', '203.0.113.200');
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(200);
    }
    // No check opens it: only the address's own lookups spent it, and it says when to come back.
    expect(limited?.json).toMatchObject({ code: 'RATE_LIMITED', message: CHARGE_LOOKUP_LIMITED });
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(limited?.headers.get(LOOKUP_CHALLENGE_HEADER)).toBeNull();
    // Another address is not held up by it.
    expect((await lookUpAsThePage(pcn.pcnNumber, 'VO11UME', '203.0.113.201')).res.status).toBe(200);
  });
});
