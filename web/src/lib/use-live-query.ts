import { useMemo, useSyncExternalStore } from 'react';
import { liveQuery } from 'dexie';

export type LiveQueryState<T> = { value: T; isLoading: boolean; error: unknown };

/**
 * Subscribes a component to a Dexie query: it re-renders whenever the rows the query read
 * change, in this tab, another tab or the service worker. (dexie-react-hooks is not a
 * dependency; Dexie's own liveQuery and React's useSyncExternalStore do the same job.)
 */
export function useLiveQuery<T>(querier: () => Promise<T>, deps: readonly unknown[], initial: T): LiveQueryState<T> {
  // The store is rebuilt only when the caller's deps change, like useEffect's dependencies.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const store = useMemo(() => createLiveQueryStore(querier, initial), deps);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

export function createLiveQueryStore<T>(querier: () => Promise<T>, initial: T) {
  let snapshot: LiveQueryState<T> = { value: initial, isLoading: true, error: null };
  const observable = liveQuery(querier);
  return {
    subscribe(onChange: () => void) {
      const subscription = observable.subscribe({
        next(value) {
          snapshot = { value, isLoading: false, error: null };
          onChange();
        },
        error(error) {
          // Keep the last rows on screen: a failed re-read must not blank the officer's outbox.
          snapshot = { ...snapshot, isLoading: false, error };
          onChange();
        },
      });
      return () => subscription.unsubscribe();
    },
    getSnapshot: () => snapshot,
  };
}
