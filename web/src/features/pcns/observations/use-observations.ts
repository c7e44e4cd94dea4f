import { useEffect, useState } from 'react';
import { getLocalDb } from '../../../lib/local-db/database.ts';
import { findObservations, type ObservationRow } from '../../../lib/local-db/observations.ts';
import { useLiveQuery } from '../../../lib/use-live-query.ts';

export type Observations = { open: ObservationRow[]; closed: ObservationRow[] };

const NONE: Observations = { open: [], closed: [] };

/** One officer's observations on this phone, live across tabs and the service worker. */
export function useObservations(userId: string | null): Observations {
  return useLiveQuery(async () => (userId ? findObservations(getLocalDb(), userId) : NONE), [userId], NONE).value;
}

/**
 * The clock, re-read when the next of `times` (epoch ms) comes, so "due" appears on time, and
 * every `tickMs` while one is still ahead (a countdown). The wake time depends only on the last
 * reading, so a parent re-rendering often never postpones it.
 */
export function useNowUntil(times: readonly number[], options: { tickMs?: number; now?: () => number } = {}): number {
  const { tickMs, now = Date.now } = options;
  const [nowMs, setNowMs] = useState(now);
  const ahead = times.filter((time) => time > nowMs);
  const next = ahead.length === 0 ? undefined : Math.min(...ahead, tickMs ? nowMs + tickMs : Infinity);
  useEffect(() => {
    if (next === undefined) return undefined;
    const timer = setTimeout(() => setNowMs(now()), Math.min(2 ** 31 - 1, Math.max(0, next - now()) + 50));
    return () => clearTimeout(timer);
  }, [next, now]);
  return nowMs;
}

export function dueTimeOf(row: Pick<ObservationRow, 'observationDueAt'>): number {
  return Date.parse(row.observationDueAt ?? '') || 0;
}
