import { useEffect, useRef, useState } from 'react';
import type { ClockFormat } from './evidence-format.ts';
import { describeObservation, type ObservationCarPark, type ObservationFields, type ObservationState } from './observation-rules.ts';

export type UseObservationTimerOptions = {
  /** The clock, epoch ms; tests and e2e pass a controlled one. */
  now?: () => number;
  tickMs?: number;
  format?: ClockFormat;
};

/**
 * The observation state, recomputed every second while a first sighting is recorded. Nothing is
 * kept here: observedAt lives in the draft, so closing the app and coming back resumes the
 * timer from the stored sighting.
 */
export function useObservationTimer(
  fields: ObservationFields,
  carPark: ObservationCarPark | null | undefined,
  options: UseObservationTimerOptions = {},
): ObservationState & { nowMs: number } {
  const { tickMs = 1000, format } = options;
  const clockRef = useRef(options.now ?? Date.now);
  clockRef.current = options.now ?? Date.now;
  const [nowMs, setNowMs] = useState(() => clockRef.current());
  const isRunning = Boolean(fields.observedAt);

  useEffect(() => {
    setNowMs(clockRef.current());
    if (!isRunning) return undefined;
    const timer = setInterval(() => setNowMs(clockRef.current()), tickMs);
    return () => clearInterval(timer);
  }, [isRunning, tickMs, fields.observedAt]);

  return { ...describeObservation(fields, carPark, nowMs, format), nowMs };
}
