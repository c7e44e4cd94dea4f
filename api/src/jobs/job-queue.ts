/**
 * Work that need not finish before the request answers: each kind of job, what it carries, and the
 * queue that keeps it until it is done (decision 0046). On PostgreSQL the queue is pg-boss, shared
 * by every API process and `npm run worker`; on SQLite, whose file one process serves, a table of
 * that process's own worked in the process. Either way a job is stored before `send` resolves, so
 * it survives a crash, and is tried again with a doubling delay when it fails.
 */
export type JobData = {
  /** The small copies of photos just stored (services/thumbnails.ts), by the originals' names. */
  thumbnails: { fileNames: string[] };
  /** The notice to driver kept for a notice just filed (workflows/keep-notice-to-driver.ts), by the notice's id. */
  noticeToDriver: { pcnId: string };
  /** A batch of notices to keeper (workflows/keeper-letter-batches.ts), by its id. */
  keeperLetters: { batchId: string };
  /** The daily evidence retention run (services/purge-expired-evidence.ts), by the UK day it was asked for. */
  retentionSweep: { day: string };
  /** A motorist's email about their appeal (workflows/appeal-emails.ts), by the appeal's id. */
  appealEmail: { appealId: string; kind: AppealEmailKind };
  /** An evidence pack an admin asked for (workflows/evidence-packs.ts), by the pack's id. */
  evidencePack: { packId: string };
  /** The email whose link confirms an appeal sent from /charge (workflows/pending-appeals.ts), minted when sent. */
  appealConfirmation: { pendingAppealId: string };
  /** The old address told that an account's email changed (workflows/update-user-account.ts), as the change was made. */
  emailChangeNotice: { userId: string; from: string; to: string; firstName: string };
  /** A link emailed to an account on request (workflows/account-emails.ts), minted when sent. */
  accountEmail: { userId: string; kind: AccountEmailKind };
  /** A hand-over of charges to the debt recovery agency (workflows/debt-recovery.ts), by its id. */
  debtRecoveryBatch: { handoverId: string };
};

/** The links an account asks for by email: a password reset, a sign-in link for a new device. */
export type AccountEmailKind = 'passwordReset' | 'deviceLink';

/** The emails a motorist is sent about an appeal: its receipt, its withdrawal, its decision. */
export type AppealEmailKind = 'received' | 'withdrawn' | 'decided';

export type JobName = keyof JobData;

/** Every kind of job: each is a queue of its own on PostgreSQL. Listed by a record, so the compiler finds one left out. */
export const JOB_NAMES = Object.keys({
  thumbnails: true,
  noticeToDriver: true,
  keeperLetters: true,
  retentionSweep: true,
  appealEmail: true,
  evidencePack: true,
  accountEmail: true,
  appealConfirmation: true,
  emailChangeNotice: true,
  debtRecoveryBatch: true,
} satisfies Record<JobName, true>) as readonly JobName[];

export type JobHandlers = { [N in JobName]: (data: JobData[N]) => Promise<void> };

/**
 * Tries and waits alike for every job. Five tries over about half a minute (2, 4, 8, 16 s
 * between): long enough for a store or database that blinked, short enough that a thumbnail still
 * comes while the officer looks. A try still running after 15 minutes is taken for dead and tried
 * again (on PostgreSQL a dead process's job is noticed sooner, by its heartbeat).
 */
export const JOB_RETRY = { retryLimit: 4, retryDelaySeconds: 2, expireInSeconds: 15 * 60 } as const;

/** The longest a job can be in the queue's hands, every try taken for dead and every wait between: after it, nothing will work it. */
export const JOB_LIFE_SECONDS =
  (JOB_RETRY.retryLimit + 1) * JOB_RETRY.expireInSeconds + JOB_RETRY.retryDelaySeconds * (2 ** JOB_RETRY.retryLimit - 1);

export type JobQueue = {
  /** Stores the job; resolves once it is stored, not done. */
  send<N extends JobName>(name: N, data: JobData[N]): Promise<void>;
  /** Starts working jobs in this process with these handlers (an API process, or `npm run worker`). */
  work(handlers: JobHandlers): Promise<void>;
  /** Resolves once no job is waiting to run now or running: for a clean stop, and for tests. */
  whenIdle(): Promise<void>;
  /** Stops taking jobs and waits for those running; stored jobs stay for the next start. */
  stop(): Promise<void>;
};

/** The delay before try `retryCount + 1`: doubling from JOB_RETRY.retryDelaySeconds. */
export function retryDelaySeconds(retryCount: number): number {
  return JOB_RETRY.retryDelaySeconds * 2 ** retryCount;
}
