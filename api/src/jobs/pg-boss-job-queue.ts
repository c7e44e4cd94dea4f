import { setTimeout as sleep } from 'node:timers/promises';
import { PgBoss, type JobResult } from 'pg-boss';
import type { Logger } from '../services/logger.ts';
import { JOB_NAMES, JOB_RETRY, type JobHandlers, type JobQueue } from './job-queue.ts';

/** Jobs a process takes at once: enough to keep working through a burst without a poll's wait. */
const FETCH_SIZE = 4;
/** pg-boss's own schema in the product's database. */
const SCHEMA = 'pgboss';

/**
 * The job queue on PostgreSQL: pg-boss, in a schema of its own in the product's database. Every API
 * process and every `npm run worker` shares it; each job is claimed by one of them at a time
 * (pg-boss takes it with SKIP LOCKED), and the claim of a process that died lapses with its
 * heartbeat, after which the job is tried again.
 */

export async function createPgBossJobQueue(connectionString: string, logger: Logger): Promise<JobQueue> {
  const boss = new PgBoss({
    connectionString,
    schema: SCHEMA,
    application_name: 'parkpatrol-jobs',
    max: 4,
    // How soon a job whose process died is noticed (with the queues' heartbeat below): within
    // about half a minute, not at the end of expireInSeconds.
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
    useListenNotify: true,
  });
  // pg-boss reports a lost connection or a failed maintenance pass here and carries on; an
  // 'error' nobody listens to would end the process.
  boss.on('error', (error: Error) => logger.warn('the job queue met a database error and carries on', { error: error.message }));
  await boss.start();
  for (const name of JOB_NAMES) {
    await boss.createQueue(name, {
      retryLimit: JOB_RETRY.retryLimit,
      retryDelay: JOB_RETRY.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: JOB_RETRY.expireInSeconds,
      // A working process refreshes its claim every 5 s; a claim 10 s stale is a dead process's.
      heartbeatSeconds: 10,
      notify: true,
    });
  }
  let isWorking = false;

  return {
    async send(name, data) {
      const id = await boss.send(name, data);
      if (!id) throw new Error(`the job queue did not store a ${name} job`);
    },
    async work(handlers: JobHandlers) {
      isWorking = true;
      for (const name of JOB_NAMES) {
        const handler = handlers[name] as (data: unknown) => Promise<void>;
        // A few jobs per fetch, worked one after another, each settled on its own; while fetches
        // come back full the worker fetches again at once, and a send wakes it (NOTIFY).
        await boss.work(
          name,
          {
            batchSize: FETCH_SIZE,
            burstWhenBatchFull: true,
            perJobResults: true,
            // A retry's time comes with no NOTIFY: it waits for a poll, at most a second late.
            pollingIntervalSeconds: 1,
            notifyPollingIntervalSeconds: 1,
          },
          async (jobs) => {
            const results: JobResult[] = [];
            for (const job of jobs) {
              const startedAt = Date.now();
              try {
                await handler(job.data);
                logger.info('job done', { job: name, id: job.id, ms: Date.now() - startedAt });
                results.push({ id: job.id, status: 'completed' });
              } catch (error) {
                const message = error instanceof Error ? error.message : String(error);
                logger.warn('a job failed and will be tried again while it has tries left', {
                  job: name,
                  id: job.id,
                  try: job.retryCount + 1,
                  error: message,
                });
                results.push({ id: job.id, status: 'failed', output: { message } });
              }
            }
            return results;
          },
        );
      }
    },
    async whenIdle() {
      if (!isWorking) return;
      for (;;) {
        const { rows } = await boss.getDb().executeSql(
          `select count(*)::int as due from ${SCHEMA}.job where name = any($1)
             and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
          [JOB_NAMES],
        );
        if ((rows[0] as { due: number }).due === 0) return;
        await sleep(50);
      }
    },
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
}
