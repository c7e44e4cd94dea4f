import { listUploadsFolder } from './upload-files.ts';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

export type Fingerprint = { tables: Record<string, unknown>; uploads: string[] };

const tablesByDb = new WeakMap<Db, Promise<Array<{ name: string; stampColumns: string[] }>>>();

/**
 * The limiters' own counters (migration 0009): a refused request is counted there by design (a
 * wrong password, a dead link), so a row there is no sign of a refused request doing something.
 */
const REFUSAL_COUNTERS = new Set(['sign_in_attempts', 'rate_limit_events']);

/**
 * The job queue's own tables (decision 0046): pg-boss's schema and the SQLite queue's table. An
 * upload's thumbnail job is its own business, not a row the request wrote.
 */
const isJobQueueTable = (table: { name: string; schema?: string }) => table.schema === 'pgboss' || table.name === 'job_queue';

/** Every table of ours with its *_at columns, looked up once per database (either engine). */
function tablesOf(db: Db) {
  let tables = tablesByDb.get(db);
  if (!tables) {
    tables = db.introspection.getTables().then((found) =>
      found
        .filter(
          (table) =>
            !table.name.startsWith('kysely_') &&
            !table.name.startsWith('sqlite_') &&
            !REFUSAL_COUNTERS.has(table.name) &&
            !isJobQueueTable(table),
        )
        .map((table) => ({
          name: table.name,
          stampColumns: table.columns.map((column) => column.name).filter((name) => name.endsWith('_at')),
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
    tablesByDb.set(db, tables);
  }
  return tables;
}

/**
 * A cheap picture of the database and the upload folder: per table its row count and the latest
 * value of every *_at column (so an update that sets updated_at, revoked_at or used_at shows),
 * plus the sorted list of files. Two equal fingerprints mean nothing was written or removed,
 * the refusal counters aside.
 * Read through the app's own connection, so it works on SQLite and PostgreSQL alike.
 */
export async function takeFingerprint(db: Db, uploadsDir: string): Promise<Fingerprint> {
  const tables: Record<string, unknown> = {};
  for (const { name, stampColumns } of await tablesOf(db)) {
    const columns = [sql`count(*)`.as('rows'), ...stampColumns.map((column) => sql`max(${sql.ref(column)})`.as(column))];
    tables[name] = await db.selectFrom(sql.table(name).as('t')).select(columns).executeTakeFirst();
  }
  const uploads = listUploadsFolder(uploadsDir);
  return { tables, uploads };
}
