import type { Db } from '../db/database.ts';
import { lastPostingDateOf } from '../domain/keeper-liability.ts';

/**
 * Each notice's last posting day for its notice to keeper (pcns.keeper_post_by), which the
 * deadline queue orders by. It follows from the notice's service and its car park's
 * jurisdiction and relevant land, so it is stored again whenever any changes (decision 0016).
 */
type Target = { pcnIds: readonly string[] } | { carParkId: string } | { missing: true };

function serviceFactsOf(db: Db, target: Target) {
  let query = db
    .selectFrom('pcns')
    .leftJoin('car_parks', 'car_parks.id', 'pcns.car_park_id')
    .select([
      'pcns.id',
      'pcns.keeper_post_by',
      'pcns.notice_served_by',
      'pcns.notice_served_at',
      'pcns.issued_at',
      'pcns.observed_at',
      'pcns.created_at',
      'car_parks.jurisdiction as car_park_jurisdiction',
      'car_parks.relevant_land as car_park_relevant_land',
    ]);
  if ('pcnIds' in target) query = query.where('pcns.id', 'in', [...target.pcnIds]);
  else if ('carParkId' in target) query = query.where('pcns.car_park_id', '=', target.carParkId);
  else {
    // Only relevant land in England and Wales has a posting day: elsewhere null is the answer, not a gap.
    query = query
      .where('pcns.keeper_post_by', 'is', null)
      .where((eb) => eb.or([eb('car_parks.jurisdiction', 'is', null), eb('car_parks.jurisdiction', '=', 'ENGLAND_AND_WALES')]))
      .where((eb) => eb.or([eb('car_parks.relevant_land', 'is', null), eb('car_parks.relevant_land', '=', true)]))
      .limit(1000);
  }
  return query.execute();
}

/** Works the posting day out again for these notices and stores it where it changed; answers how many changed. */
export async function storeKeeperPostingDays(trx: Db, target: Target): Promise<number> {
  if ('pcnIds' in target && target.pcnIds.length === 0) return 0;
  let changed = 0;
  for (const row of await serviceFactsOf(trx, target)) {
    const postBy = lastPostingDateOf(row);
    if (postBy === row.keeper_post_by) continue;
    await trx.updateTable('pcns').set({ keeper_post_by: postBy }).where('id', '=', row.id).execute();
    changed++;
  }
  return changed;
}

/**
 * Fills the posting day of notices stored before it was (run at start, after the migrations):
 * a thousand at a time, each batch in its own transaction, until none is left.
 */
export async function fillMissingKeeperPostingDays(db: Db): Promise<number> {
  let filled = 0;
  for (;;) {
    const batch = await db.transaction().execute((trx) => storeKeeperPostingDays(trx, { missing: true }));
    if (batch === 0) return filled;
    filled += batch;
  }
}
