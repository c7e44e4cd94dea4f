/**
 * Time on site is kept as visits (start, last seen) rather than as added minutes: extending a
 * visit to "now" gives the same result however many tabs send the heartbeat, so two open tabs
 * never count the same minute twice.
 */

/** The web app sends a heartbeat about every minute while visible; a longer silence ends the visit. */
export const VISIT_GAP_MS = 5 * 60 * 1000;

export type SiteVisit = { id: string; startedAt: string; lastSeenAt: string };

export type HeartbeatFold =
  { kind: 'extend'; visitId: string; lastSeenAt: string } | { kind: 'start'; startedAt: string; lastSeenAt: string };

/**
 * Decides what one heartbeat does to the user's latest visit: extend it when it was seen within
 * the gap, otherwise start a new one. A heartbeat older than the visit's last sighting (a slow
 * request from a second tab) never moves it backwards.
 */
export function foldHeartbeat(latest: SiteVisit | null, now: Date, gapMs: number = VISIT_GAP_MS): HeartbeatFold {
  const stamp = now.toISOString();
  if (latest) {
    const lastSeen = Date.parse(latest.lastSeenAt);
    if (now.getTime() - lastSeen <= gapMs) {
      return { kind: 'extend', visitId: latest.id, lastSeenAt: now.getTime() > lastSeen ? stamp : latest.lastSeenAt };
    }
  }
  return { kind: 'start', startedAt: stamp, lastSeenAt: stamp };
}

/** Whole minutes over all visits, rounded down once at the end so short visits still add up. */
export function sumVisitMinutes(visits: ReadonlyArray<Pick<SiteVisit, 'startedAt' | 'lastSeenAt'>>): number {
  const totalMs = visits.reduce((sum, v) => sum + Math.max(0, Date.parse(v.lastSeenAt) - Date.parse(v.startedAt)), 0);
  return millisecondsToWholeMinutes(totalMs);
}

export function millisecondsToWholeMinutes(ms: number): number {
  return Math.max(0, Math.floor(ms / 60_000));
}
