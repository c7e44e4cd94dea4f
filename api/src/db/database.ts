import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { migrationsFor } from '../../../migrations/index.ts';
import { engineOf, type Engine } from './dialect.ts';
import { FLAG_COLUMNS, type Database } from './schema.generated.ts';
import { isoFromTimestamptz } from './timestamptz.ts';

export type Db = Kysely<Database>;

/** Where the data lives: the embedded SQLite file (the default) or a PostgreSQL server. */
export type DatabaseTarget = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string };
export type { Engine };
export type OpenDatabase = {
  db: Db;
  engine: Engine;
  /** The SQLite handle (backups, integrity checks); absent on PostgreSQL. */
  sqlite?: SQLite.Database;
  close: () => Promise<void>;
};

// count(*) and sum() are bigint in PostgreSQL, which pg returns as strings; every count here is far
// below 2^53, so they are read as numbers, as SQLite gives them.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/*
 * The one place where the engines' stored values meet the application's types (decision 0035):
 * a time is ISO-8601 text in UTC with milliseconds (what Date#toISOString() writes, and what
 * SQLite holds as text), a calendar day is 'YYYY-MM-DD', a flag is a boolean. PostgreSQL stores
 * timestamptz, date and boolean: its times are read back as that ISO text (db/timestamptz.ts)
 * and its days as they are (pg would make a local-midnight Date).
 * SQLite stores flags as 0/1: see FLAG_COLUMNS below.
 */
const readTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => isoFromTimestamptz(value, readTimestamptz));
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

/**
 * The flags (FLAG_COLUMNS, generated from PostgreSQL's boolean columns): 0/1 integers in SQLite,
 * which has no boolean. The SQLite connection binds true/false as 1/0 (better-sqlite3 refuses
 * booleans) and reads these columns back as booleans, wherever a query selects them and under
 * whatever alias, because SQLite names each result column's table and column of origin.
 */
const FLAGS = new Set(Object.entries(FLAG_COLUMNS).flatMap(([table, columns]) => columns.map((column) => `${table}.${column}`)));

/** A query's parameters as SQLite binds them: a boolean as 1 or 0, everything else as it is. */
function sqliteParameters(parameters: readonly unknown[]): readonly unknown[] {
  return parameters.some((value) => typeof value === 'boolean')
    ? parameters.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value))
    : parameters;
}

export function connectDatabase(target: DatabaseTarget, options: { onLostConnection?: (error: Error) => void } = {}): OpenDatabase {
  if (target.engine === 'sqlite') {
    const { db, sqlite } = openDatabase(target.file);
    return {
      db,
      engine: 'sqlite',
      sqlite,
      close: async () => {
        await db.destroy();
        if (sqlite.open) sqlite.close();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: 10 });
  // Sessions in UTC, as every stored time is: a time given without a zone (a day's start) means
  // the same instant as in SQLite's text, whatever the server's own zone. A new connection runs
  // this before any query it is lent for; an error here is the connection's loss, which that
  // query and the pool's 'error' listener report.
  pool.on('connect', (client) => {
    client.query("set time zone 'UTC'").catch(() => undefined);
  });
  // An idle connection the server ends (a restart, a failover, an administrator) is an 'error'
  // event on the pool, which crashes the process when nobody listens. pg has already dropped
  // that connection, and the next query opens a new one: it is only worth a log line.
  pool.on('error', (error) => options.onLostConnection?.(error));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}

/**
 * Opens the SQLite file with every pragma set explicitly: a new and an existing WAL file
 * start with different defaults. synchronous=FULL because the phone deletes a queued notice
 * as soon as it gets a 2xx, so a committed PCN must survive a power cut right after.
 */
export function openDatabase(file: string): { db: Db; sqlite: SQLite.Database } {
  restrictToOwner(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  directReaders.set(db, statements.readNow);
  return { db, sqlite };
}

/**
 * Runs a read at once on the SQLite connection, or answers undefined when it must wait its turn
 * through Kysely (PostgreSQL, a transaction, a stream being read): see withStatementCache.
 */
export type DirectReader = (text: string, parameters: readonly unknown[]) => unknown[] | undefined;
const directReaders = new WeakMap<Db, DirectReader>();

export function directReaderOf(db: Db): DirectReader | undefined {
  return directReaders.get(db);
}

/** Distinct SQL texts kept prepared: the app has a few hundred; a flood of new ones only cycles the oldest. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew, and better-sqlite3 does not cache: on the
 * signed-in hot path SQLite's parser and planner were a tenth of the CPU. Statements
 * are kept by SQL text instead. Parameters are bound at each run, so a kept statement answers
 * exactly as a new one would, and SQLite re-prepares it by itself after a schema change. A
 * statement still being iterated (a streamed export) is busy: then a fresh one is used once.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase & { readNow: DirectReader } {
  const statements = new Map<string, SqliteStatement>();
  const streams = { open: 0 };
  function prepare(text: string): SqliteStatement {
    const kept = statements.get(text);
    if (kept && !kept.busy) {
      // Map order is insertion order: moving it to the end keeps the least recently used first.
      statements.delete(text);
      statements.set(text, kept);
      return kept;
    }
    const statement = readingRowsAsArrays(sqlite.prepare(text), streams);
    // A schema change (the migrations) can change what a kept `select t.*` returns: start afresh.
    if (SCHEMA_CHANGE.test(text)) statements.clear();
    else if (!kept) {
      statements.set(text, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
    }
    return statement;
  }
  return {
    close: () => sqlite.close(),
    prepare,
    /**
     * Kysely's SQLite driver lends its one connection to one query or transaction at a time,
     * behind a promise-based lock; on the hot path that hand-over cost more than the small
     * reads themselves. The connection is only held across awaits by a transaction
     * or a stream being read, and SQLite says when either is open: otherwise a read run here
     * and now is one autocommit statement that sees exactly what is committed, as it would after
     * waiting its turn. In those two cases the caller goes through Kysely and waits.
     */
    readNow(text, parameters) {
      if (sqlite.inTransaction || streams.open > 0) return undefined;
      const statement = prepare(text);
      return statement.reader ? statement.all(parameters) : undefined;
    },
  };
}

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\s/i;

