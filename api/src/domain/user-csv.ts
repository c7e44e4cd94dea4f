import { ROLE_LABELS, type User } from '@parkpatrol/shared';
import { csvTime } from './csv-cells.ts';

/** The columns of the Manage Users export: who has which account and car parks. */
export const USER_CSV_COLUMNS = [
  'First name',
  'Last name',
  'Email',
  'Role',
  'Status',
  'Password set',
  'Car parks',
  'Created',
  'Last updated',
] as const;

export function userCsvRecord(user: User): string[] {
  return [
    user.firstName,
    user.lastName,
    user.email,
    ROLE_LABELS[user.role] ?? user.role,
    user.isActive ? 'Active' : 'Inactive',
    user.hasPassword ? 'Yes' : 'No',
    (user.carParks ?? []).map((carPark) => carPark.name).join('; '),
    csvTime(user.createdAt),
    csvTime(user.updatedAt),
  ];
}
