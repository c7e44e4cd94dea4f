import { randomUUID } from 'node:crypto';
import {
  APPEAL_MESSAGES,
  formatUkDateTime,
  pcnTitle,
  SERVER_MESSAGES,
  type AppealAwaitingConfirmation,
  type AppealInput,
  type AppealSubmitted,
} from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import type { RateLimiter, RateLimitRule } from '../auth/rate-limit.ts';
import { toPublicCharge } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import { findAppealByIdempotencyKey, findAppealByPcnId } from '../repositories/appeals.ts';
import { isUniqueViolation } from '../repositories/constraint-errors.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import {
  findPendingAppealById,
  findPendingAppealByIdempotencyKey,
  findPendingAppealByTokenHash,
  findPendingAttachments,
  insertPendingAppeal,
  replacePendingAppealToken,
  type PendingAppealRow,
} from '../repositories/pending-appeals.ts';
import { generateOpaqueToken, hashToken } from '../services/crypto-tokens.ts';
import { escapeHtml } from '../services/mail.ts';
import type { SpooledFile } from '../services/multipart-spool.ts';
import { ACCESS_LINK_FAILURES_PER_ADDRESS, tooManyAttempts } from './auth-limits.ts';
import { chargeFactsOf } from './look-up-charge.ts';
import { discardEvidenceFiles } from './pcn-evidence.ts';
import { alreadyAppealed, placeAttachments, submitAppeal, submitted } from './submit-appeal.ts';

type PendingDeps = Pick<AppDeps, 'db' | 'evidence' | 'logger' | 'mailer' | 'jobs' | 'config'>;

/** A day to confirm: the motorist may read the email tomorrow, and a squatter's appeal is gone by then. */
export const APPEAL_CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;

const ONE_HOUR_MS = 60 * 60 * 1000;
/**
 * Confirmation emails, as the reset emails are limited (auth-limits.ts): per client address, so a
 * script cannot file pending appeals (and send emails) in bulk, and per charge, so one charge's
 * form cannot be used to mail the same inbox over and over.
 */
export const APPEAL_CONFIRMATIONS_PER_ADDRESS: RateLimitRule = {
  scope: 'appeal-confirmations-per-address',
  limit: 30,
  windowMs: ONE_HOUR_MS,
};
export const APPEAL_CONFIRMATIONS_PER_CHARGE: RateLimitRule = {
  scope: 'appeal-confirmations-per-charge',
  limit: 10,
  windowMs: ONE_HOUR_MS,
};

export type AppealFiledResult = ({ kind: 'PENDING' } & AppealAwaitingConfirmation) | ({ kind: 'APPEAL' } & AppealSubmitted);

/** `dana@example.com` as `d***@example.com`: enough for the motorist to know which inbox, not a stranger's whole address. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

function awaiting(pending: PendingAppealRow): AppealAwaitingConfirmation {
  const appeal = JSON.parse(pending.appeal) as AppealInput;
  return { status: 'AWAITING_CONFIRMATION', email: maskEmail(appeal.email), expiresAt: pending.expires_at };
}

/**
 * POST /public/charges/current/appeal (decision 0032). The reference and registration the lookup
 * needs are on the windscreen notice, so whoever read it could file the charge's one appeal. The
 * appeal is therefore kept aside, as filed, and counts only once confirmed from the email address
 * it gives: the link in that email files it (confirmAppeal). Until then it holds nothing and
 * takes no slot, so several may wait for one charge. The same Idempotency-Key answers again what
 * it made: the pending appeal (no second email), or the appeal once confirmed.
 */
export async function fileAppeal(
  deps: PendingDeps,
  limits: RateLimiter,
  input: { pcnId: string; idempotencyKey: string; appeal: AppealInput; files: SpooledFile[]; address: string; now: Date },
): Promise<{ result: AppealFiledResult; replayed: boolean }> {
  const { db } = deps;
  const replay = await replayOf(deps, input.pcnId, input.idempotencyKey);
  if (replay) return { result: replay, replayed: true };
  const row = await findPcnRowById(db, input.pcnId);
  if (!row) throw new AppError('NOT_FOUND', 'No such charge');
  const existing = await findAppealByPcnId(db, row.id);
  if (existing) throw alreadyAppealed(existing);
  const charge = toPublicCharge(await chargeFactsOf(db, row, () => ''), input.now);
  if (charge.state !== 'OUTSTANDING') throw new AppError('APPEAL_REFUSED', APPEAL_MESSAGES.notOutstanding);
  // Counted once the appeal is known to be well formed and takeable: a mistyped form costs nothing.
  const limit = await limits.take([
    { rule: APPEAL_CONFIRMATIONS_PER_ADDRESS, key: input.address },
    { rule: APPEAL_CONFIRMATIONS_PER_CHARGE, key: row.id },
  ]);
  if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);

  const attachments = await placeAttachments(deps, input.files);
  const pending: PendingAppealRow = {
    id: randomUUID(),
    pcn_id: row.id,
    idempotency_key: input.idempotencyKey,
    // A link nobody holds: the confirmation's job mints the one it emails.
    token_hash: hashToken(generateOpaqueToken()),
    appeal: JSON.stringify(input.appeal),
    filed_at: input.now.toISOString(),
    expires_at: new Date(input.now.getTime() + APPEAL_CONFIRMATION_TTL_MS).toISOString(),
    confirmed_at: null,
  };
  try {
    await insertPendingAppeal(db, pending, attachments);
  } catch (error) {
    await discardEvidenceFiles(
      deps,
      attachments.map((attachment) => attachment.file_name),
    );
    if (!isUniqueViolation(error)) throw error;
    // Two sends of one key raced: the winner's pending appeal answers both.
    const winner = await replayOf(deps, input.pcnId, input.idempotencyKey);
    if (!winner) throw error;
    return { result: winner, replayed: true };
  }
  try {
    await deps.jobs.send('appealConfirmation', { pendingAppealId: pending.id });
  } catch (error) {
    // The motorist can send the appeal again; this one expires unconfirmed.
    deps.logger.warn('appeal confirmation not asked for', { pcnId: pending.pcn_id, error: String(error) });
  }
  return { result: { kind: 'PENDING', ...awaiting(pending) }, replayed: false };
}

