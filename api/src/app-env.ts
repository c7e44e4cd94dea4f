import type { Role, User } from '@parkpatrol/shared';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { SignInLimiter } from './auth/sign-in-limiter.ts';
import type { EvidenceStore } from './services/evidence-storage.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { UploadGate } from './services/upload-gate.ts';
import type { Logger } from './services/logger.ts';
import type { Mailer } from './services/mail.ts';
import type { Metrics } from './services/metrics.ts';
import type { CardProcessor } from './services/card-processor.ts';

/** Everything the app needs from outside; tests build their own. */
export type AppDeps = {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
  /** The Prometheus metrics this process counts (services/metrics.ts). */
  metrics: Metrics;
  /** Where evidence photos are kept (the uploads folder or an S3 bucket): made once at start from the configuration. */
  evidence: EvidenceStore;
  /** Work done after the answer: thumbnails, batches of letters (jobs/job-queue.ts). */
  jobs: JobQueue;
  /** Password-guess limits shared by sign-in and the profile; in the database, by SIGN_IN_POLICY, unless given. */
  signInLimiter?: SignInLimiter;
  /** How many uploads run at once, per user and in all; the default caps unless given. */
  uploadGate?: UploadGate;
  /** How long a request may take to arrive: a stranger's, and a signed-in upload's (http/body-deadline.ts). */
  bodyDeadlines?: { shortMs: number; longMs: number };
  /**
   * Card payments through Stripe, or null without STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET
   * (services/card-processor.ts).
   */
  cardProcessor: CardProcessor | null;
};

export type AuthUser = {
  id: string;
  role: Role;
  email: string;
  firstName: string;
  lastName: string;
};

/** `sessionId` is the refresh-token family of the access token (one sign-in). */
export type AppEnv = { Variables: { user: AuthUser; account: User; sessionId: string; requestId: string } };
