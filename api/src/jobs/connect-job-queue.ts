import type { Db, DatabaseTarget } from '../db/database.ts';
import type { RequestsInFlight } from '../http/requests-in-flight.ts';
import type { Logger } from '../services/logger.ts';
import type { JobQueue } from './job-queue.ts';
import { createPgBossJobQueue } from './pg-boss-job-queue.ts';
import { createSqliteJobQueue } from './sqlite-job-queue.ts';

/**
 * The job queue of the database the product runs on (decision 0046). On SQLite the jobs are worked
 * in the process that answers, and give way to `giveWayTo`'s requests (decision 0050); on
 * PostgreSQL `npm run worker` can take them to another machine, and pg-boss polls on its own.
 */
export function connectJobQueue(
  db: Db,
  target: DatabaseTarget,
  logger: Logger,
  options: { giveWayTo?: RequestsInFlight; giveWayMs?: number } = {},
): Promise<JobQueue> {
  return target.engine === 'postgres' ? createPgBossJobQueue(target.url, logger) : createSqliteJobQueue(db, logger, options);
}
