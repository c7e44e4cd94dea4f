import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { PcnDuplicateMatch } from '@parkpatrol/shared';
import { createDuplicateChecker, type DuplicateChecker, type DuplicateCheckResult, type FetchDuplicates } from './duplicate-checker.ts';
import { duplicateQuery, duplicateQueryKey } from './duplicate-rules.ts';
import { getPcnDuplicates } from './get-pcn-duplicates.ts';

export type DuplicateCheckInput = {
  vehicleRegistration: string;
  carParkId: string;
  /** The draft's first sighting: the parking event's day is its UTC day. */
  observedAt?: string | null;
  /** Editing an existing notice: leave it out of its own matches. */
  excludePcnId?: string | null;
};

export type DuplicateCheckOptions = {
  /** Defaults to navigator.onLine; offline, nothing is asked and nothing is shown. */
  isOnline?: boolean;
  fetchDuplicates?: FetchDuplicates;
  debounceMs?: number;
  now?: () => Date;
};

export type DuplicateCheck = { duplicates: PcnDuplicateMatch[]; isChecking: boolean };

function subscribeToConnection(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

// The same signal as the outbox's useIsOnline; a feature cannot import another, and this one
// only decides whether asking is worth it.
function useNavigatorOnline(): boolean {
  return useSyncExternalStore(
    subscribeToConnection,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * Other notices for the same parking event, asked while online once the registration and car
 * park are valid and typing has paused (~500 ms). Keep it in the wizard, above the steps, so
 * the answer survives moving between steps; feed `duplicates` to DuplicateWarning and to
 * duplicateReasonProblem on Next.
 */
export function useDuplicateCheck(input: DuplicateCheckInput, options: DuplicateCheckOptions = {}): DuplicateCheck {
  const navigatorOnline = useNavigatorOnline();
  const isOnline = options.isOnline ?? navigatorOnline;
  const [result, setResult] = useState<DuplicateCheckResult>({ key: null, duplicates: [], isChecking: false });
  const checkerRef = useRef<DuplicateChecker | null>(null);
  const fetchRef = useRef(options.fetchDuplicates ?? getPcnDuplicates);
  fetchRef.current = options.fetchDuplicates ?? getPcnDuplicates;
  const { debounceMs } = options;

  useEffect(() => {
    const checker = createDuplicateChecker({ fetchDuplicates: (query) => fetchRef.current(query), onResult: setResult, debounceMs });
    checkerRef.current = checker;
    return () => {
      checker.dispose();
      checkerRef.current = null;
    };
  }, [debounceMs]);

  const query = isOnline
    ? duplicateQuery(
        { vehicleRegistration: input.vehicleRegistration, carParkId: input.carParkId, observedAt: input.observedAt },
        (options.now ?? (() => new Date()))(),
      )
    : null;
  const key = duplicateQueryKey(query);

  useEffect(() => {
    checkerRef.current?.update(query, { excludePcnId: input.excludePcnId });
    // The key says everything the query does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, input.excludePcnId, debounceMs]);

  // An answer about other fields than those on screen now is not shown.
  if (key === null || result.key !== key) return { duplicates: [], isChecking: key !== null };
  return { duplicates: result.duplicates, isChecking: result.isChecking };
}
