import { sql } from 'kysely';
import {
  draftReferenceOfKey,
  emptyStatusCounts,
  formatPcnNumber,
  hasClockSkewWarning,
  isPhotoShotType,
  utcDayRange,
  type OffenceType,
  type Pcn,
  type PcnAuditAction,
  type PcnAuditEntry,
  type PcnDuplicateMatch,
  type PcnImage,
  type PcnReference,
  type PcnStats,
  type PcnStatus,
  type PcnStatusChange,
  type PhotoTakenAtSource,
  type NoticeServedBy,
} from '@parkpatrol/shared';
import type { Insertable } from 'kysely';
import type { Db } from '../db/database.ts';
import { engineOf } from '../db/dialect.ts';
import { reusableQuery } from '../db/reusable-query.ts';
import type { PcnImagesTable } from '../db/schema.ts';
import type { AuditChanges } from '../domain/pcn-audit.ts';
import { storeKeeperPostingDays } from './keeper-posting-days.ts';
import { storeNoticeTerms } from './terms.ts';
import { keeperDeadlineOf, keeperLiabilityOf } from '../domain/keeper-liability.ts';
import { thumbnailUrlOf } from '../services/upload-urls.ts';

/** A PCN row with the names the API shows beside it. */
export type PcnRow = {
  id: string;
  pcn_number: string;
  vehicle_registration: string;
  car_park_id: string;
  car_park_name: string | null;
  offence_type: string;
  description: string;
  location: string;
  status: string;
  admin_notes: string | null;
  observed_at: string | null;
  /** The start of the period of parking; null only on a row no migration back-filled. */
  first_seen_at: string | null;
  issued_at: string | null;
  stay_applies: number;
  clock_offset_ms: number | null;
  duplicate_reason: string | null;
  notice_served_by: string | null;
  notice_served_at: string | null;
  operator_terms_id: string | null;
  car_park_terms_id: string | null;
  keeper_notice_posted_on: string | null;
  keeper_notice_given_on: string | null;
  keeper_notice_proof: string | null;
  car_park_jurisdiction: string | null;
  car_park_relevant_land: number | null;
  /** The reference its notice to driver printed before it was sent, when it was filed under a draft id. */
  draft_reference: string | null;
  created_by: string | null;
  creator_first_name: string | null;
  creator_last_name: string | null;
  request_hash: string | null;
  created_at: string;
  updated_at: string;
};

const IMAGE_COLUMNS = [
  'id',
  'pcn_id',
  'file_name',
  'mime_type',
  'size',
  'sha256',
  'client_sha256',
  'taken_at',
  'taken_at_source',
  'latitude',
  'longitude',
  'accuracy_m',
  'shots',
  'created_at',
  'purged_at',
] as const;
export type PcnImageRow = Pick<PcnImagesTable, Exclude<(typeof IMAGE_COLUMNS)[number], 'shots'>> & { shots: string };

type PcnHistoryRow = {
  id: string;
  from_status: string | null;
  to_status: string;
  note: string | null;
  changed_by: string | null;
  changer_first_name: string | null;
  changer_last_name: string | null;
  created_at: string;
};

/** Who sees which PCNs: a USER their own, an admin everyone's (ownerId undefined). */
export type PcnScope = { ownerId?: string };

/** PCNs with their car park and creator beside them: what a PCN row shows, and what lists sort by. */
export function fromPcnsWithNames(db: Db) {
  return db.selectFrom('pcns').leftJoin('car_parks', 'car_parks.id', 'pcns.car_park_id').leftJoin('users', 'users.id', 'pcns.created_by');
}

