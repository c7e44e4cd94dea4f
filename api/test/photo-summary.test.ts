import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PcnListItem } from '@parkpatrol/shared';
import { migrationsFor } from '../../migrations/index.ts';
import { engineOf } from '../src/db/dialect.ts';
import { purgeExpiredEvidence } from '../src/services/purge-expired-evidence.ts';
import { silentLogger } from '../src/services/logger.ts';
import { createPcnViaApi, jpegUpload, type NewPcn } from './fixtures.ts';
import { createTestApp, ON_POSTGRES, type Session, type TestApp } from './test-app.ts';

/**
 * The list shows each notice's photo count and first thumbnail from the notice's own summary of
 * its photos (migration 0044), not from the photos' rows: it must follow every change to them.
 */
describe(`the list's photo summary (${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'})`, () => {
  let t: TestApp;
  let admin: Session;
  let officer: Session;
  let carParkId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signedInUser('ADMIN');
    officer = await t.signedInUser('USER');
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
  });
  afterAll(() => t.close());

  /** The notice's row in Manage PCNs, or in the officer's own list (My PCNs). */
  async function listRow(id: string, as: 'admin' | 'officer' = 'admin'): Promise<PcnListItem> {
    const res = await t.request('GET', as === 'admin' ? '/pcns?scope=all&limit=100' : '/pcns?limit=100', {
      token: as === 'admin' ? admin.token : officer.token,
    });
    expect(res.status, res.text).toBe(200);
    const row = (res.json.data.pcns as PcnListItem[]).find((pcn) => pcn.id === id);
    expect(row).toBeDefined();
    return row!;
  }

  /** The file a signed thumbnail URL names. */
  const fileOf = (url: string | null) => (url === null ? null : /\/uploads\/([^/?]+)\/thumbnail\?/.exec(url)![1]);

  function edit(pcn: NewPcn, change: { add?: number[]; remove?: string[] }) {
    const form = new FormData();
    for (const seed of change.add ?? []) {
      const upload = jpegUpload(seed);
      form.append('images', new Blob([upload.bytes], { type: 'image/jpeg' }), upload.name);
    }
    for (const id of change.remove ?? []) form.append('removeImageIds', id);
    return t.request('PUT', `/pcns/${pcn.id}`, { token: officer.token, body: form });
  }

  it('counts the photos a notice is filed with and shows the first', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, { images: [jpegUpload(1), jpegUpload(2)] });
    const row = await listRow(pcn.id);
    expect(row.photoCount).toBe(2);
    expect(fileOf(row.firstThumbnailUrl)).toBe(pcn.images[0]!.fileName);
    expect(row.photosPurgedAt).toBeNull();
    expect((await listRow(pcn.id, 'officer')).photoCount).toBe(2);
  });

  it('follows an edit that removes the first photo and adds two', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, { images: [jpegUpload(11), jpegUpload(12)] });
    const res = await edit(pcn, { add: [13, 14], remove: [pcn.images[0]!.id] });
    expect(res.status, res.text).toBe(200);
    const row = await listRow(pcn.id);
    expect(row.photoCount).toBe(3);
    expect(fileOf(row.firstThumbnailUrl)).toBe(pcn.images[1]!.fileName);
  });

  it('keeps the count but shows no thumbnail once the retention policy removed the files', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, { images: [jpegUpload(21), jpegUpload(22)] });
    for (const status of ['UNDER_REVIEW', 'REJECTED'] as const) {
      expect((await t.request('PATCH', `/pcns/${pcn.id}/status`, { token: admin.token, json: { status } })).status).toBe(200);
    }
    const purged = await purgeExpiredEvidence(
      { db: t.db, uploadsDir: t.config.uploadsDir, retentionDays: 0, now: t.deps.now, logger: silentLogger },
      {},
    );
    expect(purged.pcns.map((closed) => closed.pcnNumber)).toContain(pcn.pcnNumber);
    const row = await listRow(pcn.id);
    expect(row.photoCount).toBe(2);
    expect(row.firstThumbnailUrl).toBeNull();
    const detail = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data;
    expect(row.photosPurgedAt).toBe(detail.photosPurgedAt);
    expect(row.photosPurgedAt).toEqual(expect.any(String));
  });

  it('is filled from the photos there are when an older database is upgraded', async () => {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, { images: [jpegUpload(31), jpegUpload(32), jpegUpload(33)] });
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrationsFor(engineOf(t.db)) } });
    const down = await migrator.migrateTo('0043_debt_recovery_handovers');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => result.migrationName)).toContain('0044_pcn_photo_summary');
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const row = await listRow(pcn.id);
    expect(row.photoCount).toBe(3);
    expect(fileOf(row.firstThumbnailUrl)).toBe(pcn.images[0]!.fileName);
    // A notice without photos (none was ever required) counts none.
    const bare = await t.db
      .selectFrom('pcns')
      .select('photo_count')
      .where('id', 'not in', t.db.selectFrom('pcn_images').select('pcn_id'))
      .execute();
    expect(bare.every((summary) => summary.photo_count === 0)).toBe(true);
  });
});
