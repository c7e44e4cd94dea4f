import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import {
  addDays,
  DEFAULT_SORTS,
  isKeeperNoticeOpen,
  startOfUkDay,
  KEEPER_NOTICE_OPEN_STATUSES,
  PCN_COUNT_CAP,
  PCN_STATUSES,
  normaliseDraftReference,
  resolveSort,
  type CancellationReason,
  type CollectionStage,
  type PcnNeighbours,
  type PcnSortKey,
  type PcnStatus,
  type SortOrder,
} from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { pcnTextSearch } from '../db/dialect.ts';
import { keptQuery } from '../db/reusable-query.ts';
import type { Database } from '../db/schema.ts';
import { normalisePcnSearch } from '../domain/pcn-rules.ts';
import { beyond, orderedBy, reversed, type ListOrder } from './list-order.ts';
import { fromPcnsWithNames, selectPcnRows, type PcnRow, type PcnScope } from './pcn-rows.ts';

/**
 * The PCN list as Manage PCNs and My PCNs show it (GET /pcns), and everything that must agree
 * with it row for row: the CSV export, 'select all matching' and the review's previous/next.
 */
export type PcnListFilter = PcnScope & {
  status?: PcnStatus | undefined;
  search?: string | undefined;
  carParkId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Only PCNs in a possible-duplicate pair, either side. */
  flaggedDuplicates?: boolean | undefined;
  /** Only PCNs at this stage of the chase after the notice to keeper (decision 0039). */
  collectionStage?: CollectionStage | undefined;
  /** Only charges cancelled for this reason (decision 0042). */
  cancellationReason?: CancellationReason | undefined;
  /** Only charges a landowner's cancellation request waits on. */
  cancellationRequest?: 'PENDING' | undefined;
  /** Absent: DEFAULT_SORTS.pcns. 'deadline' also keeps only PCNs whose keeper notice can still go out. */
  sort?: PcnSortKey | undefined;
  order?: SortOrder | undefined;
};

/**
 * The deadline queue: PCNs whose keeper notice can still go out. The page query states it as
 * "not closed", literally the WHERE of the partial index pcns_keeper_queue_open (migration 0015):
 * SQLite uses a partial index only when it can prove the query implies its WHERE when preparing,
 * which bound parameters do not allow, and the status index cannot serve NOT IN, so the planner
 * walks the queue index in deadline order. The count states it as "open" (the same set: every
 * status is one or the other), which the status index answers fast. The statuses are our
 * constants, never input.
 */
const CLOSED_STATUSES = PCN_STATUSES.filter((status) => !(KEEPER_NOTICE_OPEN_STATUSES as readonly PcnStatus[]).includes(status));
const quoted = (statuses: readonly string[]) => sql.raw(statuses.map((status) => `'${status}'`).join(', '));
const KEEPER_QUEUE_PAGE_CONDITION = sql<SqlBool>`pcns.status not in (${quoted(CLOSED_STATUSES)})`;
const KEEPER_QUEUE_COUNT_CONDITION = sql<SqlBool>`pcns.status in (${quoted(KEEPER_NOTICE_OPEN_STATUSES)})`;

/**
 * One condition of the list's WHERE with the values it binds, in the order it binds them, and a
 * name for its SQL (`shape`): the page and the count are compiled once per combination of shapes
 * and reused with each request's values. A clause's SQL may depend only on its shape,
 * and it may bind only its `values`.
 */
type ListClause = { shape: string; values: readonly unknown[]; where: (eb: ExpressionBuilder<Database, 'pcns'>) => Expression<SqlBool> };

function clause<V extends readonly unknown[]>(
  shape: string,
  values: V,
  where: (eb: ExpressionBuilder<Database, 'pcns'>, ...values: V) => Expression<SqlBool>,
): ListClause {
  return { shape, values, where: (eb) => where(eb, ...values) };
}

