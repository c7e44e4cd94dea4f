import { ERROR_MESSAGES, type Pcn, type PcnListResponse, type PcnStats, type PcnStatus } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export type AdminPcnFilters = {
  page?: number;
  limit?: number;
  status?: PcnStatus | null;
  search?: string;
  carParkId?: string | null;
  from?: string;
  to?: string;
};

export function getAdminPcns(filters: AdminPcnFilters): Promise<PcnListResponse> {
  return apiClient.get<PcnListResponse>('pcns', {
    searchParams: {
      page: filters.page,
      limit: filters.limit,
      status: filters.status,
      search: filters.search?.trim(),
      carParkId: filters.carParkId,
      from: filters.from,
      to: filters.to,
    },
    fallbackMessage: ERROR_MESSAGES.fetchPcns,
  });
}

export function getAdminPcnStats(): Promise<PcnStats> {
  return apiClient.get<PcnStats>('pcns/stats', { fallbackMessage: ERROR_MESSAGES.fetchPcns });
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
