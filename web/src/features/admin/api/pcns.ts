import {
  ERROR_MESSAGES,
  EVIDENCE_PACK_TEXTS,
  PCN_MULTIPART_FIELDS,
  type CancellationReason,
  type CollectionStage,
  type NoticeServedBy,
  type BulkResponse,
  type Pcn,
  type PcnAuditResponse,
  type PcnListResponse,
  type PcnNeighbours,
  type PcnSelectionResponse,
  type PcnSortKey,
  type PcnStats,
  type PcnStatus,
  type SortOrder,
} from '@parkpatrol/shared';
import { ApiError, apiClient } from '../../../lib/api-client.ts';

export const PCN_AUDIT_FETCH_FAILED = 'Failed to fetch the audit trail';

export type AdminPcnFilters = {
  page?: number;
  limit?: number;
  status?: PcnStatus | null;
  search?: string;
  carParkId?: string | null;
  from?: string;
  to?: string;
  /** Any column; 'deadline' also lists only PCNs whose keeper notice can still go out. */
  sort?: PcnSortKey | null;
  order?: SortOrder | null;
  /** 'duplicates': only PCNs flagged as a possible second charge for one parking event. */
  flagged?: 'duplicates' | null;
  /** Only PCNs at this stage of the chase after the notice to keeper. */
  collectionStage?: CollectionStage | null;
  /** Only charges cancelled for this reason. */
  cancellationReason?: CancellationReason | null;
  /** 'PENDING': only charges a landowner's cancellation request waits on. */
  cancellationRequest?: 'PENDING' | null;
};

/** The list's filters as query parameters: the list and its export read the same ones. */
function filterParams(filters: Omit<AdminPcnFilters, 'page' | 'limit'>) {
  return {
    status: filters.status,
    search: filters.search?.trim(),
    carParkId: filters.carParkId,
    from: filters.from,
    to: filters.to,
    sort: filters.sort,
    order: filters.order,
    flagged: filters.flagged,
    collectionStage: filters.collectionStage,
    cancellationReason: filters.cancellationReason,
    cancellationRequest: filters.cancellationRequest,
  };
}

export type AdminPcnQuery = Omit<AdminPcnFilters, 'page' | 'limit'>;

/** Why a charge is cancelled, as the admin chose it (decision 0042). */
export type CancellationChoice = { reason: CancellationReason | null; note: string };

/** Sent with CANCELLED only: the reason, and the note when one is written. */
function cancellationFields(status: PcnStatus, cancellation: CancellationChoice | undefined) {
  if (status !== 'CANCELLED' || !cancellation?.reason) return {};
  const note = cancellation.note.trim();
  return { cancellationReason: cancellation.reason, ...(note && { cancellationNote: note }) };
}

export const PCN_SELECTION_FAILED = 'Failed to select the matching PCNs';
export const PCN_BULK_FAILED = 'Failed to change the selected PCNs';

/** 'Select all matching': every PCN the filters select (at most MAX_BULK_ITEMS), with its status. */
export function getPcnSelection(filters: AdminPcnQuery): Promise<PcnSelectionResponse> {
  return apiClient.call('GET /pcns/selection', {
    query: filterParams(filters),
    fallbackMessage: PCN_SELECTION_FAILED,
  });
}

/** One status for every selected PCN; the answer says, for each, done or why not. */
export function bulkChangePcnStatus(
  pcnIds: readonly string[],
  status: PcnStatus,
  adminNotes: string,
  cancellation?: CancellationChoice,
): Promise<BulkResponse> {
  const notes = adminNotes.trim();
  return apiClient.call('POST /pcns/bulk-status', {
    json: { pcnIds, status, ...(notes && { adminNotes: notes }), ...cancellationFields(status, cancellation) },
    fallbackMessage: PCN_BULK_FAILED,
  });
}

export const PCN_BULK_UNDO_FAILED = 'Failed to undo the status change';

/** Undo of a bulk change to `status`: each PCN back to the status it had; the answer says, for each, done or why not. */
export function undoBulkPcnStatus(pcnIds: readonly string[], status: PcnStatus): Promise<BulkResponse> {
  return apiClient.call('POST /pcns/bulk-status/undo', { json: { pcnIds, status }, fallbackMessage: PCN_BULK_UNDO_FAILED });
}

/** The PCNs before and after this one in the list the filters and sort describe (review's Previous / Save & next). */
export function getPcnNeighbours(id: string, filters: AdminPcnQuery): Promise<PcnNeighbours> {
  return apiClient.call('GET /pcns/:id/neighbours', {
    params: { id },
    query: filterParams(filters),
    fallbackMessage: ERROR_MESSAGES.fetchPcns,
  });
}

