import { sql, type Kysely } from 'kysely';

// Searching registrations and PCN numbers for a fragment ('bn12') was a LIKE '%...%' scan of
// every row in scope, twice (page and count): about 100 ms at 100,000 PCNs. An FTS5 index with
// the trigram tokenizer answers substring queries of three or more characters from the index.
// It is an external-content table over pcns keyed by `sequence` (unique, never reused; rowid is
// not stable for a table without an INTEGER PRIMARY KEY), kept by triggers in the same
// transaction as each change.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create virtual table pcn_search using fts5(
    vehicle_registration, pcn_number, content='pcns', content_rowid='sequence', tokenize='trigram'
  )`.execute(db);
  await sql`insert into pcn_search (pcn_search) values ('rebuild')`.execute(db);
  await sql`create trigger pcn_search_insert after insert on pcns begin
    insert into pcn_search (rowid, vehicle_registration, pcn_number) values (new.sequence, new.vehicle_registration, new.pcn_number);
  end`.execute(db);
  await sql`create trigger pcn_search_delete after delete on pcns begin
    insert into pcn_search (pcn_search, rowid, vehicle_registration, pcn_number)
      values ('delete', old.sequence, old.vehicle_registration, old.pcn_number);
  end`.execute(db);
  await sql`create trigger pcn_search_update after update of vehicle_registration, pcn_number, sequence on pcns begin
    insert into pcn_search (pcn_search, rowid, vehicle_registration, pcn_number)
      values ('delete', old.sequence, old.vehicle_registration, old.pcn_number);
    insert into pcn_search (rowid, vehicle_registration, pcn_number) values (new.sequence, new.vehicle_registration, new.pcn_number);
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ['pcn_search_insert', 'pcn_search_delete', 'pcn_search_update']) {
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  }
  await sql`drop table if exists pcn_search`.execute(db);
}