function listClauses(filter: PcnListFilter, db: Db, purpose: 'page' | 'count' = 'page'): ListClause[] {
  const clauses: ListClause[] = [];
  if (filter.ownerId !== undefined) clauses.push(clause('owner', [filter.ownerId], (eb, id) => eb('pcns.created_by', '=', id)));
  if (filter.status) clauses.push(clause('status', [filter.status], (eb, status) => eb('pcns.status', '=', status)));
  if (filter.carParkId) clauses.push(clause('carPark', [filter.carParkId], (eb, id) => eb('pcns.car_park_id', '=', id)));
  if (filter.collectionStage) {
    clauses.push(clause('collectionStage', [filter.collectionStage], (eb, stage) => eb('pcns.collection_stage', '=', stage)));
  }
  if (filter.cancellationReason) {
    clauses.push(clause('cancellationReason', [filter.cancellationReason], (eb, reason) => eb('pcns.cancellation_reason', '=', reason)));
  }
  if (filter.cancellationRequest === 'PENDING') {
    clauses.push(
      clause('cancellationRequest', [filter.cancellationRequest], (eb, status) =>
        eb.exists(
          eb
            .selectFrom('cancellation_requests')
            .select(sql`1`.as('one'))
            .where('cancellation_requests.pcn_id', '=', eb.ref('pcns.id'))
            .where('cancellation_requests.status', '=', status),
        ),
      ),
    );
  }
  // The created date on the UK calendar, as the list shows it (a notice made at 00:30 BST is that
  // day's, not the day before's); created_at is ISO-8601 text, so text order is time order.
  if (filter.from) clauses.push(clause('from', [startOfUkDay(filter.from)], (eb, at) => eb('pcns.created_at', '>=', at)));
  if (filter.to) clauses.push(clause('to', [startOfUkDay(addDays(filter.to, 1))], (eb, at) => eb('pcns.created_at', '<', at)));
  if (filter.sort === 'deadline') {
    // A status asked for settles the queue alone: an open one's notices are all in it (the keeper
    // notices screen's approved ones, read from pcns_status_deadline, and counted by their status
    // alone instead of through the queue's index), a closed one's none.
    if (!filter.status) {
      clauses.push(clause(`queue-${purpose}`, [], () => (purpose === 'page' ? KEEPER_QUEUE_PAGE_CONDITION : KEEPER_QUEUE_COUNT_CONDITION)));
    } else if (!isKeeperNoticeOpen(filter.status)) {
      clauses.push(clause('queue-closed', [], () => sql<SqlBool>`1 = 0`));
    }
  }
  if (filter.flaggedDuplicates) {
    clauses.push(
      clause('flagged', [], (eb) =>
        eb.exists(
          eb
            .selectFrom('pcn_duplicates')
            .select(sql`1`.as('one'))
            .where((d) =>
              d.or([d('pcn_duplicates.pcn_id', '=', eb.ref('pcns.id')), d('pcn_duplicates.duplicate_of_pcn_id', '=', eb.ref('pcns.id'))]),
            ),
        ),
      ),
    );
  }
  // The ticket's own reference (D-XXXXXXXX), as a motorist on the phone reads it from the
  // windscreen before the notice reached the server: that notice alone, by its index.
  const draft = filter.search ? normaliseDraftReference(filter.search) : null;
  const search = filter.search && !draft ? normalisePcnSearch(filter.search) : null;
  if (draft) clauses.push(clause('search-draft', [draft], (eb, reference) => eb('pcns.draft_reference', '=', reference)));
  // Registrations are stored normalised and numbers are digits: after normalising, the search
  // is only [A-Z0-9]. Each engine has its own index for finding part of one (pcnTextSearch).
  if (search) {
    const textSearch = pcnTextSearch(db, search);
    clauses.push(clause(textSearch.shape, textSearch.values, textSearch.where));
  }
  return clauses;
}

function listConditions(
  eb: ExpressionBuilder<Database, 'pcns'>,
  filter: PcnListFilter,
  db: Db,
  purpose: 'page' | 'count' = 'page',
): Expression<SqlBool>[] {
  return listClauses(filter, db, purpose).map((listClause) => listClause.where(eb));
}

/** Every clause holds: the WHERE of the page and the count. */
const allOf = (clauses: readonly ListClause[]) => (eb: ExpressionBuilder<Database, 'pcns'>) =>
  eb.and(clauses.map((listClause) => listClause.where(eb)));

/**
 * What each sort key orders by, over fromPcnsWithNames. None is ever NULL (a car park or
 * creator that is gone sorts as ''), so keyset comparisons see every row. Status and offence
 * type sort by their codes, which run in the same order as their labels.
 */
