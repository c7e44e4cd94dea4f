import type { CancellationRequest, CarPark, LandownerChargeListResponse, MonthlyReport } from '@parkpatrol/shared';
import { apiClient } from '../../lib/api-client.ts';

export const LANDOWNER_FAILED = {
  carParks: 'Failed to load your car parks',
  charges: 'Failed to load the charges',
  request: 'Failed to send the request',
  report: 'Failed to load the monthly report',
  csv: 'Failed to download the report as CSV',
  pdf: 'Failed to download the report as PDF',
} as const;

/** A landowner's car parks (an admin's too, where an admin opens the screen: every car park assigned to them). */
export function getMyCarParks(): Promise<CarPark[]> {
  return apiClient.call('GET /car-parks', { fallbackMessage: LANDOWNER_FAILED.carParks });
}

export function getCarParkCharges(carParkId: string, page: number): Promise<LandownerChargeListResponse> {
  return apiClient.call('GET /car-parks/:id/charges', {
    params: { id: carParkId },
    query: { page, limit: 20 },
    fallbackMessage: LANDOWNER_FAILED.charges,
  });
}

export function requestCancellation(pcnId: string, reason: string): Promise<CancellationRequest> {
  return apiClient.call('POST /pcns/:id/cancellation-requests', {
    params: { id: pcnId },
    json: { reason },
    fallbackMessage: LANDOWNER_FAILED.request,
  });
}

export function getMonthlyReport(carParkId: string, month: string): Promise<MonthlyReport> {
  return apiClient.call('GET /car-parks/:id/reports/monthly', {
    params: { id: carParkId },
    query: { month },
    fallbackMessage: LANDOWNER_FAILED.report,
  });
}

export function downloadMonthlyReport(carParkId: string, month: string, format: 'csv' | 'pdf'): Promise<Blob> {
  const options = { params: { id: carParkId }, query: { month } };
  if (format === 'csv') {
    return apiClient.download('GET /car-parks/:id/reports/monthly.csv', {
      ...options,
      fallbackMessage: LANDOWNER_FAILED.csv,
      headers: { Accept: 'text/csv, application/json' },
    });
  }
  return apiClient.download('GET /car-parks/:id/reports/monthly.pdf', {
    ...options,
    fallbackMessage: LANDOWNER_FAILED.pdf,
    headers: { Accept: 'application/pdf, application/json' },
  });
}
