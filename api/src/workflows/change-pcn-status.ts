import {
  bulkStatusPath,
  isAdminRole,
  isFinalStatus,
  MAX_BULK_PATH_STEPS,
  pcnTitle,
  SERVER_MESSAGES,
  STATUS_UNDO_TEXTS,
  statusChangeDescription,
  undoStatusPath,
  type BulkPcnStatusInput,
  type BulkPcnStatusUndoInput,
  type BulkResult,
  type CancellationReason,
  type PcnAuditAction,
  type PcnStatus,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { diffFields, hasChanges, type AuditChanges } from '../domain/pcn-audit.ts';
import { decideStatusChange } from '../domain/pcn-rules.ts';
import { AppError } from '../http/app-error.ts';
import { auditEntry, findAuditActionsAt, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnNumbers, findPcnRowById, type PcnRow } from '../repositories/pcn-rows.ts';
import { findLatestStatusChanges, insertStatusChange, updatePcnStatus, type Cancellation } from '../repositories/pcn-status.ts';
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
  const row = await findPcnRowById(trx, id);
  if (!row) throw pcnNotFound();
  const steps = change.viaBulkPath ? (bulkStatusPath(row.status, to) ?? [to]) : [to];
  let from = row.status;
  for (const [index, step] of steps.entries()) {
    // The note, and the admin notes, go with the last move: the one the admin asked for.
    const isLast = index === steps.length - 1;
    assertDecision(decideStatusChange(actor, { ...subjectOf(row), status: from }, step), SERVER_MESSAGES.transitionNotAllowed);
    await recordStatusMove(trx, {
      row,
      from,
      to: step,
      actor,
      now: change.now,
      note: isLast ? change.historyNote || change.adminNotes || null : null,
      // Admin notes are the admins' to write; an owner's note on cancelling stays in the history only.
      adminNotes: isLast && isAdminRole(actor.role) && change.adminNotes !== undefined ? change.adminNotes || null : undefined,
      cancellation: step === 'CANCELLED' ? change.cancellation : undefined,
    });
    from = step;
  }
}

/**
 * One move and its records, in the caller's transaction: the status (only if it is still
 * `from`), its history row, the audit entries (the change with its note and cancellation, and
 * the admin notes when they changed) and the activity.
 */
async function recordStatusMove(
  trx: Db,
  move: {
    row: PcnRow;
    from: PcnStatus;
    to: PcnStatus;
    actor: AuthUser;
    now: Date;
    note: string | null;
    adminNotes?: string | null | undefined;
    cancellation?: Cancellation | undefined;
  },
): Promise<void> {
  const { row, from, to, actor, note, adminNotes, cancellation } = move;
  const now = move.now.toISOString();
  const moved = await updatePcnStatus(trx, { pcnId: row.id, from, to, adminNotes, cancellation, now });
  if (!moved) throw new AppError('CONFLICT', SERVER_MESSAGES.transitionNotAllowed);
  await insertStatusChange(trx, { pcnId: row.id, from, to, note, changedBy: actor.id, now });
  const statusChanges: AuditChanges = { status: { from, to } };
  if (note) statusChanges.note = { from: null, to: note };
  if (cancellation) {
    statusChanges.cancellationReason = { from: null, to: cancellation.reason };
    if (cancellation.note) statusChanges.cancellationNote = { from: null, to: cancellation.note };
  }
  const notesChanges = adminNotes === undefined ? {} : diffFields({ adminNotes: row.admin_notes }, { adminNotes });
  await insertAuditEntries(trx, [
    auditEntry(row.id, 'status_changed', actor, null, now, statusChanges),
    ...(hasChanges(notesChanges) ? [auditEntry(row.id, 'notes_changed', actor, null, now, notesChanges)] : []),
  ]);
  await recordActivity(trx, {
    userId: actor.id,
    type: 'PCN_STATUS_CHANGED',
    description: statusChangeDescription(row.pcn_number, from, to),
    pcnId: row.id,
    now: move.now,
  });
}

/** Each selected PCN's title for a bulk action's results (its id when there is no such PCN). */
async function titlesOf(db: Db, pcnIds: readonly string[]): Promise<(id: string) => string> {
  const numbers = await findPcnNumbers(db, [...new Set(pcnIds)]);
  return (id) => {
    const pcnNumber = numbers.get(id);
    return pcnNumber === undefined ? id : pcnTitle(pcnNumber);
  };
}

/**
 * POST /pcns/bulk-status: every selected PCN through changePcnStatus, each in its own
 * transaction, so a PCN whose status no longer allows the change is reported and the rest move.
 */
