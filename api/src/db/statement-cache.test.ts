import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.ts';
import { reusableQuery } from './reusable-query.ts';

// The SQLite connection keeps its prepared statements and reads rows as arrays: what
// a query answers must be exactly what a plain better-sqlite3 connection answers.
let folder: string;
let db: Db;
let sqlite: SQLite.Database;
let prepared: string[];
const any = () => db as unknown as Kysely<any>;

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'parkpatrol-statements-'));
  ({ db, sqlite } = openDatabase(join(folder, 'test.sqlite')));
  await sql`create table t (id integer primary key, name text, score real, note text)`.execute(db);
  await sql`insert into t (id, name, score, note) values (1, 'one', 1.5, null), (2, 'two', 2.5, 'x'), (3, 'three', null, 'y')`.execute(db);
  prepared = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    prepared.push(source);
    return prepare(source);
  }) as typeof sqlite.prepare;
});

afterEach(async () => {
  await db.destroy();
  rmSync(folder, { recursive: true, force: true });
});

describe('the SQLite statement cache', () => {
  it('answers row for row what better-sqlite3 answers, duplicate column names and nulls included', async () => {
    const query = sql<
      Record<string, unknown>
    >`select t.id, t.name, t.score, t.note, u.name, 42 as n from t join t as u on u.id = 4 - t.id order by t.id`;
    const { rows } = await query.execute(db);
    const plain = new SQLite(join(folder, 'test.sqlite'), { readonly: true });
    try {
      expect(rows).toEqual(plain.prepare(query.compile(db).sql).all());
      expect(rows[0]).toEqual({ id: 1, name: 'three', score: 1.5, note: null, n: 42 });
    } finally {
      plain.close();
    }
  });

  it('prepares a query once and binds new parameters each time', async () => {
    const byId = (id: number) => any().selectFrom('t').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
    expect(await byId(1)).toEqual({ id: 1, name: 'one' });
    expect(await byId(2)).toEqual({ id: 2, name: 'two' });
    expect(await byId(9)).toBeUndefined();
    expect(prepared.filter((source) => source.startsWith('select "id", "name" from "t"'))).toHaveLength(1);
  });

  it('runs a query again after a stream of it was broken off part way (an export cut short)', async () => {
    const all = () => any().selectFrom('t').select(['id']).orderBy('id');
    for await (const row of all().stream()) {
      expect(row).toEqual({ id: 1 });
      break;
    }
    expect(await all().execute()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    const streamed: unknown[] = [];
    for await (const row of all().stream()) streamed.push(row);
    expect(streamed).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('sees a column added after a query was kept', async () => {
    const star = () => any().selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirst();
    expect(await star()).toEqual({ id: 1, name: 'one', score: 1.5, note: null });
    await sql`alter table t add column extra text default 'new'`.execute(db);
    expect(await star()).toEqual({ id: 1, name: 'one', score: 1.5, note: null, extra: 'new' });
  });

  it('sees a column another connection added after a query was kept', async () => {
    const star = () => any().selectFrom('t').selectAll().where('id', '=', 2).executeTakeFirst();
    expect(await star()).toEqual({ id: 2, name: 'two', score: 2.5, note: 'x' });
    const other = new SQLite(join(folder, 'test.sqlite'));
    other.exec("alter table t add column extra text default 'other'");
    other.close();
    expect(await star()).toEqual({ id: 2, name: 'two', score: 2.5, note: 'x', extra: 'other' });
  });
});

describe('reusableQuery', () => {
  it('compiles once per shape and answers each call with its own arguments', async () => {
    const names = reusableQuery((db: Db, ids: readonly number[]) =>
      (db as unknown as Kysely<any>).selectFrom('t').select('name').where('id', 'in', ids).orderBy('id'),
    );
    expect(await names(db, [1, 3])).toEqual([{ name: 'one' }, { name: 'three' }]);
    expect(await names(db, [2, 3])).toEqual([{ name: 'two' }, { name: 'three' }]);
    expect(await names(db, [2])).toEqual([{ name: 'two' }]);
    expect(await names(db, [1, 2, 3])).toEqual([{ name: 'one' }, { name: 'two' }, { name: 'three' }]);
  });

  const namesOf = reusableQuery((db: Db, ids: readonly number[]) =>
    (db as unknown as Kysely<any>).selectFrom('t').select('name').where('id', 'in', ids).orderBy('id'),
  );
  const pending = Symbol('still waiting');
  const soon = <T>(promise: Promise<T>) =>
    Promise.race([promise, new Promise<typeof pending>((resolve) => setTimeout(() => resolve(pending), 50))]);

  it('waits for a transaction that is open on the connection, and never reads its uncommitted rows', async () => {
    let commit!: () => void;
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: () => void;
    const insertedRow = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await (trx as unknown as Kysely<any>).insertInto('t').values({ id: 4, name: 'four' }).execute();
      inserted();
      await gate;
    });
    await insertedRow;
    const read = namesOf(db, [4]);
    expect(await soon(read)).toBe(pending);
    commit();
    await transaction;
    expect(await read).toEqual([{ name: 'four' }]);
  });

  it('waits for a stream being read on the connection', async () => {
    const all = () => any().selectFrom('t').select(['id']).orderBy('id');
    let read: Promise<unknown> | undefined;
    for await (const row of all().stream()) {
      if (read) continue;
      expect(row).toEqual({ id: 1 });
      read = namesOf(db, [2]);
      expect(await soon(read)).toBe(pending);
    }
    expect(await read).toEqual([{ name: 'two' }]);
  });

  it('refuses a query that bakes in a value its arguments do not carry', async () => {
    const withLimit = reusableQuery((db: Db, id: number) =>
      (db as unknown as Kysely<any>).selectFrom('t').select('name').where('id', '>=', id).limit(2),
    );
    await expect(withLimit(db, 1)).rejects.toThrow(/parameters are not its arguments/);
  });
});
