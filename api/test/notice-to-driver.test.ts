import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES, type Pcn, type PcnAuditResponse } from '@parkpatrol/shared';
import { createTestApp, type Session, type TestApp } from './test-app.ts';
import { jpegUpload, postPcn, validPcnFields } from './fixtures.ts';

/**
 * How the notice to driver was served, recorded with the notice, and the route to keeper
 * liability and posting window the API works out from it (decision 0016).
 */
describe('the notice to driver and the route to the keeper', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carPark: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    officer = await t.signedInUser('USER', { firstName: 'Nia', lastName: 'Notice' });
    admin = await t.signedInUser('ADMIN');
    carPark = await t.createCarPark({ name: 'Service Yard', assignTo: [officer.id] });
  });
  afterAll(() => t.close());

  const file = (fields: Record<string, string | undefined>) =>
    postPcn(t, officer.token, { ...validPcnFields(carPark.id), images: [jpegUpload(7)], ...fields });

  it('refuses a new notice without how it was served, or with a way the law does not know, naming the field', async () => {
    for (const noticeServedBy of [undefined, '', 'WINDSCREEN']) {
      const res = await file({ noticeServedBy });
      expect(res.status, String(noticeServedBy)).toBe(400);
      expect(res.json.details).toEqual({ noticeServedBy: VALIDATION_MESSAGES.noticeServedByRequired });
    }
    const badTime = await file({ noticeServedBy: 'HANDED', noticeServedAt: 'yesterday' });
    expect(badTime.status).toBe(400);
    expect(badTime.json.details).toEqual({ noticeServedAt: VALIDATION_MESSAGES.noticeServedAtInvalid });
  });

  it('keeps a notice handed to the driver, with the time of service, and counts paragraph 8 from it', async () => {
    // Handed over at 23:30 UTC on Friday 19 December 2025: 23:30 in London (GMT), that Friday.
    const res = await file({ noticeServedBy: 'HANDED', noticeServedAt: '2025-12-19T23:30:00.000Z', issuedAt: '2025-12-19T23:29:00.000Z' });
    expect(res.status, res.text).toBe(201);
    const pcn = res.json.data as Pcn;
    expect(pcn.noticeToDriver).toEqual({ servedBy: 'HANDED', servedAt: '2025-12-19T23:30:00.000Z' });
    expect(pcn.keeperNotice).toEqual({
      route: 'PARAGRAPH_8',
      gap: null,
      firstPostingDate: '2026-01-19',
      lastPostingDate: '2026-02-11',
      postedOn: null,
      deemedGivenOn: null,
    });
    // The same facts on every read, for the owner and for an admin.
    for (const session of [officer, admin]) {
      const read = await t.request('GET', `/pcns/${pcn.id}`, { token: session.token });
      expect((read.json.data as Pcn).keeperNotice.route).toBe('PARAGRAPH_8');
    }
    // Audited with the notice's creation.
    const audit = await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token });
    const created = (audit.json.data as PcnAuditResponse).entries.find((entry) => entry.action === 'created')!;
    expect(created.changes).toMatchObject({
      noticeServedBy: { from: null, to: 'HANDED' },
      noticeServedAt: { from: null, to: '2025-12-19T23:30:00.000Z' },
    });
  });

  it('takes the time of issue as the time of service when the device sent none, and a drive-off to paragraph 9', async () => {
    const res = await file({ noticeServedBy: 'DRIVE_OFF', issuedAt: '2025-12-19T10:00:00.000Z' });
    expect(res.status, res.text).toBe(201);
    const pcn = res.json.data as Pcn;
    expect(pcn.noticeToDriver).toEqual({ servedBy: 'DRIVE_OFF', servedAt: '2025-12-19T10:00:00.000Z' });
    expect(pcn.keeperNotice).toMatchObject({ route: 'PARAGRAPH_9', firstPostingDate: '2025-12-22', lastPostingDate: '2025-12-30' });
  });

  it('offers no notice to keeper for land outside England and Wales', async () => {
    const scottish = await t.createCarPark({ name: 'Glasgow Lot', assignTo: [officer.id] });
    await t.db.updateTable('car_parks').set({ jurisdiction: 'SCOTLAND' }).where('id', '=', scottish.id).execute();
    const res = await postPcn(t, officer.token, { ...validPcnFields(scottish.id), images: [jpegUpload(8)], noticeServedBy: 'AFFIXED' });
    expect(res.status, res.text).toBe(201);
    expect((res.json.data as Pcn).keeperNotice).toEqual({
      route: 'NOT_AVAILABLE',
      gap: 'OUTSIDE_ENGLAND_AND_WALES',
      firstPostingDate: null,
      lastPostingDate: null,
      postedOn: null,
      deemedGivenOn: null,
    });
  });

  it('lets the owner correct the service while the notice is submitted, and audits the change', async () => {
    const filed = (await file({ noticeServedBy: 'AFFIXED', issuedAt: '2026-01-31T09:00:00.000Z' })).json.data as Pcn;
    const form = new FormData();
    form.set('noticeServedBy', 'DRIVE_OFF');
    const res = await t.request('PUT', `/pcns/${filed.id}`, { token: officer.token, body: form });
    expect(res.status, res.text).toBe(200);
    expect((res.json.data as Pcn).keeperNotice.route).toBe('PARAGRAPH_9');
    const audit = await t.request('GET', `/pcns/${filed.id}/audit`, { token: admin.token });
    const updated = (audit.json.data as PcnAuditResponse).entries.find((entry) => entry.action === 'updated')!;
    expect(updated.changes).toMatchObject({ noticeServedBy: { from: 'AFFIXED', to: 'DRIVE_OFF' } });
  });

  it("needs an admin's reason to correct the service, and keeps it in the audit entry of the change", async () => {
    const filed = (await file({ noticeServedBy: 'DRIVE_OFF', issuedAt: '2026-01-31T09:00:00.000Z' })).json.data as Pcn;
    const correct = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      return t.request('PUT', `/pcns/${filed.id}`, { token: admin.token, body: form });
    };
    const without = await correct({ noticeServedBy: 'AFFIXED', noticeServedAt: '2026-01-31T09:02:00.000Z' });
    expect(without.status).toBe(400);
    expect(without.json.details).toEqual({ serviceCorrectionReason: VALIDATION_MESSAGES.serviceCorrectionReasonRequired });
    expect(((await t.request('GET', `/pcns/${filed.id}`, { token: admin.token })).json.data as Pcn).noticeToDriver?.servedBy).toBe(
      'DRIVE_OFF',
    );

    const reason = 'The photos show the ticket on the windscreen';
    const withReason = await correct({
      noticeServedBy: 'AFFIXED',
      noticeServedAt: '2026-01-31T09:02:00.000Z',
      serviceCorrectionReason: reason,
    });
    expect(withReason.status, withReason.text).toBe(200);
    expect((withReason.json.data as Pcn).keeperNotice).toMatchObject({ route: 'PARAGRAPH_8', firstPostingDate: '2026-03-02' });
    const audit = await t.request('GET', `/pcns/${filed.id}/audit`, { token: admin.token });
    const updated = (audit.json.data as PcnAuditResponse).entries.filter((entry) => entry.action === 'updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.changes).toEqual({
      noticeServedBy: { from: 'DRIVE_OFF', to: 'AFFIXED' },
      noticeServedAt: { from: '2026-01-31T09:00:00.000Z', to: '2026-01-31T09:02:00.000Z' },
      serviceCorrectionReason: { from: null, to: reason },
    });
    // Other fields an admin edits need no reason.
    const described = await correct({ description: 'Checked against the photos' });
    expect(described.status, described.text).toBe(200);
  });
});
