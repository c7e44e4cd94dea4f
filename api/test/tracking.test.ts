import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatPcnNumber,
  PCN_STATUSES,
  type ActivityType,
  type AnalyticsSummary,
  type PcnStatus,
  type Role,
  type UserWithStats,
} from '@parkpatrol/shared';
import { recordActivity } from '../src/services/activities.ts';
import { createPcnViaApi } from './fixtures.ts';
import { createTestApp, type TestApp } from './test-app.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let t: TestApp;
let pcnSequence = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A user signed in through POST /auth/login, which records one LOGIN activity for them. */
async function signIn(role: Role, overrides: Parameters<TestApp['createUser']>[0] = {}) {
  return t.signedInUser(role, overrides);
}

async function addActivity(userId: string, type: ActivityType, agoMs = 0, description?: string) {
  await recordActivity(t.db, { userId, type, description, now: new Date(t.deps.now().getTime() - agoMs) });
}

/** PCN rows straight into the table: the figures only need rows, not the upload path. */
async function insertPcn(input: { createdBy: string; carParkId: string; status?: PcnStatus; agoMs?: number }) {
  pcnSequence += 1;
  const stamp = new Date(t.deps.now().getTime() - (input.agoMs ?? 0)).toISOString();
  await t.db
    .insertInto('pcns')
    .values({
      id: randomUUID(),
      sequence: pcnSequence,
      pcn_number: formatPcnNumber(pcnSequence),
      vehicle_registration: 'AB12CDE',
      car_park_id: input.carParkId,
      offence_type: 'OTHER',
      description: '',
      location: 'Bay 1',
      status: input.status ?? 'SUBMITTED',
      admin_notes: null,
      observed_at: null,
      created_by: input.createdBy,
      idempotency_key: null,
      request_hash: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
}

async function heartbeat(token: string, atMinutes: number) {
  t.clock.offsetMs = atMinutes * MINUTE;
  const res = await t.request('POST', '/tracking/heartbeat', { token, json: { path: '/dashboard' } });
  expect(res.status).toBe(200);
  return res;
}

async function fetchUserStats(token: string, userId: string) {
  const res = await t.request('GET', '/tracking/admin/users', { token });
  expect(res.status).toBe(200);
  const row = (res.json.data as UserWithStats[]).find((r) => r.user.id === userId);
  expect(row).toBeDefined();
  return row!.stats;
}

describe('POST /tracking/heartbeat', () => {
  it('refuses a caller who is not signed in', async () => {
    const res = await t.request('POST', '/tracking/heartbeat', { json: {} });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
  });

  it('answers ok to a signed-in user of any role, with or without a body', async () => {
    for (const role of ['USER', 'ADMIN', 'SUPER_ADMIN'] as const) {
      const user = await signIn(role);
      const res = await t.request('POST', '/tracking/heartbeat', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ success: true, data: { ok: true } });
    }
  });

  it('folds heartbeats into visits: gaps start a new visit and a second tab adds nothing', async () => {
    const admin = await signIn('ADMIN');
    const officer = await signIn('USER');
    try {
      // First visit: one tab every minute for 4 minutes, a second tab on the half minutes.
      for (const minute of [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]) await heartbeat(officer.token, minute);
      // Twenty minutes away, then a second visit of 2.5 minutes. The tab's 15-minute access token
      // has run out by then, so it refreshes first, as the app does.
      t.clock.offsetMs = 24 * MINUTE;
      const refreshed = await t.request('POST', '/auth/refresh', { json: { refreshToken: officer.refreshToken } });
      expect(refreshed.status).toBe(200);
      for (const minute of [24, 25, 26, 26.5]) await heartbeat(refreshed.json.data.token, minute);
    } finally {
      t.clock.offsetMs = 0;
    }
    const visits = await t.db.selectFrom('site_visits').selectAll().where('user_id', '=', officer.id).execute();
    expect(visits).toHaveLength(2);
    expect((await fetchUserStats(admin.token, officer.id)).totalTimeOnSite).toBe(4 + 2);
  });

  it('starts a single visit when two tabs send their first heartbeat at the same moment', async () => {
    const officer = await signIn('USER');
    const answers = await Promise.all([1, 2, 3].map(() => t.request('POST', '/tracking/heartbeat', { token: officer.token, json: {} })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const visits = await t.db.selectFrom('site_visits').selectAll().where('user_id', '=', officer.id).execute();
    expect(visits).toHaveLength(1);
  });

  it('refuses a malformed body with 400', async () => {
    const officer = await signIn('USER');
    const res = await t.request('POST', '/tracking/heartbeat', {
      token: officer.token,
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });
});

describe('admin endpoints: who may call them', () => {
  for (const path of ['/tracking/admin/analytics', '/tracking/admin/users']) {
    it(`GET ${path}: anonymous 401, USER 403, ADMIN and SUPER_ADMIN 200`, async () => {
      expect((await t.request('GET', path)).status).toBe(401);
      const user = await signIn('USER');
      const denied = await t.request('GET', path, { token: user.token });
      expect(denied.status).toBe(403);
      expect(denied.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
      for (const role of ['ADMIN', 'SUPER_ADMIN'] as const) {
        const admin = await signIn(role);
        const res = await t.request('GET', path, { token: admin.token });
        expect(res.status).toBe(200);
        expect(res.json.success).toBe(true);
      }
    });
  }
});

describe('GET /tracking/admin/analytics', () => {
  it('counts users, active users, PCNs and activities, and lists recent activity with names', async () => {
    const admin = await signIn('ADMIN', { firstName: 'Ada', lastName: 'Admin' });
    const before: AnalyticsSummary = (await t.request('GET', '/tracking/admin/analytics', { token: admin.token })).json.data;

    const recent = await t.createUser({ firstName: 'Rita', lastName: 'Recent' });
    const lapsed = await t.createUser({ firstName: 'Larry', lastName: 'Lapsed' });
    const quiet = await t.createUser({ firstName: 'Quentin', lastName: 'Quiet' });
    void quiet;
    const carPark = await t.createCarPark();
    await addActivity(lapsed.id, 'LOGIN', 31 * DAY, 'Signed in long ago');
    await addActivity(recent.id, 'LOGIN', 2 * DAY, 'Signed in');
    await addActivity(recent.id, 'PCN_CREATED', DAY, 'Created PCN 1');
    await addActivity(recent.id, 'PCN_VIEWED', 0, 'Viewed PCN 1');
    await insertPcn({ createdBy: recent.id, carParkId: carPark.id, status: 'SUBMITTED' });
    await insertPcn({ createdBy: recent.id, carParkId: carPark.id, status: 'APPROVED', agoMs: 3 * DAY });
    await insertPcn({ createdBy: lapsed.id, carParkId: carPark.id, status: 'PAID', agoMs: 45 * DAY });

    const res = await t.request('GET', '/tracking/admin/analytics', { token: admin.token });
    expect(res.status).toBe(200);
    const after: AnalyticsSummary = res.json.data;
    expect(after.totalUsers - before.totalUsers).toBe(3);
    // Rita is active; Larry's only activity is 31 days old; Quentin has none.
    expect(after.activeUsers - before.activeUsers).toBe(1);
    expect(after.totalPCNs - before.totalPCNs).toBe(3);
    expect(after.totalActivities - before.totalActivities).toBe(4);

    // Other users' activities (the admin's own sign-in) may sit in between; Rita's keep their order.
    const ritas = after.recentActivities.filter((a) => a.user?.id === recent.id);
    expect(ritas.map((a) => [a.activityType, a.description, a.user?.firstName, a.user?.lastName])).toEqual([
      ['PCN_VIEWED', 'Viewed PCN 1', 'Rita', 'Recent'],
      ['PCN_CREATED', 'Created PCN 1', 'Rita', 'Recent'],
      ['LOGIN', 'Signed in', 'Rita', 'Recent'],
    ]);
    expect(ritas[0]).toEqual({
      id: expect.any(String),
      activityType: 'PCN_VIEWED',
      description: 'Viewed PCN 1',
      createdAt: expect.any(String),
      user: { id: recent.id, firstName: 'Rita', lastName: 'Recent' },
      pcn: null,
    });
    const createdAts = after.recentActivities.map((a) => a.createdAt);
    expect([...createdAts].sort().reverse()).toEqual(createdAts);
  });

  it('answers the last 30 UTC days of PCNs, every day present, and a count for every status', async () => {
    const admin = await signIn('ADMIN');
    const officer = await t.createUser();
    const carPark = await t.createCarPark();
    const before: AnalyticsSummary = (await t.request('GET', '/tracking/admin/analytics', { token: admin.token })).json.data;
    await insertPcn({ createdBy: officer.id, carParkId: carPark.id, status: 'REJECTED' });
    await insertPcn({ createdBy: officer.id, carParkId: carPark.id, status: 'REJECTED' });
    await insertPcn({ createdBy: officer.id, carParkId: carPark.id, status: 'ISSUED', agoMs: 10 * DAY });
    await insertPcn({ createdBy: officer.id, carParkId: carPark.id, status: 'ISSUED', agoMs: 40 * DAY });

    const after: AnalyticsSummary = (await t.request('GET', '/tracking/admin/analytics', { token: admin.token })).json.data;
    const now = t.deps.now();
    const today = now.toISOString().slice(0, 10);
    const tenDaysAgo = new Date(now.getTime() - 10 * DAY).toISOString().slice(0, 10);
    expect(after.pcnsPerDay).toHaveLength(30);
    expect(after.pcnsPerDay.at(-1)!.date).toBe(today);
    expect(after.pcnsPerDay[0]!.date).toBe(new Date(now.getTime() - 29 * DAY).toISOString().slice(0, 10));
    for (const day of after.pcnsPerDay) expect(day.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const delta = (date: string) =>
      after.pcnsPerDay.find((d) => d.date === date)!.count - before.pcnsPerDay.find((d) => d.date === date)!.count;
    expect(delta(today)).toBe(2);
    expect(delta(tenDaysAgo)).toBe(1);
    expect(after.pcnsPerDay.reduce((s, d) => s + d.count, 0) - before.pcnsPerDay.reduce((s, d) => s + d.count, 0)).toBe(3);

    expect(Object.keys(after.pcnsByStatus).sort()).toEqual([...PCN_STATUSES].sort());
    expect(after.pcnsByStatus.REJECTED - before.pcnsByStatus.REJECTED).toBe(2);
    expect(after.pcnsByStatus.ISSUED - before.pcnsByStatus.ISSUED).toBe(2);
    expect(after.pcnsByStatus.CANCELLED - before.pcnsByStatus.CANCELLED).toBe(0);
  });

  it('lists at most 20 recent activities, newest first', async () => {
    const admin = await signIn('ADMIN');
    const busy = await t.createUser({ firstName: 'Busy', lastName: 'Bee' });
    // Stamped just ahead of now, so they are the newest whatever earlier tests recorded.
    for (let i = 0; i < 25; i += 1) await addActivity(busy.id, 'PCN_VIEWED', -(i + 1) * 1000, `View ${i}`);
    const summary: AnalyticsSummary = (await t.request('GET', '/tracking/admin/analytics', { token: admin.token })).json.data;
    expect(summary.recentActivities).toHaveLength(20);
    expect(summary.recentActivities[0]!.description).toBe('View 24');
    expect(summary.recentActivities[19]!.description).toBe('View 5');
  });
});

describe('GET /tracking/admin/users', () => {
  it('lists every user with logins, PCNs submitted and viewed, time on site and last activity', async () => {
    const admin = await signIn('SUPER_ADMIN');
    const officer = await t.createUser({ firstName: 'Olive', lastName: 'Officer', email: 'olive@example.com' });
    const idle = await t.createUser({ firstName: 'Ivan', lastName: 'Idle', role: 'ADMIN', isActive: false });
    const carPark = await t.createCarPark();
    await addActivity(officer.id, 'LOGIN', 3 * DAY);
    await addActivity(officer.id, 'LOGIN', 2 * DAY);
    await addActivity(officer.id, 'LOGOUT', 2 * DAY - MINUTE);
    await addActivity(officer.id, 'PCN_VIEWED', 2 * DAY - 30_000);
    await addActivity(officer.id, 'PCN_VIEWED', DAY);
    await addActivity(officer.id, 'PCN_VIEWED', 0);
    await insertPcn({ createdBy: officer.id, carParkId: carPark.id });
    await insertPcn({ createdBy: officer.id, carParkId: carPark.id, status: 'CANCELLED' });
    const visitStart = Date.parse('2026-01-05T10:00:00.000Z');
    await t.db
      .insertInto('site_visits')
      .values([
        // 12.5 + 30.75 minutes: the total rounds down to 43, not each visit on its own (42).
        {
          id: randomUUID(),
          user_id: officer.id,
          started_at: new Date(visitStart).toISOString(),
          last_seen_at: new Date(visitStart + 12.5 * MINUTE).toISOString(),
        },
        {
          id: randomUUID(),
          user_id: officer.id,
          started_at: new Date(visitStart + DAY).toISOString(),
          last_seen_at: new Date(visitStart + DAY + 30.75 * MINUTE).toISOString(),
        },
      ])
      .execute();
    const newest = await t.db
      .selectFrom('activities')
      .select((eb) => eb.fn.max('created_at').as('latest'))
      .where('user_id', '=', officer.id)
      .executeTakeFirstOrThrow();

    const res = await t.request('GET', '/tracking/admin/users', { token: admin.token });
    expect(res.status).toBe(200);
    const rows: UserWithStats[] = res.json.data;
    const userCount = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(rows).toHaveLength(Number(userCount.n));

    expect(rows.find((r) => r.user.id === officer.id)).toEqual({
      user: { id: officer.id, firstName: 'Olive', lastName: 'Officer', email: 'olive@example.com', role: 'USER' },
      stats: {
        totalLogins: 2,
        totalPCNsSubmitted: 2,
        totalPCNsViewed: 3,
        totalTimeOnSite: 43,
        lastActivityAt: newest.latest,
      },
    });
    expect(rows.find((r) => r.user.id === idle.id)).toEqual({
      user: { id: idle.id, firstName: 'Ivan', lastName: 'Idle', email: idle.email, role: 'ADMIN' },
      stats: { totalLogins: 0, totalPCNsSubmitted: 0, totalPCNsViewed: 0, totalTimeOnSite: 0, lastActivityAt: null },
    });
    // A real sign-in counts as a login and as the user's latest activity.
    const signedIn = await signIn('USER');
    const again: UserWithStats[] = (await t.request('GET', '/tracking/admin/users', { token: admin.token })).json.data;
    const signedInStats = again.find((r) => r.user.id === signedIn.id)!.stats;
    expect(signedInStats.totalLogins).toBe(1);
    expect(signedInStats.lastActivityAt).not.toBeNull();
    // Nothing that is not part of the shape (a password hash, say) leaks into the answer.
    expect(JSON.stringify(res.json)).not.toMatch(/password|hash/i);
  });
});

// Its own app: the activities above are stamped ahead of now and would fill the recent twenty.
describe('recent activity as sentences', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('names the PCN of a status change, so it reads as a sentence with a link', async () => {
    const admin = await app.signedInUser('ADMIN');
    const officer = await app.signedInUser('USER');
    const carPark = await app.createCarPark({ assignTo: [officer.id] });
    const pcn = await createPcnViaApi(app, officer.token, carPark.id);
    expect((await app.request('PATCH', `/pcns/${pcn.id}/status`, { token: admin.token, json: { status: 'UNDER_REVIEW' } })).status).toBe(
      200,
    );
    const summary: AnalyticsSummary = (await app.request('GET', '/tracking/admin/analytics', { token: admin.token })).json.data;
    const change = summary.recentActivities.find((a) => a.activityType === 'PCN_STATUS_CHANGED' && a.pcn?.id === pcn.id);
    expect(change).toMatchObject({
      description: `PCN ${pcn.pcnNumber}: SUBMITTED -> UNDER_REVIEW`,
      pcn: { id: pcn.id, pcnNumber: pcn.pcnNumber },
    });
  });
});
