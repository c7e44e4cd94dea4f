import { createHash } from 'node:crypto';
import {
  PostgresAdapter,
  sql,
  type AliasableExpression,
  type CreateTableBuilder,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type ShallowDehydrateObject,
  type Simplify,
  type SqlBool,
} from 'kysely';
import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';

/**
 * Everything that differs between the two engines lives in this module, and only here: which
 * engine a connection talks to, the locks, and the SQL that is spelt differently. Repositories,
 * auth and workflows call these and never branch on the engine themselves.
 *
 * Why SQLite so often does nothing here: one process serves a SQLite file and its one writer runs
 * write transactions one after another, so what PostgreSQL needs a lock for is already in turn.
 */
export type Engine = 'sqlite' | 'postgres';

/**
 * Which engine a connection (or a transaction on it) talks to. Typed for any schema so that a
 * migration, which sees the database before today's types, can ask too.
 */
export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

const isPostgres = (db: Kysely<any>) => engineOf(db) === 'postgres';

// ---------------------------------------------------------------------------------------------
// Row locks

/**
 * The query as a row lock on PostgreSQL (SELECT ... FOR UPDATE), unchanged on SQLite. With
 * `skipLocked`, rows another transaction holds are left out instead of waited for (a sweep that
 * must not deadlock with the transaction holding them); with `of`, only that table's rows are
 * locked in a join. Use it in a chain: `.$call((query) => forUpdate(trx, query))`.
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  db: Kysely<any>,
  query: SelectQueryBuilder<DB, TB, O>,
  options: { skipLocked?: boolean; of?: TB & string } = {},
): SelectQueryBuilder<DB, TB, O> {
  if (!isPostgres(db)) return query;
  const locked = options.of === undefined ? query.forUpdate() : query.forUpdate(options.of);
  return options.skipLocked ? locked.skipLocked() : locked;
}

/**
 * Locks the rows a query selects until the transaction ends, on PostgreSQL; on SQLite nothing
 * is run. For "wait here until whoever is changing these rows has committed", e.g. a user's row
 * before issuing one of their tokens.
 */
export async function lockRows(trx: Kysely<any>, query: SelectQueryBuilder<any, any, any>): Promise<void> {
  if (isPostgres(trx)) await query.forUpdate().execute();
}

// ---------------------------------------------------------------------------------------------
// Advisory locks (PostgreSQL): the one place their ids are given out.

/**
 * Whole kinds of write done one at a time across every API process until the transaction ends,
 * each under one bigint advisory lock:
 * - pcn-writes: PCN numbers are MAX + 1, duplicates must see each other, and the per-owner
 *   counts and duplicate links would otherwise deadlock (repositories/pcn-writes.ts, lockPcnWrites);
 * - seed: exactly one process fills an empty database (db/seed.ts, tools/migrate-to-postgres.ts);
 * - user-roles: the last active SUPER_ADMIN cannot be removed by two changes at once
 *   (repositories/users.ts, lockUserRoles).
 * Any fixed numbers do, the same in every process.
 */
const WRITE_LOCKS = {
  'pcn-writes': 1_504_200_001,
  seed: 1_504_200_002,
  'user-roles': 1_504_200_003,
} as const;

export type WriteLock = keyof typeof WRITE_LOCKS;

