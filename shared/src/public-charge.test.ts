import { describe, expect, it } from 'vitest';
import { normaliseChargeReference } from './public-charge.ts';

describe('normaliseChargeReference', () => {
  it('reads the reference as motorists type it', () => {
    expect(normaliseChargeReference('PCN-00000123')).toBe('00000123');
    expect(normaliseChargeReference('pcn 123')).toBe('00000123');
    expect(normaliseChargeReference(' 0000 0123 ')).toBe('00000123');
    expect(normaliseChargeReference('PCN123')).toBe('00000123');
  });
  it('refuses what cannot be ours', () => {
    expect(normaliseChargeReference('D-1A2B3C4D')).toBeNull();
    expect(normaliseChargeReference('123456789')).toBeNull();
    expect(normaliseChargeReference('')).toBeNull();
  });
});
