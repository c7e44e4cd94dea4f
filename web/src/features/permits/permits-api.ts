import type {
  Permit,
  PermitImport,
  PermitListResponse,
  permitInputSchema,
  VisitorPageSettings,
  visitorPageSettingsInputSchema,
} from '@parkpatrol/shared';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';

export const PERMITS_FAILED = {
  list: 'Failed to load the permits',
  add: 'Failed to add the permit',
  end: 'Failed to end the permit',
  import: 'Failed to import the permits',
} as const;

export type PermitFormInput = z.input<typeof permitInputSchema>;
export type VisitorPageSettingsFormInput = z.input<typeof visitorPageSettingsInputSchema>;

export function getPermits(carParkId: string, options: { all: boolean }): Promise<PermitListResponse> {
  return apiClient.call('GET /car-parks/:id/permits', {
    params: { id: carParkId },
    query: { status: options.all ? 'all' : 'current' },
    fallbackMessage: PERMITS_FAILED.list,
  });
}

export function addPermit(carParkId: string, permit: PermitFormInput): Promise<Permit> {
  return apiClient.call('POST /car-parks/:id/permits', { params: { id: carParkId }, json: permit, fallbackMessage: PERMITS_FAILED.add });
}

export function endPermit(carParkId: string, permitId: string): Promise<Permit> {
  return apiClient.call('DELETE /car-parks/:id/permits/:permitId', {
    params: { id: carParkId, permitId },
    fallbackMessage: PERMITS_FAILED.end,
  });
}

export function importPermits(carParkId: string, fileName: string, csv: string): Promise<PermitImport> {
  return apiClient.call('POST /car-parks/:id/permits/import', {
    params: { id: carParkId },
    json: { fileName, csv },
    fallbackMessage: PERMITS_FAILED.import,
  });
}

export const VISITOR_PAGE_FAILED = { load: 'Failed to load the visitor page settings', save: 'Failed to save the visitor page' } as const;

export function getVisitorPage(carParkId: string): Promise<VisitorPageSettings> {
  return apiClient.call('GET /car-parks/:id/visitor', { params: { id: carParkId }, fallbackMessage: VISITOR_PAGE_FAILED.load });
}

export function saveVisitorPage(carParkId: string, settings: VisitorPageSettingsFormInput): Promise<VisitorPageSettings> {
  return apiClient.call('PUT /car-parks/:id/visitor', {
    params: { id: carParkId },
    json: settings,
    fallbackMessage: VISITOR_PAGE_FAILED.save,
  });
}