/** Waits for and holds a named write lock until the transaction ends (PostgreSQL; SQLite is already in turn). */
export async function lockForWrites(trx: Kysely<any>, lock: WriteLock): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${WRITE_LOCKS[lock]})`.execute(trx);
}

/**
 * Locks on names within a space use the two-int form, (space, key of a name): PostgreSQL keeps
 * those apart from the one-bigint write locks above, so neither can ever block the other. Each
 * space is one kind of thing locked.
 */
const LOCK_SPACES = {
  /** Sign-in guesses counted for one client address (auth/sign-in-limiter.ts). */
  signInAddress: 1_504_200_101,
  /** Sign-in guesses counted for one account from anywhere (auth/sign-in-limiter.ts); taken before the address. */
  signInAccount: 1_504_200_104,
  /** Events counted against one key of a named limit (auth/rate-limit.ts). */
  rateLimitKey: 1_504_200_102,
  /** Jobs that must not run in two processes at once (the orphan sweep, the evidence purge). */
  maintenance: 1_504_200_103,
  /** One car park's visitor page: its places of the day are counted and taken one visitor at a time. */
  visitorPage: 1_504_200_105,
} as const;

export type LockSpace = keyof typeof LOCK_SPACES;

/** A name's 32-bit key, the same in every process. Two names sharing a key only wait for each other. */
function keyOf(name: string): number {
  return createHash('sha256').update(name).digest().readInt32BE(0);
}

/**
 * On PostgreSQL, waits for and holds the locks on these names until the transaction ends.
 * They are taken in key order, so two transactions wanting overlapping names cannot deadlock.
 */
export async function lockNamesForTransaction(trx: Kysely<any>, space: LockSpace, names: readonly string[]): Promise<void> {
  if (!isPostgres(trx)) return;
  const keys = [...new Set(names.map(keyOf))].sort((a, b) => a - b);
  for (const key of keys) await sql`select pg_advisory_xact_lock(${LOCK_SPACES[space]}::integer, ${key}::integer)`.execute(trx);
}

export type MaintenanceRun<T> = { isSkipped: true } | { isSkipped: false; result: T };

/**
 * Runs a maintenance job unless another process is running the job of that name right now
 * (PostgreSQL), in which case this run is skipped, not queued: the jobs are idempotent and the
 * other run does the work. On SQLite it just runs.
 *
 * The lock is a session lock held by one pooled connection set aside for the run; the job's own
 * queries go through `db`, the rest of the pool (connectDatabase gives it ten). Not a
 * transaction's lock: a transaction left open for a job of minutes holds back vacuum, and a
 * server with idle_in_transaction_session_timeout would end it mid-run. If the process dies,
 * its connections close and the lock goes with them.
 */
export async function withMaintenanceLock<T>(db: Kysely<any>, name: string, job: () => Promise<T>): Promise<MaintenanceRun<T>> {
  if (!isPostgres(db)) return { isSkipped: false, result: await job() };
  const space = LOCK_SPACES.maintenance;
  const key = keyOf(name);
  return db.connection().execute(async (connection): Promise<MaintenanceRun<T>> => {
    const { rows } = await sql<{
      isLocked: boolean;
    }>`select pg_try_advisory_lock(${space}::integer, ${key}::integer) as "isLocked"`.execute(connection);
    if (!rows[0]?.isLocked) return { isSkipped: true };
    try {
      return { isSkipped: false, result: await job() };
    } finally {
      // A connection lost during the job took the lock with it: nothing is left to release, and
      // that must not turn a finished job into a failed one.
      await sql`select pg_advisory_unlock(${space}::integer, ${key}::integer)`.execute(connection).catch(() => undefined);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// SQL spelt differently

/** SQLite's LIKE ignores ASCII case; PostgreSQL's does not, and ILIKE is its case-blind form. */
export function likeIgnoringCase(db: Kysely<any>): RawBuilder<unknown> {
  return sql.raw(isPostgres(db) ? 'ilike' : 'like');
}

/**
 * A subquery's rows as one JSON array column. PostgreSQL's driver parses json and answers an
 * array; SQLite answers the JSON text (see parseJsonArray).
 */
export function jsonArrayFrom<O>(
  db: Kysely<any>,
  subquery: Parameters<typeof sqliteJsonArrayFrom<O>>[0],
): RawBuilder<Simplify<ShallowDehydrateObject<O>>[]> {
  return isPostgres(db) ? postgresJsonArrayFrom(subquery) : sqliteJsonArrayFrom(subquery);
}

/** What jsonArrayFrom gave back, as an array on either engine. */
export function parseJsonArray<T>(value: T[] | string): T[] {
  return typeof value === 'string' ? (JSON.parse(value) as T[]) : value;
}

/**
 * The whole milliseconds from one time column to another, summed over the group (timestamptz on
 * PostgreSQL, ISO-8601 text in SQLite). Whole milliseconds per row, summed exactly; SQLite's
 * julianday alone would drift by fractions.
 */
export function sumOfMillisecondsBetween(db: Kysely<any>, from: string, to: string): AliasableExpression<number> {
  const [start, end] = [sql.ref(from), sql.ref(to)];
  return isPostgres(db)
    ? sql<number>`sum(round(extract(epoch from (${end} - ${start})) * 1000))`
    : sql<number>`sum(round((julianday(${end}) - julianday(${start})) * 86400000))`;
}

/** The UTC calendar day ('YYYY-MM-DD') of a time column: its first ten characters in SQLite's ISO-8601 text. */
export function utcDayOf(db: Kysely<any>, column: string): AliasableExpression<string> {
  return isPostgres(db)
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${sql.ref(column)}, 1, 10)`;
}

