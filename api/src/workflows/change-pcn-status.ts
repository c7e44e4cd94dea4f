import {
  bulkStatusPath,
  isAdminRole,
  pcnTitle,
  SERVER_MESSAGES,
  statusChangeDescription,
  type BulkPcnStatusInput,
  type BulkResult,
  type CancellationReason,
  type PcnStatus,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { diffFields, hasChanges, type AuditChanges } from '../domain/pcn-audit.ts';
import { decideStatusChange } from '../domain/pcn-rules.ts';
import { AppError } from '../http/app-error.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnNumbers, findPcnRowById } from '../repositories/pcn-rows.ts';
import { insertStatusChange, updatePcnStatus, type Cancellation } from '../repositories/pcn-status.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { recordActivity } from '../services/activities.ts';
import { actOnEach } from './bulk-action.ts';
import { assertDecision, pcnNotFound, subjectOf } from './pcn-access.ts';

export type StatusChange = {
  pcnId: string;
  actor: AuthUser;
  status: PcnStatus;
  adminNotes?: string | undefined;
  /** With CANCELLED: why (decision 0042); the input schema requires it with that status. */
  cancellation?: Cancellation | undefined;
  /** The history's note when it is not the admin notes (an approved landowner's request says so). */
  historyNote?: string;
  now: Date;
  /** A bulk change may pass through statuses on the way (bulkStatusPath): each is a move of its own in the history. */
  viaBulkPath?: boolean;
};

/**
 * One PCN to a new status (PATCH /pcns/{id}/status, and each PCN of a bulk change): the rule,
 * the move, its history row, the audit entries and the activity commit together or not at all.
 */
export async function changePcnStatus(db: Db, change: StatusChange): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    await applyStatusChange(trx, change);
  });
}

/**
 * The change itself, in the caller's transaction (which holds the PCN write lock): also how an
 * approved cancellation request cancels its charge, with the request's decision in the same commit.
 */
export async function applyStatusChange(trx: Db, change: StatusChange): Promise<void> {
  const { pcnId: id, actor, status: to } = change;
  const now = change.now.toISOString();
  const row = await findPcnRowById(trx, id);
  if (!row) throw pcnNotFound();
  const steps = change.viaBulkPath ? (bulkStatusPath(row.status, to) ?? [to]) : [to];
  let from = row.status;
  for (const [index, step] of steps.entries()) {
    // The note, and the admin notes, go with the last move: the one the admin asked for.
    const isLast = index === steps.length - 1;
    assertDecision(decideStatusChange(actor, { ...subjectOf(row), status: from }, step), SERVER_MESSAGES.transitionNotAllowed);
    // Admin notes are the admins' to write; an owner's note on cancelling stays in the history only.
    const adminNotes = isLast && isAdminRole(actor.role) && change.adminNotes !== undefined ? change.adminNotes || null : undefined;
    const cancellation = step === 'CANCELLED' ? change.cancellation : undefined;
    const moved = await updatePcnStatus(trx, { pcnId: id, from, to: step, adminNotes, cancellation, now });
    if (!moved) throw new AppError('CONFLICT', SERVER_MESSAGES.transitionNotAllowed);
    const note = isLast ? change.historyNote || change.adminNotes || null : null;
    await insertStatusChange(trx, { pcnId: id, from, to: step, note, changedBy: actor.id, now });
    const statusChanges: AuditChanges = { status: { from, to: step } };
    if (note) statusChanges.note = { from: null, to: note };
    if (cancellation) {
      statusChanges.cancellationReason = { from: null, to: cancellation.reason };
      if (cancellation.note) statusChanges.cancellationNote = { from: null, to: cancellation.note };
    }
    const notesChanges = adminNotes === undefined ? {} : diffFields({ adminNotes: row.admin_notes }, { adminNotes });
    await insertAuditEntries(trx, [
      auditEntry(id, 'status_changed', actor, null, now, statusChanges),
      ...(hasChanges(notesChanges) ? [auditEntry(id, 'notes_changed', actor, null, now, notesChanges)] : []),
    ]);
    await recordActivity(trx, {
      userId: actor.id,
      type: 'PCN_STATUS_CHANGED',
      description: statusChangeDescription(row.pcn_number, from, step),
      pcnId: id,
      now: change.now,
    });
    from = step;
  }
}

/**
 * POST /pcns/bulk-status: every selected PCN through changePcnStatus, each in its own
 * transaction, so a PCN whose status no longer allows the change is reported and the rest move.
 */
export async function changePcnStatuses(
  deps: Pick<AppDeps, 'db' | 'logger' | 'now'>,
  input: BulkPcnStatusInput & { actor: AuthUser },
): Promise<BulkResult[]> {
  const numbers = await findPcnNumbers(deps.db, [...new Set(input.pcnIds)]);
  return actOnEach(input.pcnIds, {
    action: 'bulk status change',
    label: (id) => {
      const pcnNumber = numbers.get(id);
      return pcnNumber === undefined ? id : pcnTitle(pcnNumber);
    },
    act: (id) =>
      changePcnStatus(deps.db, {
        pcnId: id,
        actor: input.actor,
        status: input.status,
        adminNotes: input.adminNotes,
        cancellation: cancellationOf(input),
        now: deps.now(),
        viaBulkPath: true,
      }),
    logger: deps.logger,
  });
}

/** The reason and note of a status change's input, as the PCN stores them (only with CANCELLED). */
export function cancellationOf(input: {
  status: PcnStatus;
  cancellationReason?: CancellationReason | undefined;
  cancellationNote?: string | undefined;
}): Cancellation | undefined {
  if (input.status !== 'CANCELLED' || !input.cancellationReason) return undefined;
  return { reason: input.cancellationReason, note: input.cancellationNote || null };
}
