import { ERROR_MESSAGES, type UpdateProfileInput, type User } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export function getProfile(): Promise<User> {
  return apiClient.call('GET /users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });
}

export function updateProfile(input: UpdateProfileInput): Promise<User> {
  return apiClient.call('PUT /users/profile', { json: input, fallbackMessage: ERROR_MESSAGES.updateProfile });
}
