import type { Db, DatabaseTarget } from '../db/database.ts';
import type { Logger } from '../services/logger.ts';
import type { JobQueue } from './job-queue.ts';
import { createPgBossJobQueue } from './pg-boss-job-queue.ts';
import { createSqliteJobQueue } from './sqlite-job-queue.ts';

/** The job queue of the database the product runs on (decision 0046). */
export function connectJobQueue(db: Db, target: DatabaseTarget, logger: Logger): Promise<JobQueue> {
  return target.engine === 'postgres' ? createPgBossJobQueue(target.url, logger) : createSqliteJobQueue(db, logger);
}