const PCN_SORT_VALUES: Record<PcnSortKey, RawBuilder<string | number>> = {
  pcnNumber: sql<number>`pcns.sequence`,
  vehicleRegistration: sql<string>`pcns.vehicle_registration`,
  carPark: sql<string>`lower(coalesce(car_parks.name, ''))`,
  offenceType: sql<string>`pcns.offence_type`,
  officer: sql<string>`lower(coalesce(users.first_name || ' ' || users.last_name, ''))`,
  status: sql<string>`pcns.status`,
  created: sql<string>`pcns.created_at`,
  // The last posting day (stored, as it takes working days to work out); notices without one,
  // where keeper liability is not available, come last. The expression of pcns_keeper_queue_open.
  deadline: sql<string>`coalesce(pcns.keeper_post_by, '9999-12-31')`,
};

/**
 * The sort value, then the PCN's sequence (unique, and the number's own order) in the same
 * direction. Newest first this is (created_at, sequence): SQLite walks the created_at indexes
 * ((created_by|status|car_park_id,) created_at) and sorts only rows sharing a timestamp, so a
 * page still stops after its rows instead of sorting every match; the deadline queue walks
 * pcns_keeper_queue_open the same way.
 */
function pcnListOrder(filter: PcnListFilter): { order: ListOrder; sortValue: RawBuilder<string | number> } {
  const { sort, order } = resolveSort(filter.sort, filter.order, DEFAULT_SORTS.pcns);
  const sortValue = PCN_SORT_VALUES[sort];
  return { order: { columns: [sortValue, sql<number>`pcns.sequence`], direction: order }, sortValue };
}

/** The list's rows in the list's order, filtered as the list is: one query for a page, an export or a selection. */
function orderedPcnRows(db: Db, filter: PcnListFilter, clauses = listClauses(filter, db)) {
  return orderedBy(selectPcnRows(db).where(allOf(clauses)), pcnListOrder(filter).order);
}

const pageRows = keptQuery<PcnRow>();

/** One page of the list: compiled once per filter shape and sort (the list is every signed-in officer's poll). */
export async function findPcnPage(
  db: Db,
  filter: PcnListFilter,
  page: { page: number; limit: number },
): Promise<{ rows: PcnRow[]; total: number; totalCapped: boolean }> {
  const clauses = listClauses(filter, db);
  const { sort, order } = resolveSort(filter.sort, filter.order, DEFAULT_SORTS.pcns);
  const limit = page.limit;
  const offset = (page.page - 1) * page.limit;
  const rows = await pageRows(db, `${shapeOf(clauses)} by ${sort} ${order}`, [...valuesOf(clauses), limit, offset], () =>
    orderedPcnRows(db, filter, clauses).limit(limit).offset(offset),
  );
  // Counted far enough to tell whether a page follows this one.
  return { rows, ...(await countPcns(db, filter, Math.max(PCN_COUNT_CAP, (page.page + 1) * page.limit))) };
}

const shapeOf = (clauses: readonly ListClause[]) => clauses.map((listClause) => listClause.shape).join('&');
const valuesOf = (clauses: readonly ListClause[]) => clauses.flatMap((listClause) => listClause.values);

/** An export's row: the list's, with what only the spreadsheet shows (who filed it, photos, keeper deadline). */
export type PcnExportRow = PcnRow & { creator_email: string | null; keeper_post_by: string | null; photo_count: number | string | null };

/**
 * Every row of the filtered, sorted list, in the list's order, read a batch at a time after the
 * last row seen (keyset on the sort value and sequence, not offset): an export of 100,000 PCNs
 * never holds them in memory, and the database is free for other requests between batches.
 */
export async function* streamPcnRows(db: Db, filter: PcnListFilter, batchSize = 1000): AsyncGenerator<PcnExportRow> {
  const { order, sortValue } = pcnListOrder(filter);
  let after: readonly unknown[] | null = null;
  for (;;) {
    const from: readonly unknown[] | null = after;
    const rows: Array<PcnExportRow & { sort_value: string | number; sort_sequence: number }> = await orderedPcnRows(db, filter)
      .select((eb) => [
        sortValue.as('sort_value'),
        'pcns.sequence as sort_sequence',
        'users.email as creator_email',
        'pcns.keeper_post_by',
        eb
          .selectFrom('pcn_images')
          .select(eb.fn.countAll<number | string>().as('n'))
          .whereRef('pcn_images.pcn_id', '=', 'pcns.id')
          .as('photo_count'),
      ])
      .$if(from !== null, (query) => query.where(beyond(order, from!, 'after')))
      .limit(batchSize)
      .execute();
    for (const { sort_value: _value, sort_sequence: _sequence, ...row } of rows) yield row;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = [last.sort_value, last.sort_sequence];
  }
}