type SqliteStatement = ReturnType<SqliteDatabase['prepare']> & { readonly busy: boolean };

/**
 * Every statement binds its parameters through sqliteParameters, and reads the flag columns
 * back as booleans (FLAG_COLUMNS).
 *
 * better-sqlite3 builds each row object one property at a time through V8's C++ API, which cost
 * more than running the query for a page of notices; it reads rows as arrays far faster, and
 * plain JavaScript then makes the same objects (a later column of the same name wins, as there).
 * `streams` counts the statements being iterated on the connection.
 */
function readingRowsAsArrays(statement: SQLite.Statement, streams: { open: number }): SqliteStatement {
  if (!statement.reader) {
    return {
      reader: false,
      get busy() {
        return statement.busy;
      },
      all: (parameters) => statement.all(sqliteParameters(parameters)),
      run: (parameters) => statement.run(sqliteParameters(parameters)),
      iterate: (parameters) => statement.iterate(sqliteParameters(parameters)),
    };
  }
  const arrays = statement.raw(true);
  let names: string[] = [];
  let flags: number[] = [];
  const readColumns = () => {
    const columns = arrays.columns();
    names = columns.map((column) => column.name);
    flags = columns.flatMap((column, i) => (column.table !== null && FLAGS.has(`${column.table}.${column.column}`) ? [i] : []));
  };
  readColumns();
  const toObject = (values: unknown[]) => {
    // Another connection's schema change makes SQLite prepare the statement again by itself.
    if (values.length !== names.length) readColumns();
    for (const i of flags) if (values[i] !== null) values[i] = values[i] !== 0;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i += 1) row[names[i]!] = values[i];
    return row;
  };
  return {
    reader: true,
    get busy() {
      return arrays.busy;
    },
    all: (parameters) => (arrays.all(sqliteParameters(parameters)) as unknown[][]).map(toObject),
    run: (parameters) => arrays.run(sqliteParameters(parameters)),
    *iterate(parameters) {
      streams.open += 1;
      try {
        for (const values of arrays.iterate(sqliteParameters(parameters)) as IterableIterator<unknown[]>) yield toObject(values);
      } finally {
        streams.open -= 1;
      }
    },
  };
}

/** Each engine's frozen history, then the migrations both share (migrations/index.ts). */
function providerFor(db: Db): MigrationProvider {
  const set = migrationsFor(engineOf(db));
  return { getMigrations: async () => set };
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: providerFor(db) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/**
 * The database holds password hashes and every PCN: readable by its owner only. SQLite gives its
 * -wal and -shm files the database file's permissions, so creating that one 0600 is enough for
 * a new database; an existing one (made before this rule) is tightened on open.
 */
function restrictToOwner(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'wx', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}
