import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { RequestsInFlight } from '../http/requests-in-flight.ts';
import type { Logger } from '../services/logger.ts';
import { JOB_RETRY, retryDelaySeconds, type JobHandlers, type JobName, type JobQueue } from './job-queue.ts';

/**
 * The job queue on SQLite: a table in the database file, worked in the one process that serves
 * the file, one job at a time, and giving way to the answers (a small server's cores are for
 * answering: decision 0050). The table is the queue's
 * own machinery, as pg-boss's schema is on PostgreSQL: made here, not by the product's migrations,
 * and never read by the product.
 *
 * Times are the machine's (Date.now()), not the application's clock: a retry's wait is real time
 * even where a test stops the application's clock.
 */
const CREATE_TABLE = sql`
  create table if not exists job_queue (
    id text primary key,
    name text not null,
    data text not null,
    state text not null check (state in ('created', 'active', 'completed', 'failed')),
    retry_count integer not null default 0,
    start_after integer not null,
    started_at integer,
    completed_at integer,
    last_error text,
    created_at integer not null
  )`;
const CREATE_INDEX = sql`create index if not exists job_queue_due on job_queue (state, start_after)`;
/** Done jobs are kept a week, as pg-boss keeps them, for whoever looks into a problem. */
const KEEP_DONE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How long a job that is due waits for the requests in flight to be answered, at most. A burst of
 * uploads is answered at the speed of the uploads alone, and their thumbnails follow it; a stream
 * of requests that never stops (slow uploads over one bar of signal hold theirs for minutes) holds
 * no job back for longer than this.
 */
export const GIVE_WAY_MS = 10_000;

type ClaimedJob = { id: string; name: JobName; data: string; retry_count: number };

export async function createSqliteJobQueue(
  db: Kysely<any>,
  logger: Logger,
  options: { giveWayTo?: RequestsInFlight; giveWayMs?: number } = {},
): Promise<JobQueue> {
  const { giveWayTo, giveWayMs = GIVE_WAY_MS } = options;
  await CREATE_TABLE.execute(db);
  await CREATE_INDEX.execute(db);
  let handlers: JobHandlers | null = null;
  let draining: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;

  async function claim(): Promise<ClaimedJob | undefined> {
    const now = Date.now();
    const { rows } = await sql<ClaimedJob>`
      update job_queue set state = 'active', started_at = ${now}
      where id = (select id from job_queue where state = 'created' and start_after <= ${now} order by start_after, created_at limit 1)
      returning id, name, data, retry_count`.execute(db);
    return rows[0];
  }

  async function runOne(job: ClaimedJob): Promise<void> {
    try {
      const handler = handlers![job.name] as (data: unknown) => Promise<void>;
      const startedAt = Date.now();
      await handler(JSON.parse(job.data));
      await sql`update job_queue set state = 'completed', completed_at = ${Date.now()} where id = ${job.id}`.execute(db);
      logger.info('job done', { job: job.name, id: job.id, ms: Date.now() - startedAt });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (job.retry_count < JOB_RETRY.retryLimit) {
        const startAfter = Date.now() + retryDelaySeconds(job.retry_count) * 1000;
        await sql`update job_queue set state = 'created', retry_count = retry_count + 1, start_after = ${startAfter}, last_error = ${message}
                  where id = ${job.id}`.execute(db);
        logger.warn('a job failed and will be tried again', { job: job.name, id: job.id, try: job.retry_count + 1, error: message });
      } else {
        await sql`update job_queue set state = 'failed', completed_at = ${Date.now()}, last_error = ${message} where id = ${job.id}`.execute(
          db,
        );
        logger.error('a job failed for the last time', { job: job.name, id: job.id, tries: job.retry_count + 1, error: message });
      }
    }
  }

  async function drain(): Promise<void> {
    while (!isStopped) {
      await giveWay();
      const job = isStopped ? undefined : await claim();
      if (!job) return;
      await runOne(job);
    }
  }

  /** Waits while requests are being answered, until `giveWayMs` after the oldest due job fell due. */
  async function giveWay(): Promise<void> {
    while (giveWayTo && giveWayTo.count > 0 && !isStopped) {
      const now = Date.now();
      const { rows } = await sql<{ due: number | null }>`
        select min(start_after) as due from job_queue where state = 'created' and start_after <= ${now}`.execute(db);
      const due = rows[0]?.due;
      if (due == null) return;
      const left = Number(due) + giveWayMs - now;
      if (left <= 0) return;
      await Promise.race([giveWayTo.whenNone(), sleep(Math.min(left, 1_000))]);
    }
  }

  /** Wakes at the next waiting job's time (a retry's), or when a job is sent. */
  async function scheduleNext(): Promise<void> {
    clearTimeout(timer);
    if (isStopped || !handlers) return;
    const { rows } = await sql<{ next: number | null }>`select min(start_after) as next from job_queue where state = 'created'`.execute(db);
    const next = rows[0]?.next;
    if (next != null) timer = setTimeout(wake, Math.max(0, next - Date.now())).unref();
  }

  function wake(): void {
    if (isStopped || !handlers || draining) return;
    draining = drain()
      .catch((error: unknown) => logger.error('the job queue could not read its table', { error: String(error) }))
      .finally(() => {
        draining = null;
        void scheduleNext().catch(() => undefined);
      });
  }

  return {
    async send(name, data) {
      const now = Date.now();
      await sql`insert into job_queue (id, name, data, state, start_after, created_at)
                values (${randomUUID()}, ${name}, ${JSON.stringify(data)}, 'created', ${now}, ${now})`.execute(db);
      // After this request's own work, never inside it.
      setImmediate(wake);
    },
    async work(given) {
      handlers = given;
      // One process serves the file, so a job still marked running was this process's before a
      // crash or a kill: it is tried again, and the try counts, so a job that kills the process
      // every time ends failed rather than looping for ever.
      await sql`update job_queue set state = 'created', retry_count = retry_count + 1, last_error = 'the process stopped while it ran'
                where state = 'active'`.execute(db);
      await sql`update job_queue set state = 'failed', completed_at = ${Date.now()}
                where state = 'created' and retry_count > ${JOB_RETRY.retryLimit}`.execute(db);
      await sql`delete from job_queue where state in ('completed', 'failed') and completed_at < ${Date.now() - KEEP_DONE_MS}`.execute(db);
      wake();
    },
    async whenIdle() {
      for (;;) {
        const { rows } = await sql<{ due: number }>`
          select count(*) as due from job_queue where state = 'active' or (state = 'created' and start_after <= ${Date.now()})`.execute(db);
        if (!draining && Number(rows[0]?.due ?? 0) === 0) return;
        await sleep(20);
      }
    },
    async stop() {
      isStopped = true;
      clearTimeout(timer);
      await draining;
    },
  };
}
