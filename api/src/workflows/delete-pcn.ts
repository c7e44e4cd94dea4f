import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { deletionChanges } from '../domain/pcn-audit.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnImages } from '../repositories/pcn-images.ts';
import { deletePcn as deletePcnRows, lockPcnWrites } from '../repositories/pcn-writes.ts';
import { recordActivity } from '../services/activities.ts';
import { findChangeablePcn } from './pcn-access.ts';
import { discardEvidenceFiles, imageSummary, type EvidenceDeps } from './pcn-evidence.ts';
import { fieldsOf } from './pcn-fields.ts';

export type PcnDeletion = { pcnId: string; actor: AuthUser; now: Date };

/**
 * A PCN deleted by its owner while still open, or by an admin (DELETE /pcns/{id}): the rows go
 * with an activity and an audit entry that says what went (the trail outlives the PCN), then
 * the photos' files.
 */
export async function deletePcn(deps: EvidenceDeps, deletion: PcnDeletion): Promise<void> {
  const fileNames = await commitDeletion(deps.db, deletion);
  // Files go only after the rows are gone, so a failed delete never leaves a row without its photo.
  await discardEvidenceFiles(deps, fileNames);
}

/**
 * The deletion's one transaction: the check, the rows, the activity and the audit entry commit
 * together or not at all. Returns the file names of the PCN's photos, to delete once it committed.
 *
 * Engine-specific: the check reads the PCN's status and the snapshot reads its photos before
 * the rows go. That is safe because SQLite runs the transaction alone (Kysely's SQLite driver
 * holds its one connection for the whole transaction, and SQLite has one writer), so no status
 * change or edit can commit in between. A database with concurrent transactions must lock the
 * PCN's row where it is read here.
 */
async function commitDeletion(db: Db, deletion: PcnDeletion): Promise<string[]> {
  const { pcnId: id, actor: user, now } = deletion;
  return db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const row = await findChangeablePcn(trx, user, id);
    const images = (await findPcnImages(trx, [id])).get(id) ?? [];
    const files = await deletePcnRows(trx, id);
    await recordActivity(trx, { userId: user.id, type: 'PCN_DELETED', description: `Deleted PCN ${row.pcn_number}`, pcnId: id, now });
    await insertAuditEntries(trx, [
      auditEntry(
        id,
        'deleted',
        user,
        null,
        now.toISOString(),
        deletionChanges({
          pcnNumber: row.pcn_number,
          status: row.status,
          ...fieldsOf(row),
          adminNotes: row.admin_notes,
          createdBy: row.created_by,
          images: images.map(imageSummary),
        }),
      ),
    ]);
    return files;
  });
}
