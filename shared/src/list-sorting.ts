import type { AppealSortKey } from './appeals.ts';

/**
 * How the admin tables sort: each list's sortable columns by key, sent as
 * `sort=<key>&order=asc|desc` and sorted by the server over every matching row, not the page.
 * The keys are the API's words, not the database's; the repositories map them to columns.
 */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** 'deadline' also narrows the list to PCNs whose keeper notice can still go out. */
export const PCN_SORT_KEYS = [
  'pcnNumber',
  'vehicleRegistration',
  'carPark',
  'offenceType',
  'officer',
  'status',
  'created',
  'deadline',
] as const;
export type PcnSortKey = (typeof PCN_SORT_KEYS)[number];
export const USER_SORT_KEYS = ['name', 'email', 'role', 'isActive', 'created'] as const;
export type UserSortKey = (typeof USER_SORT_KEYS)[number];
export const CAR_PARK_SORT_KEYS = ['name', 'siteCode', 'postcode', 'isActive'] as const;
export type CarParkSortKey = (typeof CAR_PARK_SORT_KEYS)[number];
export const ONBOARDING_SORT_KEYS = ['name', 'email', 'role', 'passwordSet', 'lastEmailed', 'lastSignIn', 'created'] as const;
export type OnboardingSortKey = (typeof ONBOARDING_SORT_KEYS)[number];

export type ListSort<K extends string> = { sort: K; order: SortOrder };

/** Each list's order when the URL names none: the order the screens always had. */
export const DEFAULT_SORTS = {
  pcns: { sort: 'created', order: 'desc' },
  users: { sort: 'created', order: 'desc' },
  carParks: { sort: 'name', order: 'asc' },
  onboarding: { sort: 'created', order: 'desc' },
  // The API's own default: the appeal to answer soonest first.
  appeals: { sort: 'respondBy', order: 'asc' },
} as const satisfies {
  pcns: ListSort<PcnSortKey>;
  users: ListSort<UserSortKey>;
  carParks: ListSort<CarParkSortKey>;
  onboarding: ListSort<OnboardingSortKey>;
  appeals: ListSort<AppealSortKey>;
};

/** Times read newest first when first clicked; everything else A to Z (and the deadline nearest first). */
const NEWEST_FIRST: ReadonlySet<string> = new Set(['created', 'lastEmailed', 'lastSignIn', 'receivedAt']);
export function firstOrder(key: string): SortOrder {
  return NEWEST_FIRST.has(key) ? 'desc' : 'asc';
}

/** A sort key with no order given takes its first order. */
export function resolveSort<K extends string>(sort: K | undefined, order: SortOrder | undefined, fallback: ListSort<K>): ListSort<K> {
  if (sort === undefined) return { sort: fallback.sort, order: order ?? fallback.order };
  return { sort, order: order ?? firstOrder(sort) };
}
