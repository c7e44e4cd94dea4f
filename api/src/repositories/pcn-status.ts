import { sql, type Selectable } from 'kysely';
import { emptyStatusCounts, type CancellationReason, type PcnStats, type PcnStatus } from '@parkpatrol/shared';

/** Why a charge was cancelled, and the note that says more (required for OTHER). */
export type Cancellation = { reason: CancellationReason; note: string | null };
import type { Db } from '../db/database.ts';
import type { PcnStatusHistoryTable } from '../db/schema.ts';
import type { PcnScope } from './pcn-rows.ts';

// A notice's status: moving it, its history, and the counts per status.

export type PcnHistoryRow = Pick<
  Selectable<PcnStatusHistoryTable>,
  'id' | 'from_status' | 'to_status' | 'note' | 'changed_by' | 'created_at'
> & {
  changer_first_name: string | null;
  changer_last_name: string | null;
};

export async function findStatusHistory(db: Db, pcnId: string): Promise<PcnHistoryRow[]> {
  return db
    .selectFrom('pcn_status_history')
    .leftJoin('users', 'users.id', 'pcn_status_history.changed_by')
    .select([
      'pcn_status_history.id',
      'pcn_status_history.from_status',
      'pcn_status_history.to_status',
      'pcn_status_history.note',
      'pcn_status_history.changed_by',
      'users.first_name as changer_first_name',
      'users.last_name as changer_last_name',
      'pcn_status_history.created_at',
    ])
    .where('pcn_status_history.pcn_id', '=', pcnId)
    .orderBy('pcn_status_history.created_at')
    .orderBy(sql`pcn_status_history.rowid`)
    .execute();
}

/** A notice's latest status changes, newest first (rowid orders the moves of one bulk change, which share their time). */
export async function findLatestStatusChanges(
  db: Db,
  pcnId: string,
  limit: number,
): Promise<Array<Pick<Selectable<PcnStatusHistoryTable>, 'from_status' | 'to_status' | 'changed_by' | 'created_at'>>> {
  return db
    .selectFrom('pcn_status_history')
    .select(['from_status', 'to_status', 'changed_by', 'created_at'])
    .where('pcn_id', '=', pcnId)
    .orderBy('created_at', 'desc')
    .orderBy(sql`rowid`, 'desc')
    .limit(limit)
    .execute();
}

/** Counts per status in the caller's scope, from the trigger-kept pcn_counts (migration 0005). */
export async function countPcnsByStatus(db: Db, scope: PcnScope): Promise<PcnStats> {
  let query = db
    .selectFrom('pcn_counts')
    .select(['status', (eb) => eb.fn.sum<number>('n').as('n')])
    .groupBy('status');
  if (scope.ownerId !== undefined) query = query.where('owner_id', '=', scope.ownerId);
  const counts = emptyStatusCounts();
  let total = 0;
  for (const row of await query.execute()) {
    if (!(row.status in counts)) continue;
    counts[row.status] = Number(row.n);
    total += Number(row.n);
  }
  return { counts, total };
}

/**
 * Moves the status only if it is still `from`, so two admins acting at once cannot both apply
 * a transition from the same state. Returns false when somebody else got there first.
 */
export async function updatePcnStatus(
  trx: Db,
  input: {
    pcnId: string;
    from: PcnStatus;
    to: PcnStatus;
    adminNotes?: string | null;
    /** Required with CANCELLED: every cancellation says why (decision 0042). */
    cancellation?: Cancellation;
    now: string;
  },
): Promise<boolean> {
  if (input.to === 'CANCELLED' && !input.cancellation) throw new Error('A cancellation must carry its reason');
  const result = await trx
    .updateTable('pcns')
    .set({
      status: input.to,
      ...(input.adminNotes !== undefined && { admin_notes: input.adminNotes }),
      ...(input.to === 'CANCELLED' &&
        input.cancellation && { cancellation_reason: input.cancellation.reason, cancellation_note: input.cancellation.note }),
      updated_at: input.now,
    })
    .where('id', '=', input.pcnId)
    .where('status', '=', input.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertStatusChange(
  trx: Db,
  input: { pcnId: string; from: PcnStatus | null; to: PcnStatus; note: string | null; changedBy: string | null; now: string },
): Promise<void> {
  await trx
    .insertInto('pcn_status_history')
    .values({
      id: crypto.randomUUID(),
      pcn_id: input.pcnId,
      from_status: input.from,
      to_status: input.to,
      note: input.note,
      changed_by: input.changedBy,
      created_at: input.now,
    })
    .execute();
}
