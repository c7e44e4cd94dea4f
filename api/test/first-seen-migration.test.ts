import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Insertable, type Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteMigrations as migrations } from '../../migrations/sqlite/index.ts';
import { postgresMigrations } from '../../migrations/postgres/index.ts';
import { connectDatabase, migrateToLatest, type DatabaseTarget, type OpenDatabase } from '../src/db/database.ts';
import type { PcnsTable } from '../src/db/schema.ts';
import { createPostgresDatabase, type PostgresDatabase } from './support/postgres-database.ts';
import { ON_POSTGRES } from './test-app.ts';

/**
 * An installation upgraded past first seen's migration: every notice filed before it gets the
 * start of its period of parking, the first sighting, else the time of service (else the issue,
 * else receipt). The database stands at the migration before, as an older release left it, with
 * rows written as that release wrote them; then the app's own migrations run.
 */
const MIGRATION = { sqlite: '0025_first_seen_at', postgres: '0019_first_seen_at' } as const;

describe(`first seen's migration (${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'})`, () => {
  let dir: string;
  let postgres: PostgresDatabase | undefined;
  let target: DatabaseTarget;
  let opened: OpenDatabase;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parkpatrol-upgrade-'));
    if (ON_POSTGRES) {
      postgres = await createPostgresDatabase(process.env.TEST_POSTGRES_URL!);
      target = { engine: 'postgres', url: postgres.url };
    } else {
      target = { engine: 'sqlite', file: join(dir, 'parkpatrol.sqlite') };
    }
    opened = connectDatabase(target);
  });

  afterAll(async () => {
    await opened?.close();
    await postgres?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fills in first seen from the first sighting, else the service, on notices filed before it', async () => {
    const set: Record<string, Migration> = target.engine === 'postgres' ? postgresMigrations : migrations;
    const names = Object.keys(set).sort();
    const before = names[names.indexOf(MIGRATION[target.engine]) - 1]!;
    const migrator = new Migrator({ db: opened.db, provider: { getMigrations: async () => set } });
    const upToBefore = await migrator.migrateTo(before);
    expect(upToBefore.error).toBeUndefined();

    const now = new Date().toISOString();
    await opened.db
      .insertInto('users')
      .values({
        id: 'u1',
        email: 'o@example.com',
        first_name: 'O',
        last_name: 'F',
        role: 'USER',
        // A 0/1 integer on both engines before migration 0032 (booleans on PostgreSQL after it).
        is_active: sql<boolean>`1`,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await opened.db
      .insertInto('car_parks')
      .values({
        id: 'c1',
        name: 'Riverside',
        site_code: 'R1',
        address: '',
        postcode: '',
        is_active: sql<boolean>`1`,
        consideration_minutes: 5,
        grace_minutes: 10,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const pcn = (
      n: number,
      times: { observed_at: string | null; notice_served_at: string | null; issued_at: string | null },
    ): Insertable<PcnsTable> => ({
      id: `p${n}`,
      sequence: n,
      pcn_number: String(n).padStart(8, '0'),
      vehicle_registration: 'AB12CDE',
      car_park_id: 'c1',
      offence_type: 'PARKING_WITHOUT_PERMIT',
      description: '',
      location: 'Bay 1',
      status: 'SUBMITTED',
      notice_served_by: times.notice_served_at ? 'AFFIXED' : null,
      ...times,
      created_by: 'u1',
      idempotency_key: null,
      created_at: '2026-01-20T10:30:00.000Z',
      updated_at: now,
    });
    await opened.db
      .insertInto('pcns')
      .values([
        pcn(1, {
          observed_at: '2026-01-20T09:40:00.000Z',
          notice_served_at: '2026-01-20T10:05:00.000Z',
          issued_at: '2026-01-20T10:05:00.000Z',
        }),
        pcn(2, { observed_at: null, notice_served_at: '2026-01-20T10:05:00.000Z', issued_at: '2026-01-20T10:00:00.000Z' }),
        pcn(3, { observed_at: null, notice_served_at: null, issued_at: '2026-01-20T10:00:00.000Z' }),
        pcn(4, { observed_at: null, notice_served_at: null, issued_at: null }),
      ])
      .execute();

    await migrateToLatest(opened.db);
    const rows = await opened.db.selectFrom('pcns').select(['id', 'first_seen_at']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'p1', first_seen_at: '2026-01-20T09:40:00.000Z' },
      { id: 'p2', first_seen_at: '2026-01-20T10:05:00.000Z' },
      { id: 'p3', first_seen_at: '2026-01-20T10:00:00.000Z' },
      { id: 'p4', first_seen_at: '2026-01-20T10:30:00.000Z' },
    ]);
  });
});
