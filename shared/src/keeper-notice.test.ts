import { describe, expect, it } from 'vitest';
import { isKeeperNoticeOpen } from './keeper-notice.ts';

describe('isKeeperNoticeOpen', () => {
  it('is open until the notice is issued, paid, cancelled or rejected', () => {
    expect(isKeeperNoticeOpen('SUBMITTED')).toBe(true);
    expect(isKeeperNoticeOpen('UNDER_REVIEW')).toBe(true);
    expect(isKeeperNoticeOpen('APPROVED')).toBe(true);
    expect(isKeeperNoticeOpen('ISSUED')).toBe(false);
    expect(isKeeperNoticeOpen('PAID')).toBe(false);
    expect(isKeeperNoticeOpen('CANCELLED')).toBe(false);
    expect(isKeeperNoticeOpen('REJECTED')).toBe(false);
  });
});
