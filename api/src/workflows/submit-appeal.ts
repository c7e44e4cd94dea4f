import { randomUUID } from 'node:crypto';
import {
  addDays,
  APPEAL_MESSAGES,
  appealReference,
  MAX_APPEAL_ATTACHMENT_BYTES,
  MAX_APPEAL_ATTACHMENTS,
  ukDate,
  type AppealChannel,
  type AppealInput,
  type AppealSubmitted,
  type CalendarDate,
  type EnteredAppealInput,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { toPublicAppeal, toPublicCharge } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import { isUniqueViolation } from '../repositories/constraint-errors.ts';
import { findAppealByIdempotencyKey, findAppealByPcnId, insertAppeal, type AppealRow } from '../repositories/appeals.ts';
import { markPendingAppealConfirmed, type PendingAttachmentRow } from '../repositories/pending-appeals.ts';
import { auditEntry, insertAuditEntries, type NewAuditEntry } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById, type PcnRow } from '../repositories/pcn-rows.ts';
import { detectImageType } from '../services/image-sniffing.ts';
import type { SpooledFile } from '../services/multipart-spool.ts';
import { askForAppealEmail } from './appeal-emails.ts';
import { appealFactsOf, chargeFactsOf } from './look-up-charge.ts';
import { assertBoundedPixels, discardEvidenceFiles } from './pcn-evidence.ts';

type SubmitDeps = Pick<AppDeps, 'db' | 'evidence' | 'logger' | 'jobs' | 'config'>;

/** A file the motorist attached, checked by its bytes: a photo of ours or a PDF. */
type CheckedAttachment = { tempPath: string; extension: string; mimeType: string; size: number; sha256: string; originalName: string };

function isPdf(head: Uint8Array): boolean {
  return head.length >= 5 && String.fromCharCode(...head.subarray(0, 5)) === '%PDF-';
}

function attachmentError(code: 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE', message: string): AppError {
  return new AppError(code, message, { details: { attachments: message } });
}

/** Each file sniffed (never its name or Content-Type) and bounded: photos by their pixels too. */
export async function checkAttachments(files: SpooledFile[]): Promise<CheckedAttachment[]> {
  if (files.length > MAX_APPEAL_ATTACHMENTS) throw attachmentError('PAYLOAD_TOO_LARGE', APPEAL_MESSAGES.tooManyAttachments);
  const checked: CheckedAttachment[] = [];
  for (const file of files) {
    if (file.size > MAX_APPEAL_ATTACHMENT_BYTES) throw attachmentError('PAYLOAD_TOO_LARGE', APPEAL_MESSAGES.attachmentTooLarge);
    const image = detectImageType(file.head);
    const type = image ?? (isPdf(file.head) ? { mimeType: 'application/pdf', extension: 'pdf' } : null);
    if (!type)
      throw attachmentError('UNSUPPORTED_MEDIA_TYPE', `${APPEAL_MESSAGES.attachmentType} (${file.name.slice(0, 100) || 'a file'} is not)`);
    if (image) await assertBoundedPixels(file, 'attachments');
    checked.push({ ...type, tempPath: file.tempPath, size: file.size, sha256: file.sha256, originalName: file.name.slice(0, 200) });
  }
  return checked;
}

/**
 * The motorist's one appeal against the charge, filed from /charge and now confirmed from its
 * email (pending-appeals.ts, decision 0032). It is received when it was filed: the hold, the
 * response days and lateness run from then, not from the click. Its files are already in the
 * store. The same Idempotency-Key answers the appeal it made; a second appeal is refused and the
 * first shown; against a charge no longer owed, it is refused. After the appeal period it is
 * taken and marked late (decision 0023). Received in time, the charge is on hold
 * (public-charge.ts); the audit trail has it and the motorist has an email saying so.
 */
export async function submitAppeal(
  deps: SubmitDeps,
  input: {
    pcnId: string;
    idempotencyKey: string;
    appeal: AppealInput;
    pending: { id: string; filedAt: Date; attachments: PendingAttachmentRow[] };
    now: Date;
  },
): Promise<AppealSubmitted & { replayed: boolean }> {
  const { appeal, replayed } = await takeAppeal(deps, {
    ...input,
    appeal: { ...input.appeal, channel: 'ONLINE' },
    receivedOn: null,
    files: [],
    actor: { id: null, firstName: `${input.appeal.name} (appellant)`, lastName: '' },
  });
  return { ...submitted(appeal), replayed };
}

