import { ERROR_MESSAGES, EVIDENCE_PACK_TEXTS, type Pcn, type PcnAuditResponse, type PcnListResponse, type PcnStats, type PcnStatus } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const PCN_AUDIT_FETCH_FAILED = 'Failed to fetch the audit trail';

export type AdminPcnFilters = {
  page?: number;
  limit?: number;
  status?: PcnStatus | null;
  search?: string;
  carParkId?: string | null;
  from?: string;
  to?: string;
  /** 'deadline': only PCNs whose keeper notice can still go out, nearest deadline first. */
  sort?: 'created' | 'deadline' | null;
  /** 'duplicates': only PCNs flagged as a possible second charge for one parking event. */
  flagged?: 'duplicates' | null;
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
    flagged: filters.flagged,
  };
}

export function getAdminPcns(filters: AdminPcnFilters): Promise<PcnListResponse> {
  return apiClient.get<PcnListResponse>('pcns', {
    // The Administration area lists everyone's notices; My PCNs is the admin's own.
    searchParams: { page: filters.page, limit: filters.limit, ...filterParams(filters), scope: 'all' },
    fallbackMessage: ERROR_MESSAGES.fetchPcns,
  });
}

export function getAdminPcnStats(): Promise<PcnStats> {
  return apiClient.get<PcnStats>('pcns/stats', { searchParams: { scope: 'all' }, fallbackMessage: ERROR_MESSAGES.fetchPcns });
}

export function getAdminPcn(id: string): Promise<Pcn> {
  return apiClient.get<Pcn>(`pcns/${encodeURIComponent(id)}`, { fallbackMessage: ERROR_MESSAGES.fetchPcn });
}

/** Notes are sent only when typed: an empty adminNotes would clear the notes the officer sees. */
export function changePcnStatus(id: string, status: PcnStatus, adminNotes: string): Promise<Pcn> {
  const notes = adminNotes.trim();
  return apiClient.patch<Pcn>(`pcns/${encodeURIComponent(id)}/status`, {
    json: notes ? { status, adminNotes: notes } : { status },
    fallbackMessage: ERROR_MESSAGES.updatePcn,
  });
}

/** Every recorded change to a PCN, oldest first (issue 8, item 6). */
export function getPcnAudit(id: string): Promise<PcnAuditResponse> {
  return apiClient.get<PcnAuditResponse>(`pcns/${encodeURIComponent(id)}/audit`, { fallbackMessage: PCN_AUDIT_FETCH_FAILED });
}

/** The evidence pack PDF (issue 16), fetched with the bearer token like every other call. */
export const PCN_EXPORT_FAILED = 'Failed to export PCNs';

/** 'Export CSV': every PCN the filters select, in their order, all pages, as the server writes it. */
export function exportPcnsCsv(filters: Omit<AdminPcnFilters, 'page' | 'limit'>): Promise<Blob> {
  return apiClient.getBlob('pcns/export.csv', {
    searchParams: filterParams(filters),
    fallbackMessage: PCN_EXPORT_FAILED,
    headers: { Accept: 'text/csv, application/json' },
    // A hundred thousand PCNs are some megabytes: give a slow office link time.
    timeoutMs: 120_000,
  });
}

export function getEvidencePack(id: string): Promise<Blob> {
  return apiClient.getBlob(`pcns/${encodeURIComponent(id)}/evidence-pack`, {
    fallbackMessage: EVIDENCE_PACK_TEXTS.failed,
    headers: { Accept: 'application/pdf, application/json' },
    // A pack of ten full-size photos is tens of megabytes: give a slow office link time.
    timeoutMs: 120_000,
  });
}
