import { MAX_BULK_ITEMS, SERVER_MESSAGES, type PcnSelectionResponse, type UserSelectionResponse } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { findPcnSelection, type PcnListFilter } from '../repositories/pcn-list.ts';
import { findUserSelection, type UserListFilter } from '../repositories/users.ts';

/**
 * 'Select all matching': every row a list's filters select, over all its pages, with
 * what the bulk actions need of each. Never more than one bulk action takes: a bigger selection
 * is refused whole, asking for narrower filters, rather than cut short without saying so.
 */
async function selectAtMostBulk<T>(find: (cap: number) => Promise<T[]>, tooMany: string): Promise<{ items: T[]; total: number }> {
  const items = await find(MAX_BULK_ITEMS);
  if (items.length > MAX_BULK_ITEMS) throw new AppError('VALIDATION_FAILED', tooMany);
  return { items, total: items.length };
}

export function selectAllMatchingPcns(db: Db, filter: PcnListFilter): Promise<PcnSelectionResponse> {
  return selectAtMostBulk((cap) => findPcnSelection(db, filter, cap), SERVER_MESSAGES.tooManyPcnsSelected);
}

export function selectAllMatchingUsers(db: Db, filter: UserListFilter): Promise<UserSelectionResponse> {
  return selectAtMostBulk((cap) => findUserSelection(db, filter, cap), SERVER_MESSAGES.tooManyUsersSelected);
}
