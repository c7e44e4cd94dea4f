import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from 'kysely';
import { migrations } from '../../../migrations/index.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

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

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
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