/**
 * How the PCN list finds a registration or a PCN number from part of it: one condition, with
 * its values bound in order, and a name for its SQL (`shape`) under which a compiled query is
 * kept. The search is only [A-Z0-9] after normalising.
 *
 * SQLite, three or more characters of each: the FTS5 trigram table (sqlite migration 0006)
 * finds the rows; quoting the search makes a safe FTS5 phrase. Otherwise LIKE, which needs no
 * escaping for [A-Z0-9]; on PostgreSQL the pg_trgm GIN indexes (postgres migration 0001) answer
 * that LIKE from the index.
 */
export function pcnTextSearch(
  db: Kysely<any>,
  search: { registration: string; number: string },
): { shape: string; values: string[]; where: (eb: ExpressionBuilder<any, any>, ...values: string[]) => Expression<SqlBool> } {
  if (!isPostgres(db) && search.registration.length >= 3 && search.number.length >= 3) {
    return {
      shape: 'search-fts',
      values: [`vehicle_registration : "${search.registration}" OR pcn_number : "${search.number}"`],
      where: (_eb, phrase) => sql<SqlBool>`pcns.sequence in (select rowid from pcn_search where pcn_search match ${phrase})`,
    };
  }
  // A whole PCN number (eight digits, as formatPcnNumber writes it) is that notice: found by the
  // number's unique index. As part of a number, its digits' trigrams are shared by too many rows
  // (2,000,000 notices: 109 ms at p97.5 against 100 for a registration).
  if (/^\d{8}$/.test(search.number)) {
    return {
      shape: 'search-like-whole-number',
      values: [`%${search.registration}%`, search.number],
      where: (eb, registration, number) =>
        eb.or([eb(eb.ref('pcns.vehicle_registration'), 'like', registration), eb(eb.ref('pcns.pcn_number'), '=', number)]),
    };
  }
  return {
    shape: 'search-like',
    values: [`%${search.registration}%`, `%${search.number}%`],
    where: (eb, registration, number) =>
      eb.or([eb(eb.ref('pcns.vehicle_registration'), 'like', registration), eb(eb.ref('pcns.pcn_number'), 'like', number)]),
  };
}

// ---------------------------------------------------------------------------------------------
// For migrations: written once, for both engines.

/**
 * Column types for what the engines store differently. SQLite has storage classes only: times
 * are ISO-8601 text, flags 0/1 integers. PostgreSQL has its own types, which database.ts reads
 * back as the same values SQLite gives. Money is whole pence on both; bigint where a sum or a
 * total may pass 2^31. JSON is text on both, as in every existing table: a jsonb column would
 * come back from pg parsed, and from SQLite as text. Bytes (a small picture) are a blob and a
 * bytea, both read back as a Buffer.
 */
