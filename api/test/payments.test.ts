import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type ChargeLookupResponse, type Pcn, type PcnAuditResponse } from '@parkpatrol/shared';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { createPcnViaApi } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/** Payments recorded by an admin: kept one by one, the charge PAID once they meet what was due that day. */
describe('POST /pcns/{id}/payments', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  // Noon on Wednesday 4 February 2026.
  const NOW = Date.parse('2026-02-04T12:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Pam', lastName: 'Payments' });
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  const pay = (id: string, json: object) =>
    t.request('POST', `/pcns/${id}/payments`, { token: admin.token, json, headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() } });
  const motoristSees = async (pcn: Pcn) => {
    const res = await t.request('POST', '/public/charges/lookup', {
      json: { reference: pcn.pcnNumber, registration: pcn.vehicleRegistration },
    });
    return (res.json.data as ChargeLookupResponse).charge;
  };

  it('keeps part payments, and marks the charge paid when the reduced amount is met within its days', async () => {
    // A ticket fixed on 1 February: £60 if paid by 15 February, then £100.
    const pcn = await createPcnViaApi(t, officer.token, carParkId, {
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
    const part = await pay(pcn.id, { amountPence: 2500, paidOn: '2026-02-02', method: 'CARD', reference: 'TXN-1' });
    expect(part.status, part.text).toBe(200);
    expect((part.json.data as Pcn).status).toBe('SUBMITTED');
    expect((part.json.data as Pcn).payments).toMatchObject({
      paidPence: 2500,
      payments: [{ amountPence: 2500, method: 'CARD', recordedBy: 'Pam Payments' }],
    });
    expect(await motoristSees(pcn)).toMatchObject({ state: 'OUTSTANDING', paidPence: 2500, amountDuePence: 3500 });

    const rest = await pay(pcn.id, { amountPence: 3500, paidOn: '2026-02-04', method: 'BANK_TRANSFER' });
    const paid = rest.json.data as Pcn;
    expect(paid.status).toBe('PAID');
    expect(paid.statusHistory!.at(-1)).toMatchObject({
      toStatus: 'PAID',
      note: 'Paid in full: £60 received, the last £35 by bank transfer on 4 Feb 2026',
    });
    expect(await motoristSees(pcn)).toMatchObject({ state: 'PAID', amountDuePence: 0, paidPence: 6000 });
    const audit = (await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.filter((entry) => entry.action === 'payment_recorded')).toHaveLength(2);
    // Paid is paid: a further payment is refused, and nothing is recorded.
    expect((await pay(pcn.id, { amountPence: 100, paidOn: '2026-02-04', method: 'CASH' })).status).toBe(409);
  });

  it('wants the full charge once the reduced amount has lapsed, and refuses a cancelled charge', async () => {
    // Fixed on 1 January: the reduction ended on 15 January.
    const pcn = await createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: 'LT12LTE',
      observedAt: '2026-01-01T10:00:00.000Z',
      issuedAt: '2026-01-01T10:00:00.000Z',
      noticeServedAt: '2026-01-01T10:00:00.000Z',
    });
    const sixty = await pay(pcn.id, { amountPence: 6000, paidOn: '2026-02-03', method: 'CHEQUE', reference: 'CHQ 001' });
    expect((sixty.json.data as Pcn).status).toBe('SUBMITTED');
    expect(await motoristSees(pcn)).toMatchObject({ amountDuePence: 4000, reduced: null });

    const cancelled = await createPcnViaApi(t, officer.token, carParkId, { vehicleRegistration: 'CX12CCC' });
    await t.request('PATCH', `/pcns/${cancelled.id}/status`, {
      token: admin.token,
      json: { status: 'CANCELLED', cancellationReason: 'OPERATOR_ERROR' },
    });
    const refused = await pay(cancelled.id, { amountPence: 6000, paidOn: '2026-02-03', method: 'CARD' });
    expect(refused.status).toBe(409);
  });

  it('refuses a payment that is not one', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, { vehicleRegistration: 'BD12BAD' });
    expect((await pay(pcn.id, { amountPence: 0, paidOn: '2026-02-03', method: 'CARD' })).json.details).toEqual({
      amountPence: 'Enter the amount paid',
    });
    expect((await pay(pcn.id, { amountPence: 100, paidOn: '2026-02-30', method: 'CARD' })).json.details).toEqual({
      paidOn: 'Give a real date',
    });
    expect((await pay(pcn.id, { amountPence: 100, paidOn: '2026-02-03', method: 'BITCOIN' })).json.details).toEqual({
      method: 'Choose how it was paid',
    });
  });
});
