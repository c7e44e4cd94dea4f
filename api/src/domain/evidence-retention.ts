const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The latest closure time whose photos are due for removal: a notice closed at or before it has
 * been closed for the whole retention period. Days are 24 hours of elapsed time, as for the
 * keeper-notice deadline.
 */
export function retentionCutoff(now: Date, retentionDays: number): string {
  return new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
}

/** When a notice closed at `closedAt` loses its photos. */
export function purgeDueAt(closedAt: string, retentionDays: number): string {
  return new Date(Date.parse(closedAt) + retentionDays * DAY_MS).toISOString();
}