export function columnTypes(db: Kysely<any>): Record<'timestamp' | 'date' | 'boolean' | 'bigint' | 'bytes', ColumnType> {
  return isPostgres(db)
    ? { timestamp: 'timestamptz', date: 'date', boolean: 'boolean', bigint: 'bigint', bytes: 'bytea' }
    : { timestamp: 'text', date: 'text', boolean: 'integer', bigint: 'integer', bytes: 'blob' };
}

/**
 * A new table's insertion order, for `order by rowid` to break ties between rows of one
 * millisecond: SQLite has its implicit rowid; PostgreSQL gets an identity column of that name,
 * as the frozen history's tables do.
 */
export function withInsertionOrder<B extends CreateTableBuilder<any, any>>(db: Kysely<any>, table: B): B {
  return isPostgres(db) ? (table.addColumn('rowid', sql`bigint generated always as identity`, (col) => col.notNull()) as B) : table;
}

/** The type names columnTypes gives, each one Kysely's schema builder takes as it is. */
export type ColumnType = 'timestamptz' | 'date' | 'boolean' | 'bigint' | 'text' | 'integer' | 'bytea' | 'blob';

/**
 * A CHECK condition over one table's columns: `column(name)` names a column of the row being
 * checked (PostgreSQL's constraint sees the bare column; SQLite's trigger sees NEW.column).
 */
export type CheckCondition = (column: (name: string) => RawBuilder<unknown>) => RawBuilder<SqlBool>;

/**
 * Adds a named CHECK to an existing table. PostgreSQL: ALTER TABLE ... ADD CONSTRAINT ... CHECK,
 * which also checks the rows already there. SQLite cannot add a constraint to a table it has,
 * so two triggers refuse the row instead: BEFORE INSERT, and BEFORE UPDATE OF the checked
 * columns, each raising ABORT with SQLite's own words for a failed check ("CHECK constraint
 * failed: name"). As with a real CHECK, a condition that is NULL (a NULL column) passes.
 * The triggers do not look at rows already there: find those first.
 */
export async function addCheck(
  db: Kysely<any>,
  check: { table: string; name: string; columns: readonly string[]; condition: CheckCondition },
): Promise<void> {
  if (isPostgres(db)) {
    const condition = check.condition((name) => sql.ref(name));
    await sql`alter table ${sql.table(check.table)} add constraint ${sql.id(check.name)} check (${condition})`.execute(db);
    return;
  }
  const condition = check.condition((name) => sql`new.${sql.id(name)}`);
  const refusal = sql.raw(`raise(abort, ${quoteText(`CHECK constraint failed: ${check.name}`)})`);
  const columns = sql.join(check.columns.map((name) => sql.id(name)));
  await sql`create trigger ${sql.id(`${check.name}_insert`)} before insert on ${sql.table(check.table)}
    for each row when not (${condition}) begin select ${refusal}; end`.execute(db);
  await sql`create trigger ${sql.id(`${check.name}_update`)} before update of ${columns} on ${sql.table(check.table)}
    for each row when not (${condition}) begin select ${refusal}; end`.execute(db);
}

/** Removes a check addCheck made, e.g. to add it again with another list of values. */
export async function dropCheck(db: Kysely<any>, check: { table: string; name: string }): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table ${sql.table(check.table)} drop constraint ${sql.id(check.name)}`.execute(db);
    return;
  }
  await sql`drop trigger ${sql.id(`${check.name}_insert`)}`.execute(db);
  await sql`drop trigger ${sql.id(`${check.name}_update`)}`.execute(db);
}

/**
 * `column in ('A', 'B', ...)` with the values written into the SQL, as a CHECK must be: DDL
 * takes no bound parameters. The values are our constants; they are quoted all the same.
 */
export function isOneOf(column: RawBuilder<unknown>, values: readonly string[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} in (${sql.raw(values.map(quoteText).join(', '))})`;
}

function quoteText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
