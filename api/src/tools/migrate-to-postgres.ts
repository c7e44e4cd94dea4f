import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type SQLite from 'better-sqlite3';
import { sql, type Selectable } from 'kysely';
import { connectDatabase, migrateToLatest, type Db } from '../db/database.ts';
import { lockForWrites } from '../db/dialect.ts';
import type { PcnImagesTable } from '../db/schema.ts';
import { createDiskEvidenceStore, isEvidenceFileName } from '../services/evidence-storage.ts';
import { createS3EvidenceStore, type S3EvidenceStore, type S3EvidenceStoreOptions } from '../services/evidence-store-s3.ts';

/**
 * Moves an installation from the embedded SQLite file and DATA_DIR/uploads to
 * PostgreSQL and, optionally, an S3-compatible bucket. Every row of every table is copied inside
 * one PostgreSQL transaction; the photos are copied and read back before it commits, so the
 * target either holds everything, checked, or nothing.
 */

export type MigrateToPostgresOptions = {
  /** The installation's DATA_DIR: parkpatrol.sqlite and uploads/ are read from it. */
  fromDataDir: string;
  /** An empty PostgreSQL database (postgres://...); its schema is created here if needed. */
  databaseUrl: string;
  /** The bucket the photos go to; absent, they stay in the uploads folder and only the database moves. */
  evidence?: S3EvidenceStoreOptions | null;
  /** Copy the rows even when a photo that was never purged has no file (it is reported either way). */
  allowMissingPhotos?: boolean;
  /** Progress, one line at a time. */
  log?: (line: string) => void;
};

export type CopiedTable = { table: string; rows: number };

export type MigrationSummary = {
  tables: CopiedTable[];
  photos: {
    /** Photo rows whose file should exist (not purged under the retention policy). */
    expected: number;
    /** Put into the bucket by this run (0 when the photos stay on disk). */
    copied: number;
    /** Read back from where the server will find them, with the SHA-256 recorded in their row. */
    verified: number;
    /** Rows whose file was removed under the retention policy: nothing to copy. */
    purged: number;
    /** File names that should exist and did not (only with allowMissingPhotos; otherwise the run fails). */
    missing: string[];
    bytes: number;
  };
  /** Where the server finds the photos from now on: s3://bucket/prefix or the uploads folder. */
  evidenceLocation: string;
  isEvidenceMoved: boolean;
  elapsedMs: number;
};

/** A refusal the operator can act on (non-empty target, no source, a missing photo): the message says what to do. */
export class MigrationRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationRefusedError';
  }
}

const POSTGRES_URL_PATTERN = /^postgres(ql)?:\/\//;

/**
 * Tables that are not copied: the migrators' own (each engine has its own migration history),
 * the SQLite job queue's (PostgreSQL's is pg-boss's; thumbnails still waiting are made by `npm run
 * thumbnails` after the move), and pcn_counts, which PostgreSQL's statement-level triggers fill
 * from the pcns rows as they arrive (checked against SQLite's counts before the commit). SQLite's
 * FTS5 search table and its shadow tables are not 'table' in `pragma table_list`, so they never
 * come up.
 */
const MACHINERY_TABLE_PATTERN = /^(sqlite_|kysely_|job_queue$)/;
const DERIVED_TABLES = new Set(['pcn_counts']);

/**
 * PostgreSQL's stand-in for SQLite's implicit rowid (migrations/postgres/0001_schema.ts): an
 * identity column of this name gets the SQLite rowid, so ORDER BY rowid reads the same order.
 */
const ROWID_COLUMN = 'rowid';

/** The table and column whose rows name stored evidence files (api/src/db/schema.ts). */
const PHOTO_TABLE = 'pcn_images';

const BATCH_ROWS = 500;
/** PostgreSQL takes at most 65,535 bound parameters per statement; a wide table gets fewer rows per batch. */
const MAX_PARAMETERS = 30_000;
const PHOTO_CONCURRENCY = 4;

type TablePlan = {
  name: string;
  /** The SQLite columns, in the order they are read and written. */
  columns: string[];
  /** Whether PostgreSQL's identity column `rowid` is written from SQLite's rowid. */
  hasRowid: boolean;
  /** PostgreSQL identity columns whose sequence must be moved past the copied values. */
  identityColumns: string[];
};

