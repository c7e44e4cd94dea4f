/**
 * `npm run worker`: a process that only works jobs (thumbnails, batches of letters, the motorist's appeal emails; decisions 0046, 0047), beside the API
 * processes that share one PostgreSQL database. Start as many as the work needs; each job is
 * worked by one of them at a time. On SQLite the API process works its jobs itself: one process
 * serves a SQLite file, so there is nothing to share.
 */
import { loadConfig } from '../api/src/config.ts';
import { connectDatabase, migrateToLatest } from '../api/src/db/database.ts';
import { connectJobQueue } from '../api/src/jobs/connect-job-queue.ts';
import { jobHandlers } from '../api/src/jobs/job-handlers.ts';
import { createConfiguredEvidenceStore } from '../api/src/services/evidence-store-s3.ts';
import { createLogger } from '../api/src/services/logger.ts';
import { createMailer } from '../api/src/services/mail.ts';
import { createMetrics } from '../api/src/services/metrics.ts';

const config = loadConfig();
const logger = createLogger();
if (config.database.engine !== 'postgres') {
  process.stderr.write('npm run worker is for PostgreSQL (DATABASE_URL=postgres://...): on SQLite the API process works its own jobs.\n');
  process.exit(1);
}
const { db, close } = connectDatabase(config.database, {
  onLostConnection: (error) =>
    logger.warn('the database ended an idle connection; the next query opens a new one', { error: error.message }),
});
await migrateToLatest(db);
const jobs = await connectJobQueue(db, config.database, logger);
const mailer = createMailer({ db, smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom, logger });
// Its own counters, read by nobody yet: a worker serves no /metrics (the API processes do).
const metrics = createMetrics();
await jobs.work(
  jobHandlers({ db, evidence: createConfiguredEvidenceStore(config), config, now: () => new Date(), logger, mailer, metrics }),
);
logger.info('working jobs', { pid: process.pid });

function shutdown(signal: string) {
  logger.info('shutting down', { signal });
  void jobs
    .stop()
    .then(close)
    .finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 15_000).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