/**
 * POST /appeals: an appeal that came by email, post or phone, entered by an admin (decision
 * 0024). It is the charge's one appeal as if made online on the day it was received: held from
 * that day, answered within the response days from it, late when that day was after the appeal
 * period. The day cannot be in the future, nor before the first notice (nothing to appeal yet).
 */
export async function enterAppeal(
  deps: SubmitDeps,
  input: { idempotencyKey: string; appeal: EnteredAppealInput; files: SpooledFile[]; user: AuthUser; now: Date },
): Promise<{ appeal: AppealRow; replayed: boolean }> {
  return takeAppeal(deps, {
    pcnId: input.appeal.pcnId,
    idempotencyKey: input.idempotencyKey,
    appeal: input.appeal,
    receivedOn: input.appeal.receivedOn,
    files: input.files,
    actor: input.user,
    now: input.now,
  });
}

function receivedOnError(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { details: { receivedOn: message } });
}

/** The day the motorist was first told of the charge: a notice to driver, or the keeper's letter's posting. */
function firstNoticeOn(row: PcnRow): CalendarDate | null {
  const served = row.notice_served_by === 'AFFIXED' || row.notice_served_by === 'HANDED' ? (row.notice_served_at ?? row.issued_at) : null;
  const days = [served ? ukDate(served) : null, row.keeper_notice_posted_on ?? row.keeper_notice_given_on].filter(
    (day): day is CalendarDate => day !== null,
  );
  return days.length === 0 ? null : days.reduce((earlier, day) => (day < earlier ? day : earlier));
}

type TakenAppeal = Omit<AppealInput, 'email'> & { email: string | null; channel: AppealChannel };

