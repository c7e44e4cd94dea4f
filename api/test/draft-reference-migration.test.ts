import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Insertable, type Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChargeLookupResponse } from '@parkpatrol/shared';
import { sqliteMigrations as migrations } from '../../migrations/sqlite/index.ts';
import { postgresMigrations } from '../../migrations/postgres/index.ts';
import { connectDatabase, migrateToLatest, type DatabaseTarget, type OpenDatabase } from '../src/db/database.ts';
import type { PcnsTable } from '../src/db/schema.ts';
import { createPostgresDatabase, type PostgresDatabase } from './support/postgres-database.ts';
import { createTestApp, ON_POSTGRES, type TestApp } from './test-app.ts';

/**
 * An installation upgraded past the draft reference's migration: notices filed before it get
 * their ticket's reference from the Idempotency-Key they were filed under, and the motorist finds
 * them by it. The database stands at the migration before, as an older release left it, with rows
 * written as that release wrote them; then the app's own migrations run.
 */
const MIGRATION = { sqlite: '0021_draft_reference', postgres: '0015_draft_reference' } as const;

describe(`the draft reference's migration (${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'})`, () => {
  let dir: string;
  let postgres: PostgresDatabase | undefined;
  let target: DatabaseTarget;
  let opened: OpenDatabase;
  let app: TestApp | undefined;

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
    await app?.close();
    await opened?.close();
    await postgres?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fills in the draft reference of notices filed before it, and the motorist finds them by it', async () => {
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
    const pcn = (n: number, idempotencyKey: string | null): Insertable<PcnsTable> => ({
      id: `p${n}`,
      sequence: n,
      pcn_number: String(n).padStart(8, '0'),
      vehicle_registration: 'AB12CDE',
      car_park_id: 'c1',
      offence_type: 'PARKING_WITHOUT_PERMIT',
      description: '',
      location: 'Bay 1',
      status: 'SUBMITTED',
      notice_served_by: 'AFFIXED',
      notice_served_at: now,
      created_by: 'u1',
      idempotency_key: idempotencyKey,
      created_at: now,
      updated_at: now,
    });
    await opened.db
      .insertInto('pcns')
      .values([pcn(1, '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'), pcn(2, 'not-a-draft-id'), pcn(3, null)])
      .execute();

    await migrateToLatest(opened.db);
    const rows = await opened.db.selectFrom('pcns').select(['id', 'draft_reference']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'p1', draft_reference: 'D-0A1B2C3D' },
      { id: 'p2', draft_reference: null },
      { id: 'p3', draft_reference: null },
    ]);

    // The upgraded installation answers the motorist holding the ticket.
    app = await createTestApp({ sharingDatabaseOf: { config: { database: target } } });
    const found = await app.request('POST', '/public/charges/lookup', { json: { reference: 'd 0a1b 2c3d', registration: 'ab12 cde' } });
    expect(found.status, found.text).toBe(200);
    expect((found.json.data as ChargeLookupResponse).charge).toMatchObject({ reference: 'PCN-00000001', draftReference: 'D-0A1B2C3D' });
  });
});
