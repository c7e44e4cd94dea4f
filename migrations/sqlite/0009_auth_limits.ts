import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Stateless API processes: the password-guess limiter and the reset-email and dead-link
// counters move from process memory into the database, so every process behind a load balancer
// sees the same counts. Both tables hold only rows still inside their window; the app deletes
// older ones as it goes.
//
// Times here are integer milliseconds, not the ISO text of the other tables: every use is
// arithmetic on a window (now minus 15 minutes, when the oldest guess leaves it), the rows live
// for minutes and are never shown to anyone, and a number compares the same on both engines.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per counted password guess. `account` is set to null once the account's failures
  // at the address are forgotten (the right password, a reset): the guess then counts for the
  // address cap only. `reserved_at` is when it was counted (the address cap runs from it);
  // `counted_at` is when the account's lock and backoff run from: the reservation, or for a
  // wrong guess its answer.
  await db.schema
    .createTable('sign_in_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('reserved_at', 'integer', (c) => c.notNull())
    .addColumn('counted_at', 'integer', (c) => c.notNull())
    .addColumn('is_failure', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sign_in_attempts_pair').on('sign_in_attempts').columns(['account', 'address', 'counted_at']).execute();
  await db.schema.createIndex('sign_in_attempts_address').on('sign_in_attempts').columns(['address', 'reserved_at']).execute();
  await db.schema.createIndex('sign_in_attempts_counted').on('sign_in_attempts').column('counted_at').execute();

  // One row per counted event (a reset email asked for, a dead link tried) of a named limit.
  await db.schema
    .createTable('rate_limit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_events_key').on('rate_limit_events').columns(['scope', 'key', 'at']).execute();
  await db.schema.createIndex('rate_limit_events_scope').on('rate_limit_events').columns(['scope', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_events').execute();
  await db.schema.dropTable('sign_in_attempts').execute();
}
