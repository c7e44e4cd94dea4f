import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pcn, type PcnAuditResponse, type PcnStatus } from '@parkpatrol/shared';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/services/logger.ts';
import { purgeExpiredEvidence, scheduleDailyEvidencePurge } from '../src/services/purge-expired-evidence.ts';
import { createPcnViaApi, jpegUpload, listUploadFiles, type NewPcn } from './fixtures.ts';
import { createTestApp, databaseEnv, type Session, type TestApp } from './test-app.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const DAY = 24 * 60 * 60 * 1000;

describe('evidence retention', () => {
  let t: TestApp;
  let admin: Session;
  let officer: Session;
  let carParkId: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signedInUser('ADMIN');
    officer = await t.signedInUser('USER');
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
  });
  afterAll(() => t.close());

  const purge = (options: { retentionDays?: number; isDryRun?: boolean; now?: () => Date } = {}) =>
    purgeExpiredEvidence(
      {
        db: t.db,
        uploadsDir: t.config.uploadsDir,
        retentionDays: options.retentionDays ?? 0,
        now: options.now ?? t.deps.now,
        logger: createLogger((line) => logLines.push(line)),
      },
      { isDryRun: options.isDryRun },
    );

  /** A PCN with photos moved along the admin's path to `status`. */
  async function pcnIn(status: PcnStatus, seed: number): Promise<NewPcn> {
    const pcn = await createPcnViaApi(t, officer.token, carParkId, { images: [jpegUpload(seed), jpegUpload(seed + 1)] });
    const path: Record<PcnStatus, PcnStatus[]> = {
      SUBMITTED: [],
      UNDER_REVIEW: ['UNDER_REVIEW'],
      APPROVED: ['UNDER_REVIEW', 'APPROVED'],
      ISSUED: ['UNDER_REVIEW', 'APPROVED', 'ISSUED'],
      PAID: ['UNDER_REVIEW', 'APPROVED', 'ISSUED', 'PAID'],
      CANCELLED: ['CANCELLED'],
      REJECTED: ['UNDER_REVIEW', 'REJECTED'],
    };
    for (const to of path[status]) {
      // A cancellation always says why.
      const json = to === 'CANCELLED' ? { status: to, cancellationReason: 'OPERATOR_ERROR' } : { status: to };
      const res = await t.request('PATCH', `/pcns/${pcn.id}/status`, { token: admin.token, json });
      expect(res.status, res.text).toBe(200);
    }
    return pcn;
  }

  const getPcn = async (id: string, token = admin.token) => (await t.request('GET', `/pcns/${id}`, { token })).json.data as Pcn;
  const auditOf = async (id: string) =>
    ((await t.request('GET', `/pcns/${id}/audit`, { token: admin.token })).json.data as PcnAuditResponse).entries;
  const fileNamesOf = (pcn: Pcn) => pcn.images.map((image) => image.fileName);

  it('with 0 days, removes the files of paid, cancelled and rejected PCNs, keeps their facts, and records it', async () => {
    const closed = await Promise.all([pcnIn('PAID', 10), pcnIn('CANCELLED', 20), pcnIn('REJECTED', 30)]);
    const open = await Promise.all(
      (['SUBMITTED', 'UNDER_REVIEW', 'APPROVED', 'ISSUED'] as const).map((status, index) => pcnIn(status, 40 + index * 10)),
    );

    const dryRun = await purge({ isDryRun: true });
    expect(dryRun.pcns.map((pcn) => pcn.pcnNumber).sort()).toEqual(closed.map((pcn) => pcn.pcnNumber).sort());
    expect(dryRun.pcns.every((pcn) => pcn.photoCount === 2)).toBe(true);
    for (const pcn of closed) for (const name of fileNamesOf(pcn)) expect(listUploadFiles(t)).toContain(name);
    expect((await auditOf(closed[0]!.id)).some((entry) => entry.action === 'images_purged')).toBe(false);

    const result = await purge();
    expect(result.pcns.map((pcn) => pcn.pcnNumber).sort()).toEqual(closed.map((pcn) => pcn.pcnNumber).sort());
    for (const pcn of closed) {
      for (const name of fileNamesOf(pcn)) expect(listUploadFiles(t)).not.toContain(name);
      const after = await getPcn(pcn.id);
      expect(after.photosPurgedAt).toEqual(expect.any(String));
      // Rows, hashes and capture facts stay; no URL is handed out for a file that is gone.
      expect(after.images.map((image) => image.sha256)).toEqual(pcn.images.map((image) => image.sha256));
      for (const image of after.images) {
        expect(image.url).toBeNull();
        expect(image.purgedAt).toBe(after.photosPurgedAt);
      }
      const entry = (await auditOf(pcn.id)).at(-1)!;
      expect(entry).toMatchObject({ action: 'images_purged', actor: null, actorName: 'Retention policy' });
      expect((entry.changes.images!.from as Array<{ sha256: string }>).map((image) => image.sha256)).toEqual(
        pcn.images.map((image) => image.sha256),
      );
      // The old signed URL and the bearer route both answer 404 now.
      expect((await t.app.request(pcn.images[0]!.url)).status).toBe(404);
      expect((await t.request('GET', `/uploads/${pcn.images[0]!.fileName}`, { token: admin.token })).status).toBe(404);
    }
    for (const pcn of open) {
      for (const name of fileNamesOf(pcn)) expect(listUploadFiles(t)).toContain(name);
      const after = await getPcn(pcn.id);
      expect(after.photosPurgedAt).toBeNull();
      expect(after.images.every((image) => typeof image.url === 'string')).toBe(true);
    }
    // The owner sees the same: the detail screen shows the notice rather than broken images.
    expect((await getPcn(closed[0]!.id, officer.token)).photosPurgedAt).toEqual(expect.any(String));
  });

  it('does nothing on a second run', async () => {
    const closed = await pcnIn('CANCELLED', 100);
    expect((await purge()).pcns.map((pcn) => pcn.pcnNumber)).toContain(closed.pcnNumber);
    const entries = await auditOf(closed.id);
    expect((await purge()).pcns).toEqual([]);
    expect(await auditOf(closed.id)).toEqual(entries);
  });

  it('counts the days from when the PCN closed, not from when it was filed', async () => {
    const closed = await pcnIn('REJECTED', 200);
    const later = (days: number) => () => new Date(Date.now() + days * DAY);
    expect((await purge({ retentionDays: 180, now: later(179) })).pcns.map((pcn) => pcn.pcnNumber)).not.toContain(closed.pcnNumber);
    expect((await purge({ retentionDays: 180, now: later(181) })).pcns.map((pcn) => pcn.pcnNumber)).toContain(closed.pcnNumber);
  });

  it('leaves the sweep at the next start to remove a file the run could not', async () => {
    // The photos are marked purged, so a file still on disk is no longer "known" to the sweep.
    const { findKnownStoredFileNames } = await import('../src/repositories/stored-files.ts');
    const closed = await pcnIn('PAID', 300);
    await purge();
    expect(await findKnownStoredFileNames(t.db, fileNamesOf(closed))).toEqual(new Set());
  });

  it('runs at once as a job when the server schedules it, and logs what it removed', async () => {
    const closed = await pcnIn('CANCELLED', 400);
    // The app's own queue works the job, with its handlers, its configuration and its log.
    const keptDays = t.config.evidenceRetentionDays;
    t.config.evidenceRetentionDays = 0;
    const stop = scheduleDailyEvidencePurge({ jobs: t.deps.jobs, now: t.deps.now, logger: t.deps.logger });
    try {
      await expect
        .poll(() => t.logLines.some((line) => line.includes('job done') && line.includes('retentionSweep')), { timeout: 10_000 })
        .toBe(true);
      expect(t.logLines.some((line) => line.includes('removed photos under the retention policy'))).toBe(true);
      expect((await getPcn(closed.id)).photosPurgedAt).toEqual(expect.any(String));
    } finally {
      stop();
      t.config.evidenceRetentionDays = keptDays;
    }
  });

  describe('npm run retention', () => {
    async function retention(args: string[], days: string) {
      const { stdout } = await run(process.execPath, ['scripts/retention.ts', ...args], {
        cwd: root,
        env: { ...process.env, DATA_DIR: t.config.dataDir, ...databaseEnv(t), EVIDENCE_RETENTION_DAYS: days },
      });
      return stdout;
    }

    it('--dry-run lists what would go and deletes nothing; without it the files go', async () => {
      const closed = await pcnIn('PAID', 500);
      const dry = await retention(['--dry-run'], '0');
      expect(dry).toContain(`Would remove 2 photos of PCN-${closed.pcnNumber} (PAID`);
      expect(dry).toContain('(dry run: nothing was deleted)');
      for (const name of fileNamesOf(closed)) expect(existsSync(join(t.config.uploadsDir, name))).toBe(true);

      expect(await retention([], '180')).toContain('Nothing to remove.');
      const real = await retention([], '0');
      expect(real).toContain(`Removed 2 photos of PCN-${closed.pcnNumber}`);
      for (const name of fileNamesOf(closed)) expect(existsSync(join(t.config.uploadsDir, name))).toBe(false);
      expect((await auditOf(closed.id)).at(-1)!.action).toBe('images_purged');
    });
  });

  it('reads EVIDENCE_RETENTION_DAYS once at start: 180 by default, 0 allowed, anything else refused by name', () => {
    const env = { DATA_DIR: t.config.dataDir, JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig(env).evidenceRetentionDays).toBe(180);
    expect(loadConfig({ ...env, EVIDENCE_RETENTION_DAYS: '0' }).evidenceRetentionDays).toBe(0);
    expect(loadConfig({ ...env, EVIDENCE_RETENTION_DAYS: '365' }).evidenceRetentionDays).toBe(365);
    // An empty value must not read as 0 and wipe every closed notice's photos.
    for (const bad of ['', 'six months', '-1', '1.5', '4000']) {
      expect(() => loadConfig({ ...env, EVIDENCE_RETENTION_DAYS: bad })).toThrow(/EVIDENCE_RETENTION_DAYS/);
    }
  });
});
