import { randomUUID } from 'node:crypto';
import { clockOffsetMs, defaultFirstSeenAt, observationDueAt, parkingEventDay, SERVER_MESSAGES, type PcnFields } from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { creationChanges } from '../domain/pcn-audit.ts';
import { hashPcnRequest } from '../domain/pcn-rules.ts';
import { AppError } from '../http/app-error.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findSameParkingEvent, replaceDuplicateLinks } from '../repositories/pcn-duplicates.ts';
import { insertPcnImages } from '../repositories/pcn-images.ts';
import { findPcnRowByIdempotencyKey, type PcnRow } from '../repositories/pcn-rows.ts';
import { insertPcn, lockPcnWrites, type NewPcn } from '../repositories/pcn-writes.ts';
import { markExistingObservationIssued, markObservationIssued } from '../repositories/observations.ts';
import { findUserById } from '../repositories/users.ts';
import { recordActivity } from '../services/activities.ts';
import { assertMayFileAgainst } from './pcn-access.ts';
import { checkPermitsAtFiling } from './permits.ts';
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
import {
  assertFirstSeenBeforeService,
  assertObservation,
  assertSightingsWithinTheDay,
  assertTimesBeforeReceipt,
} from './pcn-observation.ts';

export type PcnFiling = {
  actor: AuthUser;
  /** The request's Idempotency-Key: one notice per key and officer, however often the device sends it. */
  idempotencyKey: string;
  fields: PcnFields;
  photos: UploadedPhotos;
  /** The device's own clock at sending (X-Device-Time), or null when it did not say. */
  deviceTime: Date | null;
  receivedAt: Date;
};

/** The new PCN, or the stored one an earlier request with the same key filed: the answer replays it. */
export type FiledPcn = { replayed: false; pcnId: string } | { replayed: true; row: PcnRow };

/** The notice as it is stored: times settled to ISO strings, the stay rule and the duplicate reason decided. */
type FiledNotice = Pick<
  NewPcn,
  'vehicleRegistration' | 'carParkId' | 'offenceType' | 'description' | 'location' | 'observedAt' | 'noticeServedBy' | 'noticeServedAt'
> & {
  firstSeenAt: string;
  issuedAt: string;
  stayApplies: boolean;
  duplicateReason: string | null;
};

/**
 * A new PCN from an officer's device (POST /pcns): the photos checked, the notice checked
 * against its car park, the photos placed, then the notice, its photos' rows, its duplicate
 * links, the activity and the audit entry in one transaction. Photos are written before the
 * commit and removed again if it fails, so a committed row never lacks its photo.
 */
