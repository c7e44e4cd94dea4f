import { describe, expect, it } from 'vitest';
import { decideRefresh, REFRESH_REUSE_GRACE_MS } from './refresh-tokens.ts';

const now = new Date('2026-03-01T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms).toISOString();
const live = { expires_at: later(60_000), rotated_at: null, revoked_at: null, grace_used_at: null };
const last = { isRotatedLast: true };

describe('decideRefresh', () => {
  it('rotates a live token that was never used', () => {
    expect(decideRefresh(live, now, last)).toBe('rotate');
  });

  it('refuses a revoked or expired token', () => {
    expect(decideRefresh({ ...live, revoked_at: later(-1) }, now, last)).toBe('invalid');
    expect(decideRefresh({ ...live, expires_at: now.toISOString() }, now, last)).toBe('invalid');
  });

  it('lets the token rotated last be replayed once within the grace period', () => {
    expect(decideRefresh({ ...live, rotated_at: later(-REFRESH_REUSE_GRACE_MS) }, now, last)).toBe('grace-replay');
  });

  it('treats a second replay within the grace period as theft', () => {
    expect(decideRefresh({ ...live, rotated_at: later(-1000), grace_used_at: later(-500) }, now, last)).toBe('reuse-detected');
  });

  it('treats a replay of a token that is no longer the one rotated last as theft, even within the grace period', () => {
    expect(decideRefresh({ ...live, rotated_at: later(-1000) }, now, { isRotatedLast: false })).toBe('reuse-detected');
  });

  it('treats reuse of a token rotated before the grace period as theft', () => {
    expect(decideRefresh({ ...live, rotated_at: later(-REFRESH_REUSE_GRACE_MS - 1) }, now, last)).toBe('reuse-detected');
  });

  it('refuses a revoked token even inside the grace period', () => {
    expect(decideRefresh({ ...live, rotated_at: later(-1000), revoked_at: later(-500) }, now, last)).toBe('invalid');
  });
});
