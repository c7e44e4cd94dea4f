import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_MESSAGES,
  MAX_BULK_ITEMS,
  pcnTitle,
  SERVER_MESSAGES,
  STATUS_UNDO_TEXTS,
  ukDate,
  type BulkResult,
  type Pcn,
  type PcnAuditEntry,
  type PcnSelectionResponse,
  type User,
  type UserSelectionResponse,
} from '@parkpatrol/shared';
import type { Insertable } from 'kysely';
import type { UsersTable } from '../src/db/schema.ts';
import { insertPcnsDirectly } from './fixtures.ts';
import { letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

// 'Select all matching' and the bulk actions on Manage PCNs and Manage Users.
// A bulk action is the single action once per row, each on its own: the same rules, the same
// records, and a refusal for one row changes nothing for the others.

let t: TestApp;
let admin: Session;
let officer: Session;
let carParkId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedInUser('ADMIN', { firstName: 'Adam', lastName: 'Manager' });
  officer = await t.signedInUser('USER', { firstName: 'Olive', lastName: 'Owner' });
  carParkId = (await t.createCarPark({ name: 'Bulk Lot', assignTo: [officer.id] })).id;
});
afterAll(() => t.close());

async function listAll<T>(path: string, field: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request('GET', `${path}&limit=3&page=${page}`, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    rows.push(...(res.json.data[field] as T[]));
    if (page >= res.json.data.pagination.pages) return rows;
  }
}

/** `count` users straight into the table (no password, no hashing): volume, not behaviour. */
async function insertUsersDirectly(count: number, make: (index: number) => { email: string; isActive?: boolean }) {
  const stamp = t.deps.now().toISOString();
  const rows = Array.from({ length: count }, (_, index): Insertable<UsersTable> => {
    const spec = make(index);
    return {
      id: randomUUID(),
      email: spec.email,
      first_name: 'Many',
      last_name: `User ${index}`,
      role: 'USER',
      password_hash: null,
      is_active: spec.isActive !== false,
      created_at: stamp,
      updated_at: stamp,
    };
  });
  for (let start = 0; start < rows.length; start += 100)
    await t.db
      .insertInto('users')
      .values(rows.slice(start, start + 100))
      .execute();
}

