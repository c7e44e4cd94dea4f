import { describe, expect, it } from 'vitest';
import { describeCharge, formatPence, parsePounds } from './operator-terms.ts';

describe('money on a notice', () => {
  it('prints whole pounds without pence and pence when there are some', () => {
    expect(formatPence(10000)).toBe('£100');
    expect(formatPence(6050)).toBe('£60.50');
    expect(formatPence(5)).toBe('£0.05');
    expect(formatPence(123456)).toBe('£1,234.56');
  });

  it('reads pounds as typed, and nothing else', () => {
    expect(parsePounds('100')).toBe(10000);
    expect(parsePounds(' £60.50 ')).toBe(6050);
    expect(parsePounds('60.5')).toBeNull();
    expect(parsePounds('-1')).toBeNull();
    expect(parsePounds('a hundred')).toBeNull();
  });

  it('describes the charge with its discount', () => {
    expect(describeCharge({ chargePence: 10000, reducedChargePence: 6000, reducedWithinDays: 14 })).toBe(
      '£100, reduced to £60 if paid within 14 days',
    );
    expect(describeCharge({ chargePence: 10000, reducedChargePence: null, reducedWithinDays: null })).toBe('£100');
    expect(describeCharge({ chargePence: null, reducedChargePence: null, reducedWithinDays: null })).toBe('No charge set');
  });
});
