import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Stateless API processes: PostgreSQL's side of SQLite's 0009_auth_limits. The
// password-guess limiter and the reset-email and dead-link counters live in the database so
// every API process sees the same counts.
//
// Times are bigint milliseconds (SQLite's integer is 64-bit, PostgreSQL's 32-bit), not ISO text:
// every use is arithmetic on a window, the rows live for minutes and are never shown. Keys are
// emails and addresses compared only for equality, so they need no "C" collation.
export async function up(db: Kysely<any>): Promise<void> {
  // `account` null: the account's failures at this address were forgotten (the right password,
  // a reset), so the guess counts for the address cap only. The address cap runs from
  // `reserved_at`; the account's lock and backoff from `counted_at` (a wrong guess's answer).
  await db.schema
    .createTable('sign_in_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('reserved_at', 'bigint', (c) => c.notNull())
    .addColumn('counted_at', 'bigint', (c) => c.notNull())
    .addColumn('is_failure', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sign_in_attempts_pair').on('sign_in_attempts').columns(['account', 'address', 'counted_at']).execute();
  await db.schema.createIndex('sign_in_attempts_address').on('sign_in_attempts').columns(['address', 'reserved_at']).execute();
  await db.schema.createIndex('sign_in_attempts_counted').on('sign_in_attempts').column('counted_at').execute();

  await db.schema
    .createTable('rate_limit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_events_key').on('rate_limit_events').columns(['scope', 'key', 'at']).execute();
  await db.schema.createIndex('rate_limit_events_scope').on('rate_limit_events').columns(['scope', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_events').execute();
  await db.schema.dropTable('sign_in_attempts').execute();
}
