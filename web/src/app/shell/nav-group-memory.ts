import { useSyncExternalStore } from 'react';

/**
 * Which navigation groups the admin folded, kept on the device across visits and sign-ins (it
 * says nothing about anyone), and shared by the side navigation and the drawer so that both agree.
 */
const KEY = 'parkpatrol.nav.folded';
const listeners = new Set<() => void>();
let folded: ReadonlySet<string> = read();

function read(): ReadonlySet<string> {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return new Set(Array.isArray(saved) ? saved.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    // No storage (a private window, a full disk) or a value not ours: every group open.
    return new Set();
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setGroupFolded(id: string, isFolded: boolean): void {
  const next = new Set(folded);
  if (isFolded) next.add(id);
  else next.delete(id);
  folded = next;
  try {
    localStorage.setItem(KEY, JSON.stringify([...next]));
  } catch {
    // Not kept for the next visit, but folded for this one.
  }
  for (const listener of listeners) listener();
}

/** The ids of the folded groups; a screen re-renders when one folds or opens. */
export function useFoldedGroups(): ReadonlySet<string> {
  return useSyncExternalStore(
    subscribe,
    () => folded,
    () => folded,
  );
}
