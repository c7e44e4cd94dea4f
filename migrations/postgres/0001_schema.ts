import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
//
// PostgreSQL's first migration is the SQLite schema as migrations 0001 to 0008 left it,
// in one step, with PostgreSQL's own means where SQLite's do not exist:
// - times stay ISO-8601 text, compared as text, so they are collated "C" (byte order), which is
//   time order; the default collation may weigh punctuation differently;
// - GPS as double precision and the device clock offset as bigint (SQLite's integer is 64-bit,
//   PostgreSQL's 32-bit);
// - the per-owner, per-status counts are kept by statement-level triggers reading transition
//   tables: a row-level trigger made a 100,000-row insert take 93 s, these 3 s;
// - fragment search uses pg_trgm GIN indexes where SQLite has an FTS5 trigram table;
// - the audit trail refuses UPDATE and DELETE in a trigger, as SQLite's does;
// - the tables whose rows are listed in insertion order (photos, status history, audit trail,
//   activities) carry an identity column named rowid, standing in for SQLite's implicit one, so
//   the same ORDER BY ... rowid reads the same order on both engines.
// Booleans stay integers 0/1 so both engines read and write the same values.

const time = sql`text collate "C"`;
const insertionOrder = sql`bigint generated always as identity`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('rotated_at', time)
    .addColumn('replaced_by_id', 'text')
    .addColumn('revoked_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('grace_used_at', time)
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('used_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('one_time_tokens_user').on('one_time_tokens').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('car_parks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('site_code', 'text', (c) => c.notNull().unique())
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('postcode', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('consideration_minutes', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('grace_minutes', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addColumn('stay_applies_by_default', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('car_park_users')
    .addColumn('car_park_id', 'text', (c) => c.notNull().references('car_parks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('car_park_users_pk', ['car_park_id', 'user_id'])
    .execute();
  await db.schema.createIndex('car_park_users_user').on('car_park_users').column('user_id').execute();

  await db.schema
    .createTable('pcns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sequence', 'integer', (c) => c.notNull().unique())
    .addColumn('pcn_number', 'text', (c) => c.notNull().unique())
    .addColumn('vehicle_registration', 'text', (c) => c.notNull())
    .addColumn('car_park_id', 'text', (c) => c.notNull().references('car_parks.id'))
    .addColumn('offence_type', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('admin_notes', 'text')
    .addColumn('observed_at', time)
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('idempotency_key', 'text')
    .addColumn('request_hash', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addColumn('issued_at', time)
    .addColumn('stay_applies', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clock_offset_ms', 'bigint')
    .addColumn('duplicate_reason', 'text')
    .execute();
  await db.schema.createIndex('pcns_idempotency').on('pcns').columns(['created_by', 'idempotency_key']).unique().execute();
  await db.schema.createIndex('pcns_created_by_created').on('pcns').columns(['created_by', 'created_at']).execute();
  await db.schema.createIndex('pcns_created').on('pcns').column('created_at').execute();
  await db.schema.createIndex('pcns_status').on('pcns').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('pcns_car_park').on('pcns').columns(['car_park_id', 'created_at']).execute();
  await db.schema.createIndex('pcns_registration').on('pcns').column('vehicle_registration').execute();
  await db.schema.createIndex('pcns_created_by_status').on('pcns').columns(['created_by', 'status']).execute();
  await sql`create index pcns_keeper_queue_open on pcns ((coalesce(observed_at, created_at)))
    where status not in ('REJECTED', 'ISSUED', 'PAID', 'CANCELLED')`.execute(db);
  // Fragment search ('bn12') on plates and numbers, from the index.
  await sql`create index pcns_registration_trgm on pcns using gin (vehicle_registration gin_trgm_ops)`.execute(db);
  await sql`create index pcns_number_trgm on pcns using gin (pcn_number gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('pcn_images')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rowid', insertionOrder, (c) => c.notNull())
    .addColumn('pcn_id', 'text', (c) => c.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull().unique())
    .addColumn('original_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('taken_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('client_sha256', 'text')
    .addColumn('taken_at_source', 'text')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('accuracy_m', 'double precision')
    .addColumn('shots', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('purged_at', time)
    .execute();
  await db.schema.createIndex('pcn_images_pcn').on('pcn_images').column('pcn_id').execute();

  await db.schema
    .createTable('pcn_status_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rowid', insertionOrder, (c) => c.notNull())
    .addColumn('pcn_id', 'text', (c) => c.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('changed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pcn_status_history_pcn').on('pcn_status_history').columns(['pcn_id', 'created_at']).execute();

  await db.schema
    .createTable('activities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rowid', insertionOrder, (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('activity_type', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('pcn_id', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activities_created').on('activities').column('created_at').execute();
  await db.schema.createIndex('activities_user').on('activities').columns(['user_id', 'activity_type', 'created_at']).execute();

  await db.schema
    .createTable('site_visits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('started_at', time, (c) => c.notNull())
    .addColumn('last_seen_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_visits_user').on('site_visits').columns(['user_id', 'last_seen_at']).execute();

  await db.schema
    .createTable('emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('location', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('sent_at', time)
    .execute();

  await db.schema
    .createTable('pcn_duplicates')
    .addColumn('pcn_id', 'text', (c) => c.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('duplicate_of_pcn_id', 'text', (c) => c.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('pcn_duplicates_pk', ['pcn_id', 'duplicate_of_pcn_id'])
    .execute();
  await db.schema.createIndex('pcn_duplicates_of').on('pcn_duplicates').column('duplicate_of_pcn_id').execute();

  // No foreign keys: the trail outlives a deleted PCN and a deleted user (actor_name keeps who).
  await db.schema
    .createTable('pcn_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rowid', insertionOrder, (c) => c.notNull())
    .addColumn('pcn_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('clock_offset_ms', 'bigint')
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pcn_audit_pcn').on('pcn_audit').columns(['pcn_id', 'created_at']).execute();
  await sql`create function pcn_audit_refuse() returns trigger language plpgsql as $$
    begin raise exception 'pcn_audit is append-only'; end $$`.execute(db);
  await sql`create trigger pcn_audit_no_update before update on pcn_audit for each statement execute function pcn_audit_refuse()`.execute(
    db,
  );
  await sql`create trigger pcn_audit_no_delete before delete on pcn_audit for each statement execute function pcn_audit_refuse()`.execute(
    db,
  );

  // Counts per (owner, status), kept in the same transaction as every change to pcns.
  await db.schema
    .createTable('pcn_counts')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pcn_counts_pk', ['owner_id', 'status'])
    .execute();
  await sql`create function pcn_counts_add() returns trigger language plpgsql as $$
    begin
      insert into pcn_counts (owner_id, status, n)
        select coalesce(created_by, ''), status, count(*) from new_rows group by 1, 2
        on conflict (owner_id, status) do update set n = pcn_counts.n + excluded.n;
      return null;
    end $$`.execute(db);
  await sql`create function pcn_counts_remove() returns trigger language plpgsql as $$
    begin
      update pcn_counts set n = pcn_counts.n - gone.n
        from (select coalesce(created_by, '') as owner_id, status, count(*) as n from old_rows group by 1, 2) as gone
        where pcn_counts.owner_id = gone.owner_id and pcn_counts.status = gone.status;
      return null;
    end $$`.execute(db);
  // PostgreSQL allows no column list with transition tables: every update moves its rows'
  // counts out and back in; only a changed status or owner changes a number.
  await sql`create function pcn_counts_move() returns trigger language plpgsql as $$
    begin
      update pcn_counts set n = pcn_counts.n - gone.n
        from (select coalesce(created_by, '') as owner_id, status, count(*) as n from old_rows group by 1, 2) as gone
        where pcn_counts.owner_id = gone.owner_id and pcn_counts.status = gone.status;
      insert into pcn_counts (owner_id, status, n)
        select coalesce(created_by, ''), status, count(*) from new_rows group by 1, 2
        on conflict (owner_id, status) do update set n = pcn_counts.n + excluded.n;
      return null;
    end $$`.execute(db);
  await sql`create trigger pcn_counts_insert after insert on pcns
    referencing new table as new_rows for each statement execute function pcn_counts_add()`.execute(db);
  await sql`create trigger pcn_counts_delete after delete on pcns
    referencing old table as old_rows for each statement execute function pcn_counts_remove()`.execute(db);
  await sql`create trigger pcn_counts_update after update on pcns
    referencing old table as old_rows new table as new_rows for each statement execute function pcn_counts_move()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'pcn_counts',
    'pcn_audit',
    'pcn_duplicates',
    'emails',
    'site_visits',
    'activities',
    'pcn_status_history',
    'pcn_images',
    'pcns',
    'car_park_users',
    'car_parks',
    'one_time_tokens',
    'refresh_tokens',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  for (const fn of ['pcn_counts_move', 'pcn_counts_remove', 'pcn_counts_add', 'pcn_audit_refuse']) {
    await sql.raw(`drop function if exists ${fn}()`).execute(db);
  }
}
