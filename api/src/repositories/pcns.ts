import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import {
  emptyStatusCounts,
  formatPcnNumber,
  PCN_STATUSES,
  type OffenceType,
  type Pcn,
  type PcnImage,
  type PcnStats,
  type PcnStatus,
  type PcnStatusChange,
} from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { Database, PcnImagesTable } from '../db/schema.ts';
import { normalisePcnSearch } from '../domain/pcn-rules.ts';

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
  created_by: string | null;
  creator_first_name: string | null;
  creator_last_name: string | null;
  request_hash: string | null;
  created_at: string;
  updated_at: string;
};

export type PcnImageRow = Pick<
  PcnImagesTable,
  'id' | 'pcn_id' | 'file_name' | 'mime_type' | 'size' | 'sha256' | 'taken_at' | 'created_at'
>;

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

export type PcnListFilter = PcnScope & {
  status?: PcnStatus;
  search?: string;
  carParkId?: string;
  from?: string;
  to?: string;
};

function selectPcnRows(db: Db) {
  return db
    .selectFrom('pcns')
    .leftJoin('car_parks', 'car_parks.id', 'pcns.car_park_id')
    .leftJoin('users', 'users.id', 'pcns.created_by')
    .select([
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
      'pcns.created_by',
      'users.first_name as creator_first_name',
      'users.last_name as creator_last_name',
      'pcns.request_hash',
      'pcns.created_at',
      'pcns.updated_at',
    ]);
}

