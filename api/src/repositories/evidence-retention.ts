import { sql } from 'kysely';
import { EVIDENCE_RETENTION_CLOSED_STATUSES, type PcnStatus } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';

/** A closed PCN that still holds photo files, with when it closed. */
export type PcnWithKeptEvidence = {
  pcnId: string;
  pcnNumber: string;
  status: PcnStatus;
  closedAt: string;
  keptPhotoCount: number;
};

/**
 * Closed PCNs (PAID, CANCELLED, REJECTED) that closed at or before `closedBy` and still hold a
 * photo file, an appeal's attachment or the registered keeper's details, oldest closure first. The closure time is the status history's entry into the
 * current status (those statuses are final, so there is exactly one); a notice without that
 * history row (made before history was kept) counts from its last update.
 */
export async function findPcnsPastRetention(db: Db, closedBy: string): Promise<PcnWithKeptEvidence[]> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('pcns')
        .select([
          'pcns.id',
          'pcns.pcn_number',
          'pcns.status',
          sql<string>`coalesce((select max(h.created_at) from pcn_status_history h where h.pcn_id = pcns.id and h.to_status = pcns.status), pcns.updated_at)`.as(
            'closed_at',
          ),
          sql<number>`(select count(*) from pcn_images i where i.pcn_id = pcns.id and i.purged_at is null)`.as('kept_photo_count'),
          // The keeper, a hirer and a named driver are all personal data kept with the notice.
          sql<number>`(select count(*) from pcn_keepers k where k.pcn_id = pcns.id) + (select count(*) from pcn_hirers r where r.pcn_id = pcns.id) + (select count(*) from pcn_named_drivers n where n.pcn_id = pcns.id)`.as(
            'kept_keeper_count',
          ),
          sql<number>`(select count(*) from appeal_attachments f join appeals a on a.id = f.appeal_id where a.pcn_id = pcns.id and f.purged_at is null)`.as(
            'kept_attachment_count',
          ),
          sql<number>`(select count(*) from sent_documents d where d.pcn_id = pcns.id and d.purged_at is null)`.as('kept_document_count'),
        ])
        .where('pcns.status', 'in', [...EVIDENCE_RETENTION_CLOSED_STATUSES])
        // A notice closes after it is made, so one made since can be passed over unread: over
        // 2,000,000 notices the counts above cost the database seconds for every closed one.
        .where('pcns.created_at', '<=', closedBy)
        .as('closed'),
    )
    .selectAll()
    .where('closed.closed_at', '<=', closedBy)
    .where((eb) =>
      eb.or([
        eb('closed.kept_photo_count', '>', 0),
        eb('closed.kept_keeper_count', '>', 0),
        eb('closed.kept_attachment_count', '>', 0),
        eb('closed.kept_document_count', '>', 0),
      ]),
    )
    .orderBy('closed.closed_at')
    .execute();
  return rows.map((row) => ({
    pcnId: row.id,
    pcnNumber: row.pcn_number,
    status: row.status,
    closedAt: row.closed_at,
    keptPhotoCount: Number(row.kept_photo_count),
  }));
}

/** Removes the keeper's, a hirer's and a named driver's details (personal data) with the photos; true when there were some. */
export async function deleteKeeperDetails(trx: Db, pcnId: string): Promise<boolean> {
  let removed = 0;
  for (const table of ['pcn_keepers', 'pcn_hirers', 'pcn_named_drivers'] as const) {
    removed += Number((await trx.deleteFrom(table).where('pcn_id', '=', pcnId).executeTakeFirst()).numDeletedRows);
  }
  return removed > 0;
}

/** Marks the files a motorist attached to this charge's appeal as purged and returns them (their hashes stay). */
export async function markAttachmentsPurged(trx: Db, pcnId: string, now: string): Promise<Array<{ file_name: string; sha256: string }>> {
  return trx
    .updateTable('appeal_attachments')
    .set({ purged_at: now })
    .where('appeal_id', 'in', (eb) => eb.selectFrom('appeals').select('appeals.id').where('appeals.pcn_id', '=', pcnId))
    .where('purged_at', 'is', null)
    .returning(['file_name', 'sha256'])
    .execute();
}

/**
 * Marks the documents sent for this charge as purged and returns them: letters carry the keeper's
 * name and address, which go with the photos; the rows and their hashes stay (decision 0025).
 */
export async function markDocumentsPurged(trx: Db, pcnId: string, now: string): Promise<Array<{ file_name: string; sha256: string }>> {
  return trx
    .updateTable('sent_documents')
    .set({ purged_at: now })
    .where('pcn_id', '=', pcnId)
    .where('purged_at', 'is', null)
    .returning(['file_name', 'sha256'])
    .execute();
}