export function selectPcnRows(db: Db) {
  return fromPcnsWithNames(db).select([
    'pcns.id',
    'pcns.pcn_number',
    'pcns.vehicle_registration',
    'pcns.car_park_id',
    'car_parks.name as car_park_name',
    'pcns.offence_type',
    'pcns.description',
    'pcns.location',
    'pcns.status',
    'pcns.admin_notes',
    'pcns.observed_at',
    'pcns.first_seen_at',
    'pcns.issued_at',
    'pcns.stay_applies',
    'pcns.clock_offset_ms',
    'pcns.duplicate_reason',
    'pcns.notice_served_by',
    'pcns.notice_served_at',
    'pcns.operator_terms_id',
    'pcns.car_park_terms_id',
    'pcns.keeper_notice_posted_on',
    'pcns.keeper_notice_given_on',
    'pcns.keeper_notice_proof',
    'car_parks.jurisdiction as car_park_jurisdiction',
    'car_parks.relevant_land as car_park_relevant_land',
    'pcns.draft_reference',
    'pcns.created_by',
    'users.first_name as creator_first_name',
    'users.last_name as creator_last_name',
    'pcns.request_hash',
    'pcns.created_at',
    'pcns.updated_at',
  ]);
}

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
    takenAtSource: image.taken_at_source as PhotoTakenAtSource | null,
    latitude: image.latitude,
    longitude: image.longitude,
    accuracyM: image.accuracy_m,
    shots: image.shots.split(',').filter(isPhotoShotType),
    createdAt: image.created_at,
    purgedAt: image.purged_at,
  };
}

/** When the retention policy removed this PCN's photo files (all go at once), or null while they are kept. */
function photosPurgedAt(images: readonly PcnImageRow[]): string | null {
  return images.reduce<string | null>(
    (latest, image) => (image.purged_at !== null && (latest === null || image.purged_at > latest) ? image.purged_at : latest),
    null,
  );
}