export async function migrateToPostgres(options: MigrateToPostgresOptions): Promise<MigrationSummary> {
  const startedAt = Date.now();
  const log = options.log ?? (() => undefined);
  const source = { databaseFile: join(options.fromDataDir, 'parkpatrol.sqlite'), uploadsDir: join(options.fromDataDir, 'uploads') };
  if (!POSTGRES_URL_PATTERN.test(options.databaseUrl)) {
    throw new MigrationRefusedError('DATABASE_URL must name the target PostgreSQL database: postgres://user:password@host:port/database');
  }
  // Opening a SQLite file that is not there would create an empty one and copy nothing.
  if (!existsSync(source.databaseFile)) {
    throw new MigrationRefusedError(
      `No SQLite database at ${source.databaseFile}: point --from-data-dir (or DATA_DIR) at the folder that holds parkpatrol.sqlite`,
    );
  }

  const sourceDb = connectDatabase({ engine: 'sqlite', file: source.databaseFile });
  const targetDb = connectDatabase({ engine: 'postgres', url: options.databaseUrl });
  const bucket = options.evidence ? createS3EvidenceStore(options.evidence) : null;
  /** Objects this run put into the bucket: removed again if nothing commits. */
  const created: string[] = [];
  try {
    log('Bringing PostgreSQL to the latest schema');
    await migrateToLatest(targetDb.db);
    log(`Bringing ${source.databaseFile} to the latest SQLite schema`);
    await migrateToLatest(sourceDb.db);
    const sqlite = sourceDb.sqlite!;
    // The write lock keeps the snapshot whole and makes a server still running on the file fail
    // loudly on its next write instead of writing rows this copy would never see.
    sqlite.exec('begin immediate');
    try {
      assertForeignKeysHold(sqlite);
      const plan = await planTables(sqlite, targetDb.db);
      const result = await targetDb.db.transaction().execute(async (trx) => {
        // A server started on the target meanwhile waits here instead of seeding demo accounts into it.
        await lockForWrites(trx, 'seed');
        // The transaction waits, idle, while the photos are copied: a server-wide idle timeout must not end it.
        await sql`set local idle_in_transaction_session_timeout = 0`.execute(trx);
        await assertEmpty(trx);
        const tables: CopiedTable[] = [];
        for (const table of plan) tables.push({ table: table.name, rows: await copyTable(sqlite, trx, table, log) });
        await assertCountsMatch(sqlite, trx);
        const photos = await copyPhotos(sqlite, {
          uploadsDir: source.uploadsDir,
          bucket:
            bucket && options.evidence ? { store: bucket, name: options.evidence.bucket, prefix: options.evidence.prefix ?? '' } : null,
          created,
          allowMissingPhotos: options.allowMissingPhotos ?? false,
          log,
        });
        log('Committing');
        return { tables, photos };
      });
      // A database filled in one transaction has no planner statistics and no visibility map
      // until autovacuum gets to it: until then a search filters every notice of the officer
      // instead of asking the trigram indexes (12 ms against 3 ms on 100,000 notices), every
      // index scan visits the table too, and autovacuum's first pass over every row takes the
      // database's time while the first users work. Vacuum and gather them now.
      log('Vacuuming and gathering planner statistics (VACUUM ANALYZE)');
      await sql`vacuum analyze`.execute(targetDb.db);
      return {
        ...result,
        evidenceLocation: bucket?.location ?? source.uploadsDir,
        isEvidenceMoved: bucket !== null,
        elapsedMs: Date.now() - startedAt,
      };
    } finally {
      sqlite.exec('rollback');
    }
  } catch (error) {
    if (bucket && created.length > 0) {
      log(`Nothing was committed: removing the ${created.length} objects this run put into ${bucket.location}`);
      await bucket.delete(created).catch(() => undefined);
    }
    throw error;
  } finally {
    bucket?.close();
    await targetDb.close();
    await sourceDb.close();
  }
}

function assertForeignKeysHold(sqlite: SQLite.Database): void {
  const broken = sqlite.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>;
  if (broken.length === 0) return;
  const sample = broken.slice(0, 10).map((row) => `${row.table} row ${row.rowid} -> ${row.parent}`);
  throw new MigrationRefusedError(
    `The SQLite database has ${broken.length} rows pointing at rows that do not exist (${sample.join('; ')}); PostgreSQL would refuse them. Repair them first.`,
  );
}

