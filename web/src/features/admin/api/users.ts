import {
  ERROR_MESSAGES,
  MAX_LIMIT,
  type CreateUserInput,
  type Role,
  type UpdateUserInput,
  type BulkResponse,
  type SortOrder,
  type User,
  type UserListResponse,
  type UserSelectionResponse,
  type UserSortKey,
} from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export type UserFilters = {
  page?: number;
  limit?: number;
  search?: string;
  role?: Role | null;
  isActive?: boolean | null;
  sort?: UserSortKey;
  order?: SortOrder;
};

/** The list's filters as query parameters: the list and its export read the same ones. */
function filterParams(filters: UserFilters) {
  return {
    search: filters.search?.trim(),
    role: filters.role,
    isActive: filters.isActive === null || filters.isActive === undefined ? undefined : String(filters.isActive),
    sort: filters.sort,
    order: filters.order,
  };
}

export const USER_SELECTION_FAILED = 'Failed to select the matching users';
export const USER_BULK_FAILED = 'Failed to change the selected users';

/** 'Select all matching': every user the filters select (at most MAX_BULK_ITEMS). */
export function getUserSelection(filters: UserFilters): Promise<UserSelectionResponse> {
  return apiClient.call('GET /users/selection', {
    query: filterParams(filters),
    fallbackMessage: USER_SELECTION_FAILED,
  });
}

/** Activates or deactivates every selected user; the answer says, for each, done or why not. */
export function bulkSetUsersActive(userIds: readonly string[], isActive: boolean): Promise<BulkResponse> {
  return apiClient.call('POST /users/bulk-active', { json: { userIds, isActive }, fallbackMessage: USER_BULK_FAILED });
}

export function getUsers(filters: UserFilters): Promise<UserListResponse> {
  return apiClient.call('GET /users', {
    query: { page: filters.page, limit: filters.limit, ...filterParams(filters) },
    fallbackMessage: ERROR_MESSAGES.fetchUsers,
  });
}

export const USER_EXPORT_FAILED = 'Failed to export users';

/** 'Export CSV' on Manage Users: every user the filters select, as the server writes it. */
export function exportUsersCsv(filters: UserFilters): Promise<Blob> {
  return apiClient.download('GET /users/export.csv', {
    query: filterParams(filters),
    fallbackMessage: USER_EXPORT_FAILED,
    headers: { Accept: 'text/csv, application/json' },
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
  return apiClient.call('POST /users', { json: input, fallbackMessage: ERROR_MESSAGES.createUser });
}

export function updateUser(id: string, input: UpdateUserInput): Promise<User> {
  return apiClient.call('PUT /users/:id', { params: { id }, json: input, fallbackMessage: ERROR_MESSAGES.updateUser });
}

export function deleteUser(id: string): Promise<{ id: string }> {
  return apiClient.call('DELETE /users/:id', { params: { id }, fallbackMessage: ERROR_MESSAGES.deleteUser });
}
