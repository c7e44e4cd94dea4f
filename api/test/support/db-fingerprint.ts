import { existsSync, readdirSync } from 'node:fs';
import type SQLite from 'better-sqlite3';

/**
 * A cheap picture of the database and the upload folder: per table its row count and the latest
 * value of every *_at column (so an update that sets updated_at, revoked_at or used_at shows),
 * plus the sorted list of files. Two equal fingerprints mean nothing was written or removed.
 */
export function takeFingerprint(sqlite: SQLite.Database, uploadsDir: string): { tables: Record<string, unknown>; uploads: string[] } {
  const tables: Record<string, unknown> = {};
  const names = sqlite
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name")
    .pluck()
    .all() as string[];
  for (const name of names) {
    const stampColumns = (sqlite.pragma(`table_info("${name}")`) as Array<{ name: string }>)
      .map((c) => c.name)
      .filter((c) => c.endsWith('_at'));
    const select = ['count(*) as rows', ...stampColumns.map((c) => `max("${c}") as "${c}"`)].join(', ');
    tables[name] = sqlite.prepare(`select ${select} from "${name}"`).get();
  }
  const uploads = existsSync(uploadsDir) ? readdirSync(uploadsDir).sort() : [];
  return { tables, uploads };
}