/**
 * 'Select all matching': the id and status of every PCN the list selects, in its order, up to
 * `cap` + 1 rows, so the caller can tell "at most cap" from "more" without counting them all.
 */
export async function findPcnSelection(db: Db, filter: PcnListFilter, cap: number): Promise<Array<{ id: string; status: PcnStatus }>> {
  const rows = await orderedPcnRows(db, filter)
    .limit(cap + 1)
    .execute();
  return rows.map((row) => ({ id: row.id, status: row.status }));
}

/**
 * The PCNs just before and after this one in the list, by keyset on this PCN's own sort value
 * and sequence. Those exist whether or not it still matches the filters (its status may have
 * just changed): its neighbours are then the rows around where it would sort, and it has no
 * position. Undefined when no PCN has this id.
 */
export async function findPcnNeighbours(db: Db, pcnId: string, filter: PcnListFilter): Promise<PcnNeighbours | undefined> {
  const { order, sortValue } = pcnListOrder(filter);
  const self = await fromPcnsWithNames(db)
    .select([sortValue.as('sort_value'), 'pcns.sequence'])
    .where('pcns.id', '=', pcnId)
    .executeTakeFirst();
  if (!self) return undefined;
  const at = [self.sort_value, self.sequence];
  const neighbour = async (side: 'after' | 'before') => {
    const row = await orderedBy(
      fromPcnsWithNames(db)
        .select('pcns.id')
        .where((eb) => eb.and([...listConditions(eb, filter, db), beyond(order, at, side)])),
      side === 'after' ? order : reversed(order),
    )
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  };
  const isListed = await fromPcnsWithNames(db)
    .select('pcns.id')
    .where((eb) => eb.and([...listConditions(eb, filter, db), eb('pcns.id', '=', pcnId)]))
    .executeTakeFirst();
  let position: number | null = null;
  if (isListed) {
    const { before } = await fromPcnsWithNames(db)
      .select((eb) => eb.fn.countAll<number>().as('before'))
      .where((eb) => eb.and([...listConditions(eb, filter, db), beyond(order, at, 'before')]))
      .executeTakeFirstOrThrow();
    position = Number(before) + 1;
  }
  const { total, totalCapped } = await countPcns(db, filter, Math.max(PCN_COUNT_CAP, position ?? 0));
  return { previousId: await neighbour('before'), nextId: await neighbour('after'), position, total, totalCapped };
}

const countRows = keptQuery<{ total: number | string }>();

/**
 * The trigger-kept counts answer a list filtered by owner and status alone without a scan (the
 * keeper notices screen's approved queue among them: an open status settles the deadline queue,
 * listClauses). Any other filter counts at most `cap` + 1 matches: a search's LIKE over 50,000
 * notices would otherwise cost the server a hundred times the page it counts for.
 */
async function countPcns(db: Db, filter: PcnListFilter, cap: number): Promise<{ total: number; totalCapped: boolean }> {
  const { ownerId, status } = filter;
  const clauses = listClauses(filter, db, 'count');
  if (clauses.every((listClause) => listClause.shape === 'owner' || listClause.shape === 'status')) {
    const counted = await countRows(
      db,
      `counts${ownerId === undefined ? '' : '&owner'}${status ? '&status' : ''}`,
      [...(ownerId !== undefined ? [ownerId] : []), ...(status ? [status] : [])],
      () => {
        let query = db.selectFrom('pcn_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), sql<number>`0`).as('total'));
        if (ownerId !== undefined) query = query.where('owner_id', '=', ownerId);
        if (status) query = query.where('status', '=', status);
        return query;
      },
    );
    return { total: Number(counted[0]!.total), totalCapped: false };
  }
  const counted = await countRows(db, `pcns&${shapeOf(clauses)}`, [...valuesOf(clauses), cap + 1], () =>
    db
      .selectFrom((qb) =>
        qb
          .selectFrom('pcns')
          .select(sql<number>`1`.as('one'))
          .where(allOf(clauses))
          .limit(cap + 1)
          .as('matched'),
      )
      .select((eb) => eb.fn.countAll<number>().as('total')),
  );
  const total = Number(counted[0]!.total);
  return total > cap ? { total: cap, totalCapped: true } : { total, totalCapped: false };
}
