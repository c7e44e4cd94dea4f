import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHARGE_LOOKUP_LIMITED, CHARGE_NOT_FOUND, hasLeadingZeroBits, LOOKUP_CHALLENGE_HEADER, SERVER_MESSAGES } from '@parkpatrol/shared';
import { ApiError } from '../../lib/api-client.ts';
import { lookupFailureOf, withLookupChecks } from './charge-api.ts';
import { CHARGE_LOOKUP_CHECK_FAILED, CHARGE_MISTYPE_HELP } from './charge-texts.ts';

const CHALLENGE = '12.1764345600.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
const askingForCheck = (challenge = CHALLENGE) =>
  new ApiError(SERVER_MESSAGES.chargeLookupCheckNeeded, {
    status: 429,
    code: 'RATE_LIMITED',
    headers: new Headers({ 'Retry-After': '1', [LOOKUP_CHALLENGE_HEADER]: challenge }),
  });

describe("the motorist's lookup on the page", () => {
  it('does the check the server asks for and sends the lookup again with it, saying so meanwhile', async () => {
    const sent: Array<string | null> = [];
    let told = 0;
    const answer = await withLookupChecks(
      async (proof) => {
        sent.push(proof);
        if (!proof) throw askingForCheck();
        return 'found';
      },
      () => told++,
    );
    expect(answer).toBe('found');
    expect(told).toBe(1);
    expect(sent[0]).toBeNull();
    expect(sent[1]!.startsWith(`${CHALLENGE}:`)).toBe(true);
    expect(hasLeadingZeroBits(createHash('sha256').update(sent[1]!).digest(), 12)).toBe(true);
  });

  it('gives up after two checks, and passes any other failure on as it came', async () => {
    let tries = 0;
    const stillAsking = withLookupChecks(
      async () => {
        tries++;
        throw askingForCheck();
      },
      () => {},
    );
    await expect(stillAsking).rejects.toBeInstanceOf(ApiError);
    expect(tries).toBe(3);
    const notFound = new ApiError(CHARGE_NOT_FOUND, { status: 404 });
    await expect(
      withLookupChecks(
        () => Promise.reject(notFound),
        () => {},
      ),
    ).rejects.toBe(notFound);
  });

  it('says what a mistype means and how long a spent connection waits, in plain words', () => {
    expect(lookupFailureOf(new ApiError(CHARGE_NOT_FOUND, { status: 404 }))).toEqual({
      message: CHARGE_NOT_FOUND,
      help: CHARGE_MISTYPE_HELP,
    });
    const spent = new ApiError(CHARGE_LOOKUP_LIMITED, { status: 429, headers: new Headers({ 'Retry-After': '840' }) });
    expect(lookupFailureOf(spent)).toEqual({
      message: CHARGE_LOOKUP_LIMITED,
      help: 'You can try again in about 14 minutes. What you typed is kept, so you only need to press Find my charge again then.',
    });
    expect(lookupFailureOf(askingForCheck())).toEqual({ message: CHARGE_LOOKUP_CHECK_FAILED, help: null });
  });
});
