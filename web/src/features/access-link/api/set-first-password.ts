import { ERROR_MESSAGES, type User } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** The account has no password yet, so the API takes the first one without a current one. */
export function setFirstPassword(newPassword: string): Promise<User> {
  return apiClient.call('PUT /users/profile', { json: { newPassword }, fallbackMessage: ERROR_MESSAGES.updateProfile });
}
