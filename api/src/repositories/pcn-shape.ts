import { hasClockSkewWarning, isPhotoShotType, type Pcn, type PcnImage, type PcnReference, type PcnStatusChange } from '@parkpatrol/shared';
import { keeperDeadlineOf, keeperLiabilityOf } from '../domain/keeper-liability.ts';
import { thumbnailUrlOf } from '../domain/upload-paths.ts';
import type { PcnImageRow } from './pcn-images.ts';
import { periodStartOf, type PcnRow } from './pcn-rows.ts';
import type { PcnHistoryRow } from './pcn-status.ts';

// A notice's rows as the API answers them (the shared Pcn).

/**
 * What the answer depends on besides the rows: the time (for the deadline warning) and who asks
 * (the duplicate flags are for admins).
 */
export type PcnView = {
  now: Date;
  isAdmin: boolean;
  /** Possible duplicates of this PCN, when loaded (admins). */
  possibleDuplicates?: readonly PcnReference[];
};

function toPcnImage(image: PcnImageRow, imageUrl: (fileName: string) => string): PcnImage {
  return {
    id: image.id,
    fileName: image.file_name,
    // No URL for a removed file: it would only ever answer 404 (a broken image on every screen).
    url: image.purged_at === null ? imageUrl(image.file_name) : null,
    thumbnailUrl: image.purged_at === null ? thumbnailUrlOf(imageUrl(image.file_name)) : null,
    mimeType: image.mime_type,
    size: image.size,
    sha256: image.sha256,
    clientSha256: image.client_sha256,
    takenAt: image.taken_at,
    takenAtSource: image.taken_at_source,
    latitude: image.latitude,
    longitude: image.longitude,
    accuracyM: image.accuracy_m,
    shots: image.shots.split(',').filter(isPhotoShotType),
    createdAt: image.created_at,
    purgedAt: image.purged_at,
  };
}

/** The one mapper from rows to the shared Pcn shape; image URLs come from the caller (they are signed). */
export function toPcn(
  row: PcnRow,
  images: readonly PcnImageRow[],
  imageUrl: (fileName: string) => string,
  view: PcnView,
  history?: readonly PcnHistoryRow[],
): Pcn {
  const status = row.status;
  const pcn: Pcn = {
    id: row.id,
    pcnNumber: row.pcn_number,
    vehicleRegistration: row.vehicle_registration,
    carParkId: row.car_park_id,
    carPark: row.car_park_name === null ? null : { id: row.car_park_id, name: row.car_park_name },
    offenceType: row.offence_type,
    description: row.description,
    location: row.location,
    status,
    adminNotes: row.admin_notes,
    cancellationReason: row.cancellation_reason,
    cancellationNote: row.cancellation_note,
    observedAt: row.observed_at,
    firstSeenAt: periodStartOf(row),
    issuedAt: row.issued_at,
    stayApplies: row.stay_applies,
    clockOffsetMs: row.clock_offset_ms,
    clockSkewWarning: hasClockSkewWarning(row.clock_offset_ms),
    ...keeperDeadlineOf(row, status, view.now),
    duplicateReason: row.duplicate_reason,
    permitOverrideReason: row.permit_override_reason,
    ...keeperLiabilityOf(row),
    createdBy:
      row.created_by === null
        ? null
        : { id: row.created_by, firstName: row.creator_first_name ?? '', lastName: row.creator_last_name ?? '' },
    images: images.map((image) => toPcnImage(image, imageUrl)),
    photosPurgedAt: row.photos_purged_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (view.isAdmin && view.possibleDuplicates) pcn.possibleDuplicates = [...view.possibleDuplicates];
  if (view.isAdmin) {
    pcn.collection = row.collection_stage
      ? {
          stage: row.collection_stage,
          reminderPostedOn: row.reminder_posted_on,
          letterBeforeClaimPostedOn: row.letter_before_claim_posted_on,
          debtRecoveryFeePence: row.debt_recovery_fee_pence,
        }
      : null;
  }
  if (history) {
    pcn.statusHistory = history.map((h): PcnStatusChange => ({
      id: h.id,
      fromStatus: h.from_status,
      toStatus: h.to_status,
      note: h.note,
      changedBy:
        h.changed_by === null ? null : { id: h.changed_by, firstName: h.changer_first_name ?? '', lastName: h.changer_last_name ?? '' },
      createdAt: h.created_at,
    }));
  }
  return pcn;
}
