import { describe, expect, it } from 'vitest';
import { decideRefresh, REFRESH_REUSE_GRACE_MS } from './refresh-tokens.ts';

const now = new Date('2026-03-01T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms).toISOString();
const live = { expires_at: later(60_000), rotated_at: null, revoked_at: null };

describe('decideRefresh', () => {
  it('rotates a live token that was never used', () => {
    expect(decideRefresh(live, now)).toBe('rotate');
  });

  it('refuses a revoked or expired token', () => {
    expect(decideRefresh({ ...live, revoked_at: later(-1) }, now)).toBe('invalid');
    expect(decideRefresh({ ...live, expires_at: now.toISOString() }, now)).toBe('invalid');
  });

  it('lets a token rotated within the grace period be replayed', () => {
    expect(decideRefresh({ ...live, rotated_at: later(-REFRESH_REUSE_GRACE_MS) }, now)).toBe('grace-replay');
  });

  it('treats reuse of a token rotated before the grace period as theft', () => {
    expect(decideRefresh({ ...live, rotated_at: later(-REFRESH_REUSE_GRACE_MS - 1) }, now)).toBe('reuse-detected');
  });

  it('refuses a revoked token even inside the grace period', () => {
    expect(decideRefresh({ ...live, rotated_at: later(-1000), revoked_at: later(-500) }, now)).toBe('invalid');
  });
});
