import { sql } from 'kysely';
import { utcDayRange, type PcnDuplicateMatch, type PcnReference } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { reusableQuery } from '../db/reusable-query.ts';

// Possible duplicates: one charge per parking event.

/**
 * PCNs, anyone's, for the same registration at the same car park whose parking event (first
 * sighting, else creation) falls on the given UTC day. Only what an officer may see of another
 * officer's notice.
 */
export async function findSameParkingEvent(
  db: Db,
  input: { vehicleRegistration: string; carParkId: string; day: string; excludePcnId?: string },
): Promise<PcnDuplicateMatch[]> {
  const { start, end } = utcDayRange(input.day);
  const eventAt = sql<string>`coalesce(pcns.observed_at, pcns.created_at)`;
  let query = db
    .selectFrom('pcns')
    .select(['pcns.id', 'pcns.pcn_number', 'pcns.status', 'pcns.created_at'])
    .where('pcns.vehicle_registration', '=', input.vehicleRegistration)
    .where('pcns.car_park_id', '=', input.carParkId)
    .where(eventAt, '>=', start)
    .where(eventAt, '<', end);
  if (input.excludePcnId !== undefined) query = query.where('pcns.id', '!=', input.excludePcnId);
  const rows = await query.orderBy('pcns.created_at').orderBy('pcns.sequence').execute();
  return rows.map((r) => ({ id: r.id, pcnNumber: r.pcn_number, status: r.status, createdAt: r.created_at }));
}

/**
 * Flags `pcnId` as a possible duplicate of each of `ofPcnIds`, replacing every pair it was in
 * (either side): an edit that moves a notice to another parking event ends its old pairs.
 */
export async function replaceDuplicateLinks(trx: Db, pcnId: string, ofPcnIds: readonly string[], now: string): Promise<void> {
  await trx
    .deleteFrom('pcn_duplicates')
    .where((eb) => eb.or([eb('pcn_id', '=', pcnId), eb('duplicate_of_pcn_id', '=', pcnId)]))
    .execute();
  if (ofPcnIds.length === 0) return;
  await trx
    .insertInto('pcn_duplicates')
    .values(ofPcnIds.map((of) => ({ pcn_id: pcnId, duplicate_of_pcn_id: of, created_at: now })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Each duplicate pair with a later side among `laterIds` or an earlier side among `earlierIds`, oldest flag first. */
const pairsOf = reusableQuery((db: Db, laterIds: readonly string[], earlierIds: readonly string[]) =>
  db
    .selectFrom('pcn_duplicates')
    .innerJoin('pcns as later', 'later.id', 'pcn_duplicates.pcn_id')
    .innerJoin('pcns as earlier', 'earlier.id', 'pcn_duplicates.duplicate_of_pcn_id')
    .select([
      'later.id as later_id',
      'later.pcn_number as later_number',
      'earlier.id as earlier_id',
      'earlier.pcn_number as earlier_number',
    ])
    .where((eb) => eb.or([eb('pcn_duplicates.pcn_id', 'in', laterIds), eb('pcn_duplicates.duplicate_of_pcn_id', 'in', earlierIds)]))
    .orderBy('pcn_duplicates.created_at'),
);

/** The other side of every duplicate pair these PCNs are in, whichever was flagged. */
export async function findPossibleDuplicates(db: Db, pcnIds: readonly string[]): Promise<Map<string, PcnReference[]>> {
  const byPcn = new Map<string, PcnReference[]>(pcnIds.map((id) => [id, []]));
  if (pcnIds.length === 0) return byPcn;
  const rows = await pairsOf(db, pcnIds, pcnIds);
  const add = (pcnId: string, other: PcnReference) => {
    const list = byPcn.get(pcnId);
    if (list && !list.some((ref) => ref.id === other.id)) list.push(other);
  };
  for (const row of rows) {
    add(row.later_id, { id: row.earlier_id, pcnNumber: row.earlier_number });
    add(row.earlier_id, { id: row.later_id, pcnNumber: row.later_number });
  }
  return byPcn;
}
