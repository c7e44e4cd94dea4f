import { useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { resolveSort, SORT_ORDERS, type ListSort, type SortOrder } from '@parkpatrol/shared';

/** A filter's "no filter" value in a select; never written to the URL. */
export const ALL = 'all';

export type ListParams<K extends string> = {
  params: URLSearchParams;
  /** A filter's value from the URL, or null when absent. */
  get: (name: string) => string | null;
  page: number;
  sort: ListSort<K>;
  setSort: (key: string, order: SortOrder) => void;
  /** Sets or clears (null, '' or ALL) filters; any filter change starts again at page 1. */
  update: (changes: Record<string, string | null>, options?: { keepPage?: boolean }) => void;
  setPage: (page: number) => void;
};

/**
 * An admin list's whole view (filters, sort, page) lives in the URL, so a
 * reload, the Back button or a shared link shows the same rows in the same order. Changes
 * replace the history entry: Back leaves the list rather than undoing each keystroke.
 */
export function useListParams<K extends string>(sortKeys: readonly K[], fallback: ListSort<K>): ListParams<K> {
  const [params, setParams] = useSearchParams();
  const sortParam = params.get('sort');
  const orderParam = params.get('order');
  const sort = resolveSort(
    sortKeys.find((key) => key === sortParam),
    SORT_ORDERS.find((order) => order === orderParam),
    fallback,
  );

  // The router renders a navigation in a transition, and its setter's `previous` is the last
  // rendered address: a search typed just after a status was chosen would put the old status back.
  // So each change builds on what was last written until the router has rendered it.
  const written = useRef<{ over: URLSearchParams; next: URLSearchParams } | null>(null);

  function update(changes: Record<string, string | null>, options: { keepPage?: boolean } = {}) {
    const next = new URLSearchParams(written.current?.over === params ? written.current.next : params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '' || value === ALL) next.delete(key);
      else next.set(key, value);
    }
    if (!options.keepPage) next.delete('page');
    written.current = { over: params, next };
    setParams(next, { replace: true });
  }

  return {
    params,
    get: (name) => params.get(name),
    page: Math.max(1, Number(params.get('page')) || 1),
    sort,
    // A new order starts at page 1: page 3 of another order is other rows.
    setSort: (key, order) => update({ sort: key, order }),
    update,
    setPage: (page) => update({ page: page > 1 ? String(page) : null }, { keepPage: true }),
  };
}