export async function changePcnStatuses(
  deps: Pick<AppDeps, 'db' | 'logger' | 'now'>,
  input: BulkPcnStatusInput & { actor: AuthUser },
): Promise<BulkResult[]> {
  return actOnEach(input.pcnIds, {
    action: 'bulk status change',
    label: await titlesOf(deps.db, input.pcnIds),
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

/**
 * POST /pcns/bulk-status/undo: the admin's bulk change to `status` undone, PCN by PCN, each in
 * its own transaction. A PCN goes back only while its latest change is still that admin's move
 * to `status` (found in its history, which also says the status it had); it then moves back
 * along undoStatusPath, each move recorded and audited like any status change, with a note
 * saying it was an undo. A final status cannot be left, and a PCN changed since is left as it
 * is: each is reported with why.
 */
export async function undoPcnStatuses(
  deps: Pick<AppDeps, 'db' | 'logger' | 'now'>,
  input: BulkPcnStatusUndoInput & { actor: AuthUser },
): Promise<BulkResult[]> {
  return actOnEach(input.pcnIds, {
    action: 'bulk status undo',
    label: await titlesOf(deps.db, input.pcnIds),
    act: (id) =>
      deps.db.transaction().execute(async (trx) => {
        await lockPcnWrites(trx);
        const row = await findPcnRowById(trx, id);
        if (!row) throw pcnNotFound();
        if (isFinalStatus(input.status)) throw new AppError('CONFLICT', STATUS_UNDO_TEXTS.finalStatus(input.status));
        const had = row.status === input.status ? await statusBeforeBulkChange(trx, row.id, input.status, input.actor.id) : null;
        const back = had ? undoStatusPath(had, input.status) : null;
        if (!back) throw new AppError('CONFLICT', STATUS_UNDO_TEXTS.changedSince(row.status));
        let from = row.status;
        for (const step of back) {
          await recordStatusMove(trx, { row, from, to: step, actor: input.actor, now: deps.now(), note: STATUS_UNDO_TEXTS.note });
          from = step;
        }
      }),
    logger: deps.logger,
  });
}

/**
 * The status a PCN had before the actor's bulk change moved it to `to`, read from its history:
 * the change's moves are its latest, by the actor, at one time (a bulk change records each step
 * at the same moment), together they are the path a bulk change takes, and nothing but status
 * changes was recorded with them. Null when the latest change is anything else: someone changed
 * it since, a letter was marked posted, or it is no move a bulk change makes (an undo's own move
 * back among them, so an undo is not undone in turn).
 */
async function statusBeforeBulkChange(trx: Db, pcnId: string, to: PcnStatus, actorId: string): Promise<PcnStatus | null> {
  const latest = await findLatestStatusChanges(trx, pcnId, MAX_BULK_PATH_STEPS);
  const newest = latest[0];
  if (!newest || newest.to_status !== to || newest.changed_by !== actorId) return null;
  const moves = latest.filter((move) => move.created_at === newest.created_at && move.changed_by === actorId);
  // The longest run of moves, newest back, that joins up and is a bulk change's path from where it began.
  for (let count = moves.length; count > 0; count--) {
    const run = moves.slice(0, count);
    const joined = run.every((move, index) => index === 0 || move.to_status === run[index - 1]!.from_status);
    const had = run[count - 1]!.from_status;
    const path = had && joined ? bulkStatusPath(had, to) : null;
    const madeByRun = [...run].reverse().map((move) => move.to_status);
    if (!had || !path || path.join() !== madeByRun.join()) continue;
    // A status change alone: a letter marked posted also moves a notice to Issued, and is no bulk change to undo.
    const recorded = await findAuditActionsAt(trx, pcnId, newest.created_at);
    return recorded.every((action) => STATUS_CHANGE_ACTIONS.has(action)) ? had : null;
  }
  return null;
}

/** What a status change records in the audit trail, and nothing else (recordStatusMove). */
const STATUS_CHANGE_ACTIONS: ReadonlySet<PcnAuditAction> = new Set(['status_changed', 'notes_changed']);

/** The reason and note of a status change's input, as the PCN stores them (only with CANCELLED). */
export function cancellationOf(input: {
  status: PcnStatus;
  cancellationReason?: CancellationReason | undefined;
  cancellationNote?: string | undefined;
}): Cancellation | undefined {
  if (input.status !== 'CANCELLED' || !input.cancellationReason) return undefined;
  return { reason: input.cancellationReason, note: input.cancellationNote || null };
}