/** The one mapper from rows to the shared Pcn shape; image URLs come from the caller (they are signed). */
export function toPcn(
  row: PcnRow,
  images: readonly PcnImageRow[],
  imageUrl: (fileName: string) => string,
  view: PcnView,
  history?: readonly PcnHistoryRow[],
): Pcn {
  const status = row.status as PcnStatus;
  const pcn: Pcn = {
    id: row.id,
    pcnNumber: row.pcn_number,
    vehicleRegistration: row.vehicle_registration,
    carParkId: row.car_park_id,
    carPark: row.car_park_name === null ? null : { id: row.car_park_id, name: row.car_park_name },
    offenceType: row.offence_type as OffenceType,
    description: row.description,
    location: row.location,
    status,
    adminNotes: row.admin_notes,
    observedAt: row.observed_at,
    firstSeenAt: periodStartOf(row),
    issuedAt: row.issued_at,
    stayApplies: row.stay_applies === 1,
    clockOffsetMs: row.clock_offset_ms,
    clockSkewWarning: hasClockSkewWarning(row.clock_offset_ms),
    ...keeperDeadlineOf(row, status, view.now),
    duplicateReason: row.duplicate_reason,
    ...keeperLiabilityOf(row),
    createdBy:
      row.created_by === null
        ? null
        : { id: row.created_by, firstName: row.creator_first_name ?? '', lastName: row.creator_last_name ?? '' },
    images: images.map((image) => toPcnImage(image, imageUrl)),
    photosPurgedAt: photosPurgedAt(images),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (view.isAdmin && view.possibleDuplicates) pcn.possibleDuplicates = [...view.possibleDuplicates];
  if (history) {
    pcn.statusHistory = history.map((h): PcnStatusChange => ({
      id: h.id,
      fromStatus: h.from_status as PcnStatus | null,
      toStatus: h.to_status as PcnStatus,
      note: h.note,
      changedBy:
        h.changed_by === null ? null : { id: h.changed_by, firstName: h.changer_first_name ?? '', lastName: h.changer_last_name ?? '' },
      createdAt: h.created_at,
    }));
  }
  return pcn;
}

/**
 * The start of the period of parking: first seen. Every row has one since the migration that
 * added it; the fallbacks are the same the migration back-filled from, for a row written by an
 * older process during a rolling deploy.
 */
export function periodStartOf(
  row: Pick<PcnRow, 'first_seen_at' | 'observed_at' | 'notice_served_at' | 'issued_at' | 'created_at'>,
): string {
  return row.first_seen_at ?? row.observed_at ?? row.notice_served_at ?? row.issued_at ?? row.created_at;
}

export async function findPcnRowById(db: Db, id: string): Promise<PcnRow | undefined> {
  return selectPcnRows(db).where('pcns.id', '=', id).executeTakeFirst();
}

/** Each existing PCN's number by id, for naming rows in a bulk answer; unknown ids are left out. */
export async function findPcnNumbers(db: Db, pcnIds: readonly string[]): Promise<Map<string, string>> {
  const numbers = new Map<string, string>();
  // Chunked to stay well under SQLite's bound-parameter limit.
  for (let start = 0; start < pcnIds.length; start += 500) {
    const rows = await db
      .selectFrom('pcns')
      .select(['id', 'pcn_number'])
      .where('id', 'in', pcnIds.slice(start, start + 500))
      .execute();
    for (const row of rows) numbers.set(row.id, row.pcn_number);
  }
  return numbers;
}

export async function findPcnRowByIdempotencyKey(db: Db, userId: string, key: string): Promise<PcnRow | undefined> {
  return selectPcnRows(db).where('pcns.created_by', '=', userId).where('pcns.idempotency_key', '=', key).executeTakeFirst();
}

const imagesOf = reusableQuery((db: Db, pcnIds: readonly string[]) =>
  db
    .selectFrom('pcn_images')
    .select([...IMAGE_COLUMNS])
    .where('pcn_id', 'in', pcnIds)
    // Each PCN's photos in upload order (rowid when several share a timestamp); by PCN first,
    // so the pcn_images_pcn index gives that order and nothing is sorted.
    .orderBy('pcn_id')
    .orderBy('created_at')
    .orderBy(sql`rowid`),
);

export async function findPcnImages(db: Db, pcnIds: readonly string[]): Promise<Map<string, PcnImageRow[]>> {
  const byPcn = new Map<string, PcnImageRow[]>(pcnIds.map((id) => [id, []]));
  if (pcnIds.length === 0) return byPcn;
  for (const row of await imagesOf(db, pcnIds)) byPcn.get(row.pcn_id)?.push(row);
  return byPcn;
}

export async function findStatusHistory(db: Db, pcnId: string): Promise<PcnHistoryRow[]> {
  return db
    .selectFrom('pcn_status_history')
    .leftJoin('users', 'users.id', 'pcn_status_history.changed_by')
    .select([
      'pcn_status_history.id',
      'pcn_status_history.from_status',
      'pcn_status_history.to_status',
      'pcn_status_history.note',
      'pcn_status_history.changed_by',
      'users.first_name as changer_first_name',
      'users.last_name as changer_last_name',
      'pcn_status_history.created_at',
    ])
    .where('pcn_status_history.pcn_id', '=', pcnId)
    .orderBy('pcn_status_history.created_at')
    .orderBy(sql`pcn_status_history.rowid`)
    .execute();
}

/** Counts per status in the caller's scope, from the trigger-kept pcn_counts (migration 0005). */
export async function countPcnsByStatus(db: Db, scope: PcnScope): Promise<PcnStats> {
  let query = db
    .selectFrom('pcn_counts')
    .select(['status', (eb) => eb.fn.sum<number>('n').as('n')])
    .groupBy('status');
  if (scope.ownerId !== undefined) query = query.where('owner_id', '=', scope.ownerId);
  const counts = emptyStatusCounts();
  let total = 0;
  for (const row of await query.execute()) {
    if (!(row.status in counts)) continue;
    counts[row.status as PcnStatus] = Number(row.n);
    total += Number(row.n);
  }
  return { counts, total };
}

export type NewPcn = {
  id: string;
  vehicleRegistration: string;
  carParkId: string;
  offenceType: OffenceType;
  description: string;
  location: string;
  observedAt: string | null;
  /** The start of the period of parking; without one, the first sighting, else the service (as the migration back-filled). */
  firstSeenAt?: string;
  issuedAt?: string | null;
  stayApplies?: boolean;
  clockOffsetMs?: number | null;
  duplicateReason?: string | null;
  noticeServedBy: NoticeServedBy;
  noticeServedAt: string;
  createdBy: string;
  idempotencyKey: string | null;
  requestHash: string | null;
  now: string;
};

/**
 * Inserts a PCN with the next number and its first history row. Call it inside a transaction:
 * reading MAX(sequence) and inserting must not interleave with another create (the unique
 * index on sequence is the backstop).
 */
/**
 * Changes to PCNs one at a time, until the transaction ends, as SQLite's single writer already
 * runs them: PCN numbers are MAX + 1 and must stay unique and gapless, two notices for one parking
 * event must see each other, and a filing, an edit, a status change and a deletion all move the
 * same per-owner count rows and duplicate links, which in any other order can deadlock (seen on
 * PostgreSQL: a deletion and a filing linking to the deleted notice). PostgreSQL takes a
 * transaction-level advisory lock, so every API process waits its turn for the few milliseconds
 * a commit takes. Call it first in every transaction that writes pcns.
 */
export async function lockPcnWrites(trx: Db): Promise<void> {
  if (engineOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${PCN_WRITES_LOCK})`.execute(trx);
}
/** Any fixed number, the same in every process: the advisory lock's name. */
const PCN_WRITES_LOCK = 1_504_200_001;

export async function insertPcn(trx: Db, input: NewPcn): Promise<{ sequence: number; pcnNumber: string }> {
  const { last } = await trx
    .selectFrom('pcns')
    .select((eb) => eb.fn.max<number | null>('sequence').as('last'))
    .executeTakeFirstOrThrow();
  const sequence = Number(last ?? 0) + 1;
  const pcnNumber = formatPcnNumber(sequence);
  await trx
    .insertInto('pcns')
    .values({
      id: input.id,
      sequence,
      pcn_number: pcnNumber,
      vehicle_registration: input.vehicleRegistration,
      car_park_id: input.carParkId,
      offence_type: input.offenceType,
      description: input.description,
      location: input.location,
      status: 'SUBMITTED',
      admin_notes: null,
      observed_at: input.observedAt,
      first_seen_at: input.firstSeenAt ?? input.observedAt ?? input.noticeServedAt,
      issued_at: input.issuedAt ?? null,
      stay_applies: input.stayApplies ? 1 : 0,
      clock_offset_ms: input.clockOffsetMs ?? null,
      duplicate_reason: input.duplicateReason ?? null,
      notice_served_by: input.noticeServedBy,
      notice_served_at: input.noticeServedAt,
      created_by: input.createdBy,
      idempotency_key: input.idempotencyKey,
      // The officer's phone sends the draft's id as the key: what a ticket printed before sending says.
      draft_reference: draftReferenceOfKey(input.idempotencyKey),
      request_hash: input.requestHash,
      created_at: input.now,
      updated_at: input.now,
    })
    .execute();
  await insertStatusChange(trx, { pcnId: input.id, from: null, to: 'SUBMITTED', note: null, changedBy: input.createdBy, now: input.now });
  await storeKeeperPostingDays(trx, { pcnIds: [input.id] });
  await storeNoticeTerms(trx, input.id);
  return { sequence, pcnNumber };
}

export async function insertPcnImages(trx: Db, rows: ReadonlyArray<Insertable<PcnImagesTable>>): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('pcn_images')
    .values([...rows])
    .execute();
}

export type RemovedImage = { id: string; file_name: string; sha256: string; taken_at: string | null };

/** Removes images of this PCN (ids of other PCNs are ignored) and returns what went, for the files and the audit. */
export async function deletePcnImages(trx: Db, pcnId: string, imageIds: readonly string[]): Promise<RemovedImage[]> {
  if (imageIds.length === 0) return [];
  return trx
    .deleteFrom('pcn_images')
    .where('pcn_id', '=', pcnId)
    .where('id', 'in', [...imageIds])
    .returning(['id', 'file_name', 'sha256', 'taken_at'])
    .execute();
}

export async function countPcnImages(trx: Db, pcnId: string): Promise<number> {
  const { count } = await trx
    .selectFrom('pcn_images')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('pcn_id', '=', pcnId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function updatePcnFields(
  trx: Db,
  pcnId: string,
  fields: Partial<{
    vehicleRegistration: string;
    carParkId: string;
    offenceType: OffenceType;
    description: string;
    location: string;
    observedAt: string | null;
    firstSeenAt: string;
    issuedAt: string | null;
    stayApplies: boolean;
    duplicateReason: string | null;
    noticeServedBy: NoticeServedBy;
    noticeServedAt: string;
  }>,
  now: string,
): Promise<void> {
  await trx
    .updateTable('pcns')
    .set({
      ...(fields.vehicleRegistration !== undefined && { vehicle_registration: fields.vehicleRegistration }),
      ...(fields.carParkId !== undefined && { car_park_id: fields.carParkId }),
      ...(fields.offenceType !== undefined && { offence_type: fields.offenceType }),
      ...(fields.description !== undefined && { description: fields.description }),
      ...(fields.location !== undefined && { location: fields.location }),
      ...(fields.observedAt !== undefined && { observed_at: fields.observedAt }),
      ...(fields.firstSeenAt !== undefined && { first_seen_at: fields.firstSeenAt }),
      ...(fields.issuedAt !== undefined && { issued_at: fields.issuedAt }),
      ...(fields.stayApplies !== undefined && { stay_applies: fields.stayApplies ? 1 : 0 }),
      ...(fields.duplicateReason !== undefined && { duplicate_reason: fields.duplicateReason }),
      ...(fields.noticeServedBy !== undefined && { notice_served_by: fields.noticeServedBy }),
      ...(fields.noticeServedAt !== undefined && { notice_served_at: fields.noticeServedAt }),
      updated_at: now,
    })
    .where('id', '=', pcnId)
    .execute();
  await storeKeeperPostingDays(trx, { pcnIds: [pcnId] });
  if (fields.carParkId !== undefined || fields.issuedAt !== undefined) await storeNoticeTerms(trx, pcnId);
}

/**
 * Moves the status only if it is still `from`, so two admins acting at once cannot both apply
 * a transition from the same state. Returns false when somebody else got there first.
 */
export async function updatePcnStatus(
  trx: Db,
  input: { pcnId: string; from: PcnStatus; to: PcnStatus; adminNotes?: string | null; now: string },
): Promise<boolean> {
  const result = await trx
    .updateTable('pcns')
    .set({
      status: input.to,
      ...(input.adminNotes !== undefined && { admin_notes: input.adminNotes }),
      updated_at: input.now,
    })
    .where('id', '=', input.pcnId)
    .where('status', '=', input.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertStatusChange(
  trx: Db,
  input: { pcnId: string; from: PcnStatus | null; to: PcnStatus; note: string | null; changedBy: string | null; now: string },
): Promise<void> {
  await trx
    .insertInto('pcn_status_history')
    .values({
      id: crypto.randomUUID(),
      pcn_id: input.pcnId,
      from_status: input.from,
      to_status: input.to,
      note: input.note,
      changed_by: input.changedBy,
      created_at: input.now,
    })
    .execute();
}

/** Deletes the PCN (images, history and duplicate flags cascade; the audit trail stays) and returns the file names to remove afterwards. */
export async function deletePcn(trx: Db, pcnId: string): Promise<string[]> {
  const images = await trx.selectFrom('pcn_images').select('file_name').where('pcn_id', '=', pcnId).execute();
  // The documents sent for it go with it (their rows by the cascade, their files after the commit).
  const documents = await trx
    .selectFrom('sent_documents')
    .select('file_name')
    .where('pcn_id', '=', pcnId)
    .where('purged_at', 'is', null)
    .execute();
  await trx.deleteFrom('pcns').where('id', '=', pcnId).execute();
  return [...images, ...documents].map((i) => i.file_name);
}

/** The image and the owner of its PCN, for GET /uploads/{fileName}. */
export async function findImageByFileName(
  db: Db,
  fileName: string,
): Promise<{ fileName: string; mimeType: string; size: number; pcnId: string; createdBy: string | null; status: PcnStatus } | undefined> {
  const row = await db
    .selectFrom('pcn_images')
    .innerJoin('pcns', 'pcns.id', 'pcn_images.pcn_id')
    .select(['pcn_images.file_name', 'pcn_images.mime_type', 'pcn_images.size', 'pcn_images.pcn_id', 'pcns.created_by', 'pcns.status'])
    .where('pcn_images.file_name', '=', fileName)
    // A removed file is gone for everyone, signed URL or not.
    .where('pcn_images.purged_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    fileName: row.file_name,
    mimeType: row.mime_type,
    size: row.size,
    pcnId: row.pcn_id,
    createdBy: row.created_by,
    status: row.status as PcnStatus,
  };
}

/**
 * Which of these file names belong to a kept image (for the orphan sweep). A purged image's
 * file counts as an orphan: if the retention run committed but could not delete it, the sweep
 * finishes the job.
 */
export async function findKnownImageFileNames(db: Db, fileNames: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  // Chunked to stay well under SQLite's bound-parameter limit.
  for (let start = 0; start < fileNames.length; start += 500) {
    const chunk = fileNames.slice(start, start + 500);
    const rows = await db
      .selectFrom('pcn_images')
      .select('file_name')
      .where('file_name', 'in', chunk)
      .where('purged_at', 'is', null)
      .execute();
    for (const row of rows) known.add(row.file_name);
  }
  return known;
}

export type CarParkForFiling = {
  isActive: boolean;
  isAssigned: boolean;
  considerationMinutes: number;
  graceMinutes: number;
  stayAppliesByDefault: boolean;
  /** When the car park was set up: no officer could have chosen it on a phone before. */
  createdAt: string;
};

/** Car park checks for filing: whether it exists and is active, whether the user is assigned, and its stay rules. */
export async function findCarParkForFiling(db: Db, carParkId: string, userId: string): Promise<CarParkForFiling | undefined> {
  const row = await db
    .selectFrom('car_parks')
    .leftJoin('car_park_users', (join) =>
      join.onRef('car_park_users.car_park_id', '=', 'car_parks.id').on('car_park_users.user_id', '=', userId),
    )
    .select([
      'car_parks.is_active',
      'car_parks.consideration_minutes',
      'car_parks.grace_minutes',
      'car_parks.stay_applies_by_default',
      'car_parks.created_at',
      'car_park_users.user_id',
    ])
    .where('car_parks.id', '=', carParkId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    isActive: row.is_active === 1,
    isAssigned: row.user_id !== null,
    considerationMinutes: row.consideration_minutes,
    graceMinutes: row.grace_minutes,
    stayAppliesByDefault: row.stay_applies_by_default === 1,
    createdAt: row.created_at,
  };
}

// ---- duplicates (one charge per parking event) ----

/**
 * PCNs, anyone's, for the same registration at the same car park whose parking event (first
 * sighting, else creation) falls on the given UTC day. Only what an officer may see of another
 * officer's notice.
 */
export async function findSameParkingEvent(
  db: Db,
  input: { vehicleRegistration: string; carParkId: string; day: string; excludePcnId?: string },
): Promise<PcnDuplicateMatch[]> {
  const { start, end } = utcDayRange(input.day);
  const eventAt = sql<string>`coalesce(pcns.observed_at, pcns.created_at)`;
  let query = db
    .selectFrom('pcns')
    .select(['pcns.id', 'pcns.pcn_number', 'pcns.status', 'pcns.created_at'])
    .where('pcns.vehicle_registration', '=', input.vehicleRegistration)
    .where('pcns.car_park_id', '=', input.carParkId)
    .where(eventAt, '>=', start)
    .where(eventAt, '<', end);
  if (input.excludePcnId !== undefined) query = query.where('pcns.id', '!=', input.excludePcnId);
  const rows = await query.orderBy('pcns.created_at').orderBy('pcns.sequence').execute();
  return rows.map((r) => ({ id: r.id, pcnNumber: r.pcn_number, status: r.status as PcnStatus, createdAt: r.created_at }));
}

/**
 * Flags `pcnId` as a possible duplicate of each of `ofPcnIds`, replacing every pair it was in
 * (either side): an edit that moves a notice to another parking event ends its old pairs.
 */
export async function replaceDuplicateLinks(trx: Db, pcnId: string, ofPcnIds: readonly string[], now: string): Promise<void> {
  await trx
    .deleteFrom('pcn_duplicates')
    .where((eb) => eb.or([eb('pcn_id', '=', pcnId), eb('duplicate_of_pcn_id', '=', pcnId)]))
    .execute();
  if (ofPcnIds.length === 0) return;
  await trx
    .insertInto('pcn_duplicates')
    .values(ofPcnIds.map((of) => ({ pcn_id: pcnId, duplicate_of_pcn_id: of, created_at: now })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The other side of every duplicate pair these PCNs are in, whichever was flagged. */
export async function findPossibleDuplicates(db: Db, pcnIds: readonly string[]): Promise<Map<string, PcnReference[]>> {
  const byPcn = new Map<string, PcnReference[]>(pcnIds.map((id) => [id, []]));
  if (pcnIds.length === 0) return byPcn;
  const ids = [...pcnIds];
  const rows = await db
    .selectFrom('pcn_duplicates')
    .innerJoin('pcns as later', 'later.id', 'pcn_duplicates.pcn_id')
    .innerJoin('pcns as earlier', 'earlier.id', 'pcn_duplicates.duplicate_of_pcn_id')
    .select([
      'later.id as later_id',
      'later.pcn_number as later_number',
      'earlier.id as earlier_id',
      'earlier.pcn_number as earlier_number',
    ])
    .where((eb) => eb.or([eb('pcn_duplicates.pcn_id', 'in', ids), eb('pcn_duplicates.duplicate_of_pcn_id', 'in', ids)]))
    .orderBy('pcn_duplicates.created_at')
    .execute();
  const add = (pcnId: string, other: PcnReference) => {
    const list = byPcn.get(pcnId);
    if (list && !list.some((ref) => ref.id === other.id)) list.push(other);
  };
  for (const row of rows) {
    add(row.later_id, { id: row.earlier_id, pcnNumber: row.earlier_number });
    add(row.earlier_id, { id: row.later_id, pcnNumber: row.later_number });
  }
  return byPcn;
}

// ---- audit trail (append-only: there is no update or delete here, and triggers refuse both) ----

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
    action: row.action as PcnAuditAction,
    actor: row.user_id === null ? null : { id: row.user_id, firstName: row.first_name ?? '', lastName: row.last_name ?? '' },
    actorName: row.actor_name,
    changes: JSON.parse(row.changes) as PcnAuditEntry['changes'],
    clockOffsetMs: row.clock_offset_ms,
    createdAt: row.created_at,
  }));
}
