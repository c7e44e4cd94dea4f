import {
  ERROR_MESSAGES,
  MAX_LIMIT,
  type CreateUserInput,
  type Role,
  type UpdateUserInput,
  type User,
  type UserListResponse,
} from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export type UserFilters = { page?: number; limit?: number; search?: string; role?: Role | null; isActive?: boolean | null };

export function getUsers(filters: UserFilters): Promise<UserListResponse> {
  return apiClient.get<UserListResponse>('users', {
    searchParams: {
      page: filters.page,
      limit: filters.limit,
      search: filters.search?.trim(),
      role: filters.role,
      isActive: filters.isActive === null || filters.isActive === undefined ? undefined : String(filters.isActive),
    },
    fallbackMessage: ERROR_MESSAGES.fetchUsers,
  });
}

/** Every user, page by page at the largest page size (the onboarding table shows them all). */
export async function getAllUsers(): Promise<User[]> {
  const first = await getUsers({ page: 1, limit: MAX_LIMIT });
  const users = [...first.users];
  for (let page = 2; page <= first.pagination.pages; page++) {
    users.push(...(await getUsers({ page, limit: MAX_LIMIT })).users);
  }
  return users;
}

export function createUser(input: CreateUserInput): Promise<User> {
  return apiClient.post<User>('users', { json: input, fallbackMessage: ERROR_MESSAGES.createUser });
}

export function updateUser(id: string, input: UpdateUserInput): Promise<User> {
  return apiClient.put<User>(`users/${encodeURIComponent(id)}`, { json: input, fallbackMessage: ERROR_MESSAGES.updateUser });
}

export function deleteUser(id: string): Promise<void> {
  return apiClient.delete<void>(`users/${encodeURIComponent(id)}`, { fallbackMessage: ERROR_MESSAGES.deleteUser });
}
