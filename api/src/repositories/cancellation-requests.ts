import type { Selectable } from 'kysely';
import type { CancellationRequest } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { CancellationRequestsTable } from '../db/schema.ts';

// Landowners' requests that a charge be cancelled, and the admins' decisions (decision 0042).

type RequestRow = Selectable<CancellationRequestsTable>;

export function toCancellationRequest(row: RequestRow): CancellationRequest {
  return {
    id: row.id,
    pcnId: row.pcn_id,
    reason: row.reason,
    status: row.status,
    requestedByName: row.requested_by_name,
    createdAt: row.created_at,
    decidedByName: row.decided_by_name,
    decidedAt: row.decided_at,
    decisionReason: row.decision_reason,
  };
}

/** A charge's requests, newest first. */
export async function findCancellationRequests(db: Db, pcnId: string): Promise<CancellationRequest[]> {
  const rows = await db
    .selectFrom('cancellation_requests')
    .selectAll()
    .where('pcn_id', '=', pcnId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toCancellationRequest);
}

/** The latest request of each of these charges. */
export async function findLatestCancellationRequests(db: Db, pcnIds: readonly string[]): Promise<Map<string, CancellationRequest>> {
  const latest = new Map<string, CancellationRequest>();
  if (pcnIds.length === 0) return latest;
  const rows = await db
    .selectFrom('cancellation_requests')
    .selectAll()
    .where('pcn_id', 'in', pcnIds)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  for (const row of rows) latest.set(row.pcn_id, toCancellationRequest(row));
  return latest;
}

export async function findCancellationRequest(db: Db, pcnId: string, requestId: string): Promise<RequestRow | undefined> {
  return db.selectFrom('cancellation_requests').selectAll().where('id', '=', requestId).where('pcn_id', '=', pcnId).executeTakeFirst();
}

export async function hasPendingCancellationRequest(db: Db, pcnId: string): Promise<boolean> {
  const row = await db
    .selectFrom('cancellation_requests')
    .select('id')
    .where('pcn_id', '=', pcnId)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertCancellationRequest(
  trx: Db,
  input: { pcnId: string; reason: string; requestedBy: string; requestedByName: string; now: string },
): Promise<RequestRow> {
  const row: RequestRow = {
    id: crypto.randomUUID(),
    pcn_id: input.pcnId,
    reason: input.reason,
    status: 'PENDING',
    requested_by: input.requestedBy,
    requested_by_name: input.requestedByName,
    created_at: input.now,
    decided_by: null,
    decided_by_name: null,
    decided_at: null,
    decision_reason: null,
  };
  await trx.insertInto('cancellation_requests').values(row).execute();
  return row;
}

/** Records the decision only while the request is still PENDING: two admins cannot both decide it. */
export async function recordCancellationDecision(
  trx: Db,
  input: { id: string; status: 'APPROVED' | 'DECLINED'; decidedBy: string; decidedByName: string; reason: string; now: string },
): Promise<boolean> {
  const result = await trx
    .updateTable('cancellation_requests')
    .set({
      status: input.status,
      decided_by: input.decidedBy,
      decided_by_name: input.decidedByName,
      decided_at: input.now,
      decision_reason: input.reason,
    })
    .where('id', '=', input.id)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