export function getAdminPcns(filters: AdminPcnFilters): Promise<PcnListResponse> {
  return apiClient.call('GET /pcns', {
    // The Administration area lists everyone's notices; My PCNs is the admin's own.
    query: { page: filters.page, limit: filters.limit, ...filterParams(filters), scope: 'all' },
    fallbackMessage: ERROR_MESSAGES.fetchPcns,
  });
}

export function getAdminPcnStats(): Promise<PcnStats> {
  return apiClient.call('GET /pcns/stats', { query: { scope: 'all' }, fallbackMessage: ERROR_MESSAGES.fetchPcns });
}

export function getAdminPcn(id: string): Promise<Pcn> {
  return apiClient.call('GET /pcns/:id', { params: { id }, fallbackMessage: ERROR_MESSAGES.fetchPcn });
}

/** Notes are sent only when typed: an empty adminNotes would clear the notes the officer sees. */
export function changePcnStatus(id: string, status: PcnStatus, adminNotes: string, cancellation?: CancellationChoice): Promise<Pcn> {
  const notes = adminNotes.trim();
  return apiClient.call('PATCH /pcns/:id/status', {
    params: { id },
    json: { status, ...(notes && { adminNotes: notes }), ...cancellationFields(status, cancellation) },
    fallbackMessage: ERROR_MESSAGES.updatePcn,
  });
}

/** Every recorded change to a PCN, oldest first. */
export function getPcnAudit(id: string): Promise<PcnAuditResponse> {
  return apiClient.call('GET /pcns/:id/audit', { params: { id }, fallbackMessage: PCN_AUDIT_FETCH_FAILED });
}

/** The evidence pack PDF, fetched with the bearer token like every other call. */
export const PCN_EXPORT_FAILED = 'Failed to export PCNs';

/** 'Export CSV': every PCN the filters select, in their order, all pages, as the server writes it. */
export function exportPcnsCsv(filters: AdminPcnQuery): Promise<Blob> {
  return apiClient.download('GET /pcns/export.csv', {
    query: filterParams(filters),
    fallbackMessage: PCN_EXPORT_FAILED,
    headers: { Accept: 'text/csv, application/json' },
    // A hundred thousand PCNs are some megabytes: give a slow office link time.
    timeoutMs: 120_000,
  });
}

/** How often a pack being made is asked about, and for how long before the screen stops waiting. */
const PACK_FOLLOW_EVERY_MS = 750;
const PACK_WAIT_AT_MOST_MS = 5 * 60_000;

/**
 * The evidence pack as the server's job makes it: asked for, followed until READY, then
 * downloaded. A pack that failed says why; one still not made after five minutes is given up on
 * here (the job goes on, and a later press answers the same pack while it is made).
 */
export async function getEvidencePack(id: string, wait: (ms: number) => Promise<void> = sleep): Promise<Blob> {
  let pack = await apiClient.call('POST /pcns/:id/evidence-packs', { params: { id }, fallbackMessage: EVIDENCE_PACK_TEXTS.failed });
  const giveUpAt = Date.now() + PACK_WAIT_AT_MOST_MS;
  while (pack.state === 'WAITING' || pack.state === 'MAKING') {
    if (Date.now() > giveUpAt) throw new ApiError(EVIDENCE_PACK_TEXTS.failed, { status: null });
    await wait(PACK_FOLLOW_EVERY_MS);
    pack = await apiClient.call('GET /pcns/:id/evidence-packs/:packId', {
      params: { id, packId: pack.id },
      fallbackMessage: EVIDENCE_PACK_TEXTS.failed,
    });
  }
  if (pack.state === 'FAILED')
    throw new ApiError(`${EVIDENCE_PACK_TEXTS.failed}: ${pack.error ?? 'it could not be made'}`, { status: null });
  return apiClient.download('GET /pcns/:id/evidence-packs/:packId/file', {
    params: { id, packId: pack.id },
    fallbackMessage: EVIDENCE_PACK_TEXTS.failed,
    headers: { Accept: 'application/pdf, application/json' },
    // A pack of ten full-size photos is tens of megabytes: give a slow office link time.
    timeoutMs: 120_000,
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An admin's correction of how or when the notice to driver was served, with the reason the audit keeps. */
export function correctNoticeService(
  id: string,
  correction: { noticeServedBy: NoticeServedBy; noticeServedAt: string; reason: string },
): Promise<Pcn> {
  const body = new FormData();
  body.set(PCN_MULTIPART_FIELDS.noticeServedBy, correction.noticeServedBy);
  body.set(PCN_MULTIPART_FIELDS.noticeServedAt, correction.noticeServedAt);
  body.set(PCN_MULTIPART_FIELDS.serviceCorrectionReason, correction.reason);
  return apiClient.call('PUT /pcns/:id', { params: { id }, body, fallbackMessage: ERROR_MESSAGES.updatePcn });
}
