import { readPhotoExif } from './evidence-pack/read-photo-exif.ts';
import {
  ERROR_MESSAGES,
  evidencePackFileName,
  isPhotoShotType,
  OFFENCE_PHOTO_CHECKLIST,
  type OffenceType,
  type PermitCheckRecord,
} from '@parkpatrol/shared';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { PackCarPark, PackPhoto } from '../domain/evidence-pack-content.ts';
import { keeperLiabilityOf } from '../domain/keeper-liability.ts';
import { amountDueOf } from '../domain/public-charge.ts';
import { chargeFactsOf } from '../workflows/look-up-charge.ts';
import { findAppealByPcnId, loadAppeal } from '../repositories/appeals.ts';
import { AppError } from '../http/app-error.ts';
import { findCarParkById } from '../repositories/car-parks.ts';
import { findAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPossibleDuplicates } from '../repositories/pcn-duplicates.ts';
import { findPcnImages, type PcnImageRow } from '../repositories/pcn-images.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { findSentDocuments } from '../repositories/sent-documents.ts';
import { sha256Hex } from './crypto-tokens.ts';
import type { EvidenceStore } from './evidence-storage.ts';
import { renderEvidencePackOffThread } from './evidence-pack/render-off-thread.ts';

export type EvidencePackDeps = {
  db: Db;
  config: Pick<Config, 'productName'>;
  evidence: EvidenceStore;
  now: () => Date;
};

/**
 * The evidence pack of one PCN for an appeal: everything the records hold about the
 * notice, read in one go, each photo file read and rehashed against the SHA-256 taken on receipt,
 * then drawn as a PDF. Who may ask is the route's business.
 */
export async function buildEvidencePack(
  deps: EvidencePackDeps,
  pcnId: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; fileName: string }> {
  const { db } = deps;
  const row = await findPcnRowById(db, pcnId);
  if (!row) throw new AppError('NOT_FOUND', ERROR_MESSAGES.pcnNotFound);
  const [images, duplicates, audit, carPark, appealRow] = await Promise.all([
    findPcnImages(db, [pcnId]).then((byPcn) => byPcn.get(pcnId) ?? []),
    findPossibleDuplicates(db, [pcnId]).then((byPcn) => byPcn.get(pcnId) ?? []),
    findAuditEntries(db, pcnId),
    findCarParkById(db, row.car_park_id),
    findAppealByPcnId(db, pcnId),
  ]);
  const documents = await readPackDocuments(deps, pcnId);
  const appeal = appealRow ? await loadAppeal(db, appealRow) : null;
  // The period and the amounts as every other document states them (the one computation).
  const charge = await chargeFactsOf(db, row, () => '');
  const generatedAt = deps.now();
  const carParkNames = await findCarParkNames(
    db,
    audit.flatMap((entry) => [entry.changes.carParkId?.from, entry.changes.carParkId?.to]),
  );
  const offenceType = row.offence_type;
  const photos = await Promise.all(images.map((image) => readPackPhoto(deps.evidence, image, offenceType)));
  const purgedTimes = images.map((image) => image.purged_at).filter((at): at is string => at !== null);

  // Drawn in a worker thread: the API keeps answering while a pack is made.
  const bytes = await renderEvidencePackOffThread({
    productName: deps.config.productName,
    generatedAt,
    pcn: {
      pcnNumber: row.pcn_number,
      vehicleRegistration: row.vehicle_registration,
      offenceType,
      description: row.description,
      location: row.location,
      status: row.status,
      adminNotes: row.admin_notes,
      observedAt: row.observed_at,
      issuedAt: row.issued_at,
      parkedFrom: charge.parkedFrom,
      parkedUntil: charge.parkedUntil,
      amount: charge.terms.carPark?.chargePence == null ? null : amountDueOf(charge, generatedAt),
      stayApplies: row.stay_applies,
      clockOffsetMs: row.clock_offset_ms,
      ...keeperLiabilityOf(row),
      duplicateReason: row.duplicate_reason,
      permitCheck: row.permit_check ? (JSON.parse(row.permit_check) as PermitCheckRecord) : null,
      officerName: row.created_by === null ? null : `${row.creator_first_name ?? ''} ${row.creator_last_name ?? ''}`.trim(),
      createdAt: row.created_at,
      appeal,
      documents,
    },
    carPark: carPark ? toPackCarPark(carPark) : null,
    possibleDuplicates: duplicates,
    photos,
    photosPurgedAt: purgedTimes.length > 0 ? purgedTimes.sort().at(-1)! : null,
    audit,
    carParkNames: Object.fromEntries(carParkNames),
  });
  return { bytes, fileName: evidencePackFileName(row.pcn_number) };
}

async function readPackPhoto(
  evidence: EvidenceStore,
  image: PcnImageRow,
  offenceType: OffenceType,
): Promise<PackPhoto & { bytes: Uint8Array | null }> {
  const bytes = image.purged_at === null ? await evidence.read(image.file_name) : null;
  const labels = new Map<string, string>(OFFENCE_PHOTO_CHECKLIST[offenceType]?.map((item) => [item.id, item.label]) ?? []);
  return {
    mimeType: image.mime_type,
    sha256: image.sha256,
    clientSha256: image.client_sha256,
    takenAt: image.taken_at,
    takenAtSource: image.taken_at_source,
    latitude: image.latitude,
    longitude: image.longitude,
    accuracyM: image.accuracy_m,
    shots: image.shots
      .split(',')
      .filter(isPhotoShotType)
      .map((shot) => labels.get(shot) ?? shot),
    purgedAt: image.purged_at,
    isFileIntact: bytes === null ? null : sha256Hex(bytes) === image.sha256,
    exif: bytes === null ? null : await readPhotoExif(bytes),
    bytes,
  };
}

/** The documents kept for the notice, each file read and rehashed against its SHA-256, as the photos are. */
async function readPackDocuments(deps: EvidencePackDeps, pcnId: string) {
  const documents = await findSentDocuments(deps.db, pcnId);
  return Promise.all(
    documents.map(async (document) => {
      if (document.purgedAt !== null) return { ...document, isFileIntact: null };
      const found = await deps.db.selectFrom('sent_documents').select('file_name').where('id', '=', document.id).executeTakeFirstOrThrow();
      const bytes = await deps.evidence.read(found.file_name);
      return { ...document, isFileIntact: bytes !== null && sha256Hex(bytes) === document.sha256 };
    }),
  );
}

function toPackCarPark(carPark: NonNullable<Awaited<ReturnType<typeof findCarParkById>>>): PackCarPark {
  const { id, name, siteCode, address, postcode, considerationMinutes, graceMinutes, minimumsOverrideReason } = carPark;
  return { id, name, siteCode, address, postcode, considerationMinutes, graceMinutes, minimumsOverrideReason };
}

/** Names of the car parks an audit trail mentions by id (a notice may have moved between them). */
async function findCarParkNames(db: Db, ids: readonly unknown[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('car_parks').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