/** One appeal per charge, whichever way it came: the checks, the files, the row, its audit entry and the acknowledgement. */
async function takeAppeal(
  deps: SubmitDeps,
  input: {
    pcnId: string;
    idempotencyKey: string;
    appeal: TakenAppeal;
    /** The day an appeal by email, post or phone came; null for one made online now. */
    receivedOn: CalendarDate | null;
    files: SpooledFile[];
    /** A confirmed appeal from /charge: when it was filed, and its files already in the store. */
    pending?: { id: string; filedAt: Date; attachments: PendingAttachmentRow[] };
    actor: NewAuditEntry['actor'];
    now: Date;
  },
): Promise<{ appeal: AppealRow; replayed: boolean }> {
  const { db } = deps;
  const replay = await findAppealByIdempotencyKey(db, input.idempotencyKey);
  if (replay) {
    if (replay.pcn_id !== input.pcnId) throw new AppError('IDEMPOTENCY_MISMATCH', 'This Idempotency-Key was used for another appeal');
    return { appeal: replay, replayed: true };
  }
  const row = await findPcnRowById(db, input.pcnId);
  if (!row) throw new AppError('NOT_FOUND', 'No such charge');
  const existing = await findAppealByPcnId(db, row.id);
  if (existing) throw alreadyAppealed(existing);
  const today = ukDate(input.now);
  const receivedOn = input.receivedOn ?? (input.pending ? ukDate(input.pending.filedAt) : today);
  if (receivedOn > today) throw receivedOnError(APPEAL_MESSAGES.receivedInFuture);
  const firstNotice = firstNoticeOn(row);
  if (firstNotice !== null && receivedOn < firstNotice) throw receivedOnError(APPEAL_MESSAGES.receivedBeforeNotice);
  if (firstNotice === null && receivedOn < ukDate(row.issued_at ?? row.created_at)) {
    throw receivedOnError(APPEAL_MESSAGES.receivedBeforeCharge);
  }
  // Received on an earlier day, the appeal is taken as of that day (noon UTC is within the same UK
  // day in winter and summer): the hold, the response days and lateness all run from it.
  const receivedAt = input.pending?.filedAt ?? (receivedOn === today ? input.now : new Date(`${receivedOn}T12:00:00.000Z`));
  const charge = toPublicCharge(await chargeFactsOf(db, row, () => ''), receivedAt);
  if (charge.state !== 'OUTSTANDING') throw new AppError('APPEAL_REFUSED', APPEAL_MESSAGES.notOutstanding);
  // After the period the appeal is still taken, marked late: the operator decides whether to consider it.
  const isLate = charge.appealUntil !== null && receivedOn > charge.appealUntil;

  const placed = input.pending ? null : await placeAttachments(deps, input.files);
  const attachmentRows = input.pending?.attachments ?? placed!;
  // A pending appeal's files stay its own until it is purged: another click may still take them.
  const fileNames = placed ? placed.map((attachment) => attachment.file_name) : [];
  const now = input.now.toISOString();
  const appeal: AppealRow = {
    id: randomUUID(),
    pcn_id: row.id,
    reference: appealReference(row.pcn_number),
    idempotency_key: input.idempotencyKey,
    received_at: receivedAt.toISOString(),
    respond_by: addDays(receivedOn, deps.config.appealResponseDays),
    appellant_name: input.appeal.name,
    appellant_email: input.appeal.email ?? '',
    appellant_address: input.appeal.address,
    was_driver: input.appeal.wasDriver,
    driver_name: input.appeal.driverName,
    driver_address: input.appeal.driverAddress,
    reason: input.appeal.reason,
    text: input.appeal.text,
    status: 'OPEN',
    decision_reasons: null,
    reduced_charge_pence: null,
    verification_code: null,
    reduced_held_until: null,
    appeals_service_until: null,
    decided_at: null,
    decided_by: null,
    is_late: isLate,
    considered_at: null,
    considered_by: null,
    channel: input.appeal.channel,
    reduced_payable_until: null,
    charter_outcome: null,
    withdrawn_at: null,
  };
  try {
    await db.transaction().execute(async (trx) => {
      await insertAppeal(trx, appeal, attachmentRows);
      if (input.pending) await markPendingAppealConfirmed(trx, input.pending.id, now);
      await insertAuditEntries(trx, [
        auditEntry(row.id, 'appeal_received', input.actor, null, now, {
          appeal: { from: null, to: appeal.reference },
          reason: { from: null, to: appeal.reason },
          ...(input.receivedOn !== null && {
            channel: { from: null, to: appeal.channel },
            receivedOn: { from: null, to: receivedOn },
            appellant: { from: null, to: appeal.appellant_name },
          }),
          ...(isLate && { late: { from: null, to: `after the appeal period, which ended on ${charge.appealUntil}` } }),
          attachments: { from: null, to: attachmentRows.map((attachment) => attachment.sha256) },
        }),
      ]);
    });
  } catch (error) {
    await discardEvidenceFiles(deps, fileNames);
    if (!isUniqueViolation(error)) throw error;
    // Two sends raced: the same key answers the winner's appeal; another key meets the one appeal.
    const winner = (await findAppealByIdempotencyKey(db, input.idempotencyKey)) ?? (await findAppealByPcnId(db, row.id));
    if (!winner) throw error;
    if (winner.idempotency_key !== input.idempotencyKey) throw alreadyAppealed(winner);
    return { appeal: winner, replayed: true };
  }
  // The acknowledgement follows as a job: the appeal is stored whatever the mail server says.
  await askForAppealEmail(deps, appeal, 'received');
  return { appeal, replayed: false };
}

/** The sender's files checked and moved into the store, as an appeal's attachment rows. */
export async function placeAttachments(deps: Pick<SubmitDeps, 'evidence'>, files: SpooledFile[]): Promise<PendingAttachmentRow[]> {
  const attachments = await checkAttachments(files);
  const fileNames = await deps.evidence.place(attachments);
  return attachments.map((attachment, position) => ({
    position,
    original_name: attachment.originalName,
    file_name: fileNames[position]!,
    mime_type: attachment.mimeType,
    size_bytes: attachment.size,
    sha256: attachment.sha256,
  }));
}

export function alreadyAppealed(existing: AppealRow): AppError {
  return new AppError('CONFLICT', APPEAL_MESSAGES.alreadyAppealed, { details: { appeal: existing.reference } });
}

export function submitted(appeal: AppealRow): AppealSubmitted {
  return { reference: appeal.reference, appeal: toPublicAppeal(appealFactsOf(appeal)) };
}
