import type { Selectable, Updateable } from 'kysely';
import type { EvidencePack } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { EvidencePacksTable } from '../db/schema.ts';

/** Evidence packs made by a job (migration 0042): rows here, the PDF in the evidence store under `file_name`. */
export type EvidencePackRow = Selectable<EvidencePacksTable>;

export function toEvidencePack(row: EvidencePackRow): EvidencePack {
  return {
    id: row.id,
    pcnId: row.pcn_id,
    state: row.state,
    error: row.error,
    sha256: row.sha256,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

export async function insertEvidencePack(db: Db, row: EvidencePackRow): Promise<void> {
  await db.insertInto('evidence_packs').values(row).execute();
}

export async function findEvidencePack(db: Db, pcnId: string, id: string): Promise<EvidencePackRow | undefined> {
  return db.selectFrom('evidence_packs').selectAll().where('id', '=', id).where('pcn_id', '=', pcnId).executeTakeFirst();
}

export async function findEvidencePackById(db: Db, id: string): Promise<EvidencePackRow | undefined> {
  return db.selectFrom('evidence_packs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The notice's newest pack still to be made and asked for since `since`, if any. */
export async function findPackInTheMaking(db: Db, pcnId: string, since: string): Promise<EvidencePackRow | undefined> {
  return db
    .selectFrom('evidence_packs')
    .selectAll()
    .where('pcn_id', '=', pcnId)
    .where('state', 'in', ['WAITING', 'MAKING'])
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export async function updateEvidencePack(db: Db, id: string, changes: Updateable<EvidencePacksTable>): Promise<void> {
  await db.updateTable('evidence_packs').set(changes).where('id', '=', id).execute();
}

export async function deleteEvidencePack(db: Db, id: string): Promise<void> {
  await db.deleteFrom('evidence_packs').where('id', '=', id).execute();
}

/**
 * Removes the packs asked for before `before` or belonging to `pcnId`, and returns the names of
 * their files, to delete once the transaction committed.
 */
export async function deleteEvidencePacks(trx: Db, which: { before: string } | { pcnId: string }): Promise<string[]> {
  const rows = await trx
    .deleteFrom('evidence_packs')
    .where((eb) => ('before' in which ? eb('created_at', '<', which.before) : eb('pcn_id', '=', which.pcnId)))
    .returning('file_name')
    .execute();
  return rows.flatMap((row) => (row.file_name ? [row.file_name] : []));
}
