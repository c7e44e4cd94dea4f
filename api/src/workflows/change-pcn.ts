import {
  clockOffsetMs,
  isAdminRole,
  needsDescription,
  parkingEventDay,
  SERVER_MESSAGES,
  VALIDATION_MESSAGES,
  type PcnFields,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { diffFields, hasChanges } from '../domain/pcn-audit.ts';
import { fitsImageLimit } from '../domain/pcn-rules.ts';
import { AppError } from '../http/app-error.ts';
import { findCarParkForFiling } from '../repositories/car-park-for-filing.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findSameParkingEvent, replaceDuplicateLinks } from '../repositories/pcn-duplicates.ts';
import { countPcnImages, deletePcnImages, insertPcnImages } from '../repositories/pcn-images.ts';
import type { PcnRow } from '../repositories/pcn-rows.ts';
import { lockPcnWrites, updatePcnFields } from '../repositories/pcn-writes.ts';
import { recordActivity } from '../services/activities.ts';
import { findActingUser } from './file-pcn.ts';
import { assertMayFileAgainst, findChangeablePcn } from './pcn-access.ts';
import {
  discardEvidenceFiles,
  imageRows,
  imageSummary,
  readEvidenceImages,
  type EvidenceDeps,
  type EvidenceImage,
  type UploadedPhotos,
  placeEvidence,
} from './pcn-evidence.ts';
import { fieldsOf } from './pcn-fields.ts';
import {
  assertFirstSeenBeforeService,
  assertObservation,
  assertSightingsWithinTheDay,
  assertTimesBeforeReceipt,
} from './pcn-observation.ts';

export type PcnChange = {
  /** The PCN as findChangeablePcn found it before the request's photos were read. */
  row: PcnRow;
  actor: AuthUser;
  /** Only the fields the form sent: they replace the stored ones, the rest stay. */
  fields: Partial<PcnFields>;
  /** Why an admin corrects how or when the notice to driver was served; required then, and audited. */
  serviceCorrectionReason?: string | null;
  photos: UploadedPhotos;
  removeImageIds: readonly string[];
  /** The device's own clock at sending (X-Device-Time), or null when it did not say. */
  deviceTime: Date | null;
  receivedAt: Date;
};

/** The sent fields as stored: times as ISO strings, an empty duplicate reason as none. */
type ChangedFields = Omit<Partial<PcnFields>, 'duplicateReason'> & { duplicateReason?: string | null };

/**
 * An edit of a PCN (PUT /pcns/{id}), by its owner while SUBMITTED or an admin: the sent fields,
 * photos removed and added. The new photos are placed before the commit and removed again if it fails; the removed
 * ones go only once it committed.
 */
export async function changePcn(deps: EvidenceDeps, change: PcnChange): Promise<void> {
  const { db } = deps;
  const { row, actor: user, fields, deviceTime, receivedAt } = change;
  const images = await readEvidenceImages(change.photos.files, change.photos.facts);
  if (fields.carParkId !== undefined && fields.carParkId !== row.car_park_id) {
    await assertMayFileAgainst(db, user, fields.carParkId);
  }
  const offset = deviceTime ? clockOffsetMs(receivedAt, deviceTime) : null;
  const changed: ChangedFields = {
    ...fields,
    ...(fields.observedAt !== undefined && { observedAt: new Date(fields.observedAt).toISOString() }),
    ...(fields.issuedAt !== undefined && { issuedAt: new Date(fields.issuedAt).toISOString() }),
    ...(fields.duplicateReason !== undefined && { duplicateReason: fields.duplicateReason || null }),
    ...(fields.noticeServedAt !== undefined && { noticeServedAt: new Date(fields.noticeServedAt).toISOString() }),
    ...(fields.firstSeenAt !== undefined && { firstSeenAt: new Date(fields.firstSeenAt).toISOString() }),
  };

  const fileNames = await placeEvidence(deps, images);
  let removedFiles: string[];
  try {
    removedFiles = await commitChange(db, {
      pcnId: row.id,
      actor: user,
      changed,
      removeImageIds: change.removeImageIds,
      serviceCorrectionReason: change.serviceCorrectionReason ?? null,
      images,
      fileNames,
      clockOffsetMs: offset,
      deviceNow: deviceTime ?? receivedAt,
      receivedAt,
      now: receivedAt.toISOString(),
    });
  } catch (error) {
    await discardEvidenceFiles(deps, fileNames);
    throw error;
  }
  await discardEvidenceFiles(deps, removedFiles);
}

/**
 * The edit's one transaction: the PCN checked again, photos removed and added, the fields, the
 * duplicate links, the activity and the audit entries commit together or not at all. Returns
 * the file names of the removed photos, to delete once it committed.
 *
 * Engine-specific: every check here reads and then writes on what it read (the PCN's status
 * before the update, the photo count before the limit, the parking event before its links).
 * That is safe because SQLite runs the transaction alone (Kysely's SQLite driver holds its one
 * connection for the whole transaction, and SQLite has one writer): no status change, other
 * edit or deletion of this PCN can commit in between. On PostgreSQL, lockPcnWrites gives the
 * same guarantee, since everything that writes PCNs takes it first. Changes to the editor's
 * account or car parks take no PCN lock: those are read again here (see findActingUser).
 */
async function commitChange(
  db: Db,
  change: {
    pcnId: string;
    actor: AuthUser;
    changed: ChangedFields;
    removeImageIds: readonly string[];
    serviceCorrectionReason: string | null;
    images: EvidenceImage[];
    fileNames: string[];
    clockOffsetMs: number | null;
    deviceNow: Date;
    receivedAt: Date;
    now: string;
  },
): Promise<string[]> {
  const { pcnId: id, actor: user, changed, images, clockOffsetMs: offset, now } = change;
  return db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    // Checked again inside the transaction: an admin may have moved the PCN on, or changed
    // the editor's account or car parks, while the photos were uploading (see findActingUser).
    const editor = await findActingUser(trx, user);
    const current = await findChangeablePcn(trx, editor, id);
    if (changed.carParkId !== undefined && changed.carParkId !== current.car_park_id) {
      await assertMayFileAgainst(trx, editor, changed.carParkId);
    }
    const removed = await deletePcnImages(trx, id, change.removeImageIds);
    const remaining = await countPcnImages(trx, id);
    if (!fitsImageLimit(remaining, 0, images.length)) {
      throw new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.tooManyImages, {
        details: { images: VALIDATION_MESSAGES.tooManyImages },
      });
    }
    const before = fieldsOf(current);
    const after = { ...before, ...changed };
    if (needsDescription(after.offenceType) && after.description.trim() === '') {
      throw new AppError('VALIDATION_FAILED', VALIDATION_MESSAGES.descriptionRequiredForOther, {
        details: { description: VALIDATION_MESSAGES.descriptionRequiredForOther },
      });
    }
    assertTimesBeforeReceipt({
      times: { observedAt: changed.observedAt, firstSeenAt: changed.firstSeenAt, noticeServedAt: changed.noticeServedAt },
      receivedAt: change.receivedAt,
      clockOffsetMs: offset,
    });
    // The stay rule is checked again only when an edit touches what it depends on, so an
    // older notice can still have its description corrected.
    const touchesObservation = ['observedAt', 'issuedAt', 'stayApplies', 'carParkId'].some((name) => name in changed);
    if (touchesObservation) {
      const carPark = await findCarParkForFiling(trx, after.carParkId, user.id);
      if (!carPark)
        throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.carParkNotFound, {
          details: { carParkId: SERVER_MESSAGES.carParkNotFound },
        });
      assertObservation({
        observedAt: after.observedAt,
        // A notice from before issue times were recorded was issued when it was made.
        issuedAt: after.issuedAt ?? current.created_at,
        stayApplies: after.stayApplies,
        carPark,
        deviceNow: change.deviceNow,
        checkFuture: { observedAt: 'observedAt' in changed, issuedAt: 'issuedAt' in changed },
      });
    }
    if (['observedAt', 'firstSeenAt', 'noticeServedAt'].some((name) => name in changed)) {
      assertFirstSeenBeforeService({ firstSeenAt: after.firstSeenAt, noticeServedAt: after.noticeServedAt });
    }
    assertSightingsWithinTheDay({
      firstSeenAt: changed.firstSeenAt,
      observedAt: changed.observedAt,
      issuedAt: after.issuedAt ?? current.created_at,
    });
    await updatePcnFields(trx, id, changed, now);
    const added = imageRows(id, images, change.fileNames, now);
    await insertPcnImages(trx, added);
    const isSameEventChanged = ['vehicleRegistration', 'carParkId', 'observedAt'].some(
      (name) => JSON.stringify(before[name as keyof typeof before]) !== JSON.stringify(after[name as keyof typeof after]),
    );
    if (isSameEventChanged) {
      const duplicates = await findSameParkingEvent(trx, {
        vehicleRegistration: after.vehicleRegistration,
        carParkId: after.carParkId,
        day: parkingEventDay({ observedAt: after.observedAt, createdAt: current.created_at }),
        excludePcnId: id,
      });
      await replaceDuplicateLinks(
        trx,
        id,
        duplicates.map((d) => d.id),
        now,
      );
    }
    await recordActivity(trx, {
      userId: user.id,
      type: 'PCN_EDITED',
      description: `Edited PCN ${current.pcn_number}`,
      pcnId: id,
      now: new Date(now),
    });
    const fieldChanges = diffFields(before, changed);
    if (fieldChanges.noticeServedBy || fieldChanges.noticeServedAt) {
      // The route to the keeper hangs on the service: an admin changing what the officer
      // recorded says why, in the same audit entry. The officer's own correction needs none.
      if (isAdminRole(editor.role) && current.created_by !== editor.id) {
        if (!change.serviceCorrectionReason) {
          throw new AppError('VALIDATION_FAILED', VALIDATION_MESSAGES.serviceCorrectionReasonRequired, {
            details: { serviceCorrectionReason: VALIDATION_MESSAGES.serviceCorrectionReasonRequired },
          });
        }
        fieldChanges.serviceCorrectionReason = { from: null, to: change.serviceCorrectionReason };
      }
    }
    await insertAuditEntries(trx, [
      ...(hasChanges(fieldChanges) ? [auditEntry(id, 'updated', user, offset, now, fieldChanges)] : []),
      ...removed.map((image) => auditEntry(id, 'image_removed', user, offset, now, { image: { from: imageSummary(image), to: null } })),
      ...added.map((image) => auditEntry(id, 'image_added', user, offset, now, { image: { from: null, to: imageSummary(image) } })),
    ]);
    return removed.map((image) => image.file_name);
  });
}
