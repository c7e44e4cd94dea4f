import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// The stay rule's observations (docs/decisions/0012): a first visit the officer's phone records,
// synced so admins see each officer's open and closed observations. The id is the phone's draft
// id, which is also the notice's Idempotency-Key, so a PUT replayed after a lost answer, and the
// notice that completes it, touch one row: (officer_id, id) is the key, as the idempotency key
// of a PCN is unique per officer.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('observations')
    .addColumn('officer_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('car_park_id', 'text', (c) => c.notNull().references('car_parks.id'))
    .addColumn('vehicle_registration', 'text', (c) => c.notNull())
    .addColumn('observed_at', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    // OPEN, GONE (vehicle left: no notice) or ISSUED (the notice was filed).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .addColumn('pcn_id', 'text', (c) => c.references('pcns.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('observations_pk', ['officer_id', 'id'])
    .execute();
  await db.schema.createIndex('observations_officer_observed').on('observations').columns(['officer_id', 'observed_at']).execute();
  await db.schema.createIndex('observations_observed').on('observations').column('observed_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('observations').execute();
}
