import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Appeal, AppealListResponse, AppealSubmitted, AppealWithdrawal, PcnAuditResponse, PublicCharge } from '@parkpatrol/shared';
import { appealForm, chargeToken, enterAppeal, enteredAppealForm } from './support/appeals.ts';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { createPcnViaApi, type NewPcn } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * The motorist withdraws their appeal from /charge (decision 0044): only an appeal awaiting a
 * decision, only with the email it gave, once; the hold ends and the charge reads as it would
 * have without it, the reduced amount kept 14 days where the appeal held it while it applied;
 * audited, emailed, and shown to admins as withdrawn.
 */
describe('withdrawing an appeal', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  // Noon on Wednesday 4 February 2026.
  const NOW = Date.parse('2026-02-04T12:00:00.000Z');
  const DAY = 86_400_000;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A ticket fixed on 1 February 2026: £60 until 15 February, £100 after. */
  const charge = (registration: string) =>
    createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: registration,
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
  const bearer = (pcn: Pick<NewPcn, 'id'>) => ({ authorization: `Bearer ${chargeToken(t, pcn.id)}` });
  const seen = async (pcn: Pick<NewPcn, 'id'>) =>
    (await t.request('GET', '/public/charges/current', { headers: bearer(pcn) })).json.data as PublicCharge;
  const withdraw = (pcn: Pick<NewPcn, 'id'>, email = 'dana@example.com') =>
    t.request('POST', '/public/charges/current/appeal/withdraw', { headers: bearer(pcn), json: { email } });
  const appealed = async (pcn: Pick<NewPcn, 'id'>, fields: Record<string, string> = {}) => {
    const sent = await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm(fields));
    expect(sent.status, sent.text).toBe(201);
    return (sent.json.data as AppealSubmitted).reference;
  };
  const auditOf = async (pcnId: string, token: string) =>
    ((await t.request('GET', `/pcns/${pcnId}/audit`, { token })).json.data as PcnAuditResponse).entries;

  it('ends the hold, keeps the reduced amount 14 days when the appeal held it, and is audited, emailed and shown as withdrawn', async () => {
    const pcn = await charge('WD12AAA');
    const reference = await appealed(pcn);
    const statusBefore = (await t.db.selectFrom('pcns').select('status').where('id', '=', pcn.id).executeTakeFirstOrThrow()).status;

    // Three weeks on the discount would have ended on 15 February; on hold, it still shows.
    t.clock.frozenAtMs = NOW + 21 * DAY;
    try {
      const handler = await t.signedInUser('ADMIN');
      const held = await seen(pcn);
      expect(held).toMatchObject({ onHold: true, amountDuePence: 6000, appeal: { status: 'OPEN', withdrawnAt: null } });
      // What the page's confirm step tells: due from today, the reduced amount until 11 March (25 February + 14).
      expect(held.ifAppealWithdrawn).toEqual({ amountDuePence: 6000, reduced: { amountPence: 6000, until: '2026-03-11' } });

      // The windscreen's details open the page to anyone: the appeal's own email is asked for.
      const wrong = await withdraw(pcn, 'someone@example.com');
      expect(wrong.status).toBe(400);
      expect(wrong.json.details).toEqual({ email: 'This is not the email address your appeal gave. Enter that one.' });
      expect((await seen(pcn)).appeal?.status).toBe('OPEN');

      const withdrawn = await withdraw(pcn, '  Dana@Example.com ');
      expect(withdrawn.status, withdrawn.text).toBe(200);
      expect(withdrawn.json.data as AppealWithdrawal).toEqual({ reference, withdrawnAt: '2026-02-25T12:00:00.000Z' });

      const after = await seen(pcn);
      expect(after).toMatchObject({
        onHold: false,
        state: 'OUTSTANDING',
        amountDuePence: 6000,
        reduced: { amountPence: 6000, until: '2026-03-11' },
        ifAppealWithdrawn: null,
        appeal: { reference, status: 'WITHDRAWN', withdrawnAt: '2026-02-25T12:00:00.000Z', decidedAt: null, reasons: null },
      });
      // The charge's status is where it was: an appeal never moved it.
      const row = await t.db.selectFrom('pcns').select('status').where('id', '=', pcn.id).executeTakeFirstOrThrow();
      expect(row.status).toBe(statusBefore);
      const stored = await t.db.selectFrom('appeals').selectAll().where('pcn_id', '=', pcn.id).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ status: 'WITHDRAWN', withdrawn_at: '2026-02-25T12:00:00.000Z', reduced_held_until: '2026-03-11' });

      // On the audit trail, by the appellant.
      const entry = (await auditOf(pcn.id, handler.token)).find((e) => e.action === 'appeal_withdrawn');
      expect(entry?.actorName).toBe('Dana Driver (appellant)');
      expect(entry?.changes).toEqual({
        appeal: { from: null, to: reference },
        status: { from: 'OPEN', to: 'WITHDRAWN' },
        reducedHeldUntil: { from: null, to: '2026-03-11' },
      });

      // The motorist's written record.
      const mail = await t.latestMailText('dana@example.com', 'appeal-withdrawn', `Appeal ${reference} withdrawn`);
      expect(mail).toContain(`You withdrew your appeal ${reference}`);
      expect(mail).toContain('£60 is now due, the reduced amount, until 11 Mar 2026.');

      // Admins see it withdrawn, in the queue's own filter and on the appeal, with no decision to make.
      const queue = (await t.request('GET', '/appeals?status=WITHDRAWN&page=1&limit=50', { token: handler.token })).json
        .data as AppealListResponse;
      const item = queue.items.find((i) => i.reference === reference);
      expect(item?.status).toBe('WITHDRAWN');
      const appeal = (await t.request('GET', `/appeals/${item!.id}`, { token: handler.token })).json.data as Appeal;
      expect(appeal).toMatchObject({
        status: 'WITHDRAWN',
        decision: null,
        withdrawal: { withdrawnAt: '2026-02-25T12:00:00.000Z', reducedHeldUntil: '2026-03-11' },
      });
      const decide = await t.request('POST', `/appeals/${item!.id}/decision`, {
        token: handler.token,
        json: { outcome: 'REJECTED', reasons: 'Too late: it was withdrawn.' },
      });
      expect(decide.status).toBe(409);

      // Withdrawn once; the charge's one appeal stays it, so no second one is taken.
      const again = await withdraw(pcn);
      expect(again.status).toBe(409);
      expect(again.json.message).toBe('This appeal has already been withdrawn.');
      const second = await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm());
      expect(second.status).toBe(409);
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });

  it('gives back nothing the discount had not given: an appeal made after it ended leaves the full charge due', async () => {
    const pcn = await charge('WD12BBB');
    // 20 February: the discount ended on 15 February.
    t.clock.frozenAtMs = NOW + 16 * DAY;
    try {
      await appealed(pcn);
      expect((await seen(pcn)).ifAppealWithdrawn).toEqual({ amountDuePence: 10_000, reduced: null });
      expect((await withdraw(pcn)).status).toBe(200);
      expect(await seen(pcn)).toMatchObject({ onHold: false, amountDuePence: 10_000, reduced: null });
      const stored = await t.db.selectFrom('appeals').select('reduced_held_until').where('pcn_id', '=', pcn.id).executeTakeFirstOrThrow();
      expect(stored.reduced_held_until).toBeNull();
      // The audit entry names no held rate.
      const entry = (await auditOf(pcn.id, (await t.signedInUser('ADMIN')).token)).find((e) => e.action === 'appeal_withdrawn');
      expect(Object.keys(entry!.changes)).toEqual(['appeal', 'status']);
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });

  it('refuses a decided appeal (409), a charge with none (404), and an appeal by post that gave no email (409)', async () => {
    const decided = await charge('WD12CCC');
    const reference = await appealed(decided);
    const list = (await t.request('GET', `/appeals?search=${reference}`, { token: admin.token })).json.data as AppealListResponse;
    const rejected = await t.request('POST', `/appeals/${list.items[0]!.id}/decision`, {
      token: admin.token,
      json: { outcome: 'REJECTED', reasons: 'The permit had expired.' },
    });
    expect(rejected.status, rejected.text).toBe(200);
    const late = await withdraw(decided);
    expect(late.status).toBe(409);
    expect(late.json.message).toBe('This appeal has already been decided, so it can no longer be withdrawn.');
    expect((await seen(decided)).appeal?.status).toBe('REJECTED');

    const none = await withdraw(await charge('WD12DDD'));
    expect(none.status).toBe(404);
    expect(none.json.message).toBe('This charge has no appeal to withdraw.');

    const byPost = await charge('WD12EEE');
    const entered = await enterAppeal(t, admin.token, enteredAppealForm({ pcnId: byPost.id, receivedOn: '2026-02-03', email: '' }));
    expect(entered.status, entered.text).toBe(201);
    const noEmail = await withdraw(byPost);
    expect(noEmail.status).toBe(409);
    expect(noEmail.json.message).toContain('Write to us');
    expect((await seen(byPost)).appeal?.status).toBe('OPEN');
  });

  it('counts tries per charge, so the appeal’s email cannot be guessed', async () => {
    const pcn = await charge('WD12FFF');
    await appealed(pcn);
    for (let attempt = 0; attempt < 5; attempt++) expect((await withdraw(pcn, `guess${attempt}@example.com`)).status).toBe(400);
    const limited = await withdraw(pcn);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await seen(pcn)).appeal?.status).toBe('OPEN');
    // An hour on, the motorist withdraws it.
    t.clock.frozenAtMs = NOW + 61 * 60 * 1000;
    try {
      expect((await withdraw(pcn)).status).toBe(200);
    } finally {
      t.clock.frozenAtMs = NOW;
    }
  });
});
