import { describe, expect, it } from 'vitest';
import { isFirstSeenAfterService } from './period-of-parking.ts';

describe('isFirstSeenAfterService', () => {
  it('compares to the minute, as documents print and forms edit the times', () => {
    expect(isFirstSeenAfterService('2026-11-28T14:31:27.000Z', '2026-11-28T14:31:00.000Z')).toBe(false);
    expect(isFirstSeenAfterService('2026-11-28T14:32:00.000Z', '2026-11-28T14:31:59.000Z')).toBe(true);
    expect(isFirstSeenAfterService('2026-11-28T14:10:00.000Z', '2026-11-28T14:31:00.000Z')).toBe(false);
  });
});
