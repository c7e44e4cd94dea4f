import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withMaintenanceLock } from '../src/db/dialect.ts';
import { createLogger } from '../src/services/logger.ts';
import { EVIDENCE_PURGE_LOCK, runEvidencePurge } from '../src/services/purge-expired-evidence.ts';
import { createTestApp, ON_POSTGRES, type TestApp } from './test-app.ts';

/**
 * Stateless API processes: the orphan sweep at start-up and the evidence purge run in
 * one process at a time on a shared PostgreSQL database; a process finding one running skips
 * its own. Two apps on one database stand for two processes.
 */
describe('maintenance jobs on one database', () => {
  let one: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    one = await createTestApp();
    other = await createTestApp({ sharingDatabaseOf: one });
  });
  afterAll(async () => {
    await other?.close();
    await one?.close();
  });

  /** A job that runs until released, and says when it has started. */
  function heldJob() {
    let release!: () => void;
    let started!: () => void;
    const isReleased = new Promise<void>((resolve) => (release = resolve));
    const hasStarted = new Promise<void>((resolve) => (started = resolve));
    return { release, hasStarted, job: async () => (started(), await isReleased, 'first') };
  }

  it.skipIf(ON_POSTGRES)('on SQLite, where one process serves the database, just runs the job', async () => {
    expect(await withMaintenanceLock(one.db, 'test-job', async () => 'ran')).toEqual({ isSkipped: false, result: 'ran' });
  });

  it.skipIf(!ON_POSTGRES)(
    'on PostgreSQL, skips a job while another process is running it, and runs it again once that one is done',
    async () => {
      const held = heldJob();
      const first = withMaintenanceLock(one.db, 'test-job', held.job);
      await held.hasStarted;
      let isRun = false;
      expect(await withMaintenanceLock(other.db, 'test-job', async () => (isRun = true))).toEqual({ isSkipped: true });
      expect(isRun).toBe(false);
      // Another job is not held up, and the holder's own queries still get connections.
      expect(await withMaintenanceLock(other.db, 'another-job', async () => 'other')).toEqual({ isSkipped: false, result: 'other' });
      const inside = await sql<{ n: number }>`select 1 as n`.execute(one.db);
      expect(inside.rows[0]?.n).toBe(1);
      held.release();
      expect(await first).toEqual({ isSkipped: false, result: 'first' });
      expect(await withMaintenanceLock(other.db, 'test-job', async () => 'again')).toEqual({ isSkipped: false, result: 'again' });
    },
  );

  it.skipIf(!ON_POSTGRES)('on PostgreSQL, lets the lock go when the job fails', async () => {
    await expect(
      withMaintenanceLock(one.db, 'failing-job', async () => {
        throw new Error('the store is down');
      }),
    ).rejects.toThrow('the store is down');
    expect(await withMaintenanceLock(other.db, 'failing-job', async () => 'next')).toEqual({ isSkipped: false, result: 'next' });
  });

  it.skipIf(!ON_POSTGRES)("on PostgreSQL, skips the daily evidence purge and logs it while another process's purge runs", async () => {
    const held = heldJob();
    const first = withMaintenanceLock(one.db, EVIDENCE_PURGE_LOCK, held.job);
    await held.hasStarted;
    const logLines: string[] = [];
    try {
      // The daily job's run, in the other process.
      await runEvidencePurge({
        db: other.db,
        uploadsDir: other.config.uploadsDir,
        retentionDays: 0,
        now: other.deps.now,
        logger: createLogger((line) => logLines.push(line)),
      });
      expect(logLines.some((line) => line.includes('skipped the evidence retention run'))).toBe(true);
    } finally {
      held.release();
      await first;
    }
  });
});
