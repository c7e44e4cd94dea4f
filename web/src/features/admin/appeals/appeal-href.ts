import { paths } from '../../../config/paths.ts';

/**
 * The appeal view's URL carries the queue's (filters, sort, page), so its Back link returns to
 * the same rows in the same order.
 */
export function appealHref(appealId: string, listParams: URLSearchParams): string {
  const query = listParams.toString();
  return `${paths.admin.appeal(appealId)}${query ? `?${query}` : ''}`;
}

/** The queue as it was when the appeal was opened from it. */
export function queueHref(listParams: URLSearchParams): string {
  const query = listParams.toString();
  return `${paths.admin.appeals}${query ? `?${query}` : ''}`;
}
