import { useState, useSyncExternalStore } from 'react';
import { getLocalDb } from '../../lib/local-db/database.ts';
import {
  countSentDraftsSince,
  countUnsentDrafts,
  findOutboxRows,
  findUnsentDrafts,
  type OutboxRow,
} from '../../lib/local-db/outbox-queue.ts';
import type { DraftRecord } from '../../lib/local-db/records.ts';
import { useLiveQuery, type LiveQueryState } from '../../lib/use-live-query.ts';
import { useServerReachable } from './server-reachability.ts';

/** The officer's submitted notices the server has not confirmed yet, oldest first, live. */
export function useUnsentDrafts(userId: string | null): LiveQueryState<DraftRecord[]> {
  return useLiveQuery(async () => (userId ? findUnsentDrafts(getLocalDb(), userId) : []), [userId], [] as DraftRecord[]);
}

/** The outbox rows of a screen: notices the server has not confirmed, live. */
export function useOutboxRows(userId: string | null): LiveQueryState<OutboxRow[]> {
  return useLiveQuery(async () => (userId ? findOutboxRows(getLocalDb(), userId) : []), [userId], [] as OutboxRow[]);
}

/** Grows each time the outbox sends a notice while the screen is open: lists reload on it. */
export function useSentCount(userId: string | null): number {
  const since = useScreenOpenedAt();
  return useLiveQuery(async () => (userId ? countSentDraftsSince(getLocalDb(), userId, since) : 0), [userId, since], 0).value;
}

/** A notice sent just before the screen appeared (fast signal) still shows its number. */
const JUST_SENT_MS = 5_000;

function useScreenOpenedAt(): number {
  const [openedAt] = useState(() => Date.now() - JUST_SENT_MS);
  return openedAt;
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

/**
 * Whether sending now can work: the browser has a network and the app's own look at the server
 * (server-reachability.ts) has not found it missing. 'Retry now' is offered only then.
 */
export function useHasSignal(): boolean {
  const isOnline = useIsOnline();
  const reachable = useServerReachable();
  return isOnline && reachable !== false;
}
