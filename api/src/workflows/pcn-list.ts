import {
  isAdminRole,
  keeperStateOf,
  pcnExportFileName,
  SERVER_MESSAGES,
  type PcnDuplicatesQuery,
  type PcnListQuery,
  type PcnListResponse,
  type PcnNeighbours,
  type PcnSelectionResponse,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { thumbnailUrlOf } from '../domain/upload-paths.ts';
import { AppError } from '../http/app-error.ts';
import { findCarParkById } from '../repositories/car-parks.ts';
import { findKeepers } from '../repositories/keepers.ts';
import { findPcnNeighbours, findPcnPage, streamPcnRows, type PcnListFilter } from '../repositories/pcn-list.ts';
import { findPossibleDuplicates, findSameParkingEvent } from '../repositories/pcn-duplicates.ts';
import type { PcnScope } from '../repositories/pcn-rows.ts';
import { toPcn } from '../repositories/pcn-shape.ts';
import { countPcnsByStatus } from '../repositories/pcn-status.ts';
import { csvStream, toRecords } from '../services/csv-export.ts';
import { PCN_CSV_COLUMNS, pcnCsvRecord } from '../services/pcn-csv.ts';
import { assertMayFileAgainst, pcnNotFound } from './pcn-access.ts';
import { imageUrlFor, viewFor, type PcnViewDeps, type Viewer } from './pcn-view.ts';
import { selectAllMatchingPcns } from './select-all-matching.ts';

/** Admin tools that act on the whole list (export, selection, neighbours) see everyone's notices. */
const EVERYONE: PcnScope = {};

/** The caller's own notices, or everyone's for an admin who asks (scope=all). */
function scopeOf(user: AuthUser, scope: 'mine' | 'all' | undefined): PcnScope {
  if (scope !== 'all') return { ownerId: user.id };
  if (!isAdminRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  return {};
}

/** The list's filters and sort, as the repository takes them, from the list's query (its page aside). */
function listFilterOf(query: PcnListQuery, scope: PcnScope): PcnListFilter {
  const { flagged, scope: _scope, page: _page, limit: _limit, ...criteria } = query;
  return { ...criteria, ...scope, flaggedDuplicates: flagged === 'duplicates' };
}

/** One page of the list, each row with its first photo signed and (for admins) its flags. */
export async function listPcns(deps: PcnViewDeps, viewer: Viewer, query: PcnListQuery): Promise<PcnListResponse> {
  const { db } = deps;
  // The deadline queue, the duplicate flags, the collection stages and the cancellation reasons are admin tools.
  const usesAdminFilter =
    query.flagged !== undefined ||
    query.sort === 'deadline' ||
    query.collectionStage !== undefined ||
    query.cancellationReason !== undefined ||
    query.cancellationRequest !== undefined;
  if (usesAdminFilter && !isAdminRole(viewer.role)) {
    throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  }
  const { rows, total, totalCapped } = await findPcnPage(db, listFilterOf(query, scopeOf(viewer, query.scope)), query);
  const ids = rows.map((r) => r.id);
  const isAdmin = isAdminRole(viewer.role);
  const duplicates = isAdmin ? await findPossibleDuplicates(db, ids) : undefined;
  const keepers = isAdmin ? await findKeepers(db, ids) : undefined;
  const imageUrl = imageUrlFor(deps, viewer.sessionId);
  return {
    pcns: rows.map((row) => {
      // A row carries its first photo's thumbnail, signed, and the count (docs/decisions/0021), from
      // the notice's own summary of its photos (docs/decisions/0056).
      const { images: _none, ...pcn } = toPcn(row, [], imageUrl, viewFor(deps, viewer, duplicates?.get(row.id)));
      if (keepers) pcn.keeperState = keeperStateOf(keepers.get(row.id) ?? null);
      const thumbnail = row.first_photo_file_name === null ? null : thumbnailUrlOf(imageUrl(row.first_photo_file_name));
      return { ...pcn, photoCount: row.photo_count, firstThumbnailUrl: thumbnail };
    }),
    pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit), totalCapped },
  };
}

export function countPcns(deps: Pick<AppDeps, 'db'>, user: AuthUser, query: { scope?: 'mine' | 'all' }) {
  return countPcnsByStatus(deps.db, scopeOf(user, query.scope));
}

/** Manage PCNs' 'Export CSV': exactly the filtered, sorted list, every page, as a stream. */
export async function exportPcns(deps: Pick<AppDeps, 'db' | 'now'>, query: PcnListQuery) {
  const rows = streamPcnRows(deps.db, listFilterOf(query, EVERYONE));
  const csv = csvStream(PCN_CSV_COLUMNS, toRecords(rows, pcnCsvRecord));
  const carParkName = query.carParkId ? (await findCarParkById(deps.db, query.carParkId))?.name : undefined;
  return { csv, fileName: pcnExportFileName(deps.now(), { ...query, carParkName }) };
}

/** Manage PCNs' 'Select all matching': every PCN the list's query selects, not only the page shown. */
export function selectPcns(deps: Pick<AppDeps, 'db'>, query: PcnListQuery): Promise<PcnSelectionResponse> {
  return selectAllMatchingPcns(deps.db, listFilterOf(query, EVERYONE));
}

/** The PCNs around this one in the list it was opened from. */
export async function neighboursOf(deps: Pick<AppDeps, 'db'>, id: string, query: PcnListQuery): Promise<PcnNeighbours> {
  const neighbours = await findPcnNeighbours(deps.db, id, listFilterOf(query, EVERYONE));
  if (!neighbours) throw pcnNotFound();
  return neighbours;
}

/** Other PCNs for the same parking event; a USER may ask only about a car park assigned to them. */
export async function findSameEvent(deps: Pick<AppDeps, 'db'>, user: AuthUser, query: PcnDuplicatesQuery) {
  await assertMayFileAgainst(deps.db, user, query.carParkId, { mustBeActive: false });
  const duplicates = await findSameParkingEvent(deps.db, {
    vehicleRegistration: query.vehicleRegistration,
    carParkId: query.carParkId,
    day: query.date,
  });
  return { duplicates };
}