/**
 * The tables to copy, parents before children, from the two databases themselves (so a table a
 * later migration adds is copied without a change here). Both schemas must name the same tables
 * and columns: a difference means the two migration sets are out of step, and copying part of a
 * table would lose data silently.
 */
async function planTables(sqlite: SQLite.Database, target: Db): Promise<TablePlan[]> {
  const sqliteTables = (sqlite.pragma('table_list') as Array<{ schema: string; name: string; type: string }>)
    .filter(
      (table) =>
        table.schema === 'main' && table.type === 'table' && !MACHINERY_TABLE_PATTERN.test(table.name) && !DERIVED_TABLES.has(table.name),
    )
    .map((table) => table.name)
    .sort();
  const pgColumns = await sql<{ table_name: string; column_name: string; is_identity: string; is_generated: string }>`
    select c.table_name, c.column_name, c.is_identity, c.is_generated
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(target);
  const pgTables = [...new Set(pgColumns.rows.map((row) => row.table_name))]
    .filter((name) => !MACHINERY_TABLE_PATTERN.test(name) && !DERIVED_TABLES.has(name))
    .sort();
  const onlySqlite = sqliteTables.filter((name) => !pgTables.includes(name));
  const onlyPg = pgTables.filter((name) => !sqliteTables.includes(name));
  if (onlySqlite.length > 0 || onlyPg.length > 0) {
    throw new Error(
      `The two schemas name different tables (only in SQLite: ${onlySqlite.join(', ') || 'none'}; only in PostgreSQL: ${onlyPg.join(', ') || 'none'}): the migration sets are out of step`,
    );
  }

  const plans = new Map<string, TablePlan>();
  const problems: string[] = [];
  for (const name of sqliteTables) {
    const columns = (sqlite.pragma(`table_info("${name}")`) as Array<{ name: string }>).map((column) => column.name);
    const pg = pgColumns.rows.filter((row) => row.table_name === name);
    const identityColumns = pg.filter((row) => row.is_identity === 'YES').map((row) => row.column_name);
    const hasRowid = identityColumns.includes(ROWID_COLUMN) && !columns.includes(ROWID_COLUMN);
    // Generated columns are computed by PostgreSQL and cannot be written.
    const writable = pg
      .filter((row) => row.is_generated !== 'ALWAYS' && !(hasRowid && row.column_name === ROWID_COLUMN))
      .map((row) => row.column_name);
    const missing = columns.filter((column) => !writable.includes(column));
    const extra = writable.filter((column) => !columns.includes(column));
    if (missing.length > 0 || extra.length > 0) {
      problems.push(`${name} (only in SQLite: ${missing.join(', ') || 'none'}; only in PostgreSQL: ${extra.join(', ') || 'none'})`);
    }
    plans.set(name, { name, columns, hasRowid, identityColumns });
  }
  if (problems.length > 0) throw new Error(`The two schemas' columns differ: ${problems.join('; ')}: the migration sets are out of step`);

  const references = await sql<{ child: string; parent: string }>`
    select child.relname as child, parent.relname as parent
    from pg_constraint c
    join pg_class child on child.oid = c.conrelid
    join pg_class parent on parent.oid = c.confrelid
    join pg_namespace n on n.oid = child.relnamespace
    where c.contype = 'f' and n.nspname = current_schema()`.execute(target);
  return inForeignKeyOrder(sqliteTables, references.rows).map((name) => plans.get(name)!);
}

/** Parents before children (Kahn's algorithm, ties by name so every run copies in the same order). */
function inForeignKeyOrder(tables: string[], references: Array<{ child: string; parent: string }>): string[] {
  const parentsOf = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const { child, parent } of references) {
    // A table referring to itself needs its rows in insertion order, which the copy keeps.
    if (child !== parent && parentsOf.has(child) && parentsOf.has(parent)) parentsOf.get(child)!.add(parent);
  }
  const ordered: string[] = [];
  const waiting = new Set(tables);
  while (waiting.size > 0) {
    const ready = [...waiting].filter((table) => [...parentsOf.get(table)!].every((parent) => !waiting.has(parent))).sort();
    if (ready.length === 0) throw new Error(`The foreign keys of ${[...waiting].join(', ')} form a cycle: no order copies them`);
    for (const table of ready) {
      ordered.push(table);
      waiting.delete(table);
    }
  }
  return ordered;
}

