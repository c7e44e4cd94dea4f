import { sql, type Kysely } from 'kysely';
import { engineOf } from '../api/src/db/dialect.ts';

// Written once for both engines; never edited after it lands.
//
// PostgreSQL keeps the per-owner, per-status counts with statement-level triggers over transition
// tables, which allow no column list: every update of a notice moved its count out of its owner's
// row for its status and back in, whatever it changed. That is two writes to the row every
// filing by that officer also writes. Since a notice carries its photo summary (migration 0044),
// filing a notice updates it once more: each extra version of that one row slowed every filing
// after it (bench:api's upload on PostgreSQL, 23 to 17 a second). The counts now move only for
// notices whose status or owner changed, as SQLite's trigger (`after update of status,
// created_by`) already did. A notice's id never changes, so old and new rows pair by it.
// SQLite: nothing changes.

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`create or replace function pcn_counts_move() returns trigger language plpgsql as $$
    begin
      update pcn_counts set n = pcn_counts.n - gone.n
        from (select coalesce(o.created_by, '') as owner_id, o.status, count(*) as n
              from old_rows o join new_rows r on r.id = o.id
              where o.status is distinct from r.status or o.created_by is distinct from r.created_by
              group by 1, 2) as gone
        where pcn_counts.owner_id = gone.owner_id and pcn_counts.status = gone.status;
      insert into pcn_counts (owner_id, status, n)
        select coalesce(r.created_by, ''), r.status, count(*)
        from new_rows r join old_rows o on o.id = r.id
        where o.status is distinct from r.status or o.created_by is distinct from r.created_by
        group by 1, 2
        on conflict (owner_id, status) do update set n = pcn_counts.n + excluded.n;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`create or replace function pcn_counts_move() returns trigger language plpgsql as $$
    begin
      update pcn_counts set n = pcn_counts.n - gone.n
        from (select coalesce(created_by, '') as owner_id, status, count(*) as n from old_rows group by 1, 2) as gone
        where pcn_counts.owner_id = gone.owner_id and pcn_counts.status = gone.status;
      insert into pcn_counts (owner_id, status, n)
        select coalesce(created_by, ''), status, count(*) from new_rows group by 1, 2
        on conflict (owner_id, status) do update set n = pcn_counts.n + excluded.n;
      return null;
    end $$`.execute(db);
}
