import { useEffect, useState } from 'react';
import { findObservations, getLocalDb, type ObservationRow } from '../../../lib/local-db.ts';
import { useLiveQuery } from '../../../lib/use-live-query.ts';

export type Observations = { open: ObservationRow[]; closed: ObservationRow[] };

const NONE: Observations = { open: [], closed: [] };

/** One officer's observations on this phone, live across tabs and the service worker. */
export function useObservations(userId: string | null): Observations {
  return useLiveQuery(async () => (userId ? findObservations(getLocalDb(), userId) : NONE), [userId], NONE).value;
}

/** The clock, re-read when the next of `times` (epoch ms) comes, so "due" appears on time. */
export function useNowUntil(times: readonly number[], now: () => number = Date.now): number {
  const [nowMs, setNowMs] = useState(now);
  const next = times.filter((time) => time > nowMs).sort((a, b) => a - b)[0];
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
