import type { PcnDuplicateMatch, PcnDuplicatesQuery } from '@parkpatrol/shared';
import { duplicateQueryKey } from './duplicate-rules.ts';

export type FetchDuplicates = (query: PcnDuplicatesQuery) => Promise<PcnDuplicateMatch[]>;

export type DuplicateCheckResult = {
  /** The query the answer is for; null when nothing is being asked. */
  key: string | null;
  duplicates: PcnDuplicateMatch[];
  isChecking: boolean;
};

export type DuplicateChecker = {
  /** The current question: null while the fields are invalid or the device is offline. */
  update(query: PcnDuplicatesQuery | null, options?: { excludePcnId?: string | null }): void;
  dispose(): void;
};

/**
 * Asks GET /pcns/duplicates once typing pauses, and reports only the answer to the latest
 * question: a slow answer about 'AB12' never shows after the officer typed 'AB12CDE'. A failed
 * or offline check reports no duplicates; it must never stop an officer filing a notice.
 * No React and no DOM, so it is tested with fake timers; useDuplicateCheck wraps it.
 */
export function createDuplicateChecker(options: {
  fetchDuplicates: FetchDuplicates;
  onResult: (result: DuplicateCheckResult) => void;
  debounceMs?: number;
}): DuplicateChecker {
  const debounceMs = options.debounceMs ?? 500;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let currentKey: string | null = null;
  let isDisposed = false;

  const report = (result: DuplicateCheckResult) => {
    if (!isDisposed) options.onResult(result);
  };

  return {
    update(query, updateOptions = {}) {
      const key = duplicateQueryKey(query);
      if (key === currentKey) return;
      currentKey = key;
      if (timer) clearTimeout(timer);
      timer = null;
      if (!query || key === null) {
        report({ key: null, duplicates: [], isChecking: false });
        return;
      }
      // The previous warning was about another vehicle or car park: hide it while asking again.
      report({ key, duplicates: [], isChecking: true });
      timer = setTimeout(() => {
        timer = null;
        options.fetchDuplicates(query).then(
          (matches) => {
            if (key !== currentKey) return;
            // Editing a notice: it is a match for itself.
            const duplicates = matches.filter((match) => match.id !== updateOptions.excludePcnId);
            report({ key, duplicates, isChecking: false });
          },
          () => {
            if (key === currentKey) report({ key, duplicates: [], isChecking: false });
          },
        );
      }, debounceMs);
    },
    dispose() {
      isDisposed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