export async function filePcn(deps: EvidenceDeps, filing: PcnFiling): Promise<FiledPcn> {
  const { db } = deps;
  const { actor: user, idempotencyKey: key, fields, deviceTime, receivedAt } = filing;
  const images = await readEvidenceImages(filing.photos.files, filing.photos.facts);
  const requestHash = hashPcnRequest(fields, images);

  const existing = await findPcnRowByIdempotencyKey(db, user.id, key);
  if (existing) {
    const replay = replayOf(existing, requestHash);
    // A first request that filed but stopped before asking keeps its notice to driver now.
    await askForNoticeToDriver(deps, existing.id);
    return replay;
  }

  // Checked now so a refused notice stores no photo, and again in the commit (findActingUser).
  const carPark = await assertMayFileAgainst(db, user, fields.carParkId);
  // Observation and issue times are the device's readings, so they are checked against the
  // device's own "now" when it says what that is, and the rule compares like with like.
  const deviceNow = deviceTime ?? receivedAt;
  const observedAt = fields.observedAt ? new Date(fields.observedAt).toISOString() : null;
  // Without an issue time the notice is issued now, but never before its own sighting: a
  // phone a minute ahead of the server (and not saying so) must not fail its own notice.
  const issuedAt = fields.issuedAt
    ? new Date(fields.issuedAt).toISOString()
    : new Date(Math.max(deviceNow.getTime(), observedAt ? Date.parse(observedAt) : 0)).toISOString();
  const stayApplies = fields.stayApplies ?? carPark.stayAppliesByDefault;
  const offset = deviceTime ? clockOffsetMs(receivedAt, deviceTime) : null;
  // Served as the notice was issued unless the officer's device said otherwise.
  const noticeServedAt = fields.noticeServedAt ? new Date(fields.noticeServedAt).toISOString() : issuedAt;
  const firstSeenAt = fields.firstSeenAt ? new Date(fields.firstSeenAt).toISOString() : defaultFirstSeenAt({ observedAt, noticeServedAt });
  // A time the phone sent is checked against receipt; one worked out here was checked as its source.
  assertTimesBeforeReceipt({
    times: { observedAt: fields.observedAt, firstSeenAt: fields.firstSeenAt, noticeServedAt: fields.noticeServedAt },
    receivedAt,
    clockOffsetMs: offset,
  });
  assertObservation({
    observedAt,
    issuedAt,
    stayApplies,
    carPark,
    deviceNow,
    secondVisit: { photoTakenAts: images.map((image) => image.takenAt), clockOffsetMs: offset },
  });
  assertFirstSeenBeforeService({ firstSeenAt, noticeServedAt });
  // Counted back from the phone's own issue time, else from when the notice met the car, as the
  // phone's form checks it: an issue time worked out here is the sending, and a notice sent from
  // the outbox a day after its service would fail for the wait.
  assertSightingsWithinTheDay({
    firstSeenAt: fields.firstSeenAt,
    observedAt: fields.observedAt,
    issuedAt: fields.issuedAt || !fields.noticeServedAt ? issuedAt : noticeServedAt,
  });
  // Whatever the phone knew (its copy may be a day old), the register as it stands now decides:
  // refused here, before any photo is stored, when a permit held and no reason was given.
  const permitCheck = await checkPermitsAtFiling(db, {
    carParkId: fields.carParkId,
    vehicleRegistration: fields.vehicleRegistration,
    issuedAt,
    overrideReason: fields.permitOverrideReason || null,
    checkedAt: receivedAt.toISOString(),
  });
  const notice: FiledNotice = {
    vehicleRegistration: fields.vehicleRegistration,
    carParkId: fields.carParkId,
    offenceType: fields.offenceType,
    description: fields.description,
    location: fields.location,
    observedAt,
    issuedAt,
    stayApplies,
    duplicateReason: fields.duplicateReason || null,
    noticeServedBy: fields.noticeServedBy,
    noticeServedAt,
    firstSeenAt,
  };

  const fileNames = await placeEvidence(deps, images);
  const id = randomUUID();
  try {
    const observationDue = stayApplies && observedAt ? observationDueAt(observedAt, carPark).toISOString() : null;
    await commitFiling(db, {
      id,
      notice,
      observationDueAt: observationDue,
      actor: user,
      clockOffsetMs: offset,
      idempotencyKey: key,
      requestHash,
      images,
      fileNames,
      permit: { overrideReason: permitCheck.overrideReason, check: JSON.stringify(permitCheck) },
      now: receivedAt.toISOString(),
    });
  } catch (error) {
    await discardEvidenceFiles(deps, fileNames);
    // Two requests with one key raced: the unique (created_by, idempotency_key) index let
    // the other one win, so this one answers with the winner's PCN.
    const winner = await findPcnRowByIdempotencyKey(db, user.id, key);
    if (winner) return replayOf(winner, requestHash);
    throw error;
  }
  await askForNoticeToDriver(deps, id);
  return { replayed: false, pcnId: id };
}

/**
 * The notice to driver is kept by a job, after the answer (keep-notice-to-driver.ts). Asked for
 * once the filing has committed, so the job finds the notice. A queue that cannot take it fails
 * the request, as keeping the notice itself failing did: the phone sends the filing again, and
 * the replay asks again.
 */
async function askForNoticeToDriver(deps: EvidenceDeps, pcnId: string): Promise<void> {
  await deps.jobs.send('noticeToDriver', { pcnId });
}

/** A replayed create answers with what the first request made, or 422 if the key now carries another notice. */
function replayOf(existing: PcnRow, requestHash: string): FiledPcn {
  if (existing.request_hash !== requestHash) {
    throw new AppError('IDEMPOTENCY_MISMATCH', SERVER_MESSAGES.idempotencyKeyReused);
  }
  return { replayed: true, row: existing };
}

