import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { engineOf } from './dialect.ts';

/**
 * PostgreSQL advisory locks for the few things that several API processes on one database must
 * do one at a time. SQLite needs none: one process serves it and its writes queue.
 *
 * These use the two-int form, (space, key of a name): PostgreSQL keeps those apart from the
 * one-bigint locks (PCN_WRITES_LOCK in repositories/pcns.ts, SEED_LOCK in db/seed.ts), so
 * neither can ever block the other. Each space below is one kind of thing locked.
 */
const LOCK_SPACES = {
  /** Sign-in guesses counted for one client address (auth/sign-in-limiter.ts). */
  signInAddress: 1_504_200_101,
  /** Sign-in guesses counted for one account from anywhere (auth/sign-in-limiter.ts); taken before the address. */
  signInAccount: 1_504_200_104,
  /** Events counted against one key of a named limit (auth/rate-limit.ts). */
  rateLimitKey: 1_504_200_102,
  /** Jobs that must not run in two processes at once (the orphan sweep, the evidence purge). */
  maintenance: 1_504_200_103,
} as const;

export type LockSpace = keyof typeof LOCK_SPACES;

/** A name's 32-bit key, the same in every process. Two names sharing a key only wait for each other. */
function keyOf(name: string): number {
  return createHash('sha256').update(name).digest().readInt32BE(0);
}

/**
 * On PostgreSQL, waits for and holds the locks on these names until the transaction ends.
 * They are taken in key order, so two transactions wanting overlapping names cannot deadlock.
 */
export async function lockNamesForTransaction(trx: Db, space: LockSpace, names: readonly string[]): Promise<void> {
  if (engineOf(trx) !== 'postgres') return;
  const keys = [...new Set(names.map(keyOf))].sort((a, b) => a - b);
  for (const key of keys) await sql`select pg_advisory_xact_lock(${LOCK_SPACES[space]}::integer, ${key}::integer)`.execute(trx);
}

export type MaintenanceRun<T> = { isSkipped: true } | { isSkipped: false; result: T };

/**
 * Runs a maintenance job unless another process is running the job of that name right now
 * (PostgreSQL), in which case this run is skipped, not queued: the jobs are idempotent and the
 * other run does the work. On SQLite it just runs.
 *
 * The lock is a session lock held by one pooled connection set aside for the run; the job's own
 * queries go through `db`, the rest of the pool (connectDatabase gives it ten). Not a
 * transaction's lock: a transaction left open for a job of minutes holds back vacuum, and a
 * server with idle_in_transaction_session_timeout would end it mid-run. If the process dies,
 * its connections close and the lock goes with them.
 */
export async function withMaintenanceLock<T>(db: Db, name: string, job: () => Promise<T>): Promise<MaintenanceRun<T>> {
  if (engineOf(db) !== 'postgres') return { isSkipped: false, result: await job() };
  const space = LOCK_SPACES.maintenance;
  const key = keyOf(name);
  return db.connection().execute(async (connection): Promise<MaintenanceRun<T>> => {
    const { rows } = await sql<{
      isLocked: boolean;
    }>`select pg_try_advisory_lock(${space}::integer, ${key}::integer) as "isLocked"`.execute(connection);
    if (!rows[0]?.isLocked) return { isSkipped: true };
    try {
      return { isSkipped: false, result: await job() };
    } finally {
      // A connection lost during the job took the lock with it: nothing is left to release, and
      // that must not turn a finished job into a failed one.
      await sql`select pg_advisory_unlock(${space}::integer, ${key}::integer)`.execute(connection).catch(() => undefined);
    }
  });
}
