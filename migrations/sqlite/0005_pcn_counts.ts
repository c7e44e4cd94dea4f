import { sql, type Kysely } from 'kysely';

// Counting 50,000 of one officer's PCNs walks 50,000 index entries on every dashboard and list
// request. SQLite keeps these counts instead: one row per (owner, status), maintained by
// triggers in the same transaction as every insert, delete and status or owner change, so they
// can never drift from the rows. An owner whose account was deleted counts under ''.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pcn_counts')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('pcn_counts_pk', ['owner_id', 'status'])
    .execute();
  await sql`insert into pcn_counts (owner_id, status, n)
    select coalesce(created_by, ''), status, count(*) from pcns group by coalesce(created_by, ''), status`.execute(db);
  await sql`create trigger pcn_counts_insert after insert on pcns begin
    insert into pcn_counts (owner_id, status, n) values (coalesce(new.created_by, ''), new.status, 1)
      on conflict (owner_id, status) do update set n = n + 1;
  end`.execute(db);
  await sql`create trigger pcn_counts_delete after delete on pcns begin
    update pcn_counts set n = n - 1 where owner_id = coalesce(old.created_by, '') and status = old.status;
  end`.execute(db);
  await sql`create trigger pcn_counts_update after update of status, created_by on pcns
    when old.status is not new.status or old.created_by is not new.created_by begin
    update pcn_counts set n = n - 1 where owner_id = coalesce(old.created_by, '') and status = old.status;
    insert into pcn_counts (owner_id, status, n) values (coalesce(new.created_by, ''), new.status, 1)
      on conflict (owner_id, status) do update set n = n + 1;
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ['pcn_counts_insert', 'pcn_counts_delete', 'pcn_counts_update']) {
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  }
  await db.schema.dropTable('pcn_counts').execute();
}
