import { useEffect, useState } from 'react';
import { ERROR_MESSAGES, type CarPark, type OperatorTerms } from '@parkpatrol/shared';
import { apiClient, toApiError } from './api-client.ts';
import { getLocalDb } from './local-db/database.ts';
import { readCache, writeCache } from './local-db/read-cache.ts';
import { refreshPermits } from './permits-offline.ts';
import { useLiveQuery } from './use-live-query.ts';

/**
 * What an officer needs to file a notice with no signal, ready from sign-in (decision 0009):
 * their car parks with each one's stay settings, and their permits (decision 0041). Offence types and the photo checklist's rules
 * are part of the app itself (shared/), precached with it. Fetched at sign-in, at every start
 * with signal and whenever signal comes back; the form and the dashboard read the phone's copy
 * first, with or without signal. Kept per officer; sign-out clears the whole cache.
 */

/** The cache row's key: per officer, and the one useCachedAsync('car-parks') also writes. */
export function filingCarParksKey(userId: string): string {
  return `${userId}:car-parks`;
}

/** The operator's terms a notice to driver prints (decision 0017), kept beside the car parks. */
export function noticeTermsKey(userId: string): string {
  return `${userId}:notice-terms`;
}

/**
 * GET /car-parks (the caller's assigned, active car parks, with their charges) and the operator's
 * notice terms, kept on the phone so a notice to driver prints without signal. Throws on failure.
 */
export async function refreshFilingData(userId: string): Promise<CarPark[]> {
  const [carParks, noticeTerms] = await Promise.all([
    apiClient.call('GET /car-parks', { fallbackMessage: ERROR_MESSAGES.fetchCarParks }),
    apiClient.call('GET /settings/notice-terms', { fallbackMessage: ERROR_MESSAGES.fetchCarParks }),
  ]);
  await writeCache(getLocalDb(), filingCarParksKey(userId), carParks);
  await writeCache(getLocalDb(), noticeTermsKey(userId), noticeTerms);
  // After the car parks, so a new car park's permits come with it (the whole list when new).
  await refreshPermits(userId);
  return carParks;
}

/** The operator's notice terms from the phone, live; null when none are kept (or none are set). */
export function useNoticeTerms(userId: string | null): OperatorTerms | null {
  const stored = useLiveQuery(
    async () => (userId ? ((await readCache<OperatorTerms | null>(getLocalDb(), noticeTermsKey(userId)))?.value ?? null) : null),
    [userId],
    null,
  );
  return stored.value;
}

/** Refreshes now and each time signal comes back; `onResult` hears null or the failure's message. */
export function keepFilingDataFresh(userId: string, onResult: (error: string | null) => void = () => undefined): () => void {
  const refresh = () =>
    void refreshFilingData(userId).then(
      () => onResult(null),
      (error: unknown) => onResult(toApiError(error, ERROR_MESSAGES.fetchCarParks).message),
    );
  refresh();
  window.addEventListener('online', refresh);
  // A permit added while the officer is out is known before the next notice: the app coming
  // back to the front asks for the changes since the last time (a few bytes when there are none).
  const onVisible = () => {
    if (document.visibilityState === 'visible' && navigator.onLine) refresh();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.removeEventListener('online', refresh);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

export type FilingCarParks = {
  /** Null until the phone's copy has been read and, with no copy, until the server answered. */
  carParks: CarPark[] | null;
  /** When the shown list was fetched (epoch ms). */
  storedAt: number | null;
  isLoading: boolean;
  /** Only when there is no copy on the phone and the server could not give one. */
  error: string | null;
};

/**
 * The officer's car parks from the phone, live: a refresh (at sign-in, on signal, here on mount
 * unless `refresh: false`) shows up at once, also while a form is open. With no copy yet, the
 * first refresh's failure is the screen's error.
 */
export function useFilingCarParks(userId: string | null, options: { refresh?: boolean } = {}): FilingCarParks {
  const { refresh = true } = options;
  const stored = useLiveQuery(
    async () => (userId ? ((await readCache<CarPark[]>(getLocalDb(), filingCarParksKey(userId))) ?? null) : null),
    [userId],
    null,
  );
  // undefined: the refresh has not answered yet.
  const [refreshError, setRefreshError] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    setRefreshError(refresh ? undefined : null);
    return userId && refresh ? keepFilingDataFresh(userId, setRefreshError) : undefined;
  }, [userId, refresh]);
  const record = stored.value;
  const carParks = record ? record.value : null;
  return {
    carParks,
    storedAt: record?.storedAt ?? null,
    isLoading: stored.isLoading || (carParks === null && refreshError === undefined),
    error: carParks === null ? (refreshError ?? null) : null,
  };
}
