import { describe, expect, it } from 'vitest';
import { foldHeartbeat, sumVisitMinutes, VISIT_GAP_MS, type SiteVisit } from './site-time.ts';

const start = Date.parse('2026-03-01T09:00:00.000Z');
const at = (minutes: number) => new Date(start + minutes * 60_000);

/** Applies heartbeats the way the tracking route does: always against the latest visit. */
function replay(heartbeatMinutes: number[]): SiteVisit[] {
  const visits: SiteVisit[] = [];
  for (const minute of heartbeatMinutes) {
    const fold = foldHeartbeat(visits.at(-1) ?? null, at(minute));
    if (fold.kind === 'extend') {
      const visit = visits.find((v) => v.id === fold.visitId)!;
      visit.lastSeenAt = fold.lastSeenAt;
    } else {
      visits.push({ id: String(visits.length + 1), startedAt: fold.startedAt, lastSeenAt: fold.lastSeenAt });
    }
  }
  return visits;
}

describe('foldHeartbeat', () => {
  it('starts a visit when the user has none', () => {
    expect(foldHeartbeat(null, at(0))).toEqual({ kind: 'start', startedAt: at(0).toISOString(), lastSeenAt: at(0).toISOString() });
  });

  it('extends the latest visit to now when it was seen within the gap', () => {
    const visit = { id: 'v1', startedAt: at(0).toISOString(), lastSeenAt: at(1).toISOString() };
    expect(foldHeartbeat(visit, at(2))).toEqual({ kind: 'extend', visitId: 'v1', lastSeenAt: at(2).toISOString() });
  });

  it('extends at exactly the gap and starts a new visit just beyond it', () => {
    const visit = { id: 'v1', startedAt: at(0).toISOString(), lastSeenAt: at(0).toISOString() };
    expect(foldHeartbeat(visit, new Date(start + VISIT_GAP_MS)).kind).toBe('extend');
    expect(foldHeartbeat(visit, new Date(start + VISIT_GAP_MS + 1)).kind).toBe('start');
  });

  it('never moves a visit backwards for a late heartbeat from another tab', () => {
    const visit = { id: 'v1', startedAt: at(0).toISOString(), lastSeenAt: at(3).toISOString() };
    expect(foldHeartbeat(visit, at(2))).toEqual({ kind: 'extend', visitId: 'v1', lastSeenAt: at(3).toISOString() });
  });
});

describe('time on site from replayed heartbeats', () => {
  it('counts a steady minute-by-minute visit once', () => {
    const visits = replay([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(visits).toHaveLength(1);
    expect(sumVisitMinutes(visits)).toBe(10);
  });

  it('starts a new visit after a gap and does not count the gap', () => {
    const visits = replay([0, 1, 2, 3, 30, 31, 32]);
    expect(visits).toHaveLength(2);
    expect(sumVisitMinutes(visits)).toBe(3 + 2);
  });

  it('does not double count two tabs sending heartbeats over the same minutes', () => {
    const oneTab = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const secondTab = [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5];
    const bothTabs = [...oneTab, ...secondTab].sort((a, b) => a - b);
    expect(sumVisitMinutes(replay(bothTabs))).toBe(sumVisitMinutes(replay(oneTab)));
    expect(replay(bothTabs)).toHaveLength(1);
  });

  it('keeps the count when the same heartbeat instant arrives twice', () => {
    expect(sumVisitMinutes(replay([0, 1, 1, 2, 2, 2]))).toBe(2);
  });

  it('rounds the total down, not each visit', () => {
    const visits = [
      { startedAt: at(0).toISOString(), lastSeenAt: at(1.5).toISOString() },
      { startedAt: at(10).toISOString(), lastSeenAt: at(11.5).toISOString() },
    ];
    expect(sumVisitMinutes(visits)).toBe(3);
    expect(sumVisitMinutes([])).toBe(0);
  });
});