describe('GET /pcns/selection', () => {
  it('is every PCN the list’s filters select, in the list’s order, whatever page and scope the query names', async () => {
    await insertPcnsDirectly(t, 11, (i) => ({
      createdBy: officer.id,
      carParkId,
      vehicleRegistration: ['SE11AAA', 'SE22BBB', 'SE33CCC'][i % 3]!,
      status: i % 4 === 0 ? 'APPROVED' : 'SUBMITTED',
      createdAt: new Date(Date.parse('2026-04-01T10:00:00.000Z') + Math.floor(i / 2) * 60_000).toISOString(),
    }));
    const query = `carParkId=${carParkId}&status=SUBMITTED&sort=vehicleRegistration&order=desc`;
    const listed = await listAll<Pcn>(`/pcns?scope=all&${query}`, 'pcns');
    expect(listed.length).toBe(8);
    const res = await t.request('GET', `/pcns/selection?${query}&scope=mine&page=2&limit=1`, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    const selection = res.json.data as PcnSelectionResponse;
    expect(selection).toEqual({ items: listed.map((pcn) => ({ id: pcn.id, status: pcn.status })), total: 8 });
  });

  it(`refuses more than ${MAX_BULK_ITEMS} with 400, and takes exactly ${MAX_BULK_ITEMS}`, async () => {
    const manyParkId = (await t.createCarPark({ name: 'Many Lot' })).id;
    await insertPcnsDirectly(t, MAX_BULK_ITEMS + 1, (i) => ({
      createdBy: officer.id,
      carParkId: manyParkId,
      vehicleRegistration: 'MANY01',
      status: i === 0 ? 'UNDER_REVIEW' : 'SUBMITTED',
      createdAt: new Date(Date.parse('2026-04-02T10:00:00.000Z') + i * 1000).toISOString(),
    }));
    const tooMany = await t.request('GET', `/pcns/selection?carParkId=${manyParkId}`, { token: admin.token });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({ success: false, code: 'VALIDATION_FAILED', message: SERVER_MESSAGES.tooManyPcnsSelected });
    const exactly = await t.request('GET', `/pcns/selection?carParkId=${manyParkId}&status=SUBMITTED`, { token: admin.token });
    expect(exactly.status).toBe(200);
    expect(exactly.json.data.total).toBe(MAX_BULK_ITEMS);
    expect(exactly.json.data.items).toHaveLength(MAX_BULK_ITEMS);
  });

  it('is for admins only, and checks the query as the list does', async () => {
    expect((await t.request('GET', '/pcns/selection', { token: officer.token })).status).toBe(403);
    expect((await t.request('GET', '/pcns/selection')).status).toBe(401);
    expect((await t.request('GET', '/pcns/selection?status=LOST', { token: admin.token })).status).toBe(400);
  });
});

describe('POST /pcns/bulk-status', () => {
  async function auditOf(pcnId: string): Promise<PcnAuditEntry[]> {
    return (await t.request('GET', `/pcns/${pcnId}/audit`, { token: admin.token })).json.data.entries as PcnAuditEntry[];
  }
  async function pcnOf(pcnId: string): Promise<Pcn> {
    return (await t.request('GET', `/pcns/${pcnId}`, { token: admin.token })).json.data as Pcn;
  }

  it('changes each PCN the change allows, as the single change does, and reports the others one by one', async () => {
    const [submitted, approved, underReview] = await insertPcnsDirectly(t, 3, (i) => ({
      createdBy: officer.id,
      carParkId,
      vehicleRegistration: 'BU12LKK',
      status: (['SUBMITTED', 'APPROVED', 'UNDER_REVIEW'] as const)[i],
      createdAt: t.deps.now().toISOString(),
    }));
    const unknownId = randomUUID();
    const approvedBefore = { pcn: await pcnOf(approved!.id), audit: await auditOf(approved!.id) };

    const res = await t.request('POST', '/pcns/bulk-status', {
      token: admin.token,
      json: {
        pcnIds: [submitted!.id, approved!.id, unknownId, underReview!.id, submitted!.id],
        status: 'REJECTED',
        adminNotes: 'No permit on file',
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.results as BulkResult[]).toEqual([
      { id: submitted!.id, label: pcnTitle(submitted!.pcnNumber), success: true },
      { id: approved!.id, label: pcnTitle(approved!.pcnNumber), success: false, error: SERVER_MESSAGES.transitionNotAllowed },
      { id: unknownId, label: unknownId, success: false, error: ERROR_MESSAGES.pcnNotFound },
      { id: underReview!.id, label: pcnTitle(underReview!.pcnNumber), success: true },
    ]);

    for (const [moved, from] of [
      [submitted!, 'SUBMITTED'],
      [underReview!, 'UNDER_REVIEW'],
    ] as const) {
      const pcn = await pcnOf(moved.id);
      expect(pcn).toMatchObject({ status: 'REJECTED', adminNotes: 'No permit on file' });
      expect(pcn.statusHistory!.at(-1)).toMatchObject({
        fromStatus: from,
        toStatus: 'REJECTED',
        note: 'No permit on file',
        changedBy: { id: admin.id, firstName: 'Adam', lastName: 'Manager' },
      });
      const audit = await auditOf(moved.id);
      expect(audit.filter((entry) => entry.action === 'status_changed')).toEqual([
        expect.objectContaining({
          actorName: 'Adam Manager',
          actor: { id: admin.id, firstName: 'Adam', lastName: 'Manager' },
          changes: { status: { from, to: 'REJECTED' }, note: { from: null, to: 'No permit on file' } },
        }),
      ]);
      expect(audit.find((entry) => entry.action === 'notes_changed')).toMatchObject({
        actorName: 'Adam Manager',
        changes: { adminNotes: { from: null, to: 'No permit on file' } },
      });
      const activities = await t.db
        .selectFrom('activities')
        .select(['user_id', 'description'])
        .where('pcn_id', '=', moved.id)
        .where('activity_type', '=', 'PCN_STATUS_CHANGED')
        .execute();
      expect(activities).toHaveLength(1);
      expect(activities[0]!.user_id).toBe(admin.id);
    }
    // The refused PCN is exactly as it was: no status, note, history or audit entry.
    expect(await pcnOf(approved!.id)).toEqual(approvedBefore.pcn);
    expect(await auditOf(approved!.id)).toEqual(approvedBefore.audit);
  });

  it('approves a Submitted notice in one action, through Under Review, both moves in the history; a single change still may not skip', async () => {
    const [submitted, underReview] = await insertPcnsDirectly(t, 2, (i) => ({
      createdBy: officer.id,
      carParkId,
      vehicleRegistration: 'AP12RVE',
      status: (['SUBMITTED', 'UNDER_REVIEW'] as const)[i],
      createdAt: t.deps.now().toISOString(),
    }));
    const single = await t.request('PATCH', `/pcns/${submitted!.id}/status`, { token: admin.token, json: { status: 'APPROVED' } });
    expect(single.status).toBe(409);

    const res = await t.request('POST', '/pcns/bulk-status', {
      token: admin.token,
      json: { pcnIds: [submitted!.id, underReview!.id], status: 'APPROVED', adminNotes: 'Evidence checked' },
    });
    expect((res.json.data.results as BulkResult[]).map((result) => result.success)).toEqual([true, true]);
    const pcn = await pcnOf(submitted!.id);
    expect(pcn).toMatchObject({ status: 'APPROVED', adminNotes: 'Evidence checked' });
    expect(pcn.statusHistory!.slice(-2)).toMatchObject([
      { fromStatus: 'SUBMITTED', toStatus: 'UNDER_REVIEW', note: null, changedBy: { id: admin.id } },
      { fromStatus: 'UNDER_REVIEW', toStatus: 'APPROVED', note: 'Evidence checked', changedBy: { id: admin.id } },
    ]);
    expect(
      (await auditOf(submitted!.id)).filter((entry) => entry.action === 'status_changed').map((entry) => entry.changes.status),
    ).toEqual([
      { from: 'SUBMITTED', to: 'UNDER_REVIEW' },
      { from: 'UNDER_REVIEW', to: 'APPROVED' },
    ]);
    expect((await pcnOf(underReview!.id)).statusHistory!.at(-1)).toMatchObject({ fromStatus: 'UNDER_REVIEW', toStatus: 'APPROVED' });
  });

  it('is for admins only, even for a change the owner could make alone', async () => {
    const [own] = await insertPcnsDirectly(t, 1, () => ({
      createdBy: officer.id,
      carParkId,
      vehicleRegistration: 'OW12NER',
      createdAt: t.deps.now().toISOString(),
    }));
    const res = await t.request('POST', '/pcns/bulk-status', { token: officer.token, json: { pcnIds: [own!.id], status: 'CANCELLED' } });
    expect(res.status).toBe(403);
    expect((await pcnOf(own!.id)).status).toBe('SUBMITTED');
    expect((await t.request('POST', '/pcns/bulk-status', { json: { pcnIds: [own!.id], status: 'CANCELLED' } })).status).toBe(401);
  });

  it('refuses an empty list, more than the limit, and an unknown status with 400, changing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ pcnIds: [], status: 'REJECTED' }, 'Please select at least one PCN'],
      [{ pcnIds: Array.from({ length: MAX_BULK_ITEMS + 1 }, () => randomUUID()), status: 'REJECTED' }, 'Select at most 1,000 PCNs at once'],
      [{ pcnIds: [randomUUID()], status: 'LOST' }, ''],
      [{ status: 'REJECTED' }, ''],
    ];
    for (const [json, message] of cases) {
      const res = await t.request('POST', '/pcns/bulk-status', { token: admin.token, json });
      expect(res.status, res.text).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
      if (message) expect(res.json.message).toBe(message);
    }
  });
});

describe('POST /pcns/bulk-status/undo', () => {
  const undoNote = STATUS_UNDO_TEXTS.note;
  async function pcnOf(pcnId: string): Promise<Pcn> {
    return (await t.request('GET', `/pcns/${pcnId}`, { token: admin.token })).json.data as Pcn;
  }
  async function statusAudit(pcnId: string) {
    const entries = (await t.request('GET', `/pcns/${pcnId}/audit`, { token: admin.token })).json.data.entries as PcnAuditEntry[];
    return entries.filter((entry) => entry.action === 'status_changed').map((entry) => entry.changes);
  }
  const bulk = (json: object, token = admin.token) => t.request('POST', '/pcns/bulk-status', { token, json });
  const undo = (json: object, token = admin.token) => t.request('POST', '/pcns/bulk-status/undo', { token, json });

  it('moves each PCN back to the status it had, along the moves the change made, each audited as an undo', async () => {
    const [submitted, underReview] = await insertPcnsDirectly(t, 2, (i) => ({
      createdBy: officer.id,
      carParkId,
      vehicleRegistration: 'UN12DOE',
      status: (['SUBMITTED', 'UNDER_REVIEW'] as const)[i],
      createdAt: t.deps.now().toISOString(),
    }));
    const ids = [submitted!.id, underReview!.id];
    expect((await bulk({ pcnIds: ids, status: 'APPROVED', adminNotes: 'Evidence checked' })).status).toBe(200);

    const res = await undo({ pcnIds: ids, status: 'APPROVED' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.results as BulkResult[]).toEqual([
      { id: submitted!.id, label: pcnTitle(submitted!.pcnNumber), success: true },
      { id: underReview!.id, label: pcnTitle(underReview!.pcnNumber), success: true },
    ]);
    const back = await pcnOf(submitted!.id);
    expect(back.status).toBe('SUBMITTED');
    expect(back.statusHistory!.slice(-2)).toMatchObject([
      { fromStatus: 'APPROVED', toStatus: 'UNDER_REVIEW', note: undoNote, changedBy: { id: admin.id } },
      { fromStatus: 'UNDER_REVIEW', toStatus: 'SUBMITTED', note: undoNote, changedBy: { id: admin.id } },
    ]);
    expect(await statusAudit(submitted!.id)).toEqual([
      { status: { from: 'SUBMITTED', to: 'UNDER_REVIEW' } },
      { status: { from: 'UNDER_REVIEW', to: 'APPROVED' }, note: { from: null, to: 'Evidence checked' } },
      { status: { from: 'APPROVED', to: 'UNDER_REVIEW' }, note: { from: null, to: undoNote } },
      { status: { from: 'UNDER_REVIEW', to: 'SUBMITTED' }, note: { from: null, to: undoNote } },
    ]);
    expect((await pcnOf(underReview!.id)).status).toBe('UNDER_REVIEW');
    expect((await statusAudit(underReview!.id)).at(-1)).toEqual({
      status: { from: 'APPROVED', to: 'UNDER_REVIEW' },
      note: { from: null, to: undoNote },
    });
    const activities = await t.db
      .selectFrom('activities')
      .select('description')
      .where('pcn_id', '=', submitted!.id)
      .where('activity_type', '=', 'PCN_STATUS_CHANGED')
      .execute();
    expect(activities).toHaveLength(4);

    // Undone once: an undo is not a bulk change, so pressing it again moves nothing.
    const again = await undo({ pcnIds: ids, status: 'APPROVED' });
    expect((again.json.data.results as BulkResult[]).map((result) => result.error)).toEqual([
      STATUS_UNDO_TEXTS.changedSince('SUBMITTED'),
      STATUS_UNDO_TEXTS.changedSince('UNDER_REVIEW'),
    ]);
    expect((await pcnOf(submitted!.id)).statusHistory).toHaveLength(back.statusHistory!.length);
  });

  it('leaves alone, saying why, a PCN changed since, one last moved by someone else, and any moved to a final status', async () => {
    const other = await t.signedInUser('ADMIN', { firstName: 'Olga', lastName: 'Other' });
    const [mine, movedOn, theirs, rejected] = await insertPcnsDirectly(t, 4, () => ({
      createdBy: officer.id,
      carParkId,
      vehicleRegistration: 'LE12AVE',
      createdAt: t.deps.now().toISOString(),
    }));
    expect((await bulk({ pcnIds: [mine!.id, movedOn!.id], status: 'UNDER_REVIEW' })).status).toBe(200);
    // Meanwhile another admin approves one of them, and starts the review of another notice.
    expect((await t.request('PATCH', `/pcns/${movedOn!.id}/status`, { token: other.token, json: { status: 'APPROVED' } })).status).toBe(
      200,
    );
    expect((await bulk({ pcnIds: [theirs!.id], status: 'UNDER_REVIEW' }, other.token)).status).toBe(200);
    const before = { movedOn: await statusAudit(movedOn!.id), theirs: await statusAudit(theirs!.id) };

    const res = await undo({ pcnIds: [mine!.id, movedOn!.id, theirs!.id], status: 'UNDER_REVIEW' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.results as BulkResult[]).toEqual([
      { id: mine!.id, label: pcnTitle(mine!.pcnNumber), success: true },
      { id: movedOn!.id, label: pcnTitle(movedOn!.pcnNumber), success: false, error: STATUS_UNDO_TEXTS.changedSince('APPROVED') },
      { id: theirs!.id, label: pcnTitle(theirs!.pcnNumber), success: false, error: STATUS_UNDO_TEXTS.changedSince('UNDER_REVIEW') },
    ]);
    expect((await pcnOf(mine!.id)).status).toBe('SUBMITTED');
    expect(await statusAudit(movedOn!.id)).toEqual(before.movedOn);
    expect(await statusAudit(theirs!.id)).toEqual(before.theirs);

    // Rejected is final: the status table has no move out of it, so there is nothing to undo.
    expect((await bulk({ pcnIds: [rejected!.id], status: 'REJECTED', adminNotes: 'No permit' })).status).toBe(200);
    const final = await undo({ pcnIds: [rejected!.id], status: 'REJECTED' });
    expect(final.json.data.results).toEqual([
      { id: rejected!.id, label: pcnTitle(rejected!.pcnNumber), success: false, error: 'Rejected is a final status: it cannot be undone' },
    ]);
    expect((await pcnOf(rejected!.id)).status).toBe('REJECTED');
    expect(await statusAudit(rejected!.id)).toHaveLength(1);
  });

  it('does not move back a notice issued by marking its notice to keeper posted, though the same admin made the move', async () => {
    const lettersCarParkId = (await t.createCarPark({ name: 'Letters Lot', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, lettersCarParkId);
    const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId: lettersCarParkId });
    const made = await t.request('POST', '/keeper-notices/letters', { token: admin.token, json: { pcnIds: [pcn.id] } });
    expect(made.status, made.text).toBe(200);
    const posted = await t.request('POST', '/keeper-notices/posted', {
      token: admin.token,
      json: { pcnIds: [pcn.id], postedOn: ukDate(t.deps.now()) },
    });
    expect(posted.status, posted.text).toBe(200);
    expect((await pcnOf(pcn.id)).status).toBe('ISSUED');
    const res = await undo({ pcnIds: [pcn.id], status: 'ISSUED' });
    expect(res.json.data.results).toEqual([
      { id: pcn.id, label: pcnTitle(pcn.pcnNumber), success: false, error: STATUS_UNDO_TEXTS.changedSince('ISSUED') },
    ]);
    expect((await pcnOf(pcn.id)).status).toBe('ISSUED');
  });

  it('is for admins only, and refuses an empty list or an unknown status with 400', async () => {
    const [own] = await insertPcnsDirectly(t, 1, () => ({
      createdBy: officer.id,
      carParkId,
      vehicleRegistration: 'OW12UND',
      createdAt: t.deps.now().toISOString(),
    }));
    expect((await undo({ pcnIds: [own!.id], status: 'UNDER_REVIEW' }, officer.token)).status).toBe(403);
    expect((await t.request('POST', '/pcns/bulk-status/undo', { json: { pcnIds: [own!.id], status: 'UNDER_REVIEW' } })).status).toBe(401);
    for (const json of [{ pcnIds: [], status: 'UNDER_REVIEW' }, { pcnIds: [own!.id], status: 'LOST' }, { pcnIds: [own!.id] }]) {
      const res = await undo(json);
      expect(res.status, res.text).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
    }
    expect((await pcnOf(own!.id)).status).toBe('SUBMITTED');
  });
});

describe('GET /users/selection', () => {
  it('is every user the list’s filters select, in the list’s order', async () => {
    for (let i = 0; i < 5; i++)
      await t.createUser({
        firstName: ['Zoe', 'Al', 'Mo'][i % 3]!,
        lastName: 'Picked',
        email: `pick${i}@sel.example`,
        isActive: i !== 2,
        password: null,
      });
    const listed = await listAll<User>('/users?search=sel.example&sort=name&order=asc', 'users');
    expect(listed).toHaveLength(5);
    const res = await t.request('GET', '/users/selection?search=sel.example&sort=name&order=asc&page=2&limit=1', { token: admin.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data as UserSelectionResponse).toEqual({
      items: listed.map((user) => ({ id: user.id, isActive: user.isActive })),
      total: 5,
    });
  });

  it(`refuses more than ${MAX_BULK_ITEMS} with 400, and takes exactly ${MAX_BULK_ITEMS}`, async () => {
    await insertUsersDirectly(MAX_BULK_ITEMS + 1, (i) => ({ email: `many${i}@crowd.example`, isActive: i !== 0 }));
    const tooMany = await t.request('GET', '/users/selection?search=crowd.example', { token: admin.token });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({ code: 'VALIDATION_FAILED', message: SERVER_MESSAGES.tooManyUsersSelected });
    const exactly = await t.request('GET', '/users/selection?search=crowd.example&isActive=true', { token: admin.token });
    expect(exactly.status).toBe(200);
    expect(exactly.json.data.total).toBe(MAX_BULK_ITEMS);
    expect((await t.request('GET', '/users/selection', { token: officer.token })).status).toBe(403);
  });
});

describe('POST /users/bulk-active', () => {
  it('deactivates each user the rules allow, signing them out everywhere, and reports the others one by one', async () => {
    const target = await t.signedInUser('USER', { firstName: 'Tia', lastName: 'Target' });
    const inactive = await t.createUser({ firstName: 'Ian', lastName: 'Inactive', isActive: false, password: null });
    const otherAdmin = await t.createUser({ firstName: 'Ola', lastName: 'Other', role: 'ADMIN', password: null });
    const unknownId = randomUUID();

    const res = await t.request('POST', '/users/bulk-active', {
      token: admin.token,
      json: { userIds: [admin.id, target.id, otherAdmin.id, unknownId, inactive.id, target.id], isActive: false },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.results as BulkResult[]).toEqual([
      { id: admin.id, label: 'Adam Manager', success: false, error: SERVER_MESSAGES.cannotChangeSelf },
      { id: target.id, label: 'Tia Target', success: true },
      { id: otherAdmin.id, label: 'Ola Other', success: false, error: SERVER_MESSAGES.cannotManageRole },
      { id: unknownId, label: unknownId, success: false, error: SERVER_MESSAGES.userNotFound },
      { id: inactive.id, label: 'Ian Inactive', success: true },
    ]);

    const isActive = async (id: string) =>
      (await t.db.selectFrom('users').select('is_active').where('id', '=', id).executeTakeFirstOrThrow()).is_active;
    expect([await isActive(admin.id), await isActive(target.id), await isActive(otherAdmin.id), await isActive(inactive.id)]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    // As after PUT /users/{id}: the access token, the refresh token and the password all stop working.
    expect((await t.request('GET', '/users/profile', { token: target.token })).status).toBe(401);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: target.refreshToken } })).status).toBe(401);
    expect((await t.request('POST', '/auth/login', { json: { email: target.email, password: target.password } })).status).toBe(401);
    expect((await t.request('GET', '/users/profile', { token: admin.token })).status).toBe(200);

    const reactivated = await t.request('POST', '/users/bulk-active', {
      token: admin.token,
      json: { userIds: [target.id], isActive: true },
    });
    expect(reactivated.json.data.results).toEqual([{ id: target.id, label: 'Tia Target', success: true }]);
    expect((await t.request('POST', '/auth/login', { json: { email: target.email, password: target.password } })).status).toBe(200);
  });

  it('is for admins only, and refuses an empty list or a missing flag with 400', async () => {
    expect(
      (await t.request('POST', '/users/bulk-active', { token: officer.token, json: { userIds: [officer.id], isActive: false } })).status,
    ).toBe(403);
    expect((await t.request('POST', '/users/bulk-active', { json: { userIds: [officer.id], isActive: false } })).status).toBe(401);
    const empty = await t.request('POST', '/users/bulk-active', { token: admin.token, json: { userIds: [], isActive: false } });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe('Please select at least one user');
    expect((await t.request('POST', '/users/bulk-active', { token: admin.token, json: { userIds: [officer.id] } })).status).toBe(400);
    const tooMany = await t.request('POST', '/users/bulk-active', {
      token: admin.token,
      json: { userIds: Array.from({ length: MAX_BULK_ITEMS + 1 }, () => randomUUID()), isActive: true },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.message).toBe('Select at most 1,000 users at once');
    expect((await t.request('GET', '/users/profile', { token: officer.token })).status).toBe(200);
  });
});
