import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { migrations } from '../../../migrations/index.ts';
import { postgresMigrations } from '../../../migrations/postgres/index.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** Where the data lives: the embedded SQLite file (the default) or a PostgreSQL server (issue 15). */
export type DatabaseTarget = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string };
export type Engine = DatabaseTarget['engine'];
export type OpenDatabase = {
  db: Db;
  engine: Engine;
  /** The SQLite handle (backups, integrity checks); absent on PostgreSQL. */
  sqlite?: SQLite.Database;
  close: () => Promise<void>;
};

/**
 * Which engine a connection (or a transaction on it) talks to: the few queries that differ
 * (full-text search, locking) ask this rather than being handed a flag through every call.
 */
export function engineOf(db: Db): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

// count(*) and sum() are bigint in PostgreSQL, which pg returns as strings; every count here is far
// below 2^53, so they are read as numbers, as SQLite gives them.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

export function connectDatabase(target: DatabaseTarget): OpenDatabase {
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, sqlite };
}

/** Each engine has its own set: the SQLite files stay frozen, PostgreSQL starts from their end state. */
function providerFor(db: Db): MigrationProvider {
  const set = engineOf(db) === 'postgres' ? postgresMigrations : migrations;
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
