import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type AppealListResponse, type AppealSubmitted } from '@parkpatrol/shared';
import { appealForm, chargeToken, enterAppeal, enteredAppealForm } from './support/appeals.ts';
import { termsSinceLongAgo } from './support/keeper-notices.ts';
import { createPcnViaApi } from './fixtures.ts';
import { startSmtpTestServer } from './smtp-test-server.ts';
import { freePort } from '../../scripts/test-support.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * A motorist's emails about an appeal (its confirmation link, its receipt, its withdrawal, its
 * decision with the letter) are jobs: the request answers once the change is stored, before the mail server is asked, and a
 * mail server that refuses costs neither the appeal nor the email, which is tried again.
 */
describe("the motorist's appeal emails, as jobs", () => {
  const NOW = Date.parse('2026-02-04T12:00:00.000Z');
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    t = await createTestApp({ smtpUrl: smtp.url, mailbox: smtp, jobsWaitForTest: true });
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const charge = (registration: string) =>
    createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration: registration,
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
  const mailTo = (address: string) => smtp.messages.filter((m) => JSON.stringify(m.to).includes(address));

  it('answers the appeal before its emails, which the queue then sends, the decision letter attached', async () => {
    const pcn = await charge('EM12AAA');
    const key = randomUUID();
    const filed = await t.request('POST', '/public/charges/current/appeal', {
      body: appealForm({ email: 'erin@example.com' }),
      headers: { authorization: `Bearer ${chargeToken(t, pcn.id)}`, [IDEMPOTENCY_KEY_HEADER]: key },
    });
    expect(filed.status, filed.text).toBe(202);
    // Stored, answered, and not yet emailed: the confirmation's link is minted when its job sends it.
    expect(mailTo('erin@example.com')).toEqual([]);
    const minted = await t.db.selectFrom('pending_appeals').select('token_hash').where('pcn_id', '=', pcn.id).executeTakeFirstOrThrow();

    await t.workJobs();
    await expect.poll(() => mailTo('erin@example.com').map((m) => m.subject)).toEqual([expect.stringMatching(/^Confirm your appeal/)]);
    // The link emailed is one the job minted: the one stored at filing was never sent.
    const sentLink = await t.db.selectFrom('pending_appeals').select('token_hash').where('pcn_id', '=', pcn.id).executeTakeFirstOrThrow();
    expect(sentLink.token_hash).not.toBe(minted.token_hash);
    // The same key answers the appeal waiting (no second email); its emailed link confirms it.
    const sent = await t.fileAndConfirmAppeal(chargeToken(t, pcn.id), appealForm({ email: 'erin@example.com' }), key);
    expect(sent.status, sent.text).toBe(201);
    const { reference } = sent.json.data as AppealSubmitted;
    await expect.poll(() => mailTo('erin@example.com').length).toBe(2);
    expect(await t.latestMailText('erin@example.com', 'appeal-received')).toContain(`We have received your appeal ${reference}`);

    const id = ((await t.request('GET', `/appeals?search=${reference}`, { token: admin.token })).json.data as AppealListResponse).items[0]!
      .id;
    const decided = await t.request('POST', `/appeals/${id}/decision`, {
      token: admin.token,
      json: { outcome: 'REJECTED', reasons: 'The signs at the entrance state the terms.' },
    });
    expect(decided.status, decided.text).toBe(200);
    const decision = mailTo('erin@example.com').find((m) => m.subject === `Decision on your appeal ${reference}`);
    expect(decision?.text).toContain('The signs at the entrance state the terms.');
    expect(decision?.attachments.map((file) => file.contentType)).toEqual(['application/pdf']);
    // The letter attached is the one kept as sent, byte for byte.
    const kept = await t.db
      .selectFrom('sent_documents')
      .select('sha256')
      .where('pcn_id', '=', pcn.id)
      .where('kind', '=', 'DECISION_LETTER')
      .executeTakeFirstOrThrow();
    expect(createHash('sha256').update(decision!.attachments[0]!.content).digest('hex')).toBe(kept.sha256);
  });

  it('keeps the appeal when the mail server refuses, and tries the email again', async () => {
    // Nothing listens there: the mailer's connection is refused at once.
    const port = await freePort();
    const offline = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
    try {
      offline.clock.frozenAtMs = NOW;
      const user = await offline.signedInUser('USER');
      const park = (await offline.createCarPark({ name: 'Quayside', assignTo: [user.id] })).id;
      await termsSinceLongAgo(offline, park);
      const pcn = await createPcnViaApi(offline, user.token, park, {
        vehicleRegistration: 'EM12BBB',
        observedAt: '2026-02-01T10:00:00.000Z',
        issuedAt: '2026-02-01T10:00:00.000Z',
        noticeServedAt: '2026-02-01T10:00:00.000Z',
      });
      // Entered by the back office from a letter, so no emailed confirmation stands in the way.
      const form = enteredAppealForm({ pcnId: pcn.id, receivedOn: '2026-02-03', email: 'finn@example.com' });
      const entered = await enterAppeal(offline, (await offline.signedInUser('ADMIN')).token, form);
      expect(entered.status, entered.text).toBe(201);
      expect(await offline.db.selectFrom('appeals').select('status').where('pcn_id', '=', pcn.id).executeTakeFirst()).toEqual({
        status: 'OPEN',
      });
      const tries = () =>
        offline.db
          .selectFrom('emails')
          .select('status')
          .where('purpose', '=', 'appeal-received')
          .where('to_address', '=', 'finn@example.com')
          .execute();
      expect((await tries()).map((row) => row.status)).toEqual(['failed']);
      // The queue's backoff: a second try about two seconds on, refused again, recorded again.
      await expect.poll(async () => (await tries()).length, { timeout: 10_000, interval: 250 }).toBe(2);
    } finally {
      await offline.close();
    }
  });
});