/** The one mapper from rows to the shared Pcn shape; image URLs come from the caller (they are signed). */
export function toPcn(
  row: PcnRow,
  images: readonly PcnImageRow[],
  imageUrl: (fileName: string) => string,
  history?: readonly PcnHistoryRow[],
): Pcn {
  const pcn: Pcn = {
    id: row.id,
    pcnNumber: row.pcn_number,
    vehicleRegistration: row.vehicle_registration,
    carParkId: row.car_park_id,
    carPark: row.car_park_name === null ? null : { id: row.car_park_id, name: row.car_park_name },
    offenceType: row.offence_type as OffenceType,
    description: row.description,
    location: row.location,
    status: row.status as PcnStatus,
    adminNotes: row.admin_notes,
    observedAt: row.observed_at,
    createdBy:
      row.created_by === null
        ? null
        : { id: row.created_by, firstName: row.creator_first_name ?? '', lastName: row.creator_last_name ?? '' },
    images: images.map((image): PcnImage => ({
      id: image.id,
      fileName: image.file_name,
      url: imageUrl(image.file_name),
      mimeType: image.mime_type,
      size: image.size,
      sha256: image.sha256,
      takenAt: image.taken_at,
      createdAt: image.created_at,
    })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (history) {
    pcn.statusHistory = history.map((h): PcnStatusChange => ({
      id: h.id,
      fromStatus: h.from_status as PcnStatus | null,
      toStatus: h.to_status as PcnStatus,
      note: h.note,
      changedBy:
        h.changed_by === null
          ? null
          : { id: h.changed_by, firstName: h.changer_first_name ?? '', lastName: h.changer_last_name ?? '' },
      createdAt: h.created_at,
    }));
  }
  return pcn;
}

export async function findPcnRowById(db: Db, id: string): Promise<PcnRow | undefined> {
  return selectPcnRows(db).where('pcns.id', '=', id).executeTakeFirst();
}

export async function findPcnRowByIdempotencyKey(db: Db, userId: string, key: string): Promise<PcnRow | undefined> {
  return selectPcnRows(db).where('pcns.created_by', '=', userId).where('pcns.idempotency_key', '=', key).executeTakeFirst();
}

export async function findPcnImages(db: Db, pcnIds: readonly string[]): Promise<Map<string, PcnImageRow[]>> {
  const byPcn = new Map<string, PcnImageRow[]>(pcnIds.map((id) => [id, []]));
  if (pcnIds.length === 0) return byPcn;
  const rows = await db
    .selectFrom('pcn_images')
    .select(['id', 'pcn_id', 'file_name', 'mime_type', 'size', 'sha256', 'taken_at', 'created_at'])
    .where('pcn_id', 'in', [...pcnIds])
    // rowid keeps upload order when several images share a timestamp.
    .orderBy('created_at')
    .orderBy(sql`rowid`)
    .execute();
  for (const row of rows) byPcn.get(row.pcn_id)?.push(row);
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

function listConditions(eb: ExpressionBuilder<Database, 'pcns'>, filter: PcnListFilter): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.ownerId !== undefined) conditions.push(eb('pcns.created_by', '=', filter.ownerId));
  if (filter.status) conditions.push(eb('pcns.status', '=', filter.status));
  if (filter.carParkId) conditions.push(eb('pcns.car_park_id', '=', filter.carParkId));
  if (filter.from) conditions.push(eb('pcns.created_at', '>=', startOfDay(filter.from)));
  if (filter.to) conditions.push(eb('pcns.created_at', '<', startOfNextDay(filter.to)));
  const search = filter.search ? normalisePcnSearch(filter.search) : null;
  if (search) {
    // Registrations are stored normalised and numbers are digits, so after normalising the
    // search contains only [A-Z0-9] and needs no LIKE escaping.
    conditions.push(
      eb.or([
        eb('pcns.vehicle_registration', 'like', `%${search.registration}%`),
        eb('pcns.pcn_number', 'like', `%${search.number}%`),
      ]),
    );
  }
  return conditions;
}

// Dates filter on the created date in UTC; created_at is ISO-8601 text, so text order is time order.
function startOfDay(date: string): string {
  return `${date}T00:00:00.000Z`;
}
function startOfNextDay(date: string): string {
  const next = new Date(`${date}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/**
 * One page, newest first. The ORDER BY matches the (created_by|status|car_park_id, created_at)
 * indexes, with rowid (the implicit last column of every index) as the tie-breaker, so SQLite
 * walks an index and stops after the page instead of sorting every match.
 */
export async function findPcnPage(
  db: Db,
  filter: PcnListFilter,
  page: { page: number; limit: number },
): Promise<{ rows: PcnRow[]; total: number }> {
  const rows = await selectPcnRows(db)
    .where((eb) => eb.and(listConditions(eb, filter)))
    .orderBy('pcns.created_at', 'desc')
    .orderBy(sql`pcns.rowid`, 'desc')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute();
  const counted = await db
    .selectFrom('pcns')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => eb.and(listConditions(eb, filter)))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(counted.total) };
}

/**
 * One count per status rather than GROUP BY: each is a range count on the (status, created_at)
 * or (created_by, status) index, about twice as fast as grouping 100,000 index entries.
 */
export async function countPcnsByStatus(db: Db, scope: PcnScope): Promise<PcnStats> {
  const row = await db
    .selectNoFrom((eb) =>
      PCN_STATUSES.map((status) => {
        let count = eb.selectFrom('pcns').select(eb.fn.countAll<number>().as('n')).where('status', '=', status);
        if (scope.ownerId !== undefined) count = count.where('created_by', '=', scope.ownerId);
        return count.$asScalar().as(status);
      }),
    )
    .executeTakeFirstOrThrow();
  const counts = emptyStatusCounts();
  let total = 0;
  for (const status of PCN_STATUSES) {
    counts[status] = Number((row as Record<string, unknown>)[status] ?? 0);
    total += counts[status];
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
      created_by: input.createdBy,
      idempotency_key: input.idempotencyKey,
      request_hash: input.requestHash,
      created_at: input.now,
      updated_at: input.now,
    })
    .execute();
  await insertStatusChange(trx, { pcnId: input.id, from: null, to: 'SUBMITTED', note: null, changedBy: input.createdBy, now: input.now });
  return { sequence, pcnNumber };
}

export async function insertPcnImages(trx: Db, rows: readonly PcnImagesTable[]): Promise<void> {
  if (rows.length === 0) return;
  await trx.insertInto('pcn_images').values([...rows]).execute();
}

export async function deletePcnImages(trx: Db, pcnId: string, imageIds: readonly string[]): Promise<string[]> {
  if (imageIds.length === 0) return [];
  const removed = await trx
    .deleteFrom('pcn_images')
    .where('pcn_id', '=', pcnId)
    .where('id', 'in', [...imageIds])
    .returning('file_name')
    .execute();
  return removed.map((r) => r.file_name);
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
      updated_at: now,
    })
    .where('id', '=', pcnId)
    .execute();
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

/** Deletes the PCN (images and history cascade) and returns the file names to remove afterwards. */
export async function deletePcn(trx: Db, pcnId: string): Promise<string[]> {
  const images = await trx.selectFrom('pcn_images').select('file_name').where('pcn_id', '=', pcnId).execute();
  await trx.deleteFrom('pcns').where('id', '=', pcnId).execute();
  return images.map((i) => i.file_name);
}

/** The image and the owner of its PCN, for GET /uploads/{fileName}. */
export async function findImageByFileName(
  db: Db,
  fileName: string,
): Promise<{ fileName: string; mimeType: string; size: number; pcnId: string; createdBy: string | null; status: PcnStatus } | undefined> {
  const row = await db
    .selectFrom('pcn_images')
    .innerJoin('pcns', 'pcns.id', 'pcn_images.pcn_id')
    .select([
      'pcn_images.file_name',
      'pcn_images.mime_type',
      'pcn_images.size',
      'pcn_images.pcn_id',
      'pcns.created_by',
      'pcns.status',
    ])
    .where('pcn_images.file_name', '=', fileName)
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

/** Which of these file names belong to an image row (for the orphan sweep). */
export async function findKnownImageFileNames(db: Db, fileNames: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  // Chunked to stay well under SQLite's bound-parameter limit.
  for (let start = 0; start < fileNames.length; start += 500) {
    const chunk = fileNames.slice(start, start + 500);
    const rows = await db.selectFrom('pcn_images').select('file_name').where('file_name', 'in', chunk).execute();
    for (const row of rows) known.add(row.file_name);
  }
  return known;
}

/** Car park checks for filing: whether it exists and is active, and whether the user is assigned. */
export async function findCarParkForFiling(
  db: Db,
  carParkId: string,
  userId: string,
): Promise<{ isActive: boolean; isAssigned: boolean } | undefined> {
  const row = await db
    .selectFrom('car_parks')
    .leftJoin('car_park_users', (join) =>
      join.onRef('car_park_users.car_park_id', '=', 'car_parks.id').on('car_park_users.user_id', '=', userId),
    )
    .select(['car_parks.is_active', 'car_park_users.user_id'])
    .where('car_parks.id', '=', carParkId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { isActive: row.is_active === 1, isAssigned: row.user_id !== null };
}
