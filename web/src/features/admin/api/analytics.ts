import { ERROR_MESSAGES, type AnalyticsSummary, type UserWithStats } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export function getAnalyticsSummary(): Promise<AnalyticsSummary> {
  return apiClient.call('GET /tracking/admin/analytics', { fallbackMessage: ERROR_MESSAGES.fetchAnalytics });
}

export function getUserStats(): Promise<UserWithStats[]> {
  return apiClient.call('GET /tracking/admin/users', { fallbackMessage: ERROR_MESSAGES.fetchUserStats });
}
