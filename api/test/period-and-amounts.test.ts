import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_TIME_HEADER,
  PERIOD_MESSAGES,
  VALIDATION_MESSAGES,
  type AppealListResponse,
  type Pcn,
  type PublicCharge,
} from '@parkpatrol/shared';
import { appealForm, chargeToken } from './support/appeals.ts';
import { letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { readPdfText } from './support/pdf.ts';
import { createPcnViaApi, jpegUpload, pcnForm, validPcnFields, type PcnFormInput } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * The period of parking on the server's clock and the amounts as at each document: one
 * computation of what is due feeds the notice to keeper, /charge and the decision letter; a
 * phone's service or sighting time after the notice reached the server is refused, naming it.
 * The clock stands at noon on Wednesday 4 February 2026.
 */
const NOW = Date.parse('2026-02-04T12:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('the period of parking and the amounts as at each document', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Pat', lastName: 'Period' });
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  const iso = (ms: number) => new Date(ms).toISOString();
  const file = (input: PcnFormInput, headers: Record<string, string> = {}) =>
    t.request('POST', '/pcns', {
      token: officer.token,
      body: pcnForm({ ...validPcnFields(carParkId), images: [jpegUpload(41), jpegUpload(42)], ...input }),
      headers: { 'Idempotency-Key': crypto.randomUUID(), ...headers },
    });
  const pay = (id: string, amountPence: number, paidOn: string) =>
    t.request('POST', `/pcns/${id}/payments`, {
      token: admin.token,
      json: { amountPence, paidOn, method: 'CARD', reference: '' },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });

  it('states a part payment on the notice to keeper: paid and unpaid as at 23:59 on the day before posting', async () => {
    const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId });
    // £25 paid the day before posting counts; £10 paid on the posting day itself does not yet.
    expect((await pay(pcn.id, 2500, '2026-02-03')).status).toBe(200);
    expect((await pay(pcn.id, 1000, '2026-02-04')).status).toBe(200);
    const res = await t.app.request('/api/keeper-notices/letters', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pcnIds: [pcn.id] }),
    });
    expect(res.status).toBe(200);
    const { flat } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(flat).toContain('As at 23:59 on 3 Feb 2026, £25 has been paid and £75 remains unpaid.');
    expect(flat).toContain('We invite you to pay the unpaid parking charge of £75, or,');
    expect(flat).toContain('the amount of the unpaid parking charge (£75) has not been paid in full');
    // The notice to driver's own words are repeated as they were given (8(2)(c)).
    expect(flat).toContain('£100 remains unpaid.');
    expect(flat).toMatch(/Period of parking: from 12:00 to 12:00 on Wednesday 31 December 2025/);
    // The motorist's page today counts both payments, from the same computation.
    const page = await t.request('GET', '/public/charges/current', { headers: { authorization: `Bearer ${chargeToken(t, pcn.id)}` } });
    expect(page.json.data as PublicCharge).toMatchObject({ paidPence: 3500, amountDuePence: 6500, reduced: null });
  });

  it('refuses a service time after receipt, beyond the phone’s measured clock offset, 422 naming noticeServedAt', async () => {
    const monthsLater = await file({ noticeServedAt: iso(NOW + 90 * DAY), issuedAt: iso(NOW - MINUTE) });
    expect(monthsLater.status).toBe(422);
    expect(monthsLater.json.code).toBe('TIME_AFTER_RECEIPT');
    expect(monthsLater.json.details).toEqual({ noticeServedAt: PERIOD_MESSAGES.servedAfterReceipt });

    // A phone three hours slow says so (X-Device-Time): its readings are three hours behind, and
    // one a minute before its own "now" is a minute before receipt.
    const slowPhoneNow = NOW - 3 * HOUR;
    const slow = { [DEVICE_TIME_HEADER]: iso(slowPhoneNow) };
    const fine = await file({ noticeServedAt: iso(slowPhoneNow - MINUTE), issuedAt: iso(slowPhoneNow - MINUTE) }, slow);
    expect(fine.status, fine.text).toBe(201);
    // An hour ahead on that phone's clock is an hour after receipt, whatever the server's clock reads.
    const ahead = await file({ noticeServedAt: iso(slowPhoneNow + HOUR), issuedAt: iso(slowPhoneNow - MINUTE) }, slow);
    expect(ahead.status).toBe(422);
    expect(ahead.json.details).toEqual({ noticeServedAt: PERIOD_MESSAGES.servedAfterReceipt });

    // A sighting after receipt is refused the same way, naming its own field.
    const sighting = await file({ observedAt: iso(NOW + 2 * HOUR), issuedAt: iso(NOW - MINUTE) });
    expect(sighting.status).toBe(422);
    expect(sighting.json.details).toMatchObject({ observedAt: PERIOD_MESSAGES.observedAfterReceipt });
  });

  it('keeps first seen as sent, else the first sighting; refuses it after the service, naming firstSeenAt', async () => {
    const served = iso(NOW - 10 * MINUTE);
    const sent = await file({ firstSeenAt: iso(NOW - 40 * MINUTE), noticeServedAt: served, issuedAt: served });
    expect(sent.status, sent.text).toBe(201);
    expect((sent.json.data as Pcn).firstSeenAt).toBe(iso(NOW - 40 * MINUTE));

    const sighted = await file({ observedAt: iso(NOW - 25 * MINUTE), noticeServedAt: served, issuedAt: served });
    expect((sighted.json.data as Pcn).firstSeenAt).toBe(iso(NOW - 25 * MINUTE));
    // Nothing but the service: the period starts and ends with it.
    const bare = await file({ noticeServedAt: served, issuedAt: served });
    expect((bare.json.data as Pcn).firstSeenAt).toBe(served);

    const after = await file({ firstSeenAt: iso(NOW - 5 * MINUTE), noticeServedAt: served, issuedAt: served });
    expect(after.status).toBe(400);
    expect(after.json.details).toEqual({ firstSeenAt: PERIOD_MESSAGES.firstSeenAfterService });

    // An edit cannot move it past the service either.
    const edit = new FormData();
    edit.append('firstSeenAt', iso(NOW - 1 * MINUTE));
    const edited = await t.request('PUT', `/pcns/${(sent.json.data as Pcn).id}`, { token: officer.token, body: edit });
    expect(edited.status).toBe(400);
    expect(edited.json.details).toEqual({ firstSeenAt: PERIOD_MESSAGES.firstSeenAfterService });
  });

  it("refuses an 'Other' offence without a description, naming the field, on filing and on an edit", async () => {
    const bare = await file({ offenceType: 'OTHER', description: '   ' });
    expect(bare.status).toBe(400);
    expect(bare.json.details).toEqual({ description: VALIDATION_MESSAGES.descriptionRequiredForOther });

    const other = await createPcnViaApi(t, officer.token, carParkId, { offenceType: 'OTHER', description: 'Blocking the gate' });
    const edit = new FormData();
    edit.append('description', '');
    const cleared = await t.request('PUT', `/pcns/${other.id}`, { token: officer.token, body: edit });
    expect(cleared.status).toBe(400);
    expect(cleared.json.details).toEqual({ description: VALIDATION_MESSAGES.descriptionRequiredForOther });
  });

  it('prints the period from first seen and the amount less what was paid on the decision letter', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: 'DL12PER',
      firstSeenAt: '2026-02-01T09:40:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
    const sent = await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm({ reason: 'MITIGATING' }));
    expect(sent.status, sent.text).toBe(201);
    const list = await t.request('GET', `/appeals?search=${sent.json.data.reference as string}`, { token: admin.token });
    const appealId = (list.json.data as AppealListResponse).items[0]!.id;
    expect((await pay(pcn.id, 500, '2026-02-03')).status).toBe(200);
    const decided = await t.request('POST', `/appeals/${appealId}/decision`, {
      token: admin.token,
      json: { outcome: 'ACCEPTED_REDUCED', reasons: 'A first visit.', reducedChargePence: 2000 },
    });
    expect(decided.status, decided.text).toBe(200);
    const letter = await t.app.request(`/api/appeals/${appealId}/letter`, { headers: { authorization: `Bearer ${admin.token}` } });
    const { flat } = await readPdfText(new Uint8Array(await letter.arrayBuffer()));
    expect(flat).toContain('parked from 09:40 to 10:00 on Sunday 1 February 2026');
    expect(flat).toContain('We have reduced the parking charge to £20');
    expect(flat).toContain('The amount now due is £15 (£20, less £5 already paid).');
  });
});
