import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Capture facts per photo, observation and issue times, the
// device clock offset, duplicate flags, and an append-only audit trail of every PCN change.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('car_parks')
    .addColumn('stay_applies_by_default', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.alterTable('pcns').addColumn('issued_at', 'text').execute();
  await db.schema
    .alterTable('pcns')
    .addColumn('stay_applies', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('pcns').addColumn('clock_offset_ms', 'integer').execute();
  await db.schema.alterTable('pcns').addColumn('duplicate_reason', 'text').execute();
  // The admin deadline queue: open notices ordered by their parking event. Partial, so the walk
  // never visits the many closed notices; the query repeats this exact status list to use it.
  await sql`create index pcns_keeper_queue on pcns (coalesce(observed_at, created_at))
    where status in ('SUBMITTED', 'UNDER_REVIEW', 'APPROVED')`.execute(db);

  await db.schema.alterTable('pcn_images').addColumn('client_sha256', 'text').execute();
  await db.schema.alterTable('pcn_images').addColumn('taken_at_source', 'text').execute();
  await db.schema.alterTable('pcn_images').addColumn('latitude', 'real').execute();
  await db.schema.alterTable('pcn_images').addColumn('longitude', 'real').execute();
  await db.schema.alterTable('pcn_images').addColumn('accuracy_m', 'real').execute();
  await db.schema
    .alterTable('pcn_images')
    .addColumn('shots', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  // A later PCN flagged as a possible second charge for the parking event of an earlier one.
  await db.schema
    .createTable('pcn_duplicates')
    .addColumn('pcn_id', 'text', (c) => c.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('duplicate_of_pcn_id', 'text', (c) => c.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pcn_duplicates_pk', ['pcn_id', 'duplicate_of_pcn_id'])
    .execute();
  await db.schema.createIndex('pcn_duplicates_of').on('pcn_duplicates').column('duplicate_of_pcn_id').execute();

  // No foreign keys: the trail outlives a deleted PCN and a deleted user (actor_name keeps who).
  await db.schema
    .createTable('pcn_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('pcn_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('clock_offset_ms', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pcn_audit_pcn').on('pcn_audit').columns(['pcn_id', 'created_at']).execute();
  // Append-only in the database itself, not only by the absence of an API.
  await sql`create trigger pcn_audit_no_update before update on pcn_audit
    begin select raise(abort, 'pcn_audit is append-only'); end`.execute(db);
  await sql`create trigger pcn_audit_no_delete before delete on pcn_audit
    begin select raise(abort, 'pcn_audit is append-only'); end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists pcn_audit_no_delete`.execute(db);
  await sql`drop trigger if exists pcn_audit_no_update`.execute(db);
  await db.schema.dropTable('pcn_audit').execute();
  await db.schema.dropTable('pcn_duplicates').execute();
  for (const column of ['shots', 'accuracy_m', 'longitude', 'latitude', 'taken_at_source', 'client_sha256']) {
    await db.schema.alterTable('pcn_images').dropColumn(column).execute();
  }
  await db.schema.dropIndex('pcns_keeper_queue').execute();
  for (const column of ['duplicate_reason', 'clock_offset_ms', 'stay_applies', 'issued_at']) {
    await db.schema.alterTable('pcns').dropColumn(column).execute();
  }
  await db.schema.alterTable('car_parks').dropColumn('stay_applies_by_default').execute();
}
