import {
  ERROR_MESSAGES,
  MAX_LIMIT,
  type CarPark,
  type CarParkListResponse,
  type CarParkSortKey,
  type CarParkTermsHistory,
  type CreateCarParkInput,
  type SortOrder,
  type UpdateCarParkInput,
} from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const CAR_PARK_TERMS_HISTORY_FAILED = 'Failed to load the terms history';

export type CarParkFilters = {
  page?: number;
  limit?: number;
  search?: string;
  isActive?: boolean | null;
  sort?: CarParkSortKey;
  order?: SortOrder;
};

export function getCarParkPage(filters: CarParkFilters): Promise<CarParkListResponse> {
  return apiClient.call('GET /car-parks/all', {
    query: {
      page: filters.page,
      limit: filters.limit,
      search: filters.search?.trim(),
      isActive: filters.isActive === null || filters.isActive === undefined ? undefined : String(filters.isActive),
      sort: filters.sort,
      order: filters.order,
    },
    fallbackMessage: ERROR_MESSAGES.fetchCarParks,
  });
}

/** Every car park, active or not (filters and assignment lists), page by page. */
export async function getAllCarParks(): Promise<CarPark[]> {
  const first = await getCarParkPage({ page: 1, limit: MAX_LIMIT });
  const carParks = [...first.carParks];
  for (let page = 2; page <= first.pagination.pages; page++) {
    carParks.push(...(await getCarParkPage({ page, limit: MAX_LIMIT })).carParks);
  }
  return carParks;
}

export function createCarPark(input: CreateCarParkInput): Promise<CarPark> {
  return apiClient.call('POST /car-parks', { json: input, fallbackMessage: ERROR_MESSAGES.createCarPark });
}

export function updateCarPark(id: string, input: UpdateCarParkInput): Promise<CarPark> {
  return apiClient.call('PUT /car-parks/:id', { params: { id }, json: input, fallbackMessage: ERROR_MESSAGES.updateCarPark });
}

export function deleteCarPark(id: string): Promise<{ id: string }> {
  return apiClient.call('DELETE /car-parks/:id', { params: { id }, fallbackMessage: ERROR_MESSAGES.deleteCarPark });
}

export function assignUserToCarPark(carParkId: string, userId: string): Promise<CarPark> {
  return apiClient.call('POST /car-parks/:id/assign-user', {
    params: { id: carParkId },
    json: { userId },
    fallbackMessage: ERROR_MESSAGES.assignUser,
  });
}

export function unassignUserFromCarPark(carParkId: string, userId: string): Promise<CarPark> {
  return apiClient.call('DELETE /car-parks/:id/unassign-user', {
    params: { id: carParkId },
    json: { userId },
    fallbackMessage: ERROR_MESSAGES.unassignUser,
  });
}

/** Who changed the car park's terms, what and when, newest first. */
export function getCarParkTermsHistory(id: string): Promise<CarParkTermsHistory> {
  return apiClient.call('GET /car-parks/:id/terms-history', { params: { id }, fallbackMessage: CAR_PARK_TERMS_HISTORY_FAILED });
}
