import { mkdtempSync, rmSync } from 'node:fs';
import { listUploadsFolder } from './support/upload-files.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES, type ActivityType, type BulkResult } from '@parkpatrol/shared';
import { ACCESS_LINK_TTL_MS, issueOneTimeToken } from '../src/auth/one-time-tokens.ts';
import { createDiskEvidenceStore, type EvidenceStore } from '../src/services/evidence-storage.ts';
import { createPcnViaApi, jpegUpload, pcnForm, postPcn, validPcnFields } from './fixtures.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * Read-then-write code must stay right when PostgreSQL runs several requests at once
 * (SQLite runs one transaction at a time). Racy cases repeat, so a missing lock shows as a
 * failure rather than as luck; the ones that stage the race (an admin acting while the photos
 * are stored) fail on both engines without their fix.
 */
const ROUNDS = 6;

/** Opens pool connections first (PostgreSQL's pool opens them lazily), so raced requests really overlap. */
async function warmPool(t: TestApp): Promise<void> {
  await Promise.all(Array.from({ length: 4 }, () => sql`select 1`.execute(t.db)));
}

async function countActivities(t: TestApp, userId: string, type: ActivityType): Promise<number> {
  const rows = await t.db.selectFrom('activities').select('id').where('user_id', '=', userId).where('activity_type', '=', type).execute();
  return rows.length;
}

describe('sign-out at the same moment as another request', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('records one LOGOUT when two tabs sign out with one refresh token at once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await t.signedInUser('USER');
      await warmPool(t);
      const answers = await Promise.all([1, 2].map(() => t.request('POST', '/auth/logout', { json: { refreshToken: user.refreshToken } })));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(await countActivities(t, user.id, 'LOGOUT')).toBe(1);
    }
  });

  it('records one LOGOUT when two tabs sign out with one access token at once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await t.signedInUser('USER');
      await warmPool(t);
      const answers = await Promise.all([1, 2].map(() => t.request('POST', '/auth/logout', { token: user.token, json: {} })));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(await countActivities(t, user.id, 'LOGOUT')).toBe(1);
    }
  });

  it('leaves no live refresh token when one tab signs out while another refreshes with the same token', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await t.signedInUser('USER');
      await warmPool(t);
      const [refreshed, signedOut] = await Promise.all([
        t.request('POST', '/auth/refresh', { json: { refreshToken: user.refreshToken } }),
        t.request('POST', '/auth/logout', { json: { refreshToken: user.refreshToken } }),
      ]);
      expect(signedOut.status).toBe(200);
      // Either order is fine, but the session is over: a token the refresh handed out died with it.
      const live = await t.db
        .selectFrom('refresh_tokens')
        .select('id')
        .where('user_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .execute();
      expect(live).toEqual([]);
      if (refreshed.status === 200) {
        const reuse = await t.request('POST', '/auth/refresh', { json: { refreshToken: refreshed.json.data.refreshToken } });
        expect(reuse.status).toBe(401);
      }
    }
  });
});

describe('one-time links issued at the same moment', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('leaves exactly one unused link when several are issued for one user and purpose at once', async () => {
    const user = await t.createUser({ password: null });
    for (let round = 0; round < ROUNDS; round++) {
      await warmPool(t);
      await Promise.all(
        Array.from({ length: 3 }, () =>
          issueOneTimeToken(t.db, { userId: user.id, purpose: 'access-link', ttlMs: ACCESS_LINK_TTL_MS, now: t.deps.now() }),
        ),
      );
      const unused = await t.db
        .selectFrom('one_time_tokens')
        .select('id')
        .where('user_id', '=', user.id)
        .where('purpose', '=', 'access-link')
        .where('used_at', 'is', null)
        .execute();
      expect(unused).toHaveLength(1);
    }
  });
});

describe('two super admins acting on each other at the same moment', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  async function superAdminPair(): Promise<[Session, Session]> {
    return [await t.signedInUser('SUPER_ADMIN'), await t.signedInUser('SUPER_ADMIN')];
  }

  async function activeSuperAdmins(ids: string[]): Promise<number> {
    const rows = await t.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', ids)
      .where('role', '=', 'SUPER_ADMIN')
      .where('is_active', '=', true)
      .execute();
    return rows.length;
  }

  /** Each of the pair asks for the other at once; exactly one may win, as if they came in turn. */
  async function race(pair: [Session, Session], send: (actor: Session, target: Session) => Promise<{ status: number }>): Promise<number[]> {
    await warmPool(t);
    const answers = await Promise.all([send(pair[0], pair[1]), send(pair[1], pair[0])]);
    return answers.map((answer) => answer.status).sort();
  }

  it('keeps one of them active when each deactivates the other', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const pair = await superAdminPair();
      const statuses = await race(pair, (actor, target) =>
        t.request('PUT', `/users/${target.id}`, { token: actor.token, json: { isActive: false } }),
      );
      // The loser was deactivated first, so its session is over.
      expect(statuses).toEqual([200, 401]);
      expect(await activeSuperAdmins(pair.map((user) => user.id))).toBe(1);
    }
  });

  it('keeps one of them a super admin when each demotes the other', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const pair = await superAdminPair();
      const statuses = await race(pair, (actor, target) =>
        t.request('PUT', `/users/${target.id}`, { token: actor.token, json: { role: 'USER' } }),
      );
      // The loser is a USER by the time its change is checked.
      expect(statuses).toEqual([200, 403]);
      expect(await activeSuperAdmins(pair.map((user) => user.id))).toBe(1);
    }
  });

  it('keeps one of them when each deletes the other', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const pair = await superAdminPair();
      const statuses = await race(pair, (actor, target) => t.request('DELETE', `/users/${target.id}`, { token: actor.token }));
      expect(statuses).toEqual([200, 401]);
      expect(await activeSuperAdmins(pair.map((user) => user.id))).toBe(1);
    }
  });

  it('keeps one of them active when each deactivates the other through the bulk action', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const pair = await superAdminPair();
      const answers: BulkResult[][] = [];
      await race(pair, async (actor, target) => {
        const res = await t.request('POST', '/users/bulk-active', { token: actor.token, json: { userIds: [target.id], isActive: false } });
        // A bulk action answers 200 with a result per user; one whose actor lost the race answers 401.
        if (res.status === 200) answers.push(res.json.data.results as BulkResult[]);
        return res;
      });
      expect(answers.flat().filter((result) => result.success)).toHaveLength(1);
      expect(await activeSuperAdmins(pair.map((user) => user.id))).toBe(1);
    }
  });
});

