import { useSyncExternalStore } from 'react';

/**
 * Whether the app's own look at the server found it (sync-triggers.ts asks every 15 seconds while
 * notices wait for want of a connection): true when it answered, false when the last look found
 * nothing, null when nobody has looked (nothing waits). navigator.onLine alone cannot tell: a car
 * park's dead 4G still says online.
 */
let reachable: boolean | null = null;
const listeners = new Set<() => void>();

export function reportServerReachable(value: boolean | null): void {
  if (value === reachable) return;
  reachable = value;
  for (const listener of listeners) listener();
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

export function useServerReachable(): boolean | null {
  return useSyncExternalStore(
    subscribe,
    () => reachable,
    () => null,
  );
}
