import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// PostgreSQL's side of SQLite's 0010_list_order_indexes. The PCN list orders by
// (sort value, sequence) and a page's photos are read per PCN by (created_at, rowid): the
// indexes of the default orders end in the tie-breaker too, so a page is read in index order
// and stops after its rows. Each replaces the index it extends.
const REPLACED = [
  { name: 'pcns_created_by_created', table: 'pcns', before: ['created_by', 'created_at'], after: ['created_by', 'created_at', 'sequence'] },
  { name: 'pcns_created', table: 'pcns', before: ['created_at'], after: ['created_at', 'sequence'] },
  { name: 'pcns_status', table: 'pcns', before: ['status', 'created_at'], after: ['status', 'created_at', 'sequence'] },
  { name: 'pcns_car_park', table: 'pcns', before: ['car_park_id', 'created_at'], after: ['car_park_id', 'created_at', 'sequence'] },
  // rowid is the identity column standing in for SQLite's (0001_schema).
  { name: 'pcn_images_pcn', table: 'pcn_images', before: ['pcn_id'], after: ['pcn_id', 'created_at', 'rowid'] },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of REPLACED) {
    await db.schema.dropIndex(index.name).execute();
    await db.schema.createIndex(index.name).on(index.table).columns(index.after).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of REPLACED) {
    await db.schema.dropIndex(index.name).execute();
    await db.schema.createIndex(index.name).on(index.table).columns(index.before).execute();
  }
}
