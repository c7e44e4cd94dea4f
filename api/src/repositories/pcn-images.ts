import { sql, type Insertable, type Selectable } from 'kysely';
import type { PcnStatus } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { lockRows } from '../db/dialect.ts';
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
 * Writes to these notices' photo rows through `write`, then works out again the summary of them
 * each notice carries (migration 0044, decision 0056), which the PCN list shows instead of reading
 * the rows: how many, the first one's file in upload order while it is kept, and when they were
 * removed. Every write to pcn_images goes through here, in the caller's transaction, so the summary
 * changes in the same commit as the rows.
 *
 * On PostgreSQL the notices are locked first. Every writer of photos then takes the notice before
 * its photos, as deleting a notice does (its photos go by cascade), so no two wait for each other
 * in opposite orders. And the summary's statement, begun after the lock, reads every other writer's
 * photos committed (a statement reads what was committed when it began).
 */
async function writingPhotos<T>(trx: Db, pcnIds: readonly string[], write: () => Promise<T>): Promise<T> {
  const ids = [...new Set(pcnIds)];
  await lockRows(trx, trx.selectFrom('pcns').select('pcns.id').where('pcns.id', 'in', ids));
  const written = await write();
  await trx
    .updateTable('pcns')
    .set((eb) => ({
      photo_count: eb.selectFrom('pcn_images').select(eb.fn.countAll<number>().as('n')).whereRef('pcn_images.pcn_id', '=', 'pcns.id'),
      first_photo_file_name: eb
        .selectFrom('pcn_images')
        .select(sql<string | null>`case when pcn_images.purged_at is null then pcn_images.file_name end`.as('file_name'))
        .whereRef('pcn_images.pcn_id', '=', 'pcns.id')
        .orderBy('pcn_images.created_at')
        .orderBy(sql`pcn_images.rowid`)
        .limit(1),
      photos_purged_at: eb
        .selectFrom('pcn_images')
        .select((sub) => sub.fn.max('pcn_images.purged_at').as('at'))
        .whereRef('pcn_images.pcn_id', '=', 'pcns.id'),
    }))
    .where('pcns.id', 'in', ids)
    .execute();
  return written;
}

export async function insertPcnImages(trx: Db, rows: ReadonlyArray<Insertable<PcnImagesTable>>): Promise<void> {
  if (rows.length === 0) return;
  await writingPhotos(
    trx,
    rows.map((row) => row.pcn_id),
    () =>
      trx
        .insertInto('pcn_images')
        .values([...rows])
        .execute(),
  );
}

export type RemovedImage = { id: string; file_name: string; sha256: string; taken_at: string | null };

/** Removes images of this PCN (ids of other PCNs are ignored) and returns what went, for the files and the audit. */
export async function deletePcnImages(trx: Db, pcnId: string, imageIds: readonly string[]): Promise<RemovedImage[]> {
  if (imageIds.length === 0) return [];
  return writingPhotos(trx, [pcnId], () =>
    trx
      .deleteFrom('pcn_images')
      .where('pcn_id', '=', pcnId)
      .where('id', 'in', [...imageIds])
      .returning(['id', 'file_name', 'sha256', 'taken_at'])
      .execute(),
  );
}

/** Marks this PCN's kept photos as purged (the retention policy) and returns them, for the audit entry and the files to delete. */
export async function markPhotosPurged(trx: Db, pcnId: string, now: string): Promise<RemovedImage[]> {
  return writingPhotos(trx, [pcnId], () =>
    trx
      .updateTable('pcn_images')
      .set({ purged_at: now })
      .where('pcn_id', '=', pcnId)
      .where('purged_at', 'is', null)
      .returning(['id', 'file_name', 'sha256', 'taken_at'])
      .execute(),
  );
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
