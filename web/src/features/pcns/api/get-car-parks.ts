import { ERROR_MESSAGES, type CarPark } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** The officer's assigned, active car parks (GET /car-parks answers a plain array). */
export function getCarParks(): Promise<CarPark[]> {
  return apiClient.get<CarPark[]>('car-parks', { fallbackMessage: ERROR_MESSAGES.fetchCarParks });
}
