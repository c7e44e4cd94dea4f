import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAG_COLUMNS } from '../src/db/schema.generated.ts';
import { createTestApp, ON_POSTGRES, type TestApp } from './test-app.ts';

/**
 * Migration 0032 gives PostgreSQL its own types (timestamptz, date, boolean) while SQLite keeps
 * its storage classes, and the connection (api/src/db/database.ts) makes both read and write the
 * same values: times as ISO-8601 text in UTC, days as 'YYYY-MM-DD', flags as booleans. These run
 * in each engine's pass of the suite.
 */
const CREATED = '2026-03-26T09:15:00.000Z';
const UPDATED = '2026-03-26T09:45:30.123Z';
const DAY = '2026-04-26';

describe(`the stored types and what the application reads (${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function insertCarPark(id: string, flags: { is_active: boolean; stay_applies_by_default: boolean; relevant_land: boolean }) {
    await t.db
      .insertInto('car_parks')
      .values({
        id,
        name: `Park ${id}`,
        site_code: `S-${id}`,
        address: '',
        postcode: '',
        consideration_minutes: 5,
        grace_minutes: 10,
        created_at: CREATED,
        updated_at: UPDATED,
        ...flags,
      })
      .execute();
  }

  it('reads back exactly what it wrote: flags as booleans, times as ISO-8601 text, days as YYYY-MM-DD', async () => {
    await insertCarPark('rt1', { is_active: false, stay_applies_by_default: true, relevant_land: false });
    const park = await t.db
      .selectFrom('car_parks')
      .select(['is_active', 'stay_applies_by_default', 'relevant_land', 'created_at', 'updated_at'])
      .where('id', '=', 'rt1')
      .executeTakeFirstOrThrow();
    expect(park).toStrictEqual({
      is_active: false,
      stay_applies_by_default: true,
      relevant_land: false,
      created_at: CREATED,
      updated_at: UPDATED,
    });

    // Under an alias, joined, and as a parameter: the same values.
    const aliased = await t.db
      .selectFrom('car_parks')
      .select(['car_parks.relevant_land as land', 'car_parks.is_active as active'])
      .where('car_parks.stay_applies_by_default', '=', true)
      .where('car_parks.id', '=', 'rt1')
      .executeTakeFirstOrThrow();
    expect(aliased).toStrictEqual({ land: false, active: false });

    await t.db.updateTable('car_parks').set({ is_active: true }).where('id', '=', 'rt1').execute();
    expect((await t.db.selectFrom('car_parks').select('is_active').where('id', '=', 'rt1').executeTakeFirstOrThrow()).is_active).toBe(true);
  });

  it('reads a calendar day back as the day written, with no time or zone added', async () => {
    const { id: carParkId } = await t.createCarPark();
    const owner = await t.createUser({ role: 'USER' });
    await t.db
      .insertInto('pcns')
      .values({
        id: 'pday',
        sequence: 990001,
        pcn_number: '99000001',
        vehicle_registration: 'AB12CDE',
        car_park_id: carParkId,
        offence_type: 'PARKING_WITHOUT_PERMIT',
        description: '',
        location: '',
        status: 'SUBMITTED',
        created_by: owner.id,
        keeper_post_by: DAY,
        keeper_notice_posted_on: DAY,
        stay_applies: true,
        observed_at: CREATED,
        created_at: CREATED,
        updated_at: UPDATED,
      })
      .execute();
    const row = await t.db
      .selectFrom('pcns')
      .select(['keeper_post_by', 'keeper_notice_posted_on', 'stay_applies', 'observed_at'])
      .where('keeper_post_by', '=', DAY)
      .executeTakeFirstOrThrow();
    expect(row).toStrictEqual({ keeper_post_by: DAY, keeper_notice_posted_on: DAY, stay_applies: true, observed_at: CREATED });
  });

  it('orders and compares times the same way on both engines, to the millisecond', async () => {
    const times = ['2026-05-01T10:00:00.999Z', '2026-05-01T10:00:01.000Z', '2026-04-30T23:59:59.999Z', '2026-05-01T00:00:00.000Z'];
    for (const [i, time] of times.entries()) {
      await t.db
        .insertInto('site_visits')
        .values({ id: `sv${i}`, user_id: (await t.createUser({ role: 'USER' })).id, started_at: time, last_seen_at: time })
        .execute();
    }
    const ordered = await t.db
      .selectFrom('site_visits')
      .select('started_at')
      .where('started_at', '>=', '2026-05-01T00:00:00.000Z')
      .orderBy('started_at')
      .execute();
    expect(ordered.map((row) => row.started_at)).toEqual([
      '2026-05-01T00:00:00.000Z',
      '2026-05-01T10:00:00.999Z',
      '2026-05-01T10:00:01.000Z',
    ]);
  });

  it.skipIf(ON_POSTGRES)('leaves SQLite storing what it stored before: 0/1 integers and ISO-8601 text', async () => {
    await insertCarPark('st1', { is_active: true, stay_applies_by_default: false, relevant_land: true });
    const stored = t
      .sqlite!.prepare(
        `select is_active, typeof(is_active) as flag_type, stay_applies_by_default, created_at, typeof(created_at) as time_type
         from car_parks where id = 'st1'`,
      )
      .get();
    expect(stored).toEqual({ is_active: 1, flag_type: 'integer', stay_applies_by_default: 0, created_at: CREATED, time_type: 'text' });
  });

  it.skipIf(!ON_POSTGRES)('stores times as timestamptz, days as date and flags as boolean on PostgreSQL', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema() and table_name not like 'kysely%'`.execute(t.db);
    const typeOf = new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, row.data_type]));
    const ofType = (type: string) =>
      rows
        .filter((row) => row.data_type === type)
        .map((row) => `${row.table_name}.${row.column_name}`)
        .sort();

    // No time, day or flag is left as text or integer: every column named like one has its type.
    const textTimes = rows.filter((row) => /_(at|on)$/.test(row.column_name) && row.data_type === 'text');
    expect(textTimes).toEqual([]);
    expect(typeOf.get('pcns.created_at')).toBe('timestamp with time zone');
    expect(typeOf.get('pcns.keeper_post_by')).toBe('date');
    expect(typeOf.get('appeals.respond_by')).toBe('date');
    expect(typeOf.get('pcn_payments.paid_on')).toBe('date');
    expect(ofType('timestamp with time zone').length).toBeGreaterThan(50);
    // Epoch-millisecond counters stay bigint (auth limits count in milliseconds).
    expect(typeOf.get('sign_in_attempts.counted_at')).toBe('bigint');

    // The flags SQLite's connection converts are exactly PostgreSQL's boolean columns.
    const generated = Object.entries(FLAG_COLUMNS)
      .flatMap(([table, columns]) => columns.map((column) => `${table}.${column}`))
      .sort();
    expect(ofType('boolean')).toEqual(generated);
    expect(generated).toContain('users.is_active');

    const { rows: defaults } = await sql<{ column_default: string | null }>`
      select column_default from information_schema.columns
      where table_schema = current_schema() and table_name = 'car_parks' and column_name = 'relevant_land'`.execute(t.db);
    expect(defaults[0]!.column_default).toBe('true');
  });
});
