import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Everything that differs between the two engines lives in this module, and only here: which
 * engine a connection talks to, the locks, and the SQL that is spelt differently. Repositories,
 * auth and workflows call these and never branch on the engine themselves.
 */
export type Engine = 'sqlite' | 'postgres';

/**
 * Which engine a connection (or a transaction on it) talks to. Typed for any schema so that a
 * migration, which sees the database before today's types, can ask too.
 */
export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