describe("filing while an admin changes the officer's access", () => {
  let t: TestApp;
  let uploadsDir: string;
  /** Runs once, while the next request's photos are being stored: the moment the race needs. */
  let whileStoring: (() => Promise<unknown>) | undefined;
  let officer: Session;
  let admin: Session;
  let carPark: { id: string };

  beforeEach(async () => {
    uploadsDir = mkdtempSync(join(tmpdir(), 'parkpatrol-race-'));
    const disk = createDiskEvidenceStore(uploadsDir);
    const evidence: EvidenceStore = {
      ...disk,
      place: async (files) => {
        const during = whileStoring;
        whileStoring = undefined;
        await during?.();
        return disk.place(files);
      },
    };
    t = await createTestApp({ evidence });
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('SUPER_ADMIN');
    carPark = await t.createCarPark({ assignTo: [officer.id] });
  });
  afterEach(async () => {
    await t.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  async function pcnCount(): Promise<number> {
    return (await t.db.selectFrom('pcns').select('id').execute()).length;
  }

  it('refuses the notice when the officer is unassigned from the car park while its photos are stored', async () => {
    whileStoring = () =>
      t.request('DELETE', `/car-parks/${carPark.id}/unassign-user`, { token: admin.token, json: { userId: officer.id } });
    const res = await postPcn(t, officer.token, { ...validPcnFields(carPark.id), images: [jpegUpload(1)] });
    expect(res.status, res.text).toBe(403);
    expect(res.json.message).toBe(SERVER_MESSAGES.carParkNotAssigned);
    expect(await pcnCount()).toBe(0);
    // The photo placed for the refused notice went again.
    expect(listUploadsFolder(uploadsDir)).toEqual([]);
  });

  it('refuses the notice when the car park is closed while its photos are stored', async () => {
    whileStoring = () => t.request('PUT', `/car-parks/${carPark.id}`, { token: admin.token, json: { isActive: false } });
    const res = await postPcn(t, officer.token, { ...validPcnFields(carPark.id), images: [jpegUpload(1)] });
    expect(res.json.message, res.text).toBe(SERVER_MESSAGES.carParkNotFound);
    expect(await pcnCount()).toBe(0);
    expect(listUploadsFolder(uploadsDir)).toEqual([]);
  });

  it('refuses the notice when the officer is deactivated while its photos are stored', async () => {
    whileStoring = () => t.request('PUT', `/users/${officer.id}`, { token: admin.token, json: { isActive: false } });
    const res = await postPcn(t, officer.token, { ...validPcnFields(carPark.id), images: [jpegUpload(1)] });
    expect(res.status, res.text).toBe(401);
    expect(await pcnCount()).toBe(0);
    expect(listUploadsFolder(uploadsDir)).toEqual([]);
  });

  it('files the notice when nothing changes while its photos are stored', async () => {
    whileStoring = async () => undefined;
    const res = await postPcn(t, officer.token, { ...validPcnFields(carPark.id), images: [jpegUpload(1)] });
    expect(res.status, res.text).toBe(201);
    expect(listUploadsFolder(uploadsDir)).toHaveLength(1);
  });

  it('refuses moving a notice to a car park the officer is unassigned from while the photos are stored', async () => {
    const other = await t.createCarPark({ assignTo: [officer.id] });
    const pcn = await createPcnViaApi(t, officer.token, carPark.id, { images: [] });
    whileStoring = () => t.request('DELETE', `/car-parks/${other.id}/unassign-user`, { token: admin.token, json: { userId: officer.id } });
    const res = await t.request('PUT', `/pcns/${pcn.id}`, {
      token: officer.token,
      body: pcnForm({ carParkId: other.id, images: [jpegUpload(2)] }),
    });
    expect(res.status, res.text).toBe(403);
    expect(res.json.message).toBe(SERVER_MESSAGES.carParkNotAssigned);
    const stored = await t.db.selectFrom('pcns').select('car_park_id').where('id', '=', pcn.id).executeTakeFirstOrThrow();
    expect(stored.car_park_id).toBe(carPark.id);
    expect(listUploadsFolder(uploadsDir)).toEqual([]);
  });
});