/**
 * The filing's one transaction: the same-parking-event lookup, the PCN number, the rows, the
 * duplicate links, the activity and the audit entry commit together or not at all.
 *
 * Engine-specific: this relies on SQLite running the transaction alone (Kysely's SQLite driver
 * holds its one connection for the whole transaction, and SQLite has one writer). So the next
 * number insertPcn reads (MAX(sequence) + 1) and the same-event lookup see every filing
 * committed before, and no other filing can slip in between the read and the insert; the unique
 * indexes on sequence and on (created_by, idempotency_key) are only the backstop, the second
 * one answered in filePcn's catch. On PostgreSQL, lockPcnWrites gives the same guarantee: the
 * filings of every process take their turn. The filing rule is checked again here (a refusal
 * rolls back, and filePcn removes the photos it stored), because admins' changes to the
 * officer and the car park take no PCN lock: see findActingUser.
 */
async function commitFiling(
  db: Db,
  filing: {
    id: string;
    notice: FiledNotice;
    /** When a stay applies: the observation's due time, from the car park's periods. */
    observationDueAt: string | null;
    actor: AuthUser;
    clockOffsetMs: number | null;
    idempotencyKey: string;
    requestHash: string;
    images: EvidenceImage[];
    fileNames: string[];
    /** The server's permit check (decision 0041) and the officer's reason to issue despite a permit. */
    permit: { overrideReason: string | null; check: string };
    now: string;
  },
): Promise<void> {
  const { id, notice, actor: user, clockOffsetMs: offset, now } = filing;
  const { stayApplies, observedAt } = notice;
  await db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    // The check before the photos were stored is repeated here: see findActingUser.
    await assertMayFileAgainst(trx, await findActingUser(trx, user), notice.carParkId);
    // Looked up inside the transaction, so two notices for one event racing in are both flagged.
    const duplicates = await findSameParkingEvent(trx, {
      vehicleRegistration: notice.vehicleRegistration,
      carParkId: notice.carParkId,
      day: parkingEventDay({ observedAt: notice.observedAt, createdAt: now }),
    });
    const { pcnNumber } = await insertPcn(trx, {
      id,
      ...notice,
      clockOffsetMs: offset,
      permitOverrideReason: filing.permit.overrideReason,
      permitCheck: filing.permit.check,
      createdBy: user.id,
      idempotencyKey: filing.idempotencyKey,
      requestHash: filing.requestHash,
      now,
    });
    const rows = imageRows(id, filing.images, filing.fileNames, now);
    await insertPcnImages(trx, rows);
    await replaceDuplicateLinks(
      trx,
      id,
      duplicates.map((d) => d.id),
      now,
    );
    await recordActivity(trx, {
      userId: user.id,
      type: 'PCN_CREATED',
      description: `Created PCN ${pcnNumber}`,
      pcnId: id,
      now: new Date(now),
    });
    // A stay notice completes its observation (the key is the phone's observation id too), in
    // the same commit: an admin never sees an open observation whose notice was filed.
    if (stayApplies && observedAt) {
      await markObservationIssued(
        trx,
        {
          officerId: user.id,
          id: filing.idempotencyKey,
          carParkId: notice.carParkId,
          vehicleRegistration: notice.vehicleRegistration,
          observedAt,
          dueAt: filing.observationDueAt!,
        },
        id,
        now,
      );
    } else {
      await markExistingObservationIssued(trx, user.id, filing.idempotencyKey, id, now);
    }
    await insertAuditEntries(trx, [
      auditEntry(
        id,
        'created',
        user,
        offset,
        now,
        creationChanges({
          pcnNumber,
          status: 'SUBMITTED',
          ...notice,
          clockOffsetMs: offset,
          images: rows.map(imageSummary),
        }),
      ),
    ]);
  });
}

/**
 * The request's user as they are now, read inside the commit's transaction. The filing rule (an
 * active officer, an active car park assigned to them unless they are an admin) was checked
 * when the request came in, but storing the photos can take a while, and an admin unassigning
 * the officer, closing the car park or deactivating or demoting the officer takes no PCN lock.
 * So the rule is checked again in the transaction with what this returns: whatever an admin
 * committed before that read counts; a change committed after it is simply later than the
 * filing, as if the admin had clicked a moment after.
 */
export async function findActingUser(trx: Db, actor: AuthUser): Promise<AuthUser> {
  const current = await findUserById(trx, actor.id);
  if (!current?.isActive) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.sessionExpired);
  return { ...actor, role: current.role };
}
