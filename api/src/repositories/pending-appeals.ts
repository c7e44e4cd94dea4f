import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { PendingAppealAttachmentsTable, PendingAppealsTable } from '../db/schema.ts';

export type PendingAppealRow = Selectable<PendingAppealsTable>;
export type PendingAttachmentRow = Omit<Selectable<PendingAppealAttachmentsTable>, 'pending_appeal_id'>;

export async function insertPendingAppeal(db: Db, row: PendingAppealRow, attachments: readonly PendingAttachmentRow[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('pending_appeals').values(row).execute();
    if (attachments.length === 0) return;
    await trx
      .insertInto('pending_appeal_attachments')
      .values(attachments.map((attachment) => ({ ...attachment, pending_appeal_id: row.id })))
      .execute();
  });
}

export async function findPendingAppealByIdempotencyKey(db: Db, key: string): Promise<PendingAppealRow | undefined> {
  return db.selectFrom('pending_appeals').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
}

export async function findPendingAppealById(db: Db, id: string): Promise<PendingAppealRow | undefined> {
  return db.selectFrom('pending_appeals').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The link of a pending appeal not yet confirmed, replaced (the one before stops working); false once confirmed. */
export async function replacePendingAppealToken(db: Db, id: string, tokenHash: string): Promise<boolean> {
  const result = await db
    .updateTable('pending_appeals')
    .set({ token_hash: tokenHash })
    .where('id', '=', id)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findPendingAppealByTokenHash(db: Db, tokenHash: string): Promise<PendingAppealRow | undefined> {
  return db.selectFrom('pending_appeals').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function findPendingAttachments(db: Db, pendingAppealId: string): Promise<PendingAttachmentRow[]> {
  return db
    .selectFrom('pending_appeal_attachments')
    .select(['position', 'original_name', 'file_name', 'mime_type', 'size_bytes', 'sha256'])
    .where('pending_appeal_id', '=', pendingAppealId)
    .orderBy('position')
    .execute();
}

/** Marks it confirmed unless it already is: two clicks of one link cannot both file the appeal. */
export async function markPendingAppealConfirmed(trx: Db, id: string, at: string): Promise<boolean> {
  const result = await trx
    .updateTable('pending_appeals')
    .set({ confirmed_at: at })
    .where('id', '=', id)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The pending appeals whose link has died, with the files only an unconfirmed one still owns (a
 * confirmed one's files are its appeal's now).
 */
export async function findExpiredPendingAppeals(db: Db, now: string): Promise<{ id: string; ownedFiles: string[] }[]> {
  const rows = await db.selectFrom('pending_appeals').select(['id', 'confirmed_at']).where('expires_at', '<=', now).execute();
  const expired: { id: string; ownedFiles: string[] }[] = [];
  for (const row of rows) {
    const files = row.confirmed_at === null ? await findPendingAttachments(db, row.id) : [];
    expired.push({ id: row.id, ownedFiles: files.map((file) => file.file_name) });
  }
  return expired;
}

export async function deletePendingAppeals(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('pending_appeal_attachments').where('pending_appeal_id', 'in', ids).execute();
  await db.deleteFrom('pending_appeals').where('id', 'in', ids).execute();
}
