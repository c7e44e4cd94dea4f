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
