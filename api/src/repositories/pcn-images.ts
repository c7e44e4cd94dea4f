import { sql, type Insertable, type Selectable } from 'kysely';
import type { PcnStatus } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { reusableQuery } from '../db/reusable-query.ts';
import type { PcnImagesTable } from '../db/schema.ts';

// A notice's photos: their rows, and the files they name.

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

export type PcnImageRow = Pick<Selectable<PcnImagesTable>, (typeof IMAGE_COLUMNS)[number]>;

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

/**
 * A list row's photos: how many its notice has, and the first in upload order (the one a row
 * shows). The database counts and picks them, so a page of 100 notices reads 100 rows, not the
 * 400 or so its photos are.
 */
const firstImagesOf = reusableQuery((db: Db, pcnIds: readonly string[]) =>
  db
    .selectFrom((eb) =>
      eb
        .selectFrom('pcn_images')
        .select([
          ...IMAGE_COLUMNS,
          sql<number>`row_number() over (partition by pcn_id order by created_at, rowid)`.as('place'),
          sql<number | string>`count(*) over (partition by pcn_id)`.as('photo_count'),
        ])
        .where('pcn_id', 'in', pcnIds)
        .as('photos'),
    )
    .selectAll()
    // A literal, not a parameter: the query's only parameters are the ids (reusable-query.ts).
    .where('place', '=', sql.lit(1)),
);

export type ListPhotos = { count: number; first: PcnImageRow | undefined };

export async function findListPhotos(db: Db, pcnIds: readonly string[]): Promise<Map<string, ListPhotos>> {
  const byPcn = new Map<string, ListPhotos>(pcnIds.map((id) => [id, { count: 0, first: undefined }]));
  if (pcnIds.length === 0) return byPcn;
  for (const { place: _place, photo_count, ...first } of await firstImagesOf(db, pcnIds)) {
    // PostgreSQL's count is a bigint, which pg gives as text.
    byPcn.set(first.pcn_id, { count: Number(photo_count), first });
  }
  return byPcn;
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
    status: row.status,
  };
}
