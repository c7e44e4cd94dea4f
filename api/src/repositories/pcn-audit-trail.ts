import { sql } from 'kysely';
import type { PcnAuditAction, PcnAuditEntry } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { AuditChanges } from '../domain/pcn-audit.ts';

// The audit trail: append-only (there is no update or delete here, and triggers refuse both).

export type NewAuditEntry = {
  pcnId: string;
  action: PcnAuditAction;
  /** An automatic job (the retention purge) has no account: id null, and its name says what acted. */
  actor: { id: string | null; firstName: string; lastName: string };
  changes: AuditChanges;
  clockOffsetMs: number | null;
  now: string;
};

export function auditEntry(
  pcnId: string,
  action: NewAuditEntry['action'],
  actor: NewAuditEntry['actor'],
  clockOffset: number | null,
  now: string,
  changes: AuditChanges,
): NewAuditEntry {
  return { pcnId, action, actor, changes, clockOffsetMs: clockOffset, now };
}

/** Call it in the transaction of the change it records, so the change and its entry commit together. */
export async function insertAuditEntries(trx: Db, entries: readonly NewAuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await trx
    .insertInto('pcn_audit')
    .values(
      entries.map((entry) => ({
        id: crypto.randomUUID(),
        pcn_id: entry.pcnId,
        actor_id: entry.actor.id,
        actor_name: `${entry.actor.firstName} ${entry.actor.lastName}`.trim(),
        action: entry.action,
        changes: JSON.stringify(entry.changes),
        clock_offset_ms: entry.clockOffsetMs,
        created_at: entry.now,
      })),
    )
    .execute();
}

/** What was recorded for a PCN at one moment: the actions of the change made then. */
export async function findAuditActionsAt(db: Db, pcnId: string, at: string): Promise<PcnAuditAction[]> {
  const rows = await db
    .selectFrom('pcn_audit')
    .select('action')
    .distinct()
    .where('pcn_id', '=', pcnId)
    .where('created_at', '=', at)
    .execute();
  return rows.map((row) => row.action);
}

/** The trail of one PCN, oldest first, with the actor as they are now (null once their account is gone) and as recorded. */
export async function findAuditEntries(db: Db, pcnId: string): Promise<PcnAuditEntry[]> {
  const rows = await db
    .selectFrom('pcn_audit')
    .leftJoin('users', 'users.id', 'pcn_audit.actor_id')
    .select([
      'pcn_audit.id',
      'pcn_audit.pcn_id',
      'pcn_audit.action',
      'pcn_audit.actor_id',
      'pcn_audit.actor_name',
      'users.id as user_id',
      'users.first_name',
      'users.last_name',
      'pcn_audit.changes',
      'pcn_audit.clock_offset_ms',
      'pcn_audit.created_at',
    ])
    .where('pcn_audit.pcn_id', '=', pcnId)
    .orderBy('pcn_audit.created_at')
    .orderBy(sql`pcn_audit.rowid`)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    pcnId: row.pcn_id,
    action: row.action,
    actor: row.user_id === null ? null : { id: row.user_id, firstName: row.first_name ?? '', lastName: row.last_name ?? '' },
    actorName: row.actor_name,
    changes: JSON.parse(row.changes) as PcnAuditEntry['changes'],
    clockOffsetMs: row.clock_offset_ms,
    createdAt: row.created_at,
  }));
}
