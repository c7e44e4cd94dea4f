import { useSyncExternalStore } from 'react';
import { countUnsentDrafts, findUnsentDrafts, getLocalDb, type DraftRecord } from '../../lib/local-db.ts';
import { useLiveQuery, type LiveQueryState } from '../../lib/use-live-query.ts';

/** The officer's submitted notices the server has not confirmed yet, oldest first, live. */
export function useUnsentDrafts(userId: string | null): LiveQueryState<DraftRecord[]> {
  return useLiveQuery(async () => (userId ? findUnsentDrafts(getLocalDb(), userId) : []), [userId], [] as DraftRecord[]);
}

export function useUnsentCount(userId: string | null): number {
  return useLiveQuery(async () => (userId ? countUnsentDrafts(getLocalDb(), userId) : 0), [userId], 0).value;
}

function subscribeToConnection(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/**
 * navigator.onLine: false means certainly offline; true only means "a network exists" (a car
 * park's dead 4G still says true), which is why sending never waits on it.
 */
export function useIsOnline(): boolean {
  return useSyncExternalStore(
    subscribeToConnection,
    () => navigator.onLine,
    () => true,
  );
}
