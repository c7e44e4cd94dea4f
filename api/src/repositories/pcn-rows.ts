import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { CarParksTable, PcnsTable } from '../db/schema.ts';

// Reading notices' rows: one by id or by its Idempotency-Key, with the names the API shows beside it.

/**
 * A PCN row with the names the API shows beside it: every column but the numbering, the keeper
 * posting deadline (read where it is used) and the Idempotency-Key.
 */
export type PcnRow = Omit<Selectable<PcnsTable>, 'sequence' | 'keeper_post_by' | 'idempotency_key'> & {
  car_park_name: string | null;
  car_park_jurisdiction: Selectable<CarParksTable>['jurisdiction'] | null;
  car_park_relevant_land: boolean | null;
  creator_first_name: string | null;
  creator_last_name: string | null;
};

/** Who sees which PCNs: a USER their own, an admin everyone's (ownerId undefined). */
export type PcnScope = { ownerId?: string };

/** PCNs with their car park and creator beside them: what a PCN row shows, and what lists sort by. */
export function fromPcnsWithNames(db: Db) {
  return db.selectFrom('pcns').leftJoin('car_parks', 'car_parks.id', 'pcns.car_park_id').leftJoin('users', 'users.id', 'pcns.created_by');
}

export function selectPcnRows(db: Db) {
  return fromPcnsWithNames(db).select([
    'pcns.id',
    'pcns.pcn_number',
    'pcns.vehicle_registration',
    'pcns.car_park_id',
    'car_parks.name as car_park_name',
    'pcns.offence_type',
    'pcns.description',
    'pcns.location',
    'pcns.status',
    'pcns.admin_notes',
    'pcns.observed_at',
    'pcns.first_seen_at',
    'pcns.issued_at',
    'pcns.stay_applies',
    'pcns.clock_offset_ms',
    'pcns.duplicate_reason',
    'pcns.notice_served_by',
    'pcns.notice_served_at',
    'pcns.operator_terms_id',
    'pcns.car_park_terms_id',
    'pcns.keeper_notice_posted_on',
    'pcns.keeper_notice_given_on',
    'pcns.keeper_notice_proof',
    'pcns.collection_stage',
    'pcns.reminder_posted_on',
    'pcns.letter_before_claim_posted_on',
    'pcns.debt_recovery_fee_pence',
    'pcns.debt_recovery_batch_id',
    'pcns.cancellation_reason',
    'pcns.cancellation_note',
    'pcns.permit_override_reason',
    'pcns.permit_check',
    'car_parks.jurisdiction as car_park_jurisdiction',
    'car_parks.relevant_land as car_park_relevant_land',
    'pcns.draft_reference',
    'pcns.created_by',
    'users.first_name as creator_first_name',
    'users.last_name as creator_last_name',
    'pcns.request_hash',
    'pcns.photo_count',
    'pcns.first_photo_file_name',
    'pcns.photos_purged_at',
    'pcns.created_at',
    'pcns.updated_at',
  ]);
}

/**
 * The start of the period of parking: first seen. Every row has one since the migration that
 * added it; the fallbacks are the same the migration back-filled from, for a row written by an
 * older process during a rolling deploy.
 */
export function periodStartOf(
  row: Pick<PcnRow, 'first_seen_at' | 'observed_at' | 'notice_served_at' | 'issued_at' | 'created_at'>,
): string {
  return row.first_seen_at ?? row.observed_at ?? row.notice_served_at ?? row.issued_at ?? row.created_at;
}

export async function findPcnRowById(db: Db, id: string): Promise<PcnRow | undefined> {
  return selectPcnRows(db).where('pcns.id', '=', id).executeTakeFirst();
}

/** Each existing PCN's number by id, for naming rows in a bulk answer; unknown ids are left out. */
export async function findPcnNumbers(db: Db, pcnIds: readonly string[]): Promise<Map<string, string>> {
  const numbers = new Map<string, string>();
  // Chunked to stay well under SQLite's bound-parameter limit.
  for (let start = 0; start < pcnIds.length; start += 500) {
    const rows = await db
      .selectFrom('pcns')
      .select(['id', 'pcn_number'])
      .where('id', 'in', pcnIds.slice(start, start + 500))
      .execute();
    for (const row of rows) numbers.set(row.id, row.pcn_number);
  }
  return numbers;
}

export async function findPcnRowByIdempotencyKey(db: Db, userId: string, key: string): Promise<PcnRow | undefined> {
  return selectPcnRows(db).where('pcns.created_by', '=', userId).where('pcns.idempotency_key', '=', key).executeTakeFirst();
}
