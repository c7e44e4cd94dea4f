import {
  ERROR_MESSAGES,
  MAX_LIMIT,
  type CarPark,
  type CarParkListResponse,
  type CarParkSortKey,
  type CreateCarParkInput,
  type SortOrder,
  type UpdateCarParkInput,
} from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export type CarParkFilters = {
  page?: number;
  limit?: number;
  search?: string;
  isActive?: boolean | null;
  sort?: CarParkSortKey;
  order?: SortOrder;
};

export function getCarParkPage(filters: CarParkFilters): Promise<CarParkListResponse> {
  return apiClient.get<CarParkListResponse>('car-parks/all', {
    searchParams: {
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
  return apiClient.post<CarPark>('car-parks', { json: input, fallbackMessage: ERROR_MESSAGES.createCarPark });
}

export function updateCarPark(id: string, input: UpdateCarParkInput): Promise<CarPark> {
  return apiClient.put<CarPark>(`car-parks/${encodeURIComponent(id)}`, { json: input, fallbackMessage: ERROR_MESSAGES.updateCarPark });
}

export function deleteCarPark(id: string): Promise<void> {
  return apiClient.delete<void>(`car-parks/${encodeURIComponent(id)}`, { fallbackMessage: ERROR_MESSAGES.deleteCarPark });
}

export function assignUserToCarPark(carParkId: string, userId: string): Promise<CarPark> {
  return apiClient.post<CarPark>(`car-parks/${encodeURIComponent(carParkId)}/assign-user`, {
    json: { userId },
    fallbackMessage: ERROR_MESSAGES.assignUser,
  });
}

export function unassignUserFromCarPark(carParkId: string, userId: string): Promise<CarPark> {
  return apiClient.delete<CarPark>(`car-parks/${encodeURIComponent(carParkId)}/unassign-user`, {
    json: { userId },
    fallbackMessage: ERROR_MESSAGES.unassignUser,
  });
}
