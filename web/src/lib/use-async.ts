import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError } from './api-client.ts';

export type AsyncState<T> = {
  data: T | undefined;
  error: ApiError | null;
  isLoading: boolean;
  reload: () => void;
};

/**
 * Runs a loader when its dependencies change and keeps only the latest answer, so a slow
 * response to an old search never overwrites a newer one.
 */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[], fallbackMessage: string): AsyncState<T> {
  const [state, setState] = useState<{ data: T | undefined; error: ApiError | null; isLoading: boolean }>({
    data: undefined,
    error: null,
    isLoading: true,
  });
  const [reloadCount, setReloadCount] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let isCurrent = true;
    setState((previous) => ({ ...previous, isLoading: true, error: null }));
    loadRef.current().then(
      (data) => {
        if (isCurrent) setState({ data, error: null, isLoading: false });
      },
      (error: unknown) => {
        if (isCurrent) setState((previous) => ({ data: previous.data, error: toApiError(error, fallbackMessage), isLoading: false }));
      },
    );
    return () => {
      isCurrent = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, reloadCount, fallbackMessage]);

  const reload = useCallback(() => setReloadCount((n) => n + 1), []);
  return { ...state, reload };
}
