import { JOB_NAMES, type JobHandlers } from '../../src/jobs/job-queue.ts';

/** A handler for every kind of job that does nothing: a test's queue must name every kind, and works only those it gives its own. */
export const IDLE_JOB_HANDLERS = Object.fromEntries(JOB_NAMES.map((name) => [name, async () => undefined])) as unknown as JobHandlers;
