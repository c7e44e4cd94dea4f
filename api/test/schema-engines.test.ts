import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, migrateToLatest, type OpenDatabase } from '../src/db/database.ts';
import { engineOf, lockForWrites } from '../src/db/dialect.ts';
import type { PcnsTable } from '../src/db/schema.ts';
import { seedDemoData } from '../src/db/seed.ts';
// @ts-expect-error: a plain .mjs script without types; it starts a throwaway PostgreSQL on loopback.
import { start as startPostgres } from '../../scripts/services/postgres.mjs';

type Column = { table: string; column: string; notNull: boolean };
/** Tables of the engines' own machinery, not of the product: migrations, SQLite's full-text index. */
const MACHINERY = /^(kysely_|sqlite_|pcn_search)/;

// The SQLite migrations stay frozen and PostgreSQL has its own set; both must
// end at the same tables and columns, so the repositories read and write one schema.
describe('the SQLite and PostgreSQL schemas', () => {
  let postgres: { env: Record<string, string>; stop: () => Promise<void> };
  let pgDb: OpenDatabase;
  let sqliteDb: OpenDatabase;
  let dir: string;

  beforeAll(async () => {
    postgres = (await startPostgres()) as typeof postgres;
    pgDb = connectDatabase({ engine: 'postgres', url: postgres.env.DATABASE_URL! });
    dir = mkdtempSync(join(tmpdir(), 'parkpatrol-schema-'));
    sqliteDb = connectDatabase({ engine: 'sqlite', file: join(dir, 'schema.sqlite') });
    await migrateToLatest(pgDb.db);
    await migrateToLatest(sqliteDb.db);
  }, 120_000);

  afterAll(async () => {
    await pgDb?.close();
    await sqliteDb?.close();
    await postgres?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function sqliteColumns(): Promise<Column[]> {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(sqliteDb.db);
    const columns: Column[] = [];
    for (const { name } of tables.rows.filter((t) => !MACHINERY.test(t.name))) {
      const info = await sql<{
        name: string;
        notnull: number;
        pk: number;
      }>`select name, "notnull", pk from pragma_table_info(${name})`.execute(sqliteDb.db);
      // SQLite lets a text primary key hold NULL unless declared NOT NULL; PostgreSQL never does. Both refuse it in practice (the app always sets ids).
      for (const column of info.rows) columns.push({ table: name, column: column.name, notNull: column.notnull === 1 || column.pk > 0 });
    }
    return columns.sort(byName);
  }

  async function postgresColumns(): Promise<Column[]> {
    const info = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
      select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public'`.execute(pgDb.db);
    return (
      info.rows
        // PostgreSQL's stand-in for SQLite's implicit rowid (insertion order) is a real column there.
        .filter((row) => !MACHINERY.test(row.table_name) && row.column_name !== 'rowid')
        .map((row) => ({ table: row.table_name, column: row.column_name, notNull: row.is_nullable === 'NO' }))
        .sort(byName)
    );
  }

  it('keep serving on PostgreSQL after the server ends their idle connections (a restart, an administrator)', async () => {
    const lost: Error[] = [];
    const url = new URL(postgres.env.DATABASE_URL!);
    url.searchParams.set('application_name', 'lost-connections-test');
    const own = connectDatabase({ engine: 'postgres', url: url.toString() }, { onLostConnection: (error) => lost.push(error) });
    try {
      // Two connections in the pool, both idle afterwards.
      await Promise.all([sql`select pg_sleep(0.05)`.execute(own.db), sql`select pg_sleep(0.05)`.execute(own.db)]);
      const ended = await sql<{ n: number }>`select count(pg_terminate_backend(pid)) as n from pg_stat_activity
        where application_name = 'lost-connections-test'`.execute(pgDb.db);
      const count = Number(ended.rows[0]!.n);
      expect(count).toBe(2);
      // Each loss reaches the listener instead of crashing the process, and pg drops the connection.
      await expect.poll(() => lost.length, { timeout: 5000 }).toBe(count);
      expect((await sql<{ one: number }>`select 1 as one`.execute(own.db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await own.close();
    }
  });

  it('end at the same tables, columns and NOT NULL rules', async () => {
    expect(engineOf(pgDb.db)).toBe('postgres');
    expect(engineOf(sqliteDb.db)).toBe('sqlite');
    const expected = await sqliteColumns();
    expect(expected.length).toBeGreaterThan(100);
    expect(await postgresColumns()).toEqual(expected);
  });

  it('let exactly one of several processes starting together seed the demo data on PostgreSQL', async () => {
    // Another process is in the middle of seeding (it holds the seed lock and has not committed);
    // this one must wait for it and then find the users, not insert a second set.
    const other = connectDatabase({ engine: 'postgres', url: postgres.env.DATABASE_URL! });
    try {
      let isSettled = false;
      let seeding: Promise<boolean> | undefined;
      await other.db.transaction().execute(async (trx) => {
        await lockForWrites(trx, 'seed');
        seeding = seedDemoData(pgDb.db).finally(() => (isSettled = true));
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(isSettled).toBe(false);
        const now = new Date().toISOString();
        await trx
          .insertInto('users')
          .values({
            id: 'seeder',
            email: 'seeder@example.com',
            first_name: 'S',
            last_name: 'P',
            role: 'ADMIN',
            is_active: true,
            created_at: now,
            updated_at: now,
          })
          .execute();
      });
      expect(await seeding).toBe(false);
      const users = await pgDb.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(users.n).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('keep the counts and the append-only audit trail in the database on PostgreSQL too', async () => {
    const db = pgDb.db;
    const now = new Date().toISOString();
    await db
      .insertInto('users')
      .values({
        id: 'u1',
        email: 'a@b.c',
        first_name: 'A',
        last_name: 'B',
        role: 'USER',
        is_active: true,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('car_parks')
      .values({
        id: 'c1',
        name: 'P',
        site_code: 'P1',
        address: '',
        postcode: '',
        is_active: true,
        consideration_minutes: 5,
        grace_minutes: 10,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const pcn = (n: number): Insertable<PcnsTable> => ({
      id: `p${n}`,
      sequence: n,
      pcn_number: String(n).padStart(8, '0'),
      vehicle_registration: 'AB12CDE',
      car_park_id: 'c1',
      offence_type: 'PARKING_WITHOUT_PERMIT',
      description: '',
      location: 'Bay 1',
      status: 'SUBMITTED',
      created_by: 'u1',
      created_at: now,
      updated_at: now,
    });
    await db
      .insertInto('pcns')
      .values([pcn(1), pcn(2), pcn(3)])
      .execute();
    await db.updateTable('pcns').set({ status: 'CANCELLED' }).where('id', '=', 'p1').execute();
    await db.deleteFrom('pcns').where('id', '=', 'p2').execute();
    const counts = await db.selectFrom('pcn_counts').select(['owner_id', 'status', 'n']).orderBy('status').execute();
    expect(counts.filter((row) => row.n > 0)).toEqual([
      { owner_id: 'u1', status: 'CANCELLED', n: 1 },
      { owner_id: 'u1', status: 'SUBMITTED', n: 1 },
    ]);

    await db
      .insertInto('pcn_audit')
      .values({ id: 'a1', pcn_id: 'p1', actor_name: 'A B', action: 'created', changes: '{}', created_at: now })
      .execute();
    await expect(db.updateTable('pcn_audit').set({ action: 'deleted' }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('pcn_audit').execute()).rejects.toThrow(/append-only/);
  });
});

function byName(a: Column, b: Column): number {
  return a.table === b.table ? a.column.localeCompare(b.column) : a.table.localeCompare(b.table);
}
