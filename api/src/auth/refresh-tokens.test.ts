import { describe, expect, it } from 'vitest';
import { decideRefresh, DEFAULT_REFRESH_REUSE_SECONDS } from './refresh-tokens.ts';

const now = new Date('2026-11-25T10:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms).toISOString();
const WINDOW_MS = DEFAULT_REFRESH_REUSE_SECONDS * 1000;
const live = { expires_at: later(60_000), rotated_at: null, revoked_at: null, successor_sealed: null, rotated_device_hash: null };
const rotated = (agoMs: number) => ({ ...live, rotated_at: later(-agoMs), successor_sealed: 'sealed', rotated_device_hash: 'phone' });
const last = { isRotatedLast: true, reuseWindowMs: WINDOW_MS, deviceHash: 'phone' };

describe('decideRefresh', () => {
  it('rotates a live token that was never used', () => {
    expect(decideRefresh(live, now, last)).toBe('rotate');
  });

  it('refuses a revoked or expired token', () => {
    expect(decideRefresh({ ...live, revoked_at: later(-1) }, now, last)).toBe('invalid');
    expect(decideRefresh({ ...live, expires_at: now.toISOString() }, now, last)).toBe('invalid');
  });

  it('answers the token rotated last with its rotation again, as often as asked, within the reuse window', () => {
    expect(decideRefresh(rotated(1000), now, last)).toBe('replay');
    expect(decideRefresh(rotated(WINDOW_MS), now, last)).toBe('replay');
  });

  it('honours the configured window, 0 included', () => {
    expect(decideRefresh(rotated(45_000), now, { ...last, reuseWindowMs: 60_000 })).toBe('replay');
    expect(decideRefresh(rotated(1), now, { ...last, reuseWindowMs: 0 })).toBe('reuse-detected');
  });

  it('treats a replay of a token that is no longer the one rotated last as theft, even within the window', () => {
    expect(decideRefresh(rotated(1000), now, { ...last, isRotatedLast: false })).toBe('reuse-detected');
  });

  it('treats a replay inside the window from another device, or with no device, as theft', () => {
    expect(decideRefresh(rotated(1000), now, { ...last, deviceHash: 'laptop' })).toBe('reuse-detected');
    expect(decideRefresh(rotated(1000), now, { ...last, deviceHash: null })).toBe('reuse-detected');
    // A rotation sent without a device token binds to none: no replay can show it came from there.
    expect(decideRefresh({ ...rotated(1000), rotated_device_hash: null }, now, { ...last, deviceHash: null })).toBe('reuse-detected');
  });

  it('treats reuse after the window as theft', () => {
    expect(decideRefresh(rotated(WINDOW_MS + 1), now, last)).toBe('reuse-detected');
  });

  it('treats a token rotated before its successor was kept as theft, and refuses a revoked one', () => {
    expect(decideRefresh({ ...rotated(1000), successor_sealed: null }, now, last)).toBe('reuse-detected');
    expect(decideRefresh({ ...rotated(1000), revoked_at: later(-500) }, now, last)).toBe('invalid');
  });
});
