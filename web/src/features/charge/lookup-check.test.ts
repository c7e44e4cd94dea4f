import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasLeadingZeroBits } from '@parkpatrol/shared';
import { solveLookupChallenge } from './lookup-check.ts';

describe('solveLookupChallenge', () => {
  it('finds the first proof whose SHA-256 starts with the zero bits the challenge demands, whatever its length', async () => {
    // Tails of one block and of two, and a challenge longer than a block.
    for (const challenge of ['12.1.A', '12.1764345600.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', `12.${'C'.repeat(120)}`]) {
      const proof = await solveLookupChallenge(challenge);
      expect(proof.startsWith(`${challenge}:`)).toBe(true);
      expect(hasLeadingZeroBits(createHash('sha256').update(proof).digest(), 12)).toBe(true);
      const nonce = Number(proof.slice(challenge.length + 1));
      for (let n = 0; n < nonce; n++) {
        expect(hasLeadingZeroBits(createHash('sha256').update(`${challenge}:${n}`).digest(), 12)).toBe(false);
      }
    }
  });

  it("does the most work the server asks for (2^18) in well under a phone's patience", async () => {
    const started = performance.now();
    const proof = await solveLookupChallenge('18.1764345600.DDDDDDDDDDDDDDDD.EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE');
    expect(hasLeadingZeroBits(createHash('sha256').update(proof).digest(), 18)).toBe(true);
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 20_000);

  it('refuses what is not a challenge', async () => {
    await expect(solveLookupChallenge('<html>')).rejects.toThrow();
  });
});