async function replayOf(deps: PendingDeps, pcnId: string, key: string): Promise<AppealFiledResult | null> {
  const appeal = await findAppealByIdempotencyKey(deps.db, key);
  const pending = appeal ? undefined : await findPendingAppealByIdempotencyKey(deps.db, key);
  const pcnOfKey = appeal?.pcn_id ?? pending?.pcn_id;
  if (pcnOfKey === undefined) return null;
  if (pcnOfKey !== pcnId) throw new AppError('IDEMPOTENCY_MISMATCH', 'This Idempotency-Key was used for another appeal');
  if (appeal) return { kind: 'APPEAL', ...submitted(appeal) };
  return { kind: 'PENDING', ...awaiting(pending!) };
}

/**
 * The job: the confirmation email of a pending appeal still waiting, with a link minted now (the
 * queue holds the pending appeal's id, never a working link). A refused delivery is thrown, for
 * the queue to try again with a fresh link that voids the one not delivered.
 */
export async function sendAppealConfirmation(
  deps: Pick<AppDeps, 'db' | 'config' | 'mailer' | 'now'>,
  job: { pendingAppealId: string },
): Promise<void> {
  const pending = await findPendingAppealById(deps.db, job.pendingAppealId);
  if (!pending || pending.confirmed_at !== null || pending.expires_at <= deps.now().toISOString()) return;
  const row = await findPcnRowById(deps.db, pending.pcn_id);
  if (!row) return;
  const token = generateOpaqueToken();
  if (!(await replacePendingAppealToken(deps.db, pending.id, hashToken(token)))) return;
  const appeal = JSON.parse(pending.appeal) as AppealInput;
  const chargeReference = pcnTitle(row.pcn_number);
  const link = `${deps.config.appUrl}/charge/confirm-appeal?token=${encodeURIComponent(token)}`;
  const lines = [
    `Dear ${appeal.name},`,
    `An appeal against parking charge ${chargeReference} was sent from our website giving this email address.`,
    `To send it to us, open this link by ${formatUkDateTime(pending.expires_at)} and press Send my appeal:`,
    link,
    'Until you do, we have not received it. If you did not send it, ignore this email: the appeal is deleted then, unread.',
  ];
  await deps.mailer.send({
    to: appeal.email,
    subject: `Confirm your appeal against parking charge ${chargeReference}`,
    text: lines.join('\n\n'),
    html: lines
      .map((line) => (line === link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : `<p>${escapeHtml(line)}</p>`))
      .join(''),
    purpose: 'appeal-confirmation',
  });
}

function deadLink(): AppError {
  return new AppError('INVALID_TOKEN', APPEAL_MESSAGES.confirmLinkDead, { details: { token: APPEAL_MESSAGES.confirmLinkDead } });
}

/**
 * POST /public/appeals/confirm: the emailed link's token files its pending appeal, as it was
 * filed, through the one way every appeal is taken (submit-appeal.ts): the one appeal per charge,
 * the hold, the response days, lateness from the time it was filed. The first pending appeal of a
 * charge confirmed is its appeal; a later one meets it (409). A token used already answers the
 * appeal it made (a second click, a page reloaded). Dead tokens count against the address, as
 * dead sign-in links do, so the endpoint is no token oracle.
 */
export async function confirmAppeal(
  deps: PendingDeps,
  limits: RateLimiter,
  input: { token: string; address: string; now: Date },
): Promise<AppealSubmitted & { replayed: boolean }> {
  const limit = await limits.check(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
  if (limit.isLimited) throw tooManyAttempts(limit, SERVER_MESSAGES.tooManyRequests);
  const pending = await findPendingAppealByTokenHash(deps.db, hashToken(input.token));
  const isLive = pending !== undefined && (pending.confirmed_at !== null || pending.expires_at > input.now.toISOString());
  const made = pending?.confirmed_at ? await findAppealByIdempotencyKey(deps.db, pending.idempotency_key) : undefined;
  if (!pending || !isLive || (pending.confirmed_at !== null && !made)) {
    await limits.hit(ACCESS_LINK_FAILURES_PER_ADDRESS, input.address);
    throw deadLink();
  }
  if (made) return { ...submitted(made), replayed: true };
  return submitAppeal(deps, {
    pcnId: pending.pcn_id,
    idempotencyKey: pending.idempotency_key,
    appeal: JSON.parse(pending.appeal) as AppealInput,
    pending: { id: pending.id, filedAt: new Date(pending.filed_at), attachments: await findPendingAttachments(deps.db, pending.id) },
    now: input.now,
  });
}
