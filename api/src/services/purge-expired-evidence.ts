import { EVIDENCE_PACK_KEPT_HOURS, isRetentionClosedStatus, ukDate, type PcnStatus } from '@parkpatrol/shared';
import { withMaintenanceLock } from '../db/dialect.ts';
import type { Db } from '../db/database.ts';
import { retentionCutoff } from '../domain/evidence-retention.ts';
import {
  deleteKeeperDetails,
  findPcnsPastRetention,
  markAttachmentsPurged,
  markDocumentsPurged,
} from '../repositories/evidence-retention.ts';
import { markPhotosPurged } from '../repositories/pcn-images.ts';
import { insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { deleteEvidencePacks } from '../repositories/evidence-packs.ts';
import { deletePendingAppeals, findExpiredPendingAppeals } from '../repositories/pending-appeals.ts';
import { createDiskEvidenceStore, type EvidenceStore } from './evidence-storage.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { Logger } from './logger.ts';

/** The audit trail's actor for the job: it has no account, so the recorded name says what acted. */
const RETENTION_ACTOR = { id: null, firstName: 'Retention policy', lastName: '' } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The maintenance lock's name: the server's daily run and `npm run retention` share it. */
export const EVIDENCE_PURGE_LOCK = 'evidence-retention-purge';

/**
 * `evidence` is the store the photos are in; a bare `uploadsDir` (older callers) means the
 * disk store over that folder.
 */
export type EvidencePurgeDeps = {
  db: Db;
  retentionDays: number;
  now: () => Date;
  logger: Logger;
} & ({ evidence: EvidenceStore } | { uploadsDir: string });

export type PurgedPcn = { pcnId: string; pcnNumber: string; status: PcnStatus; closedAt: string; photoCount: number };

export type EvidencePurgeResult = { isDryRun: boolean; cutoff: string; pcns: PurgedPcn[] };

/**
 * Removes the photo files (and an appeal's attachments) of PCNs closed longer than the retention period. Each PCN
 * is one transaction: its images are marked purged (rows, hashes and capture facts stay) and the
 * audit entry is written; the files go after the commit, as with every other delete, so a row
 * never points at a missing file it still claims to have. A file that cannot be deleted then is
 * logged and left to the orphan sweep at the next start. Running it again does nothing: only
 * images not yet purged are found. A dry run lists what would go and changes nothing.
 */
export async function purgeExpiredEvidence(deps: EvidencePurgeDeps, options: { isDryRun?: boolean } = {}): Promise<EvidencePurgeResult> {
  const isDryRun = options.isDryRun ?? false;
  const now = deps.now();
  const cutoff = retentionCutoff(now, deps.retentionDays);
  const due = await findPcnsPastRetention(deps.db, cutoff);
  if (isDryRun) {
    return { isDryRun, cutoff, pcns: due.map((pcn) => ({ ...pcn, photoCount: pcn.keptPhotoCount })) };
  }
  const evidence = 'evidence' in deps ? deps.evidence : createDiskEvidenceStore(deps.uploadsDir);
  const purged: PurgedPcn[] = [];
  for (const pcn of due) {
    const stamp = deps.now().toISOString();
    const { packFiles, photos, attachments, documents, keeperRemoved } = await deps.db.transaction().execute(async (trx) => {
      const nothing = {
        packFiles: [] as string[],
        photos: [] as Awaited<ReturnType<typeof markPhotosPurged>>,
        attachments: [] as Awaited<ReturnType<typeof markAttachmentsPurged>>,
        documents: [] as Awaited<ReturnType<typeof markDocumentsPurged>>,
        keeperRemoved: false,
      };
      // Re-read inside the transaction: the statuses are final, but the notice may have been deleted meanwhile.
      const row = await findPcnRowById(trx, pcn.pcnId);
      if (!row || !isRetentionClosedStatus(row.status)) return nothing;
      const marked = await markPhotosPurged(trx, pcn.pcnId, stamp);
      const attachments = await markAttachmentsPurged(trx, pcn.pcnId, stamp);
      // A pack is a copy of the photos and documents: it goes with them, unrecorded (it was never a record).
      const packs = await deleteEvidencePacks(trx, { pcnId: pcn.pcnId });
      const documents = await markDocumentsPurged(trx, pcn.pcnId, stamp);
      const keeperRemoved = await deleteKeeperDetails(trx, pcn.pcnId);
      if (marked.length === 0 && attachments.length === 0 && documents.length === 0 && !keeperRemoved)
        return { ...nothing, packFiles: packs };
      await insertAuditEntries(trx, [
        {
          pcnId: pcn.pcnId,
          action: 'images_purged',
          actor: RETENTION_ACTOR,
          changes: {
            images: {
              from: marked.map((image) => ({ id: image.id, fileName: image.file_name, sha256: image.sha256, takenAt: image.taken_at })),
              to: null,
            },
            retentionDays: { from: null, to: deps.retentionDays },
            ...(keeperRemoved && { keeper: { from: 'recorded', to: null } }),
            ...(attachments.length > 0 && { appealAttachments: { from: attachments.map((file) => file.sha256), to: null } }),
            ...(documents.length > 0 && { sentDocuments: { from: documents.map((file) => file.sha256), to: null } }),
          },
          clockOffsetMs: null,
          now: stamp,
        },
      ]);
      return { packFiles: packs, photos: marked, attachments, documents, keeperRemoved };
    });
    if (photos.length === 0 && attachments.length === 0 && documents.length === 0 && !keeperRemoved) {
      // Left to the orphan sweep at the next start if the store refuses now.
      if (packFiles.length > 0) await evidence.delete(packFiles).catch(() => undefined);
      continue;
    }
    try {
      const files = [...[...photos, ...attachments, ...documents].map((file) => file.file_name), ...packFiles];
      if (files.length > 0) await evidence.delete(files);
    } catch (error) {
      deps.logger.error('could not delete purged evidence files; the orphan sweep at the next start removes them', {
        pcnNumber: pcn.pcnNumber,
        error: String(error),
      });
    }
    purged.push({ pcnId: pcn.pcnId, pcnNumber: pcn.pcnNumber, status: pcn.status, closedAt: pcn.closedAt, photoCount: photos.length });
  }
  await purgeExpiredPendingAppeals({ db: deps.db, evidence, logger: deps.logger }, now);
  await removeOldEvidencePacks({ db: deps.db, evidence, logger: deps.logger }, now);
  return { isDryRun, cutoff, pcns: purged };
}

/**
 * Appeals from /charge never confirmed (decision 0032) go once their link has died, with the
 * files only they own (a confirmed one's are its appeal's now): a squatter's text and files are
 * not kept. Rows first, files after the commit, so a row never points at a missing file; a file
 * that cannot be deleted is left to the orphan sweep at the next start.
 */
export async function purgeExpiredPendingAppeals(deps: { db: Db; evidence: EvidenceStore; logger: Logger }, now: Date): Promise<number> {
  const expired = await findExpiredPendingAppeals(deps.db, now.toISOString());
  if (expired.length === 0) return 0;
  const ids = expired.map((pending) => pending.id);
  await deps.db.transaction().execute((trx) => deletePendingAppeals(trx, ids));
  const files = expired.flatMap((pending) => pending.ownedFiles);
  try {
    if (files.length > 0) await deps.evidence.delete(files);
  } catch (error) {
    deps.logger.error('could not delete the files of unconfirmed appeals; the orphan sweep at the next start removes them', {
      error: String(error),
    });
  }
  deps.logger.info('removed appeals never confirmed', { count: expired.length });
  return expired.length;
}

/**
 * Evidence packs made more than EVIDENCE_PACK_KEPT_HOURS ago go, rows first and files after the
 * commit: a pack is a download of the evidence as it stood, and the evidence itself is kept.
 */
export async function removeOldEvidencePacks(deps: { db: Db; evidence: EvidenceStore; logger: Logger }, now: Date): Promise<number> {
  const before = new Date(now.getTime() - EVIDENCE_PACK_KEPT_HOURS * 60 * 60 * 1000).toISOString();
  const files = await deps.db.transaction().execute((trx) => deleteEvidencePacks(trx, { before }));
  try {
    if (files.length > 0) await deps.evidence.delete(files);
  } catch (error) {
    deps.logger.error('could not delete old evidence packs; the orphan sweep at the next start removes them', { error: String(error) });
  }
  return files.length;
}

/**
 * The daily run, worked as a job (decision 0046): under the maintenance lock, so the run of
 * another process on the same PostgreSQL database (or `npm run retention`) is not doubled: this
 * one is skipped and the other does the work. A failure is thrown, and the queue tries again
 * with its doubling waits.
 */
export async function runEvidencePurge(deps: EvidencePurgeDeps): Promise<void> {
  const outcome = await withMaintenanceLock(deps.db, EVIDENCE_PURGE_LOCK, () => purgeExpiredEvidence(deps));
  if (outcome.isSkipped) {
    deps.logger.info('skipped the evidence retention run: another process is running it');
    return;
  }
  const result = outcome.result;
  if (result.pcns.length > 0) {
    deps.logger.info('removed photos under the retention policy', {
      retentionDays: deps.retentionDays,
      pcns: result.pcns.length,
      photos: result.pcns.reduce((sum, pcn) => sum + pcn.photoCount, 0),
    });
  }
}

/**
 * Asks for the retention job now and then once a day, in every API process; whichever process
 * works jobs runs it. The timer is unref'd so it never keeps the process alive. A queue that
 * cannot take the job is logged and asked again the next day. Returns a function that stops the
 * timer.
 */
export function scheduleDailyEvidencePurge(
  deps: { jobs: Pick<JobQueue, 'send'>; now: () => Date; logger: Logger },
  intervalMs: number = DAY_MS,
): () => void {
  const ask = () =>
    void deps.jobs.send('retentionSweep', { day: ukDate(deps.now()) }).catch((error: unknown) => {
      deps.logger.error('could not ask for the evidence retention run; it is asked again tomorrow', { error: String(error) });
    });
  const timer = setInterval(ask, intervalMs);
  timer.unref();
  ask();
  return () => clearInterval(timer);
}
