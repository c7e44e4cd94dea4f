import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db/database.ts';

/** A fresh, migrated SQLite file in a temp folder, for unit tests of modules that keep state in the database. */
export async function openSqliteDatabase(): Promise<{ db: Db; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'parkpatrol-unit-'));
  const { db, close } = connectDatabase({ engine: 'sqlite', file: join(dir, 'unit.sqlite') });
  await migrateToLatest(db);
  return {
    db,
    close: async () => {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