/** Never merge into live data: every table of the target, derived ones included, must be empty. */
async function assertEmpty(trx: Db): Promise<void> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
    trx,
  );
  const filled: string[] = [];
  for (const { table_name: name } of tables.rows) {
    if (MACHINERY_TABLE_PATTERN.test(name)) continue;
    const { rows } = await sql<{ has_rows: boolean }>`select exists (select 1 from ${sql.table(name)}) as has_rows`.execute(trx);
    if (rows[0]?.has_rows) filled.push(name);
  }
  if (filled.length > 0) {
    throw new MigrationRefusedError(
      `The target database already holds rows (in ${filled.join(', ')}). The move fills an empty database only and never merges into live data: create a new database and point DATABASE_URL at it.`,
    );
  }
}

/** Copies one table in rowid order, a batch per statement, and checks the count that arrived. */
async function copyTable(sqlite: SQLite.Database, trx: Db, table: TablePlan, log: (line: string) => void): Promise<number> {
  const total = sqlite.prepare(`select count(*) from "${table.name}"`).pluck().get() as number;
  const batchRows = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMETERS / (table.columns.length + 1))));
  // Raw rows: [rowid, ...columns]. Paging by rowid keeps memory flat however big the table.
  const read = sqlite
    .prepare(
      `select rowid, ${table.columns.map((column) => `"${column}"`).join(', ')} from "${table.name}" where rowid > ? order by rowid limit ?`,
    )
    .raw(true);
  const targetColumns = table.hasRowid ? [ROWID_COLUMN, ...table.columns] : table.columns;
  const overriding = table.identityColumns.length > 0 ? sql`overriding system value` : sql``;
  let copied = 0;
  let lastRowid = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const rows = read.all(lastRowid, batchRows) as unknown[][];
    if (rows.length === 0) break;
    lastRowid = rows[rows.length - 1]![0] as number;
    const values = rows.map((row) => sql`(${sql.join((table.hasRowid ? row : row.slice(1)).map((value) => sql.val(value)))})`);
    try {
      await sql`insert into ${sql.table(table.name)} (${sql.join(targetColumns.map((column) => sql.ref(column)))}) ${overriding} values ${sql.join(values)}`.execute(
        trx,
      );
    } catch (error) {
      throw new Error(
        `Copying ${table.name} failed near SQLite rowid ${rows[0]![0]}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    copied += rows.length;
    if (copied % 20_000 < batchRows && copied < total) log(`  ${table.name}: ${copied} of ${total} rows`);
  }
  // New rows after the move number on from the highest copied value, not from 1.
  for (const column of table.identityColumns) {
    await sql`select setval(pg_get_serial_sequence(${`"${table.name}"`}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false) from ${sql.table(table.name)}`.execute(
      trx,
    );
  }
  const { rows: arrived } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table.name)}`.execute(trx);
  if (Number(arrived[0]?.n) !== total)
    throw new Error(`${table.name}: ${total} rows in SQLite, ${arrived[0]?.n} in PostgreSQL after the copy`);
  log(`${table.name}: ${total} rows`);
  return total;
}

/** PostgreSQL's triggers rebuilt pcn_counts from the copied PCNs: they must agree with SQLite's. */
async function assertCountsMatch(sqlite: SQLite.Database, trx: Db): Promise<void> {
  const key = (row: { owner_id: string; status: string; n: number }) => `${row.owner_id}/${row.status}=${Number(row.n)}`;
  const expected = (
    sqlite.prepare('select owner_id, status, n from pcn_counts where n <> 0').all() as Array<{
      owner_id: string;
      status: string;
      n: number;
    }>
  )
    .map(key)
    .sort();
  const { rows } = await sql<{
    owner_id: string;
    status: string;
    n: number;
  }>`select owner_id, status, n from pcn_counts where n <> 0`.execute(trx);
  const actual = rows.map(key).sort();
  if (expected.join('\n') !== actual.join('\n')) {
    throw new Error(`pcn_counts differs after the copy (SQLite: ${expected.join(', ')}; PostgreSQL: ${actual.join(', ')})`);
  }
}

type PhotoRow = Pick<Selectable<PcnImagesTable>, 'id' | 'file_name' | 'mime_type' | 'sha256' | 'purged_at'>;

type PhotoCopy = {
  uploadsDir: string;
  bucket: { store: S3EvidenceStore; name: string; prefix: string } | null;
  created: string[];
  allowMissingPhotos: boolean;
  log: (line: string) => void;
};

/**
 * Every photo that should exist is read from the uploads folder, checked against its row's
 * SHA-256, put into the bucket under the same name (unless already there) and read back from
 * the bucket through the store the server uses, checked again. Without a bucket the files stay
 * and are checked where they are. Anything wrong fails the run, a missing file only when not
 * allowed; all problems are listed together.
 */
async function copyPhotos(sqlite: SQLite.Database, options: PhotoCopy): Promise<MigrationSummary['photos']> {
  const rows = sqlite
    .prepare(`select id, file_name, mime_type, sha256, purged_at from "${PHOTO_TABLE}" order by rowid`)
    .all() as PhotoRow[];
  const kept = rows.filter((row) => row.purged_at === null);
  const disk = createDiskEvidenceStore(options.uploadsDir);
  const { bucket } = options;
  // The store's own key rule; reading every object back through the store below proves they agree.
  const keyPrefix = bucket ? bucket.prefix.replace(/^\/+|\/+$/g, '') : '';
  const missing: string[] = [];
  const problems: string[] = [];
  let copied = 0;
  let verified = 0;
  let bytes = 0;
  options.log(
    `Photos: ${kept.length} to ${bucket ? `copy to ${bucket.store.location}` : `check in ${options.uploadsDir}`} (${rows.length - kept.length} removed under the retention policy)`,
  );

  async function moveOne(row: PhotoRow): Promise<void> {
    if (!isEvidenceFileName(row.file_name)) {
      problems.push(`${row.file_name} (photo ${row.id}): not a name the server makes`);
      return;
    }
    const original = await disk.read(row.file_name);
    if (!original) {
      missing.push(row.file_name);
      return;
    }
    if (sha256Of(original) !== row.sha256) {
      problems.push(
        `${row.file_name} (photo ${row.id}): the file in ${options.uploadsDir} does not match the SHA-256 recorded when it was uploaded`,
      );
      return;
    }
    if (bucket) {
      const key = keyPrefix === '' ? row.file_name : `${keyPrefix}/${row.file_name}`;
      // An object already there (a run that failed before) is checked, never overwritten or removed.
      if (!(await objectExists(bucket.store, bucket.name, key))) {
        await bucket.store.client.send(
          new PutObjectCommand({
            Bucket: bucket.name,
            Key: key,
            Body: original,
            ContentLength: original.byteLength,
            ContentType: row.mime_type,
          }),
        );
        options.created.push(row.file_name);
        copied += 1;
      }
      const stored = await bucket.store.read(row.file_name);
      if (!stored || sha256Of(stored) !== row.sha256) {
        problems.push(
          `${row.file_name} (photo ${row.id}): ${stored ? 'what the bucket returns does not match its SHA-256' : 'the bucket does not return it'}`,
        );
        return;
      }
    }
    verified += 1;
    bytes += original.byteLength;
    if (verified % 1000 === 0) options.log(`  photos: ${verified} of ${kept.length} checked`);
  }

  let next = 0;
  const worker = async () => {
    while (next < kept.length) await moveOne(kept[next++]!);
  };
  await Promise.all(Array.from({ length: PHOTO_CONCURRENCY }, worker));

  if (missing.length > 0) {
    options.log(
      `${missing.length} photos have no file in ${options.uploadsDir}: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', ...' : ''}`,
    );
  }
  if (problems.length > 0) {
    throw new MigrationRefusedError(
      `${problems.length} photos could not be copied intact; nothing was committed:\n  ${problems.slice(0, 20).join('\n  ')}`,
    );
  }
  if (missing.length > 0 && !options.allowMissingPhotos) {
    throw new MigrationRefusedError(
      `${missing.length} photos that were never removed under the retention policy have no file in ${options.uploadsDir} (${missing.slice(0, 20).join(', ')}); nothing was committed. ` +
        'Restore them from a backup, or run again with --allow-missing-photos to move the rows without them.',
    );
  }
  options.log(`Photos: ${verified} checked against their SHA-256${bucket ? ` (${copied} copied)` : ''}`);
  return { expected: kept.length, copied, verified, purged: rows.length - kept.length, missing, bytes };
}

async function objectExists(store: S3EvidenceStore, bucket: string, key: string): Promise<boolean> {
  try {
    await store.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The URL with its password hidden, for the summary and logs. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://...';
  }
}
