import { findValidPermit, isPermitOver, type PermitSyncResponse, type PhonePermit } from '@parkpatrol/shared';
import { apiClient } from './api-client.ts';
import { getLocalDb } from './local-db/database.ts';
import { readCache, writeCache } from './local-db/read-cache.ts';
import type { LocalDb } from './local-db/records.ts';
import { useLiveQuery } from './use-live-query.ts';

/**
 * The permits of the officer's car parks, kept on the phone (decision 0041) so the vehicle step
 * can say a car holds one before any photo, with or without signal. The whole list comes at
 * sign-in with the car parks; each later refresh asks only for what changed since the last.
 * Kept per officer in the read cache, so sign-out clears it with the rest.
 */
export type StoredPermits = {
  permits: PhonePermit[];
  /** The car parks the list covers: a car park newly assigned needs the whole list again. */
  carParkIds: string[];
  /** The server's time of the last answer: what the next refresh sends as `since`. */
  syncedAt: string;
};

export function permitsKey(userId: string): string {
  return `${userId}:permits`;
}

/**
 * The phone's list after a sync's answer: the whole list replaces it; changes replace the
 * permits they name. A permit over for good (ended, or past its last day) and one of a car park
 * no longer the officer's are dropped, so the list stays the size of what is in force.
 */
export function applyPermitSync(stored: StoredPermits | null, answer: PermitSyncResponse, now: Date): StoredPermits {
  const byId = new Map<string, PhonePermit>(answer.full || !stored ? [] : stored.permits.map((permit) => [permit.id, permit]));
  for (const permit of answer.permits) byId.set(permit.id, permit);
  const covered = new Set(answer.carParkIds);
  const permits = [...byId.values()].filter((permit) => covered.has(permit.carParkId) && !isPermitOver(permit, now));
  return { permits, carParkIds: answer.carParkIds, syncedAt: answer.syncedAt };
}

/** True when the answer covers a car park the phone holds no list for: only the whole list has its permits. */
export function needsFullList(stored: StoredPermits | null, answer: PermitSyncResponse): boolean {
  if (answer.full) return false;
  const known = new Set(stored?.carParkIds ?? []);
  return answer.carParkIds.some((id) => !known.has(id));
}

/** GET /permits/sync, the changes since the last when the phone has a list; throws on failure. */
export async function refreshPermits(userId: string, db: LocalDb = getLocalDb()): Promise<StoredPermits> {
  const stored = (await readCache<StoredPermits>(db, permitsKey(userId)))?.value ?? null;
  const ask = (since: string | undefined) =>
    apiClient.call('GET /permits/sync', { query: since ? { since } : {}, fallbackMessage: 'Could not fetch the permits' });
  let answer = await ask(stored?.syncedAt);
  if (needsFullList(stored, answer)) answer = await ask(undefined);
  const next = applyPermitSync(stored, answer, new Date());
  await writeCache(db, permitsKey(userId), next);
  return next;
}

export type PermitCheck = {
  /** The permit the registration holds at the car park now, from the phone's list. */
  permit: PhonePermit | null;
  /** How many permits the phone holds for this car park, and when the list was last brought up to date. */
  countAtCarPark: number;
  syncedAt: string | null;
  /** False until the phone's list has been read (or when there is none yet). */
  hasList: boolean;
};

/** The vehicle step's check, from the phone's own list: the same with or without signal. */
export function usePermitCheck(userId: string | null, carParkId: string, vehicleRegistration: string): PermitCheck {
  const stored = useLiveQuery(
    async () => (userId ? ((await readCache<StoredPermits>(getLocalDb(), permitsKey(userId)))?.value ?? null) : null),
    [userId],
    null,
  );
  return checkPermit(stored.value, { carParkId, vehicleRegistration, at: new Date() });
}

export function checkPermit(
  stored: StoredPermits | null,
  query: { carParkId: string; vehicleRegistration: string; at: Date },
): PermitCheck {
  if (!stored) return { permit: null, countAtCarPark: 0, syncedAt: null, hasList: false };
  return {
    permit: query.carParkId ? findValidPermit(stored.permits, query) : null,
    countAtCarPark: stored.permits.filter((permit) => permit.carParkId === query.carParkId).length,
    syncedAt: stored.syncedAt,
    hasList: true,
  };
}
