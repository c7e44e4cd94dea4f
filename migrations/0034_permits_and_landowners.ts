import type { Kysely } from 'kysely';
import { CANCELLATION_REASONS, CANCELLATION_REQUEST_STATUSES, PERMIT_KINDS, PERMIT_SOURCES, ROLES } from '@parkpatrol/shared';
import { addCheck, columnTypes, dropCheck, isOneOf } from '../api/src/db/dialect.ts';
import { enumeratedCheckName } from './0031_enumerated_column_checks.ts';

// Written once for both engines; never edited after it lands.
//
// Permits per car park (a registration allowed to park there for a while), each change to one kept
// as a row of its history; the landowner as a user (a role, assigned to car parks through the same
// car_park_users as officers); a landowner's request that a charge be cancelled and the admin's
// decision; the reason every cancellation carries; the permit check a notice was filed with (and
// the officer's reason for going on despite a permit); and the visitor page a car park may offer.
//
// The role set grows: its check from 0031 is dropped and added again with the set as it stands.

export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  const roleCheck = enumeratedCheckName('users', 'role');
  await dropCheck(db, { table: 'users', name: roleCheck });
  await addCheck(db, { table: 'users', name: roleCheck, columns: ['role'], condition: (c) => isOneOf(c('role'), ROLES) });

  await db.schema
    .createTable('permits')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('car_park_id', 'text', (col) => col.notNull().references('car_parks.id').onDelete('cascade'))
    .addColumn('vehicle_registration', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('valid_from', types.timestamp, (col) => col.notNull())
    .addColumn('valid_until', types.timestamp)
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('ended_at', types.timestamp)
    .addColumn('ended_by_name', 'text')
    .execute();
  await db.schema.createIndex('permits_car_park_registration').on('permits').columns(['car_park_id', 'vehicle_registration']).execute();
  // A phone's sync asks for what changed since it last asked.
  await db.schema.createIndex('permits_car_park_updated').on('permits').columns(['car_park_id', 'updated_at']).execute();
  await addCheck(db, {
    table: 'permits',
    name: enumeratedCheckName('permits', 'kind'),
    columns: ['kind'],
    condition: (c) => isOneOf(c('kind'), PERMIT_KINDS),
  });
  await addCheck(db, {
    table: 'permits',
    name: enumeratedCheckName('permits', 'source'),
    columns: ['source'],
    condition: (c) => isOneOf(c('source'), PERMIT_SOURCES),
  });

  await db.schema
    .createTable('permit_changes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('permit_id', 'text', (col) => col.notNull().references('permits.id').onDelete('cascade'))
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (col) => col.notNull())
    .addColumn('changes', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('permit_changes_permit').on('permit_changes').columns(['permit_id', 'created_at']).execute();

  await db.schema.alterTable('pcns').addColumn('cancellation_reason', 'text').execute();
  await db.schema.alterTable('pcns').addColumn('cancellation_note', 'text').execute();
  await db.schema.alterTable('pcns').addColumn('permit_override_reason', 'text').execute();
  await db.schema.alterTable('pcns').addColumn('permit_check', 'text').execute();
  await addCheck(db, {
    table: 'pcns',
    name: enumeratedCheckName('pcns', 'cancellation_reason'),
    columns: ['cancellation_reason'],
    condition: (c) => isOneOf(c('cancellation_reason'), CANCELLATION_REASONS),
  });

  await db.schema
    .createTable('cancellation_requests')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('requested_by_name', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_by_name', 'text')
    .addColumn('decided_at', types.timestamp)
    .addColumn('decision_reason', 'text')
    .execute();
  await db.schema.createIndex('cancellation_requests_pcn').on('cancellation_requests').columns(['pcn_id', 'created_at']).execute();
  await db.schema.createIndex('cancellation_requests_status').on('cancellation_requests').columns(['status', 'created_at']).execute();
  await addCheck(db, {
    table: 'cancellation_requests',
    name: enumeratedCheckName('cancellation_requests', 'status'),
    columns: ['status'],
    condition: (c) => isOneOf(c('status'), CANCELLATION_REQUEST_STATUSES),
  });

  await db.schema.alterTable('car_parks').addColumn('visitor_site_code', 'text').execute();
  await db.schema.createIndex('car_parks_visitor_site_code').on('car_parks').column('visitor_site_code').unique().execute();
  await db.schema.alterTable('car_parks').addColumn('visitor_code', 'text').execute();
  await db.schema
    .alterTable('car_parks')
    .addColumn('visitor_daily_limit', 'integer', (col) => col.notNull().defaultTo(50))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['visitor_daily_limit', 'visitor_code']) await db.schema.alterTable('car_parks').dropColumn(column).execute();
  await db.schema.dropIndex('car_parks_visitor_site_code').execute();
  await db.schema.alterTable('car_parks').dropColumn('visitor_site_code').execute();
  await db.schema.dropTable('cancellation_requests').execute();
  await dropCheck(db, { table: 'pcns', name: enumeratedCheckName('pcns', 'cancellation_reason') });
  for (const column of ['permit_check', 'permit_override_reason', 'cancellation_note', 'cancellation_reason']) {
    await db.schema.alterTable('pcns').dropColumn(column).execute();
  }
  await db.schema.dropTable('permit_changes').execute();
  await db.schema.dropTable('permits').execute();
}
