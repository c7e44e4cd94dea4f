import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHARGE_NOT_FOUND,
  LOOKUP_CHALLENGE_HEADER,
  lookupChallengeBits,
  type ChargeLookupResponse,
  type Pcn,
  type PublicCharge,
} from '@parkpatrol/shared';
import {
  CHARGE_LOOKUP_FAILURES_PER_ADDRESS,
  CHARGE_LOOKUP_FAILURES_PER_REFERENCE,
  CHARGE_LOOKUPS_PER_ADDRESS,
} from '../src/workflows/look-up-charge.ts';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { createPcnViaApi, jpegUpload, postPcn, validPcnFields, type NewPcn } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * The motorist's way in: a charge looked up by reference and registration, with no sign-in.
 * The reference is the PCN number, or the draft reference a ticket printed before its notice was
 * sent. A wrong pair gives one answer whichever half is wrong; lookups are limited per address,
 * and wrong ones cost work past a few per address, reference and registration, in the database
 * (security-round-four-lookup.test.ts); the token opens that one charge and nothing else.
 */
describe('POST /public/charges/lookup and GET /public/charges/current', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let pcn: NewPcn;
  beforeAll(async () => {
    // Behind a proxy that names each client, so the test can be many addresses.
    t = await createTestApp({ config: { trustProxy: true } });
    officer = await t.signedInUser('USER', { firstName: 'Otto', lastName: 'Officer' });
    admin = await t.signedInUser('ADMIN');
    const carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
    pcn = await createPcnViaApi(t, officer.token, carParkId);
    await t.request('PATCH', `/pcns/${pcn.id}/status`, {
      token: admin.token,
      json: { status: 'UNDER_REVIEW', adminNotes: 'Internal: check permit list' },
    });
  });
  afterAll(() => t.close());

  const lookUp = (reference: string, registration: string, address = '203.0.113.7') =>
    t.request('POST', '/public/charges/lookup', { json: { reference, registration }, headers: { 'x-forwarded-for': address } });

  it('finds the charge with or without the PCN- prefix, spaces and case ignored, and shows no officer or notes', async () => {
    for (const [reference, registration] of [
      [`PCN-${pcn.pcnNumber}`, 'AB12 CDE'],
      [pcn.pcnNumber, 'ab12cde'],
      [`pcn ${Number(pcn.pcnNumber)}`, ' a b 1 2 c d e '],
    ] as const) {
      const res = await lookUp(reference, registration);
      expect(res.status, `${reference} ${registration}: ${res.text}`).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    const res = await lookUp(`PCN-${pcn.pcnNumber}`, 'AB12CDE');
    const { charge, accessToken } = res.json.data as ChargeLookupResponse;
    expect(charge).toMatchObject({
      reference: `PCN-${pcn.pcnNumber}`,
      vehicleRegistration: 'AB12CDE',
      carPark: { name: 'Riverside Retail Park' },
      contravention: 'Parking without permit',
      state: 'OUTSTANDING',
      chargePence: 10000,
      amountDuePence: 6000,
      reduced: { amountPence: 6000 },
      creditor: { name: 'ParkPatrol Parking Ltd' },
      appealsService: { service: 'POPLA' },
    });
    expect(charge.reduced!.until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Both run from the notice to driver: 14 days for the discount, 28 to appeal.
    const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
    expect(days(charge.reduced!.until!, charge.appealUntil!)).toBe(14);
    const text = JSON.stringify(res.json);
    for (const secret of ['Otto', 'Officer', 'Internal: check permit list', officer.id]) expect(text).not.toContain(secret);

    // The token opens the charge, and its photos, for this charge only.
    const current = await t.request('GET', '/public/charges/current', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(current.status).toBe(200);
    const seen = current.json.data as PublicCharge;
    expect(seen.photos).toHaveLength(2);
    const photo = await t.app.request(seen.photos[0]!.url);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    // A photo URL of one charge does not open another charge's photo.
    const other = await createPcnViaApi(t, officer.token, pcn.carParkId, { vehicleRegistration: 'XY99ZZZ' });
    const foreign = seen.photos[0]!.url.replace(encodeURIComponent(pcn.images[0]!.fileName), encodeURIComponent(other.images[0]!.fileName));
    expect((await t.app.request(foreign)).status).toBe(404);
    // A charge token is no staff token, and a staff token is no charge token.
    expect((await t.request('GET', '/pcns', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(401);
    expect((await t.request('GET', '/public/charges/current', { token: officer.token })).status).toBe(401);
  });

  it('answers a wrong reference and a wrong registration the same way', async () => {
    const wrongRegistration = await lookUp(`PCN-${pcn.pcnNumber}`, 'ZZ99ZZZ', '198.51.100.1');
    const wrongReference = await lookUp('PCN-99999999', 'AB12CDE', '198.51.100.2');
    const notOurs = await lookUp('hello', 'AB12CDE', '198.51.100.3');
    for (const res of [wrongRegistration, wrongReference, notOurs]) {
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ success: false, code: 'NOT_FOUND', message: CHARGE_NOT_FOUND, error: CHARGE_NOT_FOUND });
    }
  });

  it('limits wrong guesses at one reference from many addresses, and every lookup from one address', async () => {
    const target = await createPcnViaApi(t, officer.token, pcn.carParkId, { vehicleRegistration: 'LM11MMM' });
    // Concurrent guesses, each from its own address.
    const guesses = await Promise.all(
      Array.from({ length: CHARGE_LOOKUP_FAILURES_PER_REFERENCE.limit }, (_, i) =>
        lookUp(target.pcnNumber, `GUESS${i}`, `192.0.2.${i + 10}`),
      ),
    );
    expect(guesses.every((res) => res.status === 404)).toBe(true);
    // Past them every lookup of the reference must show some work first, the right pair's too,
    // and with it the right pair is never refused (security-round-four-lookup.test.ts).
    const limited = await lookUp(target.pcnNumber, 'LM11MMM', '192.0.2.200');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(lookupChallengeBits(limited.headers.get(LOOKUP_CHALLENGE_HEADER) ?? '')).toBeGreaterThan(0);

    const flooded = await Promise.all(
      Array.from({ length: CHARGE_LOOKUPS_PER_ADDRESS.limit + 5 }, (_, i) =>
        lookUp(`PCN-${String(i).padStart(8, '7')}`, 'AB12CDE', '192.0.2.99'),
      ),
    );
    // Five over the address's limit are refused outright; of the rest, sent side by side, no more
    // wrong ones are compared than the address's free tries, and the others are asked for work.
    expect(flooded.filter((res) => res.status === 429 && !res.headers.get(LOOKUP_CHALLENGE_HEADER))).toHaveLength(5);
    expect(flooded.filter((res) => res.status === 404).length).toBeLessThanOrEqual(CHARGE_LOOKUP_FAILURES_PER_ADDRESS.limit);
  });

  /** A notice filed by the officer's phone under its draft's id (the Idempotency-Key), as a ticket printed with no signal names it. */
  async function fileUnderDraft(draftId: string, registration: string, servedBy = 'AFFIXED'): Promise<Pcn> {
    const res = await postPcn(
      t,
      officer.token,
      { ...validPcnFields(pcn.carParkId), vehicleRegistration: registration, noticeServedBy: servedBy, images: [jpegUpload(3)] },
      draftId,
    );
    if (res.status !== 201) throw new Error(`filing failed: ${res.status} ${res.text}`);
    return res.json.data as Pcn;
  }
  const draftIdStarting = (first8: string) => `${first8}-${randomUUID().slice(9)}`;

  it("finds a charge by its ticket's draft reference, however it is typed, and shows both references", async () => {
    const filed = await fileUnderDraft(draftIdStarting('1a2b3c4d'), 'DR11AFT');
    for (const reference of ['D-1A2B3C4D', 'd-1a2b3c4d', 'D 1A2B 3C4D', 'D1A2B3C4D']) {
      const res = await lookUp(reference, 'dr11 aft', '198.51.100.20');
      expect(res.status, `${reference}: ${res.text}`).toBe(200);
      expect((res.json.data as ChargeLookupResponse).charge).toMatchObject({
        reference: `PCN-${filed.pcnNumber}`,
        draftReference: 'D-1A2B3C4D',
        vehicleRegistration: 'DR11AFT',
      });
    }
    // The PCN number finds it still, and says the same.
    const byNumber = await lookUp(`PCN-${filed.pcnNumber}`, 'DR11AFT', '198.51.100.20');
    expect(byNumber.status).toBe(200);
    expect((byNumber.json.data as ChargeLookupResponse).charge.draftReference).toBe('D-1A2B3C4D');
    // A drive-off's motorist was given no ticket, so the page names none.
    const driveOff = await fileUnderDraft(randomUUID(), 'DR22OFF', 'DRIVE_OFF');
    const noTicket = await lookUp(`PCN-${driveOff.pcnNumber}`, 'DR22OFF', '198.51.100.20');
    expect((noTicket.json.data as ChargeLookupResponse).charge.draftReference).toBeNull();
  });

  it('tells two notices sharing a draft reference apart by the registration, and never says which half was wrong', async () => {
    const first = await fileUnderDraft(draftIdStarting('5eed5eed'), 'SH11ARE');
    const second = await fileUnderDraft(draftIdStarting('5eed5eed'), 'SH22ARE');
    for (const [registration, filed] of [
      ['SH11ARE', first],
      ['sh22 are', second],
    ] as const) {
      const res = await lookUp('D-5EED5EED', registration, '198.51.100.21');
      expect(res.status, res.text).toBe(200);
      expect((res.json.data as ChargeLookupResponse).charge.reference).toBe(`PCN-${filed.pcnNumber}`);
    }
    const wrongRegistration = await lookUp('D-5EED5EED', 'ZZ99ZZZ', '198.51.100.22');
    const wrongReference = await lookUp('D-0BADF00D', 'SH11ARE', '198.51.100.23');
    for (const res of [wrongRegistration, wrongReference]) {
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ success: false, code: 'NOT_FOUND', message: CHARGE_NOT_FOUND, error: CHARGE_NOT_FOUND });
    }
  });

  it('counts wrong registrations against a draft reference however it is typed, as against a number', async () => {
    await fileUnderDraft(draftIdStarting('cafe0123'), 'LM22NNN');
    const spellings = ['D-CAFE0123', 'd-cafe0123', 'D CAFE 0123', 'dcafe0123'];
    const guesses = await Promise.all(
      Array.from({ length: CHARGE_LOOKUP_FAILURES_PER_REFERENCE.limit }, (_, i) =>
        lookUp(spellings[i % spellings.length]!, `GUESS${i}`, `192.0.2.${i + 120}`),
      ),
    );
    expect(guesses.every((res) => res.status === 404)).toBe(true);
    expect(guesses[0]!.json.message).toBe(CHARGE_NOT_FOUND);
    // The right pair must show some work now too, from a new address, as must every spelling.
    for (const spelling of spellings) {
      const limited = await lookUp(spelling, 'LM22NNN', '192.0.2.201');
      expect(limited.status).toBe(429);
      expect(limited.headers.get(LOOKUP_CHALLENGE_HEADER)).toBeTruthy();
    }
  });
});
