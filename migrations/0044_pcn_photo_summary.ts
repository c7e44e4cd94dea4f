import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../api/src/db/dialect.ts';

// Written once for both engines; never edited after it lands.
//
// Every page of the PCN list showed each notice's photo count and first thumbnail by reading
// its photos' rows: for the keeper queue's page of 100 over 2,000,000 notices that was 100
// lookups in an index of 8,000,000 photos, a sort and two window functions, half of the
// database's work for the page. The notice now carries that summary (decision 0056): how many
// photos it has, the first one's file while it is kept, and when they were removed. The functions
// that write photos keep it (api/src/repositories/pcn-images.ts); here it is filled from the
// photos there are.

export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .alterTable('pcns')
    .addColumn('photo_count', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('pcns').addColumn('first_photo_file_name', 'text').execute();
  await db.schema.alterTable('pcns').addColumn('photos_purged_at', types.timestamp).execute();
  await sql`
    update pcns set
      photo_count = (select count(*) from pcn_images where pcn_images.pcn_id = pcns.id),
      first_photo_file_name = (
        select case when pcn_images.purged_at is null then pcn_images.file_name end from pcn_images
        where pcn_images.pcn_id = pcns.id order by pcn_images.created_at, pcn_images.rowid limit 1),
      photos_purged_at = (select max(pcn_images.purged_at) from pcn_images where pcn_images.pcn_id = pcns.id)
    where exists (select 1 from pcn_images where pcn_images.pcn_id = pcns.id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcns').dropColumn('photos_purged_at').execute();
  await db.schema.alterTable('pcns').dropColumn('first_photo_file_name').execute();
  await db.schema.alterTable('pcns').dropColumn('photo_count').execute();
}
