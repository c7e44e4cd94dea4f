import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { migrationsFor } from '../../../migrations/index.ts';
import { engineOf, type Engine } from './dialect.ts';
import type { Database } from './schema.ts';

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
 * better-sqlite3 builds each row object one property at a time through V8's C++ API, which cost
 * more than running the query for a page of notices; it reads rows as arrays far faster, and
 * plain JavaScript then makes the same objects (a later column of the same name wins, as there).
 * `streams` counts the statements being iterated on the connection.
 */
function readingRowsAsArrays(statement: SQLite.Statement, streams: { open: number }): SqliteStatement {
  if (!statement.reader) return statement;
  const arrays = statement.raw(true);
  let names = arrays.columns().map((column) => column.name);
  const toObject = (values: unknown[]) => {
    // Another connection's schema change makes SQLite prepare the statement again by itself.
    if (values.length !== names.length) names = arrays.columns().map((column) => column.name);
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i += 1) row[names[i]!] = values[i];
    return row;
  };
  return {
    reader: true,
    get busy() {
      return arrays.busy;
    },
    all: (parameters) => (arrays.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => arrays.run(parameters),
    *iterate(parameters) {
      streams.open += 1;
      try {
        for (const values of arrays.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(values);
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
