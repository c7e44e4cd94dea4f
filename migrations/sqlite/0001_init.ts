import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('rotated_at', 'text')
    .addColumn('replaced_by_id', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
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
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('car_park_users')
    .addColumn('car_park_id', 'text', (c) => c.notNull().references('car_parks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
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
    .addColumn('observed_at', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('idempotency_key', 'text')
    .addColumn('request_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pcns_idempotency').on('pcns').columns(['created_by', 'idempotency_key']).unique().execute();
  await db.schema.createIndex('pcns_created_by_created').on('pcns').columns(['created_by', 'created_at']).execute();
  await db.schema.createIndex('pcns_created').on('pcns').column('created_at').execute();
  await db.schema.createIndex('pcns_status').on('pcns').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('pcns_car_park').on('pcns').columns(['car_park_id', 'created_at']).execute();
  await db.schema.createIndex('pcns_registration').on('pcns').column('vehicle_registration').execute();

  await db.schema
    .createTable('pcn_images')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('pcn_id', 'text', (c) => c.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull().unique())
    .addColumn('original_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('taken_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pcn_images_pcn').on('pcn_images').column('pcn_id').execute();

  await db.schema
    .createTable('pcn_status_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('pcn_id', 'text', (c) => c.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('changed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pcn_status_history_pcn').on('pcn_status_history').columns(['pcn_id', 'created_at']).execute();

  await db.schema
    .createTable('activities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('activity_type', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('pcn_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activities_created').on('activities').column('created_at').execute();
  await db.schema.createIndex('activities_user').on('activities').columns(['user_id', 'activity_type', 'created_at']).execute();

  await db.schema
    .createTable('site_visits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
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
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
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
}
