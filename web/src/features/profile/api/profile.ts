import { ERROR_MESSAGES, type UpdateProfileInput, type User } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export function getProfile(): Promise<User> {
  return apiClient.get<User>('users/profile', { fallbackMessage: ERROR_MESSAGES.fetchProfile });
}

export function updateProfile(input: UpdateProfileInput): Promise<User> {
  return apiClient.put<User>('users/profile', { json: input, fallbackMessage: ERROR_MESSAGES.updateProfile });
}
