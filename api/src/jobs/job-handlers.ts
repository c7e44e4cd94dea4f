import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { EvidenceStore } from '../services/evidence-storage.ts';
import type { Logger } from '../services/logger.ts';
import type { Mailer } from '../services/mail.ts';
import type { Metrics } from '../services/metrics.ts';
import { runEvidencePurge } from '../services/purge-expired-evidence.ts';
import { sendAppealEmail } from '../workflows/appeal-emails.ts';
import { makeDebtRecoveryBatch } from '../workflows/debt-recovery.ts';
import { makeEvidencePack } from '../workflows/evidence-packs.ts';
import { sendAccountEmail } from '../workflows/account-emails.ts';
import { sendAppealConfirmation } from '../workflows/pending-appeals.ts';
import { sendEmailChangeNotice } from '../workflows/update-user-account.ts';
import { makeKeeperLetterBatch } from '../workflows/keeper-letter-batches.ts';
import { keepNoticeToDriver } from '../workflows/keep-notice-to-driver.ts';
import { makeThumbnails } from '../workflows/make-thumbnails.ts';
import type { JobHandlers } from './job-queue.ts';

export type JobDeps = {
  db: Db;
  evidence: EvidenceStore;
  config: Config;
  now: () => Date;
  logger: Logger;
  mailer: Mailer;
  metrics: Metrics;
};

/** What each kind of job does, in whichever process works it. */
export function jobHandlers(deps: JobDeps): JobHandlers {
  return {
    thumbnails: ({ fileNames }) => makeThumbnails(deps.evidence, fileNames),
    noticeToDriver: ({ pcnId }) => keepNoticeToDriver(deps, { pcnId, appUrl: deps.config.appUrl }),
    keeperLetters: ({ batchId }) => makeKeeperLetterBatch({ ...deps, appUrl: deps.config.appUrl }, batchId),
    retentionSweep: () => runEvidencePurge({ ...deps, retentionDays: deps.config.evidenceRetentionDays }),
    appealEmail: (job) => sendAppealEmail(deps, job),
    evidencePack: ({ packId }) => makeEvidencePack(deps, packId),
    accountEmail: (job) => sendAccountEmail(deps, job),
    appealConfirmation: (job) => sendAppealConfirmation(deps, job),
    emailChangeNotice: (job) => sendEmailChangeNotice(deps, job),
    debtRecoveryBatch: ({ handoverId }) => makeDebtRecoveryBatch(deps, handoverId),
  };
}
