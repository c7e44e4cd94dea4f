import { serve } from '@hono/node-server';
import { isLocalOnlyUrl } from '@parkpatrol/shared';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { createApp } from './app.ts';
import { limitHttpServer } from './http/body-deadline.ts';
import { loadConfig } from './config.ts';
import { withMaintenanceLock } from './db/dialect.ts';
import { connectDatabase, migrateToLatest } from './db/database.ts';
import { seedDemoData } from './db/seed.ts';
import { createLogger } from './services/logger.ts';
import { createMailer } from './services/mail.ts';
import { createMetrics } from './services/metrics.ts';
import { createCardProcessor } from './services/card-processor.ts';
import { sweepSpoolLeftovers } from './services/evidence-storage.ts';
import { createConfiguredEvidenceStore } from './services/evidence-store-s3.ts';
import { scheduleDailyEvidencePurge } from './services/purge-expired-evidence.ts';
import { findKnownStoredFileNames } from './repositories/stored-files.ts';
import { fillMissingKeeperPostingDays } from './repositories/keeper-posting-days.ts';
import { connectJobQueue } from './jobs/connect-job-queue.ts';
import { createRequestCounter } from './http/requests-in-flight.ts';
import { jobHandlers } from './jobs/job-handlers.ts';

const logger = createLogger();
const config = loadConfig();
const webDist = config.webDistDir ?? resolve(import.meta.dirname, '../../web/dist');
const { db, close: closeDatabase } = connectDatabase(config.database, {
  onLostConnection: (error) =>
    logger.warn('the database ended an idle connection; the next query opens a new one', { error: error.message }),
});
await migrateToLatest(db);
const filled = await fillMissingKeeperPostingDays(db);
if (filled > 0) logger.info('worked out the keeper posting day of notices stored before it was kept', { count: filled });
if (!config.isProduction) {
  const seeded = await seedDemoData(db);
  if (seeded) logger.info('seeded demo data into an empty database', { accounts: ['admin@example.com', 'officer@example.com'] });
}
const evidence = createConfiguredEvidenceStore(config);
// Before listening, no upload of this process is in flight: anything a crash left between the
// file rename and the database commit (or a temp file) is an orphan and goes. A bucket is
// shared with other processes that may be between their upload and their commit right now, so
// there only objects older than an hour go; the photos are still spooled to the local folder.
// Processes starting together on one PostgreSQL database sweep the store one at a time: the
// others skip it. The spool folder is this process's own and is always swept.
const isBucket = config.evidenceStore.kind === 's3';
const startedAt = new Date();
const sweep = await withMaintenanceLock(db, 'evidence-orphan-sweep', () =>
  evidence
    .sweepOrphans({
      olderThan: isBucket ? new Date(startedAt.getTime() - 60 * 60 * 1000) : startedAt,
      findKnown: (names) => findKnownStoredFileNames(db, names),
    })
    .catch((error: unknown) => {
      throw new Error(`Cannot reach the evidence store ${evidence.location} (EVIDENCE_STORE): ${String(error)}`, { cause: error });
    }),
);
if (sweep.isSkipped) logger.info('skipped the sweep for evidence files left by an interrupted upload: another process is running it');
const orphans = sweep.isSkipped ? [] : sweep.result;
if (isBucket) orphans.push(...(await sweepSpoolLeftovers(config.uploadsDir, startedAt)));
if (orphans.length > 0) logger.info('removed evidence files left by an interrupted upload', { count: orphans.length });
if (isBucket) logger.info('evidence photos are stored in a bucket', { location: evidence.location });
// The API process works jobs too, on SQLite giving way to the requests it answers; on
// PostgreSQL, `npm run worker` processes share them.
const requestsInFlight = createRequestCounter();
const jobs = await connectJobQueue(db, config.database, logger, { giveWayTo: requestsInFlight });
const mailer = createMailer({ db, smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom, logger });
const metrics = createMetrics({ processMetrics: true });
await jobs.work(jobHandlers({ db, evidence, config, now: () => new Date(), logger, mailer, metrics }));
const app = createApp({
  db,
  evidence,
  jobs,
  config: { ...config, webDistDir: existsSync(webDist) ? webDist : undefined },
  mailer,
  logger,
  now: () => new Date(),
  metrics,
  cardProcessor: createCardProcessor(config),
});

const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
  logger.info(`${config.productName} Self Ticketing is running`, { url: `http://localhost:${info.port}`, dataDir: config.dataDir });
  // Onboarding and reset emails carry APP_URL links: a phone cannot open the server's own loopback.
  if (isLocalOnlyUrl(config.appUrl)) {
    logger.warn(
      'APP_URL points at this machine only: links in onboarding and reset emails will not open on a phone. Set APP_URL to the public address.',
      { appUrl: config.appUrl },
    );
  }
});

// Photos of closed notices go after EVIDENCE_RETENTION_DAYS: a job asked for now, then daily.
const stopEvidencePurge = scheduleDailyEvidencePurge({ jobs, now: () => new Date(), logger });

// Keep-alive, header and request deadlines and the connection caps, in all and per client
// address (http/body-deadline.ts, http/connection-limits.ts).
limitHttpServer(server as import('node:http').Server, { connectionsPerAddress: config.connectionsPerAddress });
requestsInFlight.watch(server as import('node:http').Server);

function shutdown(signal: string) {
  logger.info('shutting down', { signal });
  stopEvidencePurge();
  server.close(() => {
    void jobs
      .stop()
      .then(closeDatabase)
      .finally(() => process.exit(0));
  });
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
